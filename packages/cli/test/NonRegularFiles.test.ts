/**
 * A FIFO, a socket or a device where host mode expects a file (a settings file, another agent's
 * config that `--foreign auto` looks up), as a cloned repository can hold it: a read of it waits
 * for a writer that never comes, and a pending read kept Node from exiting even after the answer was
 * written, until the agent killed the hook at its timeout (and most agents then run the call).
 * Host mode refuses such a file as what it is, at once: the call is answered (blocked, naming the
 * file) and the process ends. The BUILT CLI, in a fresh HOME and project, run as the agent runs it.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, symlinkSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { testPayload, verdict } from "../src/internal/doctor.ts"
import { bin, cliEnv, node, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-nonregular-")
type Box = ReturnType<typeof box>

const env = (b: Box) => cliEnv({ HOME: b.home, AGENT_HOOKS_DAEMON: "0", CLAUDE_PROJECT_DIR: b.dir })

/** A project with Claude Code's host mode installed and a policy that blocks `rm -rf`: its PreToolUse command. */
const wired = (): { b: Box; command: string } => {
  const b = box()
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "if grep -q 'rm -rf'; then exit 2; fi" }] }] }
  })
  const installed = runCli(["install", "--host", "claude", "--project"], { cwd: b.dir, env: env(b), timeout: 60_000 })
  expect(installed.status, installed.stdout + installed.stderr).toBe(0)
  const config = JSON.parse(readFileSync(join(b.dir, ".claude", "settings.json"), "utf8"))
  return { b, command: config.hooks.PreToolUse[0].hooks[0].command as string }
}

/**
 * `command` given 20 s (the test's own bound: an answer that does not end is a failure), in a
 * process group of its own that is killed whole at the bound: a host mode stuck reading
 * `/dev/zero` must not outlive the test (nor one that SIGTERM does not end).
 */
const runBounded = (b: Box, command: string, stdin: string) =>
  new Promise<{ status: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
    const started = Date.now()
    const child = spawn("/bin/sh", ["-c", command], { cwd: b.dir, env: env(b), detached: true })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const bound = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch {
        // already gone
      }
    }, 20_000)
    child.on("close", (status) => {
      clearTimeout(bound)
      resolve({ status, stdout, stderr, ms: Date.now() - started })
    })
    child.stdin.on("error", () => {})
    child.stdin.end(stdin)
  })

/** `command` as the agent runs it, with the agent's payload for a Bash call of `shell`. */
const runHook = (b: Box, command: string, agent: HostMode.HostName, shell: string) =>
  runBounded(b, command, JSON.stringify(testPayload(HostMode.byName(agent)!, shell, b.dir)))

type Ran = Awaited<ReturnType<typeof runHook>>

const seenBy = (agent: HostMode.HostName, result: Ran) => verdict(HostMode.byName(agent)!, result.status, result.stdout, result.stderr).kind

const mkfifo = (path: string) => {
  mkdirSync(dirname(path), { recursive: true })
  expect(spawnSync("mkfifo", [path]).status).toBe(0)
}

describe("host mode and a file that is not a regular file", () => {
  const shapes: ReadonlyArray<readonly [string, (path: string) => void, RegExp]> = [
    ["a FIFO", mkfifo, /FIFO/],
    // a read of /dev/zero never ends either, and fills the memory
    ["a link to /dev/zero", (path) => (mkdirSync(dirname(path), { recursive: true }), symlinkSync("/dev/zero", path)), /character device/],
    ["a folder", (path) => mkdirSync(path, { recursive: true }), /folder|EISDIR|directory/i]
  ]
  it.each(shapes)(
    "as the project's settings file (%s): the call is blocked at once, naming the file, and the process ends",
    async (_, make, kind) => {
      const { b, command } = wired()
      make(join(b.dir, ".agent-hooks", "settings.json"))
      for (const shell of ["ls", "rm -rf /"]) {
        const result = await runHook(b, command, "claude", shell)
        expect(result.status, `${result.ms} ms: ${result.stdout}${result.stderr}`).not.toBeNull()
        expect(seenBy("claude", result), result.stdout + result.stderr).toBe("block")
        expect(result.stdout + result.stderr).toContain(join(b.dir, ".agent-hooks", "settings.json"))
        expect(result.stdout + result.stderr).toMatch(kind)
      }
    },
    60_000
  )

  it("as the other agent's config that --foreign auto looks up (a FIFO): VS Code's call is judged, and the process ends", async () => {
    const { b, command } = wired()
    mkfifo(join(b.dir, ".github", "hooks", "agent-hooks-vscode.json"))
    const blocked = await runHook(b, command, "vscode", "rm -rf /")
    expect(blocked.status, `${blocked.ms} ms: ${blocked.stdout}${blocked.stderr}`).not.toBeNull()
    expect(seenBy("vscode", blocked), blocked.stdout + blocked.stderr).toBe("block")
    const allowed = await runHook(b, command, "vscode", "ls")
    expect(allowed.status, allowed.stderr).toBe(0)
    expect(seenBy("vscode", allowed)).toBe("allow")
  }, 60_000)
})

/**
 * A cedar hook's policy, entities or schema file is read at each call, through the runtime's own
 * reader (Node's under `node` and `deno`, Bun's under `bun`): a cloned project whose settings name
 * a FIFO or `/dev/zero` there made host mode answer at the hook's timeout and then never exit (or
 * fill the memory), and the agent then ran the call. The file is refused as what it is, at once:
 * the cedar hook failed, which blocks (a cedar hook is a guard) unless its `onFailure` is "continue",
 * and the process ends.
 */
describe("host mode and a cedar hook whose file is not a regular file", () => {
  type Role = "policies" | "entities" | "schema"
  const fileOf: Record<Role, string> = { policies: "policies.cedar", entities: "entities.json", schema: "schema.cedarschema" }
  type Runtime = "node" | "bun" | "deno"
  const launch: Record<Runtime, string> = {
    node: `exec '${node}' '${bin}' hook --host claude`,
    bun: `exec bun '${bin}' hook --host claude`,
    deno: `exec deno run -A '${bin}' hook --host claude`
  }
  const shapes: ReadonlyArray<readonly [string, (path: string) => void, RegExp]> = [
    ["a FIFO", mkfifo, /FIFO/],
    ["a link to /dev/zero", (path) => symlinkSync("/dev/zero", path), /character device/],
    ["a folder", (path) => mkdirSync(path), /folder/]
  ]

  /**
   * The user's policy blocks `rm -rf` (a command hook); the cloned project's settings add a cedar
   * hook on Bash (with `onFailure` when given) whose `role` file is made by `make`.
   */
  const project = (role: Role, make: (path: string) => void, onFailure?: "block" | "continue") => {
    const b = box()
    b.put(join(b.home, ".agent-hooks", "settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "if grep -q 'rm -rf'; then exit 2; fi" }] }] }
    })
    const folder = join(b.dir, ".agent-hooks")
    if (role !== "policies") b.put(join(folder, "policies.cedar"), "permit (principal, action, resource);\n")
    else mkdirSync(folder, { recursive: true })
    make(join(folder, fileOf[role]))
    const cedar = {
      type: "cedar",
      policies: "policies.cedar",
      ...(role === "policies" ? {} : { [role]: fileOf[role] }),
      ...(onFailure ? { onFailure } : {})
    }
    b.put(join(folder, "settings.json"), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cedar] }] } })
    return { b, file: join(folder, fileOf[role]) }
  }

  // Node's reader: the full table; Bun's (and Node's again, under Deno): each shape once, on another file each.
  const cases: ReadonlyArray<readonly [Runtime, Role, string, (path: string) => void, RegExp]> = [
    ...(["policies", "entities", "schema"] as const).flatMap((role) =>
      shapes.map(([name, make, kind]) => ["node", role, name, make, kind] as const)
    ),
    ...(["bun", "deno"] as const).flatMap((runtime) =>
      shapes.map(([name, make, kind], n) => [runtime, (["policies", "entities", "schema"] as const)[n]!, name, make, kind] as const)
    )
  ]
  it.each(cases)(
    "%s: its %s is %s, onFailure block: the call is blocked at once, naming the file and what it is, and the process ends",
    async (runtime, role, _, make, kind) => {
      const { b, file } = project(role, make, "block")
      const result = await runHook(b, launch[runtime], "claude", "ls")
      expect(result.status, `${result.ms} ms: ${result.stdout}${result.stderr}`).not.toBeNull()
      expect(seenBy("claude", result), result.stdout + result.stderr).toBe("block")
      expect(result.stdout + result.stderr).toContain(file)
      expect(result.stdout + result.stderr).toMatch(kind)
      expect(result.stdout + result.stderr).not.toMatch(/timed out/)
    },
    60_000
  )

  it.each(["node", "bun", "deno"] as const)(
    "%s: its policies is a FIFO, onFailure left as it is: a cedar hook is a guard, the call is blocked naming the file, and the process ends",
    async (runtime) => {
      const { b, file } = project("policies", mkfifo)
      const result = await runHook(b, launch[runtime], "claude", "ls")
      expect(result.status, `${result.ms} ms: ${result.stdout}${result.stderr}`).not.toBeNull()
      expect(seenBy("claude", result), result.stdout + result.stderr).toBe("block")
      expect(result.stdout + result.stderr).toContain(file)
    },
    60_000
  )

  it.each(["node", "bun", "deno"] as const)(
    "%s: its policies is a FIFO, onFailure continue: the user's own block stands, the failure is said, and the process ends",
    async (runtime) => {
      const { b, file } = project("policies", mkfifo, "continue")
      const blocked = await runHook(b, launch[runtime], "claude", "rm -rf /")
      expect(blocked.status, `${blocked.ms} ms: ${blocked.stdout}${blocked.stderr}`).not.toBeNull()
      expect(seenBy("claude", blocked), blocked.stdout + blocked.stderr).toBe("block")
      const allowed = await runHook(b, launch[runtime], "claude", "ls")
      expect(allowed.status, `${allowed.ms} ms: ${allowed.stdout}${allowed.stderr}`).toBe(0)
      expect(allowed.stderr).toContain(file)
      expect(allowed.stderr).toMatch(/FIFO/)
    },
    60_000
  )

  it.each(shapes)(
    "validate: a cedar hook's file that is %s is an error naming the settings file, the JSON path and the file, at once",
    async (_, make, kind) => {
      for (const role of ["policies", "entities", "schema"] as const) {
        const { b, file } = project(role, make)
        const settings = join(b.dir, ".agent-hooks", "settings.json")
        const result = await runBounded(b, `exec '${node}' '${bin}' validate --settings '${settings}'`, "")
        expect(result.status, `${result.ms} ms: ${result.stdout}${result.stderr}`).toBe(1)
        expect(result.stderr).toContain(
          `${settings} at hooks.PreToolUse[0].hooks[0].${role}: cedar hook policies.cedar: cannot read its ${role} file: ${file}`
        )
        expect(result.stderr).toMatch(kind)
      }
    },
    60_000
  )
})
