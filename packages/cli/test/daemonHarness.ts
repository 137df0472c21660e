/**
 * What the tests of the per-user daemon share (HookDaemon.test.ts: the daemon itself;
 * HookClients.test.ts: its clients, Node's and the native one): the clients, the agents' payloads,
 * a HOME of the test file's own, the environment of a call, the call through a client or
 * in-process, the daemons of that HOME (from /proc), its socket, and the probe hook that tells which
 * process ran a call's hooks (it writes its parent's pid: the daemon, or the process that ran the
 * call in-process).
 */
import { spawn, spawnSync } from "node:child_process"
import { readdirSync, readFileSync, realpathSync, existsSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { bin, cliEnv, node } from "./cliHarness.ts"

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What a call gave: its exit status, stdout and stderr as text. */
export interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A client of the daemon: how `agent-hooks ARGS` is started through it. */
export interface Client {
  readonly name: string
  readonly native: boolean
  /** The program and its arguments for `agent-hooks ARGS`. */
  readonly command: (args: ReadonlyArray<string>) => readonly [string, ReadonlyArray<string>]
  /** The same for `sh -c`, in words of the variables NODE, BIN, ENTRY and CLIENT. */
  readonly shell: string
}

/** Node's client: the CLI itself (internal/hookClient.ts). */
export const nodeClient: Client = {
  name: "Node's client",
  native: false,
  command: (args) => [node, [bin, ...args]],
  shell: '"$NODE" "$BIN"'
}

/** The CLI's executable as npm links it and `install` writes it for Node: `agent-hooks.cjs` (internal/nodeEntry.ts). */
export const entry = join(dirname(bin), "agent-hooks.cjs")

/** Node's client started as `install` writes it: through `agent-hooks.cjs`, before any ES module loads. */
export const entryClient: Client = {
  name: "Node's client through agent-hooks.cjs",
  native: false,
  command: (args) => [node, [entry, ...args]],
  shell: '"$NODE" "$ENTRY"'
}

/** The native client built at `file` (packages/cli/native/hook-client.c). */
export const nativeClient = (file: () => string): Client => ({
  name: "the native client",
  native: true,
  command: (args) => [file(), args],
  shell: '"$CLIENT"'
})

/** The agents whose recorded payloads (packages/core/test/fixtures/hosts/) the calls send. */
export const hosts = ["claude", "codex", "gemini", "qwen"] as const
export type Host = (typeof hosts)[number]
const hostFixtures = realpathSync(fileURLToPath(new URL("../../core/test/fixtures/hosts/", import.meta.url)))
export type Payload = Record<string, unknown>
/** Every payload recorded from `host` (its real calls, then the shapes the recording did not reach). */
export const recorded = (host: string): ReadonlyArray<Payload> =>
  [`${host}.json`, `${host}.shapes.json`].flatMap((file) => JSON.parse(readFileSync(join(hostFixtures, file), "utf8")))
/** The agent's recorded shell tool call, with `command`. */
export const shell = (host: Host, command: string): string => {
  const event = host === "gemini" ? "BeforeTool" : "PreToolUse"
  const tool = host === "gemini" || host === "qwen" ? "run_shell_command" : "Bash"
  const base = recorded(host).find((p) => p["hook_event_name"] === event && p["tool_name"] === tool)!
  return JSON.stringify({ ...base, cwd: "/work/p", tool_input: { command, description: "x" } })
}

/** Settings with one PreToolUse command hook, `command`. */
export const preToolUse = (command: string): string =>
  JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command }] }] } })

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

  /**
   * The environment of a call: the daemon on or off, no variable of the runner's that would steer it
   * (`cliEnv`). LeakSanitizer's report would be part of stderr (a native client built with it exits
   * or exec's with its buffers held): off.
   */
  const env = (daemon: boolean, extra: Record<string, string> = {}): Record<string, string | undefined> =>
    cliEnv({
      ASAN_OPTIONS: "detect_leaks=0",
      AGENT_HOOKS_TEST_HOOKS: hooks,
      // the user's settings are $HOME/.agent-hooks: host mode ignores AGENT_HOOKS_HOME (a project can set it)
      HOME: home(),
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
    writeFileSync(file, preToolUse(`echo "$PPID" >> "$PROBE"`))
    return ["--settings", policy, "--settings", file]
  }

  /**
   * `agent-hooks hook ARGS` through `via` (the daemon on), or in-process (`AGENT_HOOKS_DAEMON=0`,
   * Node's client): the answer the daemon's must equal byte for byte.
   */
  const call = (
    via: Client | "in-process",
    args: ReadonlyArray<string>,
    stdin: string | Buffer,
    extra: Record<string, string> = {}
  ): Result => {
    const [command, argv] = (via === "in-process" ? nodeClient : via).command(["hook", ...args])
    const result = spawnSync(command, argv, {
      input: stdin,
      cwd: scratch(),
      env: env(via !== "in-process", extra),
      encoding: "utf8",
      timeout: 25_000,
      maxBuffer: 64 * 1024 * 1024
    })
    if (result.error) throw result.error
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  /** The pid the probe hook saw as its parent on the last call (the process that spawned it). */
  const lastSpawner = (): number | undefined => spawners().at(-1)

  /** One daemon that answers `via`'s calls of `settings` (started by a first call, which itself runs in-process). */
  const answeringDaemon = async (via: Client, settings: ReadonlyArray<string>): Promise<number> => {
    const ls = shell("claude", "ls")
    if (daemons().length === 0) {
      call(via, ["--host", "claude", ...settings], ls)
      await until("the daemon's socket", () => socketFile() !== undefined && daemons().length > 0)
    }
    // One daemon, answering: a call that found a stale socket while the new daemon was starting
    // started another, which replaces the first one's socket when it is up (and the first one exits)
    await until(
      "one daemon answering",
      () => {
        call(via, ["--host", "claude", ...settings], ls)
        const running = daemons()
        return running.length === 1 && lastSpawner() === running[0]
      },
      30_000
    )
    return lastSpawner()!
  }

  return { home, folder, probe, env, daemons, socketFile, spawners, killDaemons, policyFiles, call, lastSpawner, answeringDaemon }
}
