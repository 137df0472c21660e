/**
 * `migrate --to <agent>` never drops a file route in silence: a guard on Claude Code's `Read`,
 * `Edit` or `Write` is refused where the target agent has no tool that does that action (Codex
 * reads files only through its shell), and otherwise a note names each of the agent's tools it
 * sees (Codex's `apply_patch`, Kiro's `fs_write`, VS Code's `editFiles`) and the shell route it
 * does not. In-process, one case per target agent.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Plan from "@agent-hooks/core/Plan"
import * as Presets from "@agent-hooks/core/Presets"
import type { LoadedSettings } from "@agent-hooks/core/Settings"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Effect, Layer } from "effect"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { planTarget, toolsGiving } from "../src/internal/migrateTarget.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-migrate-routes-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const layer = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)
const claude = Presets.byName("claude")!

let settings: LoadedSettings
beforeAll(async () => {
  mkdirSync(join(root, ".claude"), { recursive: true })
  writeFileSync(
    join(root, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Read|Edit|Write", hooks: [{ type: "command", command: "guard-files" }] },
          { matcher: "Bash", hooks: [{ type: "command", command: "guard-shell" }] }
        ]
      }
    })
  )
  settings = await Effect.runPromise(
    Plan.make({ preset: claude, projectDir: root, cwd: root, env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" } }).pipe(
      Effect.map((plan) => plan.settings),
      Effect.provide(layer)
    )
  )
})

const plan = (to: string, lossy = false) =>
  planTarget({ settings, preset: claude, agent: HostMode.byName(to)!, lossy, platform: "linux", hostCommand: () => "agent-hooks hook" })

describe("migrate --from claude --to <agent>: a file guard's routes", () => {
  for (const agent of HostMode.agents.filter((one) => one.name !== "claude")) {
    it(`--to ${agent.name}: every file route named, or the guard refused`, () => {
      const result = plan(agent.name)
      const guard = (line: string) => line.includes('"Read|Edit|Write"')
      const missing = ["Read", "Edit", "Write"].filter((tool) => toolsGiving(agent, tool).length === 0)
      if (missing.length > 0) {
        // the guard would never run on that action there: refused, naming it
        expect(result.refused.filter(guard).join("\n")).toMatch(new RegExp(`guards ${missing.join(", ")}.*never run`))
      } else {
        expect(result.refused.filter(guard)).toEqual([])
        const note = result.notes.find(guard)
        expect(note, `${agent.name}: ${result.notes.join("\n")}`).toBeDefined()
        for (const tool of ["Read", "Edit", "Write"]) for (const name of toolsGiving(agent, tool)) expect(note).toContain(name)
      }
      // the Bash guard is no file guard: nothing said of it here
      expect([...result.refused, ...result.notes].filter((line) => line.includes('"Bash"'))).toEqual([])
    })
  }
  it("Codex: the Read guard is refused (reads go through its shell); --lossy writes it anyway, saying so", () => {
    expect(plan("codex").refused.join("\n")).toMatch(/guards Read, but Codex has no tool that reads a file as Read.*shell \(/)
    expect(plan("codex", true).notes.join("\n")).toMatch(/written as a bare command/)
  })
  it("Kiro's fs_write and VS Code's editFiles and multi-file tools reach the Edit|Write guard", () => {
    expect(plan("kiro").notes.join("\n")).toMatch(/Edit: .*fs_write.*Write: .*fs_write/)
    expect(plan("vscode").notes.join("\n")).toMatch(/Edit: .*editFiles.*multi_replace_string_in_file/)
  })
})
