/**
 * `agent-hooks uninstall` stops the user's daemon of `agent-hooks hook` (daemonStop.ts): after it,
 * no daemon process of the user is left, and the next hook call starts one again. Run as a user
 * runs it: the BUILT CLI, a real daemon under a HOME of this file's own.
 */
import { realpathSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { cliEnv, runCli, scratchFolder } from "./cliHarness.ts"
import { daemonHarness, nodeClient, until } from "./daemonHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const scratch = scratchFolder("agent-hooks-uninstall-daemon-")
const linux = process.platform === "linux"

const { daemons, socketFile, killDaemons, policyFiles, answeringDaemon } = daemonHarness(scratch, join(fixtures, "hooks"))

afterAll(async () => {
  if (linux) await killDaemons()
})

/** `agent-hooks ARGS` as the user types it, with this file's HOME (the daemon's folder is under it). */
const cli = (args: ReadonlyArray<string>) =>
  runCli(args, { cwd: scratch(), env: cliEnv({ HOME: join(scratch(), "home"), AGENT_HOOKS_HOME: join(scratch(), "ah") }), timeout: 60_000 })

describe.runIf(linux)("uninstall and the user's daemon", () => {
  it("uninstall stops the running daemon (no process, no socket left); the next hook call starts one again", async () => {
    await killDaemons()
    const installed = cli(["install", "--host", "claude", "--user"])
    expect(installed.status, installed.stdout + installed.stderr).toBe(0)
    const settings = policyFiles(join(fixtures, "policy.json"))
    const first = await answeringDaemon(nodeClient, settings)
    expect(daemons()).toEqual([first])

    const removed = cli(["uninstall", "--host", "claude", "--user"])
    expect(removed.status, removed.stdout + removed.stderr).toBe(0)
    // the daemon exited before uninstall returned; its process entry may take a moment to be reaped
    await until("the daemon process gone", () => daemons().length === 0 && socketFile() === undefined, 10_000)
    expect(removed.stdout).toContain("agent-hooks daemon stopped")
    expect(removed.stdout).toContain("the next `agent-hooks hook` call starts it again")

    const again = await answeringDaemon(nodeClient, settings)
    expect(again).not.toBe(first)
  }, 120_000)

  it("uninstall --dry-run leaves the daemon running", async () => {
    const settings = policyFiles(join(fixtures, "policy.json"))
    const running = await answeringDaemon(nodeClient, settings)
    const dry = cli(["uninstall", "--host", "claude", "--user", "--dry-run"])
    expect(dry.status, dry.stdout + dry.stderr).toBe(0)
    expect(dry.stdout).not.toContain("daemon stopped")
    expect(daemons()).toEqual([running])
  }, 120_000)
})
