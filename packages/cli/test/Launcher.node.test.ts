/**
 * A user-wide install survives the CLI it was written with (the BUILT CLI, a fresh HOME): the
 * agents' entries start the per-user launcher, which starts a copy of a build that runs from a git
 * checkout (this one) or a project's node_modules; when what it starts is gone, the agent's tool
 * call gets a block naming `agent-hooks doctor` (never a stack trace), other events a visible
 * non-blocking error; `doctor` names the missing file; `uninstall` of the last entry removes the
 * launcher and the copies. And a new user's install without a policy: offered, written with
 * `--policy recommended`, never asked for without a terminal.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { unstableReason } from "../src/internal/launcher.ts"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-launcher-")
// each test runs the built CLI several times: on a loaded 2-core machine that takes a minute or more
const LONG = 180_000
type Box = ReturnType<typeof box>

const cli = (b: Box, args: ReadonlyArray<string>) => runCli(args, { cwd: b.dir, env: cliEnv({ HOME: b.home }), timeout: 60_000 })
const data = (b: Box) => join(b.home, ".local", "share", "agent-hooks")
const launcher = (b: Box) => join(data(b), "bin", "agent-hooks")

/** The command install wrote for Claude Code's PreToolUse, run as Claude Code runs it. */
const call = (b: Box, payload: Record<string, unknown>, settings = join(b.home, ".claude", "settings.json")) => {
  const config = JSON.parse(readFileSync(settings, "utf8")) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>
  }
  const command = config.hooks["PreToolUse"]![0]!.hooks[0]!.command
  return spawnSync("/bin/sh", ["-c", command], {
    input: JSON.stringify({ session_id: "s", cwd: b.dir, ...payload }),
    cwd: b.dir,
    env: cliEnv({ HOME: b.home }),
    encoding: "utf8",
    timeout: 60_000
  })
}

const guard = (b: Box) =>
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "grep -q 'rm -rf' && { echo no rm -rf here >&2; exit 2; } || exit 0" }] }
      ]
    }
  })

const pre = (command: string) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } })

describe("the launcher of user-wide entries", () => {
  it(
    "starts a copy of a build that runs from a checkout; the policy judges through it",
    () => {
      const b = box()
      guard(b)
      const installed = cli(b, ["install", "--host", "claude"])
      expect(installed.status, installed.stderr).toBe(0)
      expect(installed.stdout).toContain("which may go: copied into")
      const settings = readFileSync(join(b.home, ".claude", "settings.json"), "utf8")
      expect(settings).toContain(`'${launcher(b)}' hook --host claude --timeout 600`)
      // the copy is what runs: nothing of the checkout is named by the launcher but the runtime
      const text = readFileSync(launcher(b), "utf8")
      expect(text).toContain(join(data(b), "lib"))
      expect(text).not.toContain("/packages/cli/dist/")
      const blocked = call(b, pre("rm -rf /"))
      expect(blocked.status, blocked.stderr).toBe(2)
      expect(blocked.stderr + blocked.stdout).toContain("no rm -rf here")
      expect(call(b, pre("ls")).status).toBe(0)
      const doctor = cli(b, ["doctor", "--host", "claude", "--user"])
      expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
      expect(doctor.stdout).toContain(`client: launcher ${launcher(b)}`)
    },
    LONG
  )

  it(
    "what it starts gone: tool calls blocked naming doctor, other events a non-blocking error, doctor names the file",
    () => {
      const b = box()
      guard(b)
      expect(cli(b, ["install", "--host", "claude"]).status).toBe(0)
      const lib = join(data(b), "lib")
      renameSync(lib, `${lib}.gone`)
      const blocked = call(b, pre("ls"))
      expect(blocked.status).toBe(2)
      expect(blocked.stderr).toContain("agent-hooks cannot start")
      expect(blocked.stderr).toContain("agent-hooks doctor --host claude")
      // no stack trace
      expect(blocked.stderr).not.toMatch(/\n\s+at |node:internal|Error:/)
      const stop = call(b, { hook_event_name: "Stop", stop_hook_active: false })
      expect(stop.status).toBe(1)
      expect(stop.stderr).toContain("agent-hooks cannot start")
      const doctor = cli(b, ["doctor", "--host", "claude", "--user"])
      expect(doctor.status).toBe(1)
      const said = doctor.stdout + doctor.stderr
      expect(said).toContain("which is gone")
      expect(said).toContain("agent-hooks install --host claude")
      expect(said).not.toContain("then runs the tool")
      expect(said).not.toContain("needs a PreToolUse Bash hook")
    },
    LONG
  )

  it(
    "Cline, which reads no exit code, gets its cancel JSON when the target is gone",
    () => {
      const b = box()
      expect(cli(b, ["install", "--host", "claude"]).status).toBe(0)
      renameSync(join(data(b), "lib"), join(data(b), "lib.gone"))
      const result = spawnSync(launcher(b), ["hook", "--host", "cline", "--timeout", "30"], {
        input: JSON.stringify({ hookName: "PreToolUse", preToolUse: { toolName: "execute_command", parameters: { command: "ls" } } }),
        encoding: "utf8"
      })
      expect(result.status).toBe(2)
      const answer = JSON.parse(result.stdout) as { cancel: boolean; errorMessage: string }
      expect(answer.cancel).toBe(true)
      expect(answer.errorMessage).toContain("agent-hooks doctor --host cline")
    },
    LONG
  )

  it(
    "stays while another agent's user-wide entry calls it; goes, with its folders, with the last one",
    () => {
      const b = box()
      expect(cli(b, ["install", "--host", "claude"]).status).toBe(0)
      expect(cli(b, ["install", "--host", "gemini"]).status).toBe(0)
      expect(cli(b, ["uninstall", "--host", "claude"]).status).toBe(0)
      expect(existsSync(launcher(b))).toBe(true)
      const last = cli(b, ["uninstall", "--host", "gemini"])
      expect(last.status, last.stderr).toBe(0)
      expect(last.stdout).toContain("launcher removed")
      expect(existsSync(join(b.home, ".local"))).toBe(false)
    },
    LONG
  )
})

describe("which CLI files may go", () => {
  it(
    "a temporary folder, a git checkout, a project's node_modules may; a global install may not",
    () => {
      const b = box()
      expect(unstableReason(join(b.root, "x", "agent-hooks.cjs"))).toContain("temporary folder")
      expect(unstableReason(new URL(import.meta.url).pathname)).toMatch(/git checkout|temporary folder/)
      expect(unstableReason("/usr/lib/node_modules/@agent-hooks/cli/dist/agent-hooks.cjs")).toBeUndefined()
      expect(unstableReason("/opt/node/lib/node_modules/@agent-hooks/cli/dist/agent-hooks.cjs")).toBeUndefined()
    },
    LONG
  )
})

describe("install with no policy yet", () => {
  it(
    "without a terminal, asks nothing, writes nothing, and prints the commands that would",
    () => {
      const b = box()
      const result = cli(b, ["install", "--host", "claude"])
      expect(result.status, result.stderr).toBe(0)
      expect(result.stdout).toContain("--policy recommended writes the recommended one to")
      expect(result.stdout).toContain("agent-hooks init")
      expect(existsSync(join(b.home, ".agent-hooks", "settings.json"))).toBe(false)
      // the message host mode then gives names init and the file it writes
      const blocked = call(b, pre("ls"))
      expect(blocked.status).toBe(2)
      expect(blocked.stderr + blocked.stdout).toContain(`\`agent-hooks init\` writes ${join(b.dir, ".agent-hooks", "settings.json")}`)
    },
    LONG
  )

  it(
    "--policy recommended writes the user's policy (the scope's file) and never replaces one",
    () => {
      const b = box()
      const result = cli(b, ["install", "--host", "claude", "--policy", "recommended"])
      expect(result.status, result.stderr).toBe(0)
      const file = join(b.home, ".agent-hooks", "settings.json")
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ extends: ["agent-hooks:recommended"] })
      writeFileSync(file, "{}\n")
      expect(cli(b, ["install", "--host", "gemini", "--policy", "recommended"]).status).toBe(0)
      expect(readFileSync(file, "utf8")).toBe("{}\n")
      // --project writes the project's
      const other = box()
      mkdirSync(join(other.dir, ".git"))
      expect(cli(other, ["install", "--host", "claude", "--project", "--policy", "recommended"]).status).toBe(0)
      expect(readdirSync(join(other.dir, ".agent-hooks"))).toContain("settings.json")
    },
    LONG
  )
})
