/**
 * Adding an agent is one folder: a fake agent (`fixtures/fake-agent/`, a host and a profile) put
 * into the agents' list is seen by `hook --host` and its help, `install`, `doctor`'s test call and
 * verdict, host mode's presentation of a call in its payload, `migrate --to`, and the docs' agent
 * tables, none of which names an agent.
 */
import * as NodeServices from "@effect/platform-node-shared/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as NodeTerminal from "@effect/platform-node-shared/NodeTerminal"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Layer, Option } from "effect"
import { Command } from "effect/cli"
import { afterAll, describe, expect, it, vi } from "vitest"
import * as Agents from "@agent-hooks/core/Agents"
import * as HostMode from "@agent-hooks/core/HostMode"
import { Cli } from "@agent-hooks/cli"
import { filesTable, hostsTable, provenTable, realAgents, sidebarHosts } from "../../../docs/scripts/agents.ts"
import { testPayload, shellEvent, verdict } from "../src/internal/doctor.ts"
import { install, needs } from "../src/internal/install.ts"
import { migrate } from "../src/internal/migrate.ts"
import { profile as fake } from "./fixtures/fake-agent/profile.ts"

// the one change an agent needs beside its folder: its line in the agents' list
vi.mock("../../core/src/internal/agents/profiles.ts", async (original) => {
  const { profiles } = await original<typeof import("../../core/src/internal/agents/profiles.ts")>()
  const { profile } = await import("./fixtures/fake-agent/profile.ts")
  return { profiles: [...profiles, profile] }
})

const Services = Layer.provideMerge(
  NodeServices.layer,
  Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeStdio.layer, NodeTerminal.layer)
)

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "agent-hooks-fake-agent-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** What the effect prints on stdout (console.log, Effect's default console, or process.stdout), and its exit. */
const printed = async <E>(effect: Effect.Effect<unknown, E, never>) => {
  const lines: Array<string> = []
  const log = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
    lines.push(args.map(String).join(" "))
  })
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk))
    return true
  })
  try {
    const exit = await Effect.runPromiseExit(effect)
    return { exit, out: lines.join("\n") }
  } finally {
    log.mockRestore()
    write.mockRestore()
  }
}

describe("a fake agent added as one folder", () => {
  it("is in the registry host mode reads", () => {
    expect(Agents.byName("fake")).toBe(fake)
    expect(HostMode.byName("fake")).toBe(fake.host)
  })

  it("is a --host choice of hook, install, uninstall and doctor, with its default timeout in the help", async () => {
    const help = await printed(Command.runWith(Cli.cli, { version: "test" })(["hook", "--help"]).pipe(Effect.provide(Services)))
    expect(help.out).toMatch(/--host choice.*choices: claude, .*, fake\)/)
    expect(help.out).toContain("; 45 fake")
    expect(help.out).toContain("FAKE_PROJECT_DIR")
    for (const command of ["install", "uninstall", "doctor"]) {
      const out = (await printed(Command.runWith(Cli.cli, { version: "test" })([command, "--help"]).pipe(Effect.provide(Services)))).out
      expect(out, command).toMatch(/--host choice.*choices: .*, fake\)/)
    }
  })

  it("hook --host fake is parsed (the parser takes the registry's names)", async () => {
    let host: unknown
    const capture = Cli.cli.pipe(
      Command.withSubcommands([
        Cli.hook.pipe(
          Command.withHandler((options) =>
            Effect.sync(() => {
              host = options.host
            })
          )
        )
      ])
    )
    const exit = await Effect.runPromiseExit(
      Command.runWith(capture, { version: "test", renderErrors: false })(["hook", "--host", "fake"]).pipe(Effect.provide(Services))
    )
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(host).toBe("fake")
  })

  it("install writes its config where its profile says, in its shape and timeout unit, and says what it needs", async () => {
    const project = tempDir()
    const { exit, out } = await printed(
      install({ host: "fake" as HostMode.HostName, user: false, project: true, projectDir: Option.some(project), dryRun: false })
    )
    expect(Exit.isSuccess(exit)).toBe(true)
    const written = JSON.parse(readFileSync(join(project, ".fake", "hooks.json"), "utf8")) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>
    }
    expect(Object.keys(written.hooks).sort()).toEqual(["afterShell", "beforeShell", "sessionBegins"])
    const entry = written.hooks["beforeShell"]![0]!.hooks[0]!
    expect(entry.command).toMatch(/ hook --host fake --timeout 45$/)
    // milliseconds, as its profile's timeout unit says
    expect(entry.timeout).toBe(45_000)
    expect(out).toContain("next: Fake Agent reads its project hooks when it starts: restart it.")
    expect(needs(fake.host, "user", project)).toEqual(["Fake Agent reads its user hooks when it starts: restart it."])
  })

  it("doctor's test call is in its shape, host mode reads it as Bash, and its answer is read by its rules", () => {
    expect(shellEvent(fake.host)).toBe("beforeShell")
    const payload = testPayload(fake.host, "rm -rf /", "/p")
    const call = HostMode.translate(fake.host, payload)
    expect(
      "error" in call ? call.error : { event: call.event, tool: call.payload["tool_name"], input: call.payload["tool_input"] }
    ).toEqual({
      event: "PreToolUse",
      tool: "Bash",
      input: { command: "rm -rf /" }
    })
    expect(verdict(fake.host, 2, "", "no")).toEqual({ kind: "block", reason: "no" })
    expect(verdict(fake.host, 0, JSON.stringify({ verdict: "stop", reason: "policy" }), "")).toEqual({ kind: "block", reason: "policy" })
    expect(verdict(fake.host, 0, JSON.stringify({ verdict: "go" }), "").kind).toBe("allow")
  })

  it("host mode presents a call in its payload, as its folder lays it out (hook --payload fake)", () => {
    expect(HostMode.present(fake.host, "PreToolUse", { cwd: "/p", tool_name: "Bash", tool_input: { command: "ls" } })).toEqual([
      { hostEvent: "beforeShell", payload: { event: "beforeShell", root: "/p", tool_name: "shell", tool_input: { cmd: "ls" } } }
    ])
  })

  it("migrate --to fake writes its config calling host mode", async () => {
    const project = tempDir()
    const settings = join(project, "settings.json")
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 20 }] }] } })
    )
    const { exit, out } = await printed(
      migrate({
        from: "claude",
        to: Option.some("fake"),
        settings: [settings],
        projectDir: Option.some(project),
        agent: Option.none(),
        write: Option.none(),
        force: false,
        lossy: false
      })
    )
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(out).toContain(".fake/hooks.json")
    expect(out).toMatch(/hook --host fake --timeout \d+/)
    expect(out).toContain('"beforeShell"')
  })

  it("is a row of the docs' agent tables", () => {
    expect(hostsTable(Agents.profiles)).toContain("| `fake` | Fake Agent | 45 | milliseconds | `deny` | [Fake Agent](../hosts/fake.md) |")
    expect(filesTable(Agents.profiles)).toContain(
      "| `fake` | `~/.fake/hooks.json` | `.fake/hooks.json` | a group per event, in the file shared with the user's |"
    )
    // the start page's agents and the sidebar: a documented agent, not one the agents step runs
    expect(provenTable(Agents.profiles, realAgents())).toContain(
      "| [Fake Agent](hosts/fake.md) | `fake` | from its documents only (its page says what was read) |"
    )
    expect(JSON.parse(sidebarHosts(Agents.profiles))).toContainEqual({ text: "Fake Agent", link: "/hosts/fake" })
  })
})
