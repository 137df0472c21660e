/**
 * The executable as npm links it and `install` writes it for Node: `dist/agent-hooks.cjs`
 * (internal/nodeEntry.ts), one CommonJS file that asks the per-user daemon before any ES module
 * loads, and runs `bin.js` for everything else. Run as an agent runs it: the BUILT CLI, real
 * processes, a real daemon under a HOME of this file's own.
 *
 * What a user relies on (its calls through the daemon are HookClients.test.ts' `entryClient`): the same answer as `bin.js` gives, the
 * payload read once and handed to the in-process call, the daemon asked once per call (one warning,
 * one daemon started), every other command unchanged, and `install` writing this entry while a
 * config that names `bin.js` of the same install still counts as this agent-hooks.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { bin, node, scratchFolder } from "./cliHarness.ts"
import { daemonHarness, sleep, until } from "./daemonHarness.ts"
import type { Result } from "./daemonHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const scratch = scratchFolder("agent-hooks-node-entry-")
const linux = process.platform === "linux"
const entry = join(dirname(bin), "agent-hooks.cjs")
const { folder, env, daemons, socketFile, killDaemons, policyFiles } = daemonHarness(scratch, join(fixtures, "hooks"))
afterAll(async () => {
  if (linux) await killDaemons()
})

const bash = (command: string): string =>
  JSON.stringify({
    session_id: "s",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/work/p",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "x" },
    tool_use_id: "toolu_1"
  })

const call = (
  file: string,
  stdin: string,
  daemon: boolean,
  args: ReadonlyArray<string> = policyFiles(join(fixtures, "policy.json"))
): Result => {
  const result = spawnSync(node, [file, "hook", "--host", "claude", ...args], {
    input: stdin,
    cwd: scratch(),
    env: env(daemon),
    encoding: "utf8",
    timeout: 25_000
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("agent-hooks.cjs", () => {
  it("is the package's executable, and runs every command as bin.js does", () => {
    const pkg = JSON.parse(readFileSync(join(dirname(bin), "..", "package.json"), "utf8")) as { bin: Record<string, string> }
    expect(join(dirname(bin), "..", pkg.bin["agent-hooks"]!)).toBe(entry)
    expect(readFileSync(entry, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true)
    for (const args of [["--version"], ["list", "--settings", join(fixtures, "policy.json")], ["nonsense-command"]]) {
      const through = spawnSync(node, [entry, ...args], { cwd: scratch(), env: env(false), encoding: "utf8" })
      const direct = spawnSync(node, [bin, ...args], { cwd: scratch(), env: env(false), encoding: "utf8" })
      expect({ status: through.status, stdout: through.stdout, stderr: through.stderr }, args.join(" ")).toStrictEqual({
        status: direct.status,
        stdout: direct.stdout,
        stderr: direct.stderr
      })
    }
  })

  it("in-process (AGENT_HOOKS_DAEMON=0): the payload read once, the answer bin.js gives", () => {
    for (const command of ["rm -rf /", "echo JSONDENY", "ls"]) {
      const through = call(entry, bash(command), false)
      expect(through, command).toStrictEqual(call(bin, bash(command), false))
    }
    expect(call(entry, bash("rm -rf /"), false).status).toBe(2)
  })
})

describe.runIf(linux)("agent-hooks.cjs and the daemon", () => {
  it("a first call with no daemon: answered in-process from the stdin the client read, and one daemon started", async () => {
    expect(daemons()).toStrictEqual([])
    const first = call(entry, bash("rm -rf /"), true)
    expect(first.status).toBe(2)
    expect(first.stderr).toContain("no rm -rf here")
    await until("the daemon's socket", () => socketFile() !== undefined && daemons().length > 0)
    // a second ask (bin.js asking again after the entry did) would start a second daemon
    await sleep(1500)
    expect(daemons()).toHaveLength(1)
  })

  it("a daemon folder that is not private: said once, the call in-process", async () => {
    await killDaemons()
    mkdirSync(folder(), { recursive: true })
    chmodSync(folder(), 0o755)
    const result = call(entry, bash("rm -rf /"), true)
    expect(result.status).toBe(2)
    expect(result.stderr.match(/not using the daemon/g), result.stderr).toHaveLength(1)
    chmodSync(folder(), 0o700)
  })
})

describe("install writes the entry; a config naming bin.js of the same install is this agent-hooks", () => {
  it("install --project writes agent-hooks.cjs; doctor accepts bin.js there, and refuses another install's", () => {
    const project = join(scratch(), "project")
    mkdirSync(project, { recursive: true })
    const cli = (args: ReadonlyArray<string>) =>
      spawnSync(node, [bin, ...args], {
        cwd: project,
        env: { ...env(false), CLAUDE_PROJECT_DIR: project, AGENT_HOOKS_PROJECT_DIR: project },
        encoding: "utf8"
      })
    const installed = cli(["install", "--host", "claude", "--project"])
    expect(installed.status, installed.stderr + installed.stdout).toBe(0)
    const file = join(project, ".claude", "settings.json")
    const written = readFileSync(file, "utf8")
    expect(written).toContain(`'${realpathSync(entry)}' hook --host claude`)
    // a config written before agent-hooks.cjs was the entry
    writeFileSync(file, written.replaceAll(realpathSync(entry), realpathSync(bin)))
    const doctor = cli(["doctor", "--host", "claude", "--project"])
    expect(doctor.stdout + doctor.stderr).not.toContain("not this agent-hooks")
    expect(doctor.stdout).toContain(`note: the command starts ${realpathSync(bin)}; agent-hooks install --host claude again writes`)
    // the same file names, in another folder: not this agent-hooks
    const elsewhere = join(scratch(), "other", "dist")
    mkdirSync(elsewhere, { recursive: true })
    writeFileSync(join(elsewhere, "bin.js"), "")
    writeFileSync(file, written.replaceAll(realpathSync(entry), join(elsewhere, "bin.js")))
    const refused = cli(["doctor", "--host", "claude", "--project"])
    expect(refused.stdout + refused.stderr).toContain("not this agent-hooks")
  })
})
