/**
 * The per-user daemon of `agent-hooks hook` (`<bin> __daemon <socket>`, started by its client,
 * `hookClient.ts`): the program loaded once, answering each call as the in-process call would.
 *
 * Each call is the in-process call's own program (`hookCall`), run in a process of the daemon's with
 * the caller's whole environment, working folder, umask and stdin, its stdout and stderr caught and
 * sent back with its exit status. The compiled settings are kept between calls (`planCache.ts`), and
 * used again only while every file they were read from reads the same: a change is seen by the next
 * call. Nothing else of one call is left for the next (a new engine each call).
 * A process runs one call at a time (the call owns its `process.env`, folder and umask): a call while
 * the daemon's own process is busy goes to one of its helpers (`<bin> __daemon-worker <socket>`,
 * started when needed, each its own process, ended when idle), up to `MAX_CALLS` calls at once; a
 * call beyond that (or one that waited `QUEUE_MS` for a helper to start) is told `busy` and runs in
 * process. A caller that goes away (the agent killed its hook) interrupts its call, which kills the
 * hooks it started.
 * A client that asks for it (`"started": true` in its request) is told `started` just before the
 * call's first hook starts: a daemon that dies before it ran nothing, one that dies after it may
 * have run hooks, which the client says when it runs the call again.
 *
 * The socket is 0600 in a 0700 folder of the user's own (`hookClient.ts` checks both before every
 * call, and the daemon on every connection: it exits when either changed), bound under a temporary
 * name and renamed into place: only this user (and root) can connect.
 * The daemon exits after `AGENT_HOOKS_DAEMON_IDLE` seconds (default 900) without a call, and when its
 * socket is removed or replaced (another daemon took its place, or the folder was deleted).
 *
 * @internal
 */
import { fork } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import type { Socket } from "node:net"
import { dirname } from "node:path"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as HostMode from "@agent-hooks/core/HostMode"
import * as ExitCode from "../ExitCode.ts"
import { EngineHost } from "./engine.ts"
import { foreignProjectDir, foreignReader } from "./foreignPayload.ts"
import { answeringOptions, guardMs, guardReply, hostEventOf } from "./hook.ts"
import { parseHookArgs } from "./hookArgs.ts"
import { ACCEPT_MS, socketProblem } from "./hookClient.ts"
import { argsErrorLine, hookCall } from "./hookProgram.ts"
import { makePlanCache } from "./planCache.ts"
import { folderProblem } from "./privateFolder.ts"
import { bufferedStdio } from "./stdin.ts"
import { topLevelMembers } from "./topLevel.ts"

/**
 * The longest request line (the environment is in it) and payload the daemon takes; larger runs
 * in-process (the daemon's heap is kept small: `DAEMON_NODE_FLAGS`).
 */
const MAX_HEADER = 8 * 1024 * 1024
const MAX_STDIN = 16 * 1024 * 1024

/** How many calls the daemon runs at once (its own process and its helpers); one more is told `busy`. */
export const MAX_CALLS = 4
/** How long a call waits for a helper that is starting; then it is told `busy` (below the client's `ACCEPT_MS`). */
const QUEUE_MS = 1000
/** A helper without a call for this long ends. */
const WORKER_IDLE_MS = 60_000

interface Request {
  readonly v: number
  readonly argv: ReadonlyArray<string>
  readonly env: Record<string, string>
  readonly cwd: string
  readonly umask: number
  readonly stdinIsTerminal: boolean
  readonly stdinLength: number
  /** The client reads `started` (said before the first hook starts). */
  readonly started?: boolean
}

const isRequest = (u: unknown): u is Request => {
  if (typeof u !== "object" || u === null) return false
  const r = u as Record<string, unknown>
  return (
    r["v"] === 1 &&
    Array.isArray(r["argv"]) &&
    r["argv"].every((a) => typeof a === "string") &&
    typeof r["env"] === "object" &&
    r["env"] !== null &&
    typeof r["cwd"] === "string" &&
    Number.isInteger(r["umask"]) &&
    typeof r["stdinIsTerminal"] === "boolean" &&
    Number.isInteger(r["stdinLength"]) &&
    (r["stdinLength"] as number) >= 0 &&
    (r["stdinLength"] as number) <= MAX_STDIN &&
    (r["started"] === undefined || typeof r["started"] === "boolean")
  )
}

/** Catches what is written to `stream` (as the bytes the process would write) until `restore`. */
const capture = (stream: NodeJS.WriteStream) => {
  const chunks: Array<Buffer> = []
  const own = Object.getOwnPropertyDescriptor(stream, "write")
  stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
    const done = typeof encoding === "function" ? encoding : callback
    chunks.push(
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk)
    )
    if (typeof done === "function") process.nextTick(done as () => void)
    return true
  }) as typeof stream.write
  return {
    bytes: () => Buffer.concat(chunks),
    restore: () => {
      if (own === undefined) delete (stream as { write?: unknown }).write
      else Object.defineProperty(stream, "write", own)
    }
  }
}

/**
 * Makes `process.env` exactly `env` (the same object: the engine and its hooks read it). Only what
 * differs is changed: each change is a call into the C library's environment, and a call mostly
 * brings the environment the last call had. It is not set back after a call (that read and wrote the
 * whole environment twice more per call): the next call sets its own, and what the daemon itself
 * starts (its helpers) gets the environment it was started with (`daemonEnv`).
 */
const setEnvironment = (env: Record<string, string | undefined>): void => {
  for (const name of Object.keys(process.env)) if (!Object.hasOwn(env, name) || typeof env[name] !== "string") delete process.env[name]
  for (const [name, value] of Object.entries(env)) if (typeof value === "string" && process.env[name] !== value) process.env[name] = value
}

const send = (connection: Socket, message: Record<string, unknown>): void => {
  if (!connection.destroyed) connection.write(`${JSON.stringify(message)}\n`)
}

/**
 * Waits for the client's `go` after `accepted`: only a client that still waits for the answer says
 * it. One that gave up (past `ACCEPT_MS`) runs the call in-process, so this one must not run it too.
 */
const confirmed = (connection: Socket, already: Buffer): Promise<boolean> =>
  new Promise((resolve) => {
    let got = already.toString("latin1")
    let settled = false
    const done = (ok: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      connection.off("data", onData)
      connection.off("end", onEnd)
      connection.off("close", onEnd)
      resolve(ok)
    }
    const check = () => {
      if (got.startsWith("go\n")) done(true)
      else if (got.length >= 3) done(false)
    }
    const onData = (chunk: Buffer) => {
      got += chunk.toString("latin1")
      check()
    }
    const onEnd = () => done(false)
    const timer = setTimeout(onEnd, ACCEPT_MS * 4)
    connection.on("data", onData)
    connection.once("end", onEnd)
    connection.once("close", onEnd)
    check()
  })

/** The environment this process was started with (a call's environment stays set until the next call sets its own). */
const daemonEnv: Readonly<Record<string, string | undefined>> = { ...process.env }

/** The plans this process compiled, kept between its calls. */
const plans = makePlanCache()

/**
 * Runs one call as the in-process call would, in the caller's environment, folder and umask; returns stdout, stderr and
 * the exit status.
 */
const runCall = async (request: Request, stdin: Buffer, after: Buffer, connection: Socket): Promise<void> => {
  // the client that asked is told once, before the call's first hook starts
  let started = false
  const onHookStart = () => {
    if (started || request.started !== true) return
    started = true
    send(connection, { t: "started" })
  }
  const parsed = parseHookArgs(request.argv)
  // --help goes to the full parser: in-process
  if (parsed === "help") return send(connection, { t: "fallback" })
  if (!("error" in parsed)) {
    let hostEvent: string | undefined
    // another agent's call (VS Code's under Claude Code's entry) is answered in that agent's form and time
    let answering = parsed.options
    // Only the payload's top level decides the reply (which agent's call, its event): read without
    // building the rest, so that a payload of many megabytes is accepted within the client's window.
    // A terminal on stdin is an empty payload, as the call reads it.
    const read = request.stdinIsTerminal ? {} : topLevelMembers(stdin)
    if (read !== undefined) {
      // another agent's call is answered in its time for the entry, told as the call tells it (in the
      // caller's folder and environment); the agents' configs are read only for such a call
      const entries = foreignReader(parsed.options.host, read) === undefined ? undefined : await import("./foreignEntry.ts")
      answering = answeringOptions(
        parsed.options,
        read,
        entries &&
          ((reader) =>
            entries.entryTimeout(
              HostMode.byName(parsed.options.host)!,
              reader,
              parsed.options.timeout,
              foreignProjectDir(parsed.options, reader, request.env, request.cwd),
              request.env
            ))
      )
      hostEvent = hostEventOf(answering, read)
    }
    send(connection, { t: "accepted", guard: { ...guardReply(answering, hostEvent), ms: guardMs(answering) } })
  } else {
    send(connection, { t: "accepted" })
  }
  if (!(await confirmed(connection, after))) return void connection.destroy()
  const ownCwd = process.cwd()
  const ownUmask = process.umask(request.umask)
  const stdout = capture(process.stdout)
  const stderr = capture(process.stderr)
  let code: number
  try {
    process.chdir(request.cwd)
    setEnvironment(request.env)
    if ("error" in parsed) {
      process.stderr.write(argsErrorLine(parsed.error))
      code = 2
    } else {
      const fiber = Effect.runFork(
        ExitCode.run(hookCall(parsed, bufferedStdio(stdin, request.stdinIsTerminal), false)).pipe(
          Effect.provideService(Logger.LogToStderr, true),
          Effect.provideService(EngineHost, { plan: plans.plan, onHookStart })
        )
      )
      // the agent killed its hook: the call is interrupted, its hooks killed
      const onClose = () => fiber.interruptUnsafe(fiber.id)
      connection.once("close", onClose)
      code = ExitCode.fromExit(await Effect.runPromise(Fiber.await(fiber)))
      connection.off("close", onClose)
    }
  } catch {
    // the caller's folder is gone, or the call could not start: in-process, where it fails as it fails there
    stdout.restore()
    stderr.restore()
    process.umask(ownUmask)
    try {
      process.chdir(ownCwd)
    } catch {
      process.chdir("/")
    }
    return void connection.destroy()
  }
  stdout.restore()
  stderr.restore()
  process.umask(ownUmask)
  process.chdir(ownCwd)
  send(connection, { t: "done", stdout: stdout.bytes().toString("base64"), stderr: stderr.bytes().toString("base64"), exitCode: code })
  connection.end()
}

interface Helper {
  readonly child: ChildProcess
  ready: boolean
  /** Calls it runs now (0 or 1). */
  calls: number
  last: number
}

interface Waiting {
  readonly request: Request
  readonly stdin: Buffer
  readonly after: Buffer
  readonly connection: Socket
  readonly done: () => void
  readonly timer: NodeJS.Timeout
}

/**
 * The daemon's helpers: processes of its own program (`__daemon-worker`), each running one call at a
 * time, for the calls that come while the daemon's own process runs one. At most `MAX_CALLS - 1`;
 * one starts when a call finds none free (the call waits for it up to `QUEUE_MS`), and one without
 * a call for `WORKER_IDLE_MS` ends.
 */
const helpers = (socket: string) => {
  const all: Array<Helper> = []
  const waiting: Array<Waiting> = []
  const busyAnswer = (connection: Socket) => {
    send(connection, { t: "busy" })
    connection.end()
  }
  const give = (helper: Helper, call: Waiting) => {
    helper.calls++
    helper.last = Date.now()
    // the connection goes to the helper's process (closed here once sent); what was read of it goes along
    call.connection.pause()
    try {
      helper.child.send(
        { request: call.request, stdin: call.stdin.toString("base64"), after: call.after.toString("base64") },
        call.connection,
        (error) => {
          if (error !== null) {
            helper.calls--
            busyAnswer(call.connection)
          }
        }
      )
    } catch {
      helper.calls--
      busyAnswer(call.connection)
    }
  }
  const next = () => {
    for (;;) {
      const helper = all.find((one) => one.ready && one.calls === 0)
      const call = waiting[0]
      if (helper === undefined || call === undefined) return
      waiting.shift()
      clearTimeout(call.timer)
      call.done()
      give(helper, call)
    }
  }
  const start = (): void => {
    let child: ChildProcess
    try {
      // the daemon's own program, runtime and flags (its heap's bounds too)
      child = fork(process.argv[1]!, ["__daemon-worker", socket], {
        execArgv: process.execArgv,
        cwd: "/",
        env: daemonEnv,
        stdio: ["ignore", "ignore", "ignore", "ipc"],
        serialization: "json"
      })
    } catch {
      return
    }
    const helper: Helper = { child, ready: false, calls: 0, last: Date.now() }
    all.push(helper)
    child.on("message", (message: { t?: unknown }) => {
      if (message.t === "ready") helper.ready = true
      else if (message.t === "free") helper.calls = Math.max(0, helper.calls - 1)
      helper.last = Date.now()
      next()
    })
    const gone = () => {
      const at = all.indexOf(helper)
      if (at !== -1) all.splice(at, 1)
    }
    child.on("exit", gone)
    child.on("error", gone)
  }
  /** Calls the helpers run now, or wait for one. */
  const running = (): number => all.reduce((sum, helper) => sum + helper.calls, 0) + waiting.length
  // helpers without a call for a while end (they exit when their channel closes)
  const sweep = setInterval(() => {
    for (const helper of [...all]) {
      if (helper.ready && helper.calls === 0 && Date.now() - helper.last > WORKER_IDLE_MS) {
        all.splice(all.indexOf(helper), 1)
        helper.child.disconnect()
      }
    }
  }, 5000)
  sweep.unref()
  return {
    running,
    /** Gives the call to a free helper, starting one when there is none; `busy` beyond `MAX_CALLS`. */
    hand: (request: Request, stdin: Buffer, after: Buffer, connection: Socket, done: () => void): void => {
      // the daemon's own process runs one call: the helpers take the others, up to MAX_CALLS in all
      if (running() >= MAX_CALLS - 1) {
        busyAnswer(connection)
        return
      }
      const timer = setTimeout(() => {
        const at = waiting.indexOf(call)
        if (at !== -1) waiting.splice(at, 1)
        busyAnswer(connection)
        done()
      }, QUEUE_MS)
      const call: Waiting = { request, stdin, after, connection, done, timer }
      waiting.push(call)
      connection.once("close", () => {
        const at = waiting.indexOf(call)
        if (at === -1) return
        waiting.splice(at, 1)
        clearTimeout(timer)
      })
      const free = all.filter((one) => one.calls === 0).length
      if (free < waiting.length) start()
      next()
    },
    close: (): void => {
      clearInterval(sweep)
      for (const helper of all) helper.child.kill()
    }
  }
}

/**
 * A helper of the daemon (`__daemon-worker`, started by it): runs each call the daemon gives it, one
 * at a time, as the daemon runs its own; ends when the daemon's channel closes and it has no call.
 *
 * @internal
 */
export const worker = (): void => {
  if (process.send === undefined) {
    process.stderr.write("agent-hooks __daemon-worker: started by the agent-hooks daemon only\n")
    process.exit(1)
  }
  process.chdir("/")
  let calls = 0
  let closed = false
  process.on("message", (message: { request?: unknown; stdin?: unknown; after?: unknown }, connection: Socket | undefined) => {
    if (connection === undefined) return
    if (!isRequest(message.request) || typeof message.stdin !== "string" || typeof message.after !== "string") {
      connection.destroy()
      return void process.send?.({ t: "free" })
    }
    calls++
    runCall(message.request, Buffer.from(message.stdin, "base64"), Buffer.from(message.after, "base64"), connection)
      .catch(() => connection.destroy())
      .finally(() => {
        calls--
        if (closed && calls === 0) process.exit(0)
        if (process.connected) process.send?.({ t: "free" })
      })
  })
  // the daemon ended (or ended this helper): the call in hand finishes first
  process.on("disconnect", () => {
    closed = true
    if (calls === 0) process.exit(0)
  })
  process.send({ t: "ready" })
}

/** The request of `uninstall` that asks the daemon to end (daemonStop.ts). */
const isStopRequest = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (value as { readonly stop?: unknown }).stop === true

/**
 * Serves calls on `socket` until idle (or asked to end: `{"stop": true}`). Exits 1 when the folder is not the user's own private folder.
 *
 * @internal
 */
export const main = async (socket: string | undefined): Promise<void> => {
  if (socket === undefined) {
    process.stderr.write("agent-hooks __daemon: the socket path is missing (started by `agent-hooks hook` itself)\n")
    process.exit(1)
  }
  const folder = dirname(socket)
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    const problem = folderProblem(folder)
    if (problem !== undefined) throw new Error(problem)
  } catch (error) {
    process.stderr.write(`agent-hooks __daemon: ${(error as Error).message}\n`)
    process.exit(1)
  }
  const idleMs = Math.max(1, Number(process.env["AGENT_HOOKS_DAEMON_IDLE"] ?? "") || 900) * 1000
  let busy = false
  const pool = helpers(socket)
  let idle: NodeJS.Timeout | undefined
  let ino: number | undefined
  const stop = (): never => {
    server.close()
    pool.close()
    try {
      if (ino !== undefined && lstatSync(socket).ino === ino) rmSync(socket, { force: true })
    } catch {
      // gone already
    }
    process.exit(0)
  }
  const ending = (): void => {
    if (busy || pool.running() > 0) setTimeout(ending, 50)
    else stop()
  }
  const rest = () => {
    if (idle !== undefined) clearTimeout(idle)
    idle = setTimeout(() => (busy || pool.running() > 0 ? rest() : stop()), idleMs)
  }
  const server = createServer((connection) => {
    // Only this user can reach the socket while it is 0600 in a 0700 folder of the user's own: a
    // socket or folder whose mode or owner changed, or a socket that is no longer this one, ends the daemon.
    try {
      if (folderProblem(folder) !== undefined || socketProblem(socket) !== undefined || lstatSync(socket).ino !== ino) throw new Error()
    } catch {
      connection.destroy()
      return stop()
    }
    let header: Request | undefined
    // The bytes read so far (of the request line, then of the payload), joined once when all are in:
    // joining at every chunk copied a payload of many megabytes over and over.
    const chunks: Array<Buffer> = []
    let received = 0
    const onData = (data: Buffer) => {
      let chunk = data
      if (header === undefined) {
        const at = chunk.indexOf(10)
        if (at === -1) {
          chunks.push(chunk)
          received += chunk.length
          if (received > MAX_HEADER) connection.destroy()
          return
        }
        const line = chunks.length === 0 ? chunk.subarray(0, at) : Buffer.concat([...chunks, chunk.subarray(0, at)])
        chunks.length = 0
        received = 0
        let parsed: unknown
        try {
          parsed = JSON.parse(line.toString("utf8"))
        } catch {
          return void connection.destroy()
        }
        // `uninstall` asks the daemon to end (daemonStop.ts): no new call, and exit once its calls are answered
        if (isStopRequest(parsed)) return (send(connection, { t: "stopping" }), ending())
        if (!isRequest(parsed)) return (send(connection, { t: "fallback" }), void connection.end())
        header = parsed
        chunk = chunk.subarray(at + 1)
      }
      if (chunk.length > 0) {
        chunks.push(chunk)
        received += chunk.length
      }
      if (received < header.stdinLength) return
      connection.off("data", onData)
      rest()
      const request = header
      const pending = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)
      chunks.length = 0
      const stdin = pending.subarray(0, request.stdinLength)
      const after = pending.subarray(request.stdinLength)
      // the daemon's own process is busy: a helper takes the call, or it is told busy (runs in-process)
      if (busy) return pool.hand(request, stdin, after, connection, rest)
      busy = true
      runCall(request, stdin, after, connection)
        .catch(() => connection.destroy())
        .finally(() => {
          busy = false
          rest()
        })
    }
    connection.on("data", onData)
    connection.on("error", () => connection.destroy())
  })
  const temp = `${socket}.${process.pid}.tmp`
  rmSync(temp, { force: true })
  const umask = process.umask(0o177)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(temp, () => resolve())
  }).catch((error: Error) => {
    process.stderr.write(`agent-hooks __daemon: cannot listen on ${temp}: ${error.message}\n`)
    process.exit(1)
  })
  process.umask(umask)
  chmodSync(temp, 0o600)
  renameSync(temp, socket)
  ino = lstatSync(socket).ino
  process.chdir("/")
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop)
  // removed or replaced (another daemon, a deleted folder): this one is no longer reached
  setInterval(() => {
    try {
      if (lstatSync(socket).ino !== ino) stop()
    } catch {
      stop()
    }
  }, 5000).unref()
  rest()
}
