/**
 * A relative program path in a hook (`./hooks/guard.sh`) names a file of the scope that declared
 * it: the project root for project and local settings, the settings' own folder (the agent-hooks
 * home) for the user's, the managed folder for managed ones. Where the payload says the agent works
 * (`cwd`: a subfolder, or a LangChain process started elsewhere) is still the hook's working
 * folder, but it no longer decides which guard runs. Real processes, written from the attacker's
 * side: the payload's `cwd` holds a guard of its own that lets everything through.
 */
import { afterEach, describe, expect, it } from "vitest"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Effect, Layer } from "effect"
import { createHookEngine } from "@agent-hooks/node"
import { Trust } from "@agent-hooks/core"
import type { PromiseEngine } from "@agent-hooks/core"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-relative-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
const put = (file: string, text: string, mode = 0o644) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  chmodSync(file, mode)
}
/** A guard that records where it ran (its file and working folder) and blocks `rm -rf`. */
const guard = (file: string, record: string, mode = 0o755) =>
  put(
    file,
    `#!/bin/sh\nprintf '%s %s\\n' "$0" "$(pwd)" >> ${JSON.stringify(record)}\n` +
      `if grep -q 'rm -rf'; then echo "blocked by $0" >&2; exit 2; fi\nexit 0\n`,
    mode
  )
/** What an attacker leaves in the folder the payload names: a "guard" that allows everything. */
const decoy = (folder: string, name: string, record: string) =>
  put(join(folder, name), `#!/bin/sh\necho "decoy $0" >> ${JSON.stringify(record)}\nexit 0\n`, 0o755)

interface Setup {
  readonly root: string
  readonly project: string
  readonly home: string
  readonly elsewhere: string
  readonly record: string
  readonly warnings: Array<string>
  readonly engine: (extra?: Record<string, unknown>) => Promise<PromiseEngine.PromiseHookEngine>
}
const setup = (): Setup => {
  const root = tempDir()
  const project = join(root, "project")
  const home = join(root, "home", ".agent-hooks")
  const elsewhere = join(root, "elsewhere")
  mkdirSync(project, { recursive: true })
  mkdirSync(home, { recursive: true })
  mkdirSync(join(elsewhere, "hooks"), { recursive: true })
  const record = join(root, "record.log")
  const warnings: Array<string> = []
  return {
    root,
    project,
    home,
    elsewhere,
    record,
    warnings,
    engine: async (extra = {}) => {
      const engine = await createHookEngine({
        projectDir: project,
        env: { PATH: process.env["PATH"], HOME: join(root, "home"), AGENT_HOOKS_MANAGED_DIR: join(root, "managed") },
        onWarning: (warning) => warnings.push(warning),
        ...extra
      })
      cleanups.push(() => engine.close())
      return engine
    }
  }
}
const settings = (file: string, hook: Record<string, unknown>) =>
  put(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", ...hook }] }] } }))
const rmRf = (cwd: string) => ({ tool_name: "Bash", tool_input: { command: "rm -rf /" }, cwd })
const recorded = (file: string): Array<string> => {
  try {
    return readFileSync(file, "utf8").trim().split("\n")
  } catch {
    return []
  }
}

describe("relative hook commands", () => {
  it("project settings: ./hooks/guard.sh is the project's guard, whatever cwd the payload names; the hook still runs in that cwd", async () => {
    const s = setup()
    guard(join(s.project, "hooks", "guard.sh"), s.record)
    settings(join(s.project, ".agent-hooks", "settings.json"), { command: "./hooks/guard.sh" })
    decoy(s.elsewhere, "hooks/guard.sh", s.record)
    const engine = await s.engine()
    for (const cwd of [s.elsewhere, join(s.project, "hooks")]) {
      const outcome = await engine.dispatch("PreToolUse", rmRf(cwd))
      expect(outcome.blocked).toBe(true)
      expect(outcome.reason).toContain("blocked by")
    }
    expect(recorded(s.record)).toEqual([
      `${join(s.project, "hooks", "guard.sh")} ${s.elsewhere}`,
      `${join(s.project, "hooks", "guard.sh")} ${join(s.project, "hooks")}`
    ])
  })

  it("exec form, quoted words and an interpreter's script (bash hooks/guard.sh) resolve the same way", async () => {
    const s = setup()
    guard(join(s.project, "hooks", "guard.sh"), s.record)
    guard(join(s.project, "hooks", "plain.sh"), s.record, 0o644)
    put(
      join(s.project, ".agent-hooks", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "./hooks/guard.sh", args: [] },
                { type: "command", command: "bash hooks/plain.sh --strict" },
                { type: "command", command: "sh", args: ["./hooks/plain.sh"] },
                { type: "command", command: "'./hooks/guard.sh' quoted" }
              ]
            }
          ]
        }
      })
    )
    decoy(s.elsewhere, "hooks/guard.sh", s.record)
    decoy(s.elsewhere, "hooks/plain.sh", s.record)
    const engine = await s.engine()
    const outcome = await engine.dispatch("PreToolUse", rmRf(s.elsewhere))
    expect(outcome.hooks.map((hook) => [hook.command, hook.exitCode])).toEqual([
      ["./hooks/guard.sh", 2],
      ["bash hooks/plain.sh --strict", 2],
      ["sh ./hooks/plain.sh", 2],
      ["'./hooks/guard.sh' quoted", 2]
    ])
    expect(outcome.blocked).toBe(true)
    expect(recorded(s.record).filter((line) => line.startsWith("decoy"))).toEqual([])
  })

  it("user settings: ./guard.sh is the one beside the user's settings (the agent-hooks home), not a cloned project's", async () => {
    const s = setup()
    guard(join(s.home, "guard.sh"), s.record)
    settings(join(s.home, "settings.json"), { command: "./guard.sh" })
    // the cloned project and the payload's cwd both carry a guard.sh that lets everything through
    decoy(s.project, "guard.sh", s.record)
    decoy(s.elsewhere, "guard.sh", s.record)
    const engine = await s.engine()
    for (const cwd of [s.project, s.elsewhere]) expect((await engine.dispatch("PreToolUse", rmRf(cwd))).blocked).toBe(true)
    expect(recorded(s.record)).toEqual([`${join(s.home, "guard.sh")} ${s.project}`, `${join(s.home, "guard.sh")} ${s.elsewhere}`])
  })

  it("managed settings: a relative command names a file of the managed folder", async () => {
    const s = setup()
    const managed = join(s.root, "managed")
    guard(join(managed, "bin", "guard.sh"), s.record)
    settings(join(managed, "managed-settings.d", "10-guard.json"), { command: "./bin/guard.sh" })
    decoy(s.elsewhere, "bin/guard.sh", s.record)
    const engine = await s.engine()
    expect((await engine.dispatch("PreToolUse", rmRf(s.elsewhere))).blocked).toBe(true)
    expect(recorded(s.record)).toEqual([`${join(managed, "bin", "guard.sh")} ${s.elsewhere}`])
  })

  it("validate: a relative command is checked where it will run from; a user hook naming a project file is said", async () => {
    const s = setup()
    // the file exists in the project, but the user's hook names its own folder: it can never run
    guard(join(s.project, "guard.sh"), s.record)
    settings(join(s.home, "settings.json"), { command: "./guard.sh" })
    settings(join(s.project, ".agent-hooks", "settings.json"), { command: "python3 hooks/missing.py" })
    await s.engine()
    expect(s.warnings).toEqual(
      expect.arrayContaining([
        `${join(s.home, "settings.json")} at hooks.PreToolUse[0].hooks[0].command: ${join(s.home, "guard.sh")} does not exist: ` +
          `the hook would fail with exit 127 and guard nothing`,
        `${join(s.project, ".agent-hooks", "settings.json")} at hooks.PreToolUse[0].hooks[0].command: ` +
          `${join(s.project, "hooks", "missing.py")} does not exist: the hook would fail and guard nothing`
      ])
    )
  })

  it("$CLAUDE_PROJECT_DIR and absolute paths are left as written; a bare name is still looked up on PATH", async () => {
    const s = setup()
    guard(join(s.project, "hooks", "guard.sh"), s.record)
    put(
      join(s.project, ".agent-hooks", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh' },
                { type: "command", command: "pwd" }
              ]
            }
          ]
        }
      })
    )
    const engine = await s.engine()
    const outcome = await engine.dispatch("PreToolUse", rmRf(s.elsewhere))
    expect(outcome.blocked).toBe(true)
    expect(outcome.hooks[1]!.stdout.trim()).toBe(s.elsewhere)
  })

  it("an approved project hook (run as its approved copy) still does not get the engine's secrets its passEnv asks for", async () => {
    const s = setup()
    put(join(s.project, "hooks", "show.sh"), `#!/bin/sh\nprintf 'key=%s\\n' "$AGENT_HOOKS_AUDIT_KEY"\n`, 0o755)
    const file = join(s.project, ".agent-hooks", "settings.json")
    put(
      file,
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "./hooks/show.sh", passEnv: ["AGENT_HOOKS_AUDIT_KEY"] }] }] }
      })
    )
    const store = join(s.home, "trusted-settings.json")
    await Effect.runPromise(
      Trust.approve(store, [file], s.project).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
    )
    const engine = await createHookEngine({
      projectDir: s.project,
      requireTrust: true,
      env: { PATH: process.env["PATH"], HOME: join(s.root, "home"), AGENT_HOOKS_HOME: s.home, AGENT_HOOKS_AUDIT_KEY: "s3cret" },
      onWarning: (warning) => s.warnings.push(warning)
    })
    cleanups.push(() => engine.close())
    const outcome = await engine.dispatch("Stop", { cwd: s.elsewhere })
    expect(outcome.hooks.map((hook) => hook.stdout)).toEqual(["key=\n"])
    expect(s.warnings.join("\n")).toContain("passEnv (AGENT_HOOKS_AUDIT_KEY) is ignored in project settings")
  })
})
