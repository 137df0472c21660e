/**
 * The client of the per-user daemon of `agent-hooks hook` (only `node:*` imports: `bin.ts` loads it
 * before the program, so a call the daemon answers never loads the program at all).
 *
 * A call goes to the daemon only when everything about it is as it must be, else it runs in-process,
 * with the same answer (the daemon is never needed for correctness):
 * - the folder is the user's own (owned by this uid, mode 0700, not a symlink) and the socket in it
 *   is the user's own socket with mode 0600;
 * - the daemon accepts the call within `ACCEPT_MS` (a busy daemon, `MAX_CALLS` at once, says so at once),
 *   and runs it only once this client said `go` (a client that gave up runs it in-process instead:
 *   never both);
 * - the daemon answers; a daemon that dies after it accepted the call means the call runs again in
 *   process, said on stderr: as a call that no hook had run yet when the daemon said nothing more,
 *   and as one whose hooks may run twice once the daemon said `started` (its first hook started);
 *   so does an answer this client cannot read (`wellFormed`: the native client reads the same
 *   answers alike), of any size up to `MAX_REPLY_LINE`, never an exit of this process of its own.
 * No daemon (no socket, or a socket nobody listens on) starts one, detached, and this call runs in
 * process. `AGENT_HOOKS_DAEMON=0` (or `false`, `no`, `off`) turns it off. Not under Bun or Deno (they run the program).
 *
 * The request is one JSON line (`argv`, the whole environment, `cwd`, `umask`, whether stdin is a
 * terminal, the payload's length, and `started: true`: this client reads `started`) and the
 * payload's bytes; the daemon answers with JSON lines: `busy`/`fallback` (run in-process), or
 * `accepted` (with the answer to write if the call outlives its time budget, as the in-process last
 * resort writes it), to which the client says `go`, then `started` (only to a client that asked:
 * the call's first hook starts now), then `done` (stdout, stderr as base64, exit code).
 *
 * @internal
 */
// Node's modules through process.getBuiltinModule, not import: an import of node:fs builds its ES
// module face, which reads every export, and so loads all of Node's streams; and this module is
// also built as one CommonJS file (dist/hook-client.cjs), which has no import.meta.
const { lstatSync, readSync, statSync, writeSync } = process.getBuiltinModule("node:fs")
const { createConnection } = process.getBuiltinModule("node:net")
const { isAbsolute, join } = process.getBuiltinModule("node:path")
const { isatty } = process.getBuiltinModule("node:tty")

import { PRE_READ_STDIN } from "./hookStdin.ts"
import type { PreReadStdin } from "./hookStdin.ts"
import { folderProblem } from "./privateFolder.ts"

/** How long the daemon has to accept (or refuse) a call before it runs in-process. */
export const ACCEPT_MS = 1500

/** A Unix socket path longer than this cannot be bound on Linux (108 bytes with the NUL) nor macOS (104). */
const MAX_SOCKET_PATH = 100

/** FNV-1a, 32 bits, twice (two seeds): a name for the daemon of one build and runtime, not a secret. */
const hash = (text: string): string => {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15)
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0")
}

/**
 * The daemon's folder: `$XDG_RUNTIME_DIR/agent-hooks` (the user's runtime folder), else
 * `$XDG_CACHE_HOME/agent-hooks/daemon` or `~/.cache/agent-hooks/daemon`; `undefined` without a home.
 *
 * @internal
 */
export const daemonFolder = (env: NodeJS.ProcessEnv): string | undefined => {
  const runtime = env["XDG_RUNTIME_DIR"]
  if (runtime !== undefined && isAbsolute(runtime)) return join(runtime, "agent-hooks")
  const cacheHome = env["XDG_CACHE_HOME"]
  if (cacheHome !== undefined && isAbsolute(cacheHome)) return join(cacheHome, "agent-hooks", "daemon")
  // node:os only without HOME: a call with it loads one module less
  const home = env["HOME"] || process.getBuiltinModule("node:os").homedir()
  return home !== "" && isAbsolute(home) ? join(home, ".cache", "agent-hooks", "daemon") : undefined
}

/**
 * The socket of the daemon for this build of the CLI (its bundle's path, size and time) run by this
 * runtime with these flags: another version, another Node or other Node options have a daemon of
 * their own, so a daemon answers exactly as the program this call would load.
 *
 * @internal
 */
export const daemonSocket = (env: NodeJS.ProcessEnv, bundle: string): string | undefined => {
  const folder = daemonFolder(env)
  if (folder === undefined) return undefined
  let stamp: string
  try {
    const stat = statSync(bundle)
    stamp = `${bundle}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}`
  } catch {
    return undefined
  }
  const key = [
    stamp,
    process.execPath,
    process.version,
    ...process.execArgv,
    env["NODE_OPTIONS"] ?? "",
    env["NODE_EXTRA_CA_CERTS"] ?? ""
  ].join("\0")
  const socket = join(folder, `${hash(key)}.sock`)
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH ? socket : undefined
}

/** Why `socket` is not the user's own socket with mode 0600, or `undefined` when it is. */
export const socketProblem = (socket: string): string | undefined => {
  const stat = lstatSync(socket)
  if (!stat.isSocket()) return `${socket} is not a socket`
  const uid = process.getuid?.()
  if (uid !== undefined && stat.uid !== uid) return `${socket} belongs to uid ${stat.uid}, not to this user (uid ${uid})`
  if ((stat.mode & 0o177) !== 0) return `${socket} has mode ${(stat.mode & 0o777).toString(8)}, not 600`
  return undefined
}

/**
 * The daemon's heap bounds: a small young generation, and an old one well above what a call keeps
 * (a call's payload is at most 16 MB there). Without them V8 lets the heap of a process that
 * allocates on every call grow for hundreds of calls before it collects (69 -> 240 MB over 3000
 * calls), though what a call leaves behind is freed.
 *
 * @internal
 */
export const DAEMON_NODE_FLAGS: ReadonlyArray<string> = ["--max-semi-space-size=2", "--max-old-space-size=192"]

/** Starts the daemon (`<bin> __daemon <socket>`), detached, in `/`, with this call's environment. */
const startDaemon = (bin: string, socket: string): void => {
  try {
    // node:child_process only when a daemon is started: a call it answers starts without it
    const { spawn } = process.getBuiltinModule("node:child_process")
    const child = spawn(process.execPath, [...process.execArgv, ...DAEMON_NODE_FLAGS, bin, "__daemon", socket], {
      detached: true,
      stdio: "ignore",
      cwd: "/",
      env: process.env
    })
    child.on("error", () => {})
    child.unref()
  } catch {
    // no daemon: every call runs in-process
  }
}

/** The whole of stdin (a terminal counts as empty, as the in-process call reads it). */
const readStdin = async (): Promise<PreReadStdin> => {
  // isatty, not process.stdin: that would make a stream of stdin (and load the streams) just to ask
  if (isatty(0)) return { bytes: new Uint8Array(0), isTerminal: true }
  const chunks: Array<Buffer> = []
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(65536)
      const read = readSync(0, chunk)
      if (read === 0) return { bytes: Buffer.concat(chunks), isTerminal: false }
      chunks.push(chunk.subarray(0, read))
    }
  } catch (error) {
    // a non-blocking pipe with nothing in it yet: the rest comes through the stream, after what was read
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error
  }
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return { bytes: Buffer.concat(chunks), isTerminal: false }
}

interface Reply {
  readonly t: "busy" | "fallback" | "accepted" | "started" | "done"
  readonly stdout?: string
  readonly stderr?: string
  readonly exitCode?: number
  readonly guard?: { readonly stdout: string; readonly stderr: string; readonly exitCode: number; readonly ms: number }
}

/** The longest answer line read from the daemon (the native client's MAX_LINE): longer is not an answer. */
export const MAX_REPLY_LINE = 128 * 1024 * 1024

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** One character of the base64 alphabet (`A-Z a-z 0-9 + /`), as a char code. */
const isBase64Char = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47

/**
 * Whether `text` is padded base64 (groups of 4 of the alphabet, the last one ending in `=` or `==`),
 * checked in one loop: a regular expression over a daemon's answer of megabytes overflows V8's
 * stack ("Maximum call stack size exceeded"), and the call's answer would be lost.
 *
 * @internal
 */
export const isBase64 = (text: string): boolean => {
  const n = text.length
  if (n % 4 !== 0) return false
  const pad = n > 0 && text.charCodeAt(n - 1) === 61 ? (text.charCodeAt(n - 2) === 61 ? 2 : 1) : 0
  for (let i = 0; i < n - pad; i++) if (!isBase64Char(text.charCodeAt(i))) return false
  return true
}

/** How deep a reply's values may nest (a field's value is level 1): the native client reads no deeper. */
const MAX_DEPTH = 64

/** Whether a value of the reply nests deeper than MAX_DEPTH (walked without recursion). */
const tooDeep = (reply: object): boolean => {
  const stack: Array<readonly [unknown, number]> = Object.values(reply).map((value) => [value, 1] as const)
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, level] = next
    if (level > MAX_DEPTH) return true
    if (typeof value === "object" && value !== null) for (const child of Object.values(value)) stack.push([child, level + 1])
  }
  return false
}

/** An exit status a process can have (0 to 255): the one a `done` or a last resort carries. */
const isExitStatus = (code: unknown): code is number => Number.isInteger(code) && (code as number) >= 0 && (code as number) <= 255

/**
 * A `done` this client can write as the call's answer: padded base64 stdout and stderr, an exit
 * status from 0 to 255 (the native client reads it the same way). Anything else is a daemon this
 * client cannot read (Node's base64 decoder skips what is not base64, so `%%%` would be an empty
 * answer with exit 0; `1e400` or 256 would be exit 0 too): the call runs again in-process.
 */
const wellFormed = (reply: Reply): reply is Reply & { stdout: string; stderr: string; exitCode: number } =>
  typeof reply.stdout === "string" &&
  isBase64(reply.stdout) &&
  typeof reply.stderr === "string" &&
  isBase64(reply.stderr) &&
  isExitStatus(reply.exitCode)

/** The last resort the daemon hands over with `accepted`: texts, an exit status (0 to 255), a time. */
const wellFormedGuard = (guard: unknown): boolean => {
  if (typeof guard !== "object" || guard === null) return false
  const { stdout, stderr, exitCode, ms } = guard as Record<string, unknown>
  return typeof stdout === "string" && typeof stderr === "string" && isExitStatus(exitCode) && typeof ms === "number" && Number.isFinite(ms)
}

/**
 * Writes all of `bytes` to stdout (1) or stderr (2) with write(2), not through `process.stdout`
 * (making that stream loads Node's streams: a good part of a call the daemon answers). A pipe that
 * is full and non-blocking (EAGAIN) takes the rest through the stream, which waits for it; a reader
 * that is gone (EPIPE) gets nothing more, as the in-process call's stream would give it.
 */
const writeAll = (fd: 1 | 2, bytes: Buffer): void => {
  let at = 0
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EAGAIN") (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(at))
  }
}

/** Writes an answer as the process's (stdout, stderr as bytes) and sets the exit status. */
const answer = (stdout: Buffer, stderr: Buffer, exitCode: number): void => {
  writeAll(1, stdout)
  writeAll(2, stderr)
  process.exitCode = exitCode
}

type Attempt = "answered" | "in-process" | "again" | "stale"

/**
 * What stderr says when the daemon went away with the call: run again in-process, and whether its
 * hooks may run twice (the daemon had said its first hook started). Running it again is the safe
 * answer for a guard (its block is never lost); a hook with side effects is told by this line.
 *
 * @internal
 */
export const lostLine = (started: boolean): string =>
  started
    ? "agent-hooks: warning: the agent-hooks daemon stopped after it had started this call's hooks; the call ran again in-process, so its hooks may have run twice\n"
    : "agent-hooks: warning: the agent-hooks daemon stopped before it started any hook of this call; the call ran in-process (no hook ran twice)\n"

/** One attempt through the daemon at `socket`. */
const attempt = (socket: string, argv: ReadonlyArray<string>, stdin: PreReadStdin): Promise<Attempt> =>
  new Promise((resolve) => {
    let settled = false
    let connected = false
    let accepted = false
    // the daemon said its first hook started: a call run again may run hooks twice
    let started = false
    let guard: NodeJS.Timeout | undefined
    const finish = (result: Attempt) => {
      if (settled) return
      settled = true
      clearTimeout(acceptTimer)
      if (guard !== undefined) clearTimeout(guard)
      connection.destroy()
      resolve(result)
    }
    const connection = createConnection(socket)
    const acceptTimer = setTimeout(() => finish("in-process"), ACCEPT_MS)
    // The line being read: its chunks as they came (bytes; a newline byte is never inside a UTF-8
    // character), so each chunk is searched once, however long the line (a daemon's answer can be megabytes).
    let pending: Array<Buffer> = []
    let pendingBytes = 0
    connection.on("connect", () => {
      connected = true
    })
    connection.on("error", (error: NodeJS.ErrnoException) => {
      // a socket nobody listens on: its daemon was killed
      if (!connected && (error.code === "ECONNREFUSED" || error.code === "ENOENT")) return finish("stale")
      lost()
    })
    connection.on("close", () => {
      if (!settled) lost()
    })
    /** The daemon went away after it accepted the call (or said something this client cannot read): in-process, said. */
    const lost = () => {
      if (accepted) process.stderr.write(lostLine(started))
      finish(accepted ? "again" : "in-process")
    }
    /** One line from the daemon: `false` when it was the last this client reads. */
    const onLine = (line: string): boolean => {
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch {
        lost()
        return false
      }
      // `null`, a number, an array: not a reply (reading `.t` of null would throw); nor one nested
      // deeper than the native client reads
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || tooDeep(parsed)) {
        lost()
        return false
      }
      const reply = parsed as Reply
      if (reply.t === "accepted" && !accepted && !(reply.guard === undefined || wellFormedGuard(reply.guard))) {
        // a last resort it cannot keep: not taken as accepted (the call runs in-process)
        lost()
        return false
      } else if (reply.t === "accepted" && !accepted) {
        // From here this client waits for the daemon's answer (it ran the call): `go` says so.
        accepted = true
        clearTimeout(acceptTimer)
        connection.write("go\n")
        const last = reply.guard
        if (last !== undefined) {
          // The last resort of the in-process call, counted from this process's start (process.uptime:
          // the global `performance` would load Node's perf_hooks): the daemon is stuck.
          guard = setTimeout(
            () => {
              if (settled) return
              answer(Buffer.from(last.stdout), Buffer.from(last.stderr), last.exitCode)
              finish("answered")
            },
            // at most setTimeout's longest delay (a longer one fires at once, with a warning)
            Math.min(MAX_TIMER_MS, Math.max(0, last.ms - process.uptime() * 1000))
          )
        }
        return true
      } else if (reply.t === "started" && accepted) {
        started = true
        return true
      } else if (reply.t === "done" && accepted && wellFormed(reply)) {
        answer(Buffer.from(reply.stdout, "base64"), Buffer.from(reply.stderr, "base64"), reply.exitCode)
        finish("answered")
        return false
      }
      lost()
      return false
    }
    connection.on("data", (chunk: Buffer) => {
      // nothing read after the attempt ended (an answer written, or the call gone in-process)
      if (settled) return
      // Whatever this client cannot read (or a failure of its own while reading) is a daemon that
      // said nothing it can use: the call runs again in-process, never an exit of this process.
      try {
        let from = 0
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, from)) {
          pending.push(chunk.subarray(from, at))
          const line = Buffer.concat(pending).toString("utf8")
          pending = []
          pendingBytes = 0
          from = at + 1
          if (!onLine(line)) return
        }
        if (from < chunk.length) {
          pending.push(chunk.subarray(from))
          pendingBytes += chunk.length - from
          if (pendingBytes > MAX_REPLY_LINE) lost()
        }
      } catch {
        lost()
      }
    })
    const header = JSON.stringify({
      v: 1,
      argv,
      env: process.env,
      cwd: process.cwd(),
      umask: process.umask(),
      stdinIsTerminal: stdin.isTerminal,
      stdinLength: stdin.bytes.length,
      started: true
    })
    connection.write(`${header}\n`)
    connection.write(stdin.bytes)
  })

/**
 * Answers `agent-hooks hook` through the daemon when it can: `true` when the answer was written
 * (stdout, stderr, exit status), `false` when the call must run in-process (with the stdin this
 * read, left at `globalThis[PRE_READ_STDIN]`).
 *
 * @internal
 */
export const throughDaemon = async (argv: ReadonlyArray<string>, bin: string, bundle: string): Promise<boolean> => {
  const env = process.env
  // The native client (packages/cli/native/hook-client.c) asked the daemon already: this call runs in-process, once, and
  // its hooks never see the marker
  if (env["AGENT_HOOKS_DAEMON_TRIED"] !== undefined) {
    delete env["AGENT_HOOKS_DAEMON_TRIED"]
    return false
  }
  if (/^(0|false|no|off)$/i.test(env["AGENT_HOOKS_DAEMON"] ?? "") || typeof process.versions.bun === "string" || "Deno" in globalThis)
    return false
  if (process.platform === "win32" || process.getuid === undefined) return false
  // --help reads no stdin in-process: neither does this (a stdin left open would hang it here)
  if (argv.includes("--help") || argv.includes("-h")) return false
  const socket = daemonSocket(env, bundle)
  if (socket === undefined) return false
  const folder = join(socket, "..")
  try {
    const problem = folderProblem(folder)
    if (problem !== undefined) {
      process.stderr.write(
        `agent-hooks: warning: not using the daemon: ${problem}; the call ran in-process (remove the folder, or set AGENT_HOOKS_DAEMON=0)\n`
      )
      return false
    }
  } catch {
    startDaemon(bin, socket)
    return false
  }
  try {
    const problem = socketProblem(socket)
    if (problem !== undefined) {
      process.stderr.write(
        `agent-hooks: warning: not using the daemon: ${problem}; the call ran in-process (remove it, or set AGENT_HOOKS_DAEMON=0)\n`
      )
      return false
    }
  } catch {
    startDaemon(bin, socket)
    return false
  }
  let stdin: PreReadStdin
  try {
    stdin = await readStdin()
  } catch {
    return false
  }
  ;(globalThis as { [PRE_READ_STDIN]?: PreReadStdin })[PRE_READ_STDIN] = stdin
  const result = await attempt(socket, argv, stdin)
  // a daemon that was killed left its socket: a new one replaces it
  if (result === "stale") startDaemon(bin, socket)
  return result === "answered"
}
