/**
 * A guard that did not judge blocks, in host mode (`agent-hooks hook --host claude`, the BUILT CLI
 * in a fresh HOME and project, run as Claude Code runs it): a cedar hook fed a payload Cedar cannot
 * read (a lone UTF-16 surrogate), a cedar or OPA hook that could not decide, a command hook that
 * never ran (not found, not executable, could not start). Each used to end in exit 0: the call went
 * ahead. A command hook that ran and exited 1 stays non-blocking (Claude Code's rule).
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import { spawnSync } from "node:child_process"
import { createServer } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { testPayload, verdict } from "../src/internal/doctor.ts"
import { bin, cliEnv, node, projectsWithHome } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-guards-")
type Box = ReturnType<typeof box>

type Runtime = "node" | "bun" | "deno"
const launch: Record<Runtime, ReadonlyArray<string>> = {
  node: [node, bin],
  bun: ["bun", bin],
  deno: ["deno", "run", "-A", bin]
}

const claude = HostMode.byName("claude")!

/** `hook --host claude` on `runtime`, given Claude Code's payload for a Bash call of `command` (or `payload`). */
const callHook = (b: Box, command: string, runtime: Runtime = "node", payload?: Record<string, unknown>) => {
  const [file, ...args] = launch[runtime]
  const result = spawnSync(file!, [...args, "hook", "--host", "claude"], {
    // JSON.stringify writes a lone surrogate as its escape (`"\ud800"`), as an attacker's payload does
    input: JSON.stringify(payload ?? testPayload(claude, command, b.dir)),
    cwd: b.dir,
    env: cliEnv({ HOME: b.home, CLAUDE_PROJECT_DIR: b.dir, AGENT_HOOKS_DAEMON: "0" }),
    encoding: "utf8",
    timeout: 25_000
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
const seen = (result: ReturnType<typeof callHook>) => verdict(claude, result.status, result.stdout, result.stderr)

const userSettings = (b: Box, hooks: Record<string, unknown>) => b.put(join(b.home, ".agent-hooks", "settings.json"), { hooks })

const NO_RM = `@id("no-rm-rf") @reason("rm -rf is not allowed")
forbid (principal, action == Action::"PreToolUse", resource) when { context.tool_input.command like "*rm -rf*" };
permit (principal, action, resource);
`

describe("host mode: a cedar hook", () => {
  const withCedar = (extra: Record<string, unknown> = {}, policies = NO_RM) => {
    const b = box()
    b.put(join(b.home, ".agent-hooks", "policies.cedar"), policies)
    userSettings(b, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "cedar", policies: "policies.cedar", ...extra }] }] })
    return b
  }

  it.each(["node", "bun", "deno"] as const)(
    "%s: a lone UTF-16 surrogate in the command reaches Cedar as U+FFFD: the forbid applies, the call is blocked",
    (runtime) => {
      const b = withCedar()
      for (const command of ["rm -rf / #\ud800", "rm -rf / #\udfff", "\udfffrm -rf /"]) {
        const result = callHook(b, command, runtime)
        expect(seen(result), `${JSON.stringify(command)}: ${result.status} ${result.stdout}${result.stderr}`).toMatchObject({
          kind: "block"
        })
        expect(result.stdout + result.stderr).toContain("rm -rf is not allowed")
      }
      // in session_id too (the principal)
      const session = callHook(b, "", runtime, { ...testPayload(claude, "rm -rf /", b.dir), session_id: "s\ud800" })
      expect(seen(session).kind, session.stdout + session.stderr).toBe("block")
      const fine = callHook(b, "ls #\ud800", runtime)
      expect(seen(fine), fine.stdout + fine.stderr).toMatchObject({ kind: "allow" })
    },
    90_000
  )

  it("a policy that does not parse blocks, naming the file; onFailure: continue lets the call go on, the failure said", () => {
    const b = withCedar({}, "forbid (principal, action, resource")
    const blocked = callHook(b, "ls")
    expect(seen(blocked), blocked.stdout + blocked.stderr).toMatchObject({ kind: "block" })
    expect(blocked.stdout + blocked.stderr).toContain(join(b.home, ".agent-hooks", "policies.cedar"))
    expect(blocked.stdout + blocked.stderr).toContain("a Cedar hook is a guard")
    const lenient = withCedar({ onFailure: "continue" }, "forbid (principal, action, resource")
    const went = callHook(lenient, "ls")
    expect(seen(went).kind).toBe("allow")
    expect(went.stderr).toContain("policies.cedar")
  })
})

describe("host mode: an OPA hook that could not decide", () => {
  it("a server that is not there (connection refused) blocks the call", async () => {
    // a port that was free a moment ago: nothing listens on it
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const b = box()
    userSettings(b, { PreToolUse: [{ hooks: [{ type: "http", api: "opa", url: `http://127.0.0.1:${port}/v1/data/agent_hooks/allow` }] }] })
    const result = callHook(b, "rm -rf /")
    expect(seen(result), result.stdout + result.stderr).toMatchObject({ kind: "block" })
    expect(result.stdout + result.stderr).toContain("an OPA hook is a guard")
  })
})

describe("host mode: a command hook that never ran blocks; one that ran and exited 1 does not", () => {
  it.each([
    ["not found (exit 127)", { type: "command", command: "/nonexistent/agent-hooks-guard" }, "its command was not found (exit 127)"],
    ["not executable (exit 126)", { type: "command", command: "$HOME/guard.sh" }, "its command could not be executed (exit 126)"],
    [
      "could not start (exec form, no such program)",
      { type: "command", command: "agent-hooks-no-such-guard", args: [] },
      "it could not start"
    ]
  ])("%s: the call is blocked, saying why", (_, handler, why) => {
    const b = box()
    // a guard script without its run bit
    b.put(join(b.home, "guard.sh"), "#!/bin/sh\nexit 0\n")
    userSettings(b, { PreToolUse: [{ matcher: "Bash", hooks: [handler] }] })
    const result = callHook(b, "rm -rf /")
    expect(seen(result), `${result.status} ${result.stdout}${result.stderr}`).toMatchObject({ kind: "block" })
    expect(result.stdout + result.stderr).toContain(why)
    expect(result.stdout + result.stderr).toContain("a guard that never ran did not judge the call")
    // onFailure: continue is the explicit opt-out
    userSettings(b, { PreToolUse: [{ matcher: "Bash", hooks: [{ ...handler, onFailure: "continue" }] }] })
    const went = callHook(b, "rm -rf /")
    expect(seen(went).kind, went.stdout + went.stderr).toBe("allow")
  })

  it("a command hook that ran and exited 1 is a non-blocking error (Claude Code's rule), said on stderr", () => {
    const b = box()
    userSettings(b, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo boom >&2; exit 1" }] }] })
    const result = callHook(b, "rm -rf /")
    expect(seen(result).kind, result.stdout + result.stderr).toBe("allow")
    expect(result.stderr).toContain("boom")
  })

  it("on Stop a guard that never ran does not block (it would loop the agent); the failure is said", () => {
    const b = box()
    userSettings(b, { Stop: [{ hooks: [{ type: "command", command: "/nonexistent/agent-hooks-guard" }] }] })
    const [file, ...args] = launch.node
    const result = spawnSync(file!, [...args, "hook", "--host", "claude"], {
      input: JSON.stringify({ session_id: "s", hook_event_name: "Stop", stop_hook_active: false, cwd: b.dir }),
      cwd: b.dir,
      env: cliEnv({ HOME: b.home, CLAUDE_PROJECT_DIR: b.dir }),
      encoding: "utf8",
      timeout: 25_000
    })
    expect(result.status, result.stdout + result.stderr).not.toBe(2)
    expect(result.stdout).not.toContain(`"decision":"block"`)
    expect(result.stderr).toContain("not blocking")
  })
})
