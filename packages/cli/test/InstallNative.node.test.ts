/**
 * `agent-hooks install --host <agent> --native`, run as a user runs it (the BUILT CLI, a temp HOME):
 * the native client built with the machine's `cc` into the user's 0700 folder and written as the
 * hook command; a call through that command stopped by the policy (through Node the first time, then
 * through the daemon); `doctor` naming the client; `uninstall` leaving the config and the folders as
 * they were. Without a C compiler: said so, and Node's command written.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { bin, cleared, cliEnv, node, scratchFolder } from "./cliHarness.ts"
import { daemonHarness, until } from "./daemonHarness.ts"

const scratch = scratchFolder("agent-hooks-install-native-")
const hooks = realpathSync(fileURLToPath(new URL("./fixtures/hosts/hooks", import.meta.url)))
const linux = process.platform === "linux"
const hasCc = spawnSync("cc", ["--version"]).status === 0
const { home, daemons, killDaemons } = daemonHarness(scratch, hooks)
afterAll(async () => {
  if (linux) await killDaemons()
})

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ HOME: home(), AGENT_HOOKS_TEST_HOOKS: hooks, AGENT_HOOKS_DAEMON: "1", ...extra })
const cli = (args: ReadonlyArray<string>, extra: Record<string, string> = {}) => {
  const result = spawnSync(node, [bin, ...args], { cwd: scratch(), env: env(extra), encoding: "utf8", timeout: 120_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
const settings = () => join(home(), ".claude", "settings.json")
const client = () => join(home(), ".local", "share", "agent-hooks", "native", "hook-client-claude-user")
// A user-wide entry without --native starts the per-user launcher (which starts this build, or its copy)
const launcher = () => join(home(), ".local", "share", "agent-hooks", "bin", "agent-hooks")
const BEFORE = `{
  // the user's own
  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "echo mine" }] }] }
}
`
const payload = (command: string) =>
  JSON.stringify({ session_id: "s", cwd: scratch(), hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } })

describe.runIf(linux && hasCc)("install --native", () => {
  it("builds the client into the user's 0700 folder, writes it as the command, stops the call; uninstall leaves everything as it was", async () => {
    mkdirSync(join(home(), ".claude"), { recursive: true })
    writeFileSync(settings(), BEFORE)
    mkdirSync(join(home(), ".agent-hooks"), { recursive: true })
    writeFileSync(
      join(home(), ".agent-hooks", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'sh "$AGENT_HOOKS_TEST_HOOKS/guard.sh"' }] }] }
      })
    )
    const installed = cli(["install", "--host", "claude", "--native"])
    expect(installed.status, installed.stderr).toBe(0)
    expect(installed.stdout).toContain(`native client: ${client()} (built with cc`)
    expect(statSync(client()).mode & 0o777).toBe(0o700)
    expect(statSync(join(client(), "..")).mode & 0o777).toBe(0o700)
    const command = `${cleared}'${client()}' hook --host claude --timeout 600`
    expect(readFileSync(settings(), "utf8")).toContain(JSON.stringify(command))
    // the command as Claude Code runs it: blocked, first through Node (no daemon yet), then through the daemon
    const run = (what: string) =>
      spawnSync("/bin/sh", ["-c", command], { input: payload(what), cwd: scratch(), env: env(), encoding: "utf8" })
    for (let i = 0; i < 2; i++) {
      const blocked = run("rm -rf /")
      expect(blocked.status).toBe(2)
      expect(blocked.stderr).toContain("no rm -rf here")
      expect(run("ls").status).toBe(0)
      if (i === 0) await until("the daemon", () => daemons().length > 0)
    }
    const doctor = cli(["doctor", "--host", "claude", "--user"])
    // built for this Node and the copy of this build in the user's folder (a checkout may go)
    expect(doctor.stdout).toContain(
      `client: native, ${client()} (through ${process.execPath} ${join(home(), ".local", "share", "agent-hooks", "lib")}/`
    )
    expect(doctor.status, doctor.stdout).toBe(0)
    // idempotent: built again, the config unchanged
    expect(cli(["install", "--host", "claude", "--native"]).stdout).toContain("already installed")
    const removed = cli(["uninstall", "--host", "claude"])
    expect(removed.status, removed.stderr).toBe(0)
    expect(removed.stdout).toContain(`native client ${client()} removed`)
    expect(readFileSync(settings(), "utf8")).toBe(BEFORE)
    expect(existsSync(join(home(), ".local", "share", "agent-hooks"))).toBe(false)
  }, 120_000)

  it("install without --native after --native: Node's command again, and the client removed", () => {
    expect(cli(["install", "--host", "claude", "--native"]).status).toBe(0)
    expect(existsSync(client())).toBe(true)
    const again = cli(["install", "--host", "claude"])
    expect(again.stdout).toContain(`native client ${client()} removed`)
    expect(existsSync(client())).toBe(false)
    expect(readFileSync(settings(), "utf8")).toContain(JSON.stringify(`${cleared}'${launcher()}' hook --host claude --timeout 600`))
    expect(cli(["uninstall", "--host", "claude"]).status).toBe(0)
    expect(readFileSync(settings(), "utf8")).toBe(BEFORE)
  }, 120_000)
})

describe.runIf(linux)("install --native without a C compiler", () => {
  it("says so, and writes Node's command", () => {
    const empty = join(scratch(), "no-cc")
    mkdirSync(empty, { recursive: true })
    const installed = cli(["install", "--host", "claude", "--native"], { PATH: empty })
    expect(installed.status, installed.stderr).toBe(0)
    expect(installed.stdout).toContain("native client: no C compiler (cc is not on PATH); the command is Node's client")
    expect(readFileSync(settings(), "utf8")).toContain(JSON.stringify(`${cleared}'${launcher()}' hook --host claude --timeout 600`))
    expect(existsSync(client())).toBe(false)
    expect(cli(["uninstall", "--host", "claude"]).status).toBe(0)
  }, 60_000)
})
