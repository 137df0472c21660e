/**
 * What the tests of the per-user daemon share (HookDaemon.test.ts: the Node client; NativeClient.test.ts:
 * the native one): a HOME of the test file's own, the environment of a call, the daemons of that
 * HOME (from /proc), its socket, and the probe hook that tells which process ran a call's hooks (it
 * writes its parent's pid: the daemon, or the process that ran the call in-process).
 */
import { spawn } from "node:child_process"
import { readdirSync, readFileSync, existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { cliEnv } from "./cliHarness.ts"

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What a call gave: its exit status, stdout and stderr as text. */
export interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `command` with `stdin` without blocking this process (a daemon of this process may answer it). */
export const running = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: Record<string, string | undefined> },
  stdin: string
): Promise<Result> =>
  new Promise((resolve) => {
    const child = spawn(command, args, options)
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("close", (status) => resolve({ status, stdout, stderr }))
    child.stdin.end(stdin)
  })

/** Waits until `f` holds (polling), failing with `what` after `ms`. */
export const until = async (what: string, f: () => boolean, ms = 15_000): Promise<void> => {
  const end = Date.now() + ms
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

/** The daemon harness of one test file, in its scratch folder; `hooks` is the fixtures' hooks folder. */
export const daemonHarness = (scratch: () => string, hooks: string) => {
  const home = () => join(scratch(), "home")
  const folder = () => join(home(), ".cache", "agent-hooks", "daemon")
  const probe = () => join(scratch(), "probe.txt")

  /** The environment of a call: the daemon on or off, no variable of the runner's that would steer it (`cliEnv`). */
  const env = (daemon: boolean, extra: Record<string, string> = {}): Record<string, string | undefined> =>
    cliEnv({
      AGENT_HOOKS_TEST_HOOKS: hooks,
      HOME: home(),
      AGENT_HOOKS_HOME: join(scratch(), "ah"),
      AGENT_HOOKS_DAEMON: daemon ? "1" : "0",
      AGENT_HOOKS_DAEMON_IDLE: "120",
      PROBE: probe(),
      ...extra
    })

  /** The pids of this file's daemons (their command line names a socket under this file's HOME). */
  const daemons = (): Array<number> =>
    readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .flatMap((pid) => {
        try {
          const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
          return argv.includes("__daemon") && argv.some((arg) => arg.startsWith(home())) ? [Number(pid)] : []
        } catch {
          return []
        }
      })

  const socketFile = (): string | undefined => {
    try {
      return readdirSync(folder())
        .filter((name) => name.endsWith(".sock"))
        .map((name) => join(folder(), name))[0]
    } catch {
      return undefined
    }
  }

  /** The pids the probe hook saw as its parent, call after call. */
  const spawners = (): Array<number> =>
    existsSync(probe())
      ? readFileSync(probe(), "utf8")
          .trim()
          .split("\n")
          .filter((line) => line !== "")
          .map(Number)
      : []

  const killDaemons = async () => {
    for (const pid of daemons()) process.kill(pid, "SIGKILL")
    await until("no daemon", () => daemons().length === 0)
  }

  /** The settings flags of the policy (`policy`) plus the probe hook on PreToolUse. */
  const policyFiles = (policy: string): Array<string> => {
    const file = join(scratch(), "probe.json")
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `echo "$PPID" >> "$PROBE"` }] }] } }))
    return ["--settings", policy, "--settings", file]
  }

  return { home, folder, probe, env, daemons, socketFile, spawners, killDaemons, policyFiles }
}
