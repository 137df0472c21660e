/**
 * The per-user daemon of `agent-hooks hook` (`<bin> __daemon <socket>`, started by its client,
 * `hookClient.ts`): the program loaded once, answering each call as the in-process call would.
 *
 * Each call is the in-process call's own program (`hookCall`), run in this process with the
 * caller's whole environment, working folder, umask and stdin, its stdout and stderr caught and
 * sent back with its exit status: the settings are read again on every call (a change is seen by
 * the next call), and nothing of one call is left for the next. So one call runs at a time: a call
 * while another runs is told `busy` and runs in-process. A caller that goes away (the agent killed
 * its hook) interrupts its call, which kills the hooks it started.
 *
 * The socket is 0600 in a 0700 folder of the user's own (`hookClient.ts` checks both before every
 * call, and the daemon on every connection: it exits when either changed), bound under a temporary
 * name and renamed into place: only this user (and root) can connect.
 * The daemon exits after `AGENT_HOOKS_DAEMON_IDLE` seconds (default 900) without a call, and when its
 * socket is removed or replaced (another daemon took its place, or the folder was deleted).
 *
 * @internal
 */
import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import type { Socket } from "node:net"
import { dirname } from "node:path"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as ExitCode from "../ExitCode.ts"
import { answeringOptions, guardMs, guardReply, hostEventOf } from "./hook.ts"
import { parseHookArgs } from "./hookArgs.ts"
import { ACCEPT_MS, socketProblem } from "./hookClient.ts"
import { argsErrorLine, hookCall } from "./hookProgram.ts"
import { folderProblem } from "./privateFolder.ts"
import { bufferedStdio } from "./stdin.ts"

/** The longest request line (the environment is in it) and payload the daemon takes; larger runs in-process. */
const MAX_HEADER = 8 * 1024 * 1024
const MAX_STDIN = 256 * 1024 * 1024

interface Request {
  readonly v: number
  readonly argv: ReadonlyArray<string>
  readonly env: Record<string, string>
  readonly cwd: string
  readonly umask: number
  readonly stdinIsTerminal: boolean
  readonly stdinLength: number
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
    (r["stdinLength"] as number) <= MAX_STDIN
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

/** Makes `process.env` exactly `env` (the same object: the engine and its hooks read it). */
const setEnvironment = (env: Record<string, string | undefined>): void => {
  for (const name of Object.keys(process.env)) delete process.env[name]
  for (const [name, value] of Object.entries(env)) if (typeof value === "string") process.env[name] = value
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

/**
 * Runs one call as the in-process call would, in the caller's environment, folder and umask; returns stdout, stderr and
 * the exit status.
 */
const runCall = async (request: Request, stdin: Buffer, after: Buffer, connection: Socket): Promise<void> => {
  const parsed = parseHookArgs(request.argv)
  // --help goes to the full parser: in-process
  if (parsed === "help") return send(connection, { t: "fallback" })
  if (!("error" in parsed)) {
    let hostEvent: string | undefined
    // another agent's call (VS Code's under Claude Code's entry) is answered in that agent's form and time
    let answering = parsed.options
    try {
      const read: unknown = JSON.parse(stdin.toString("utf8"))
      if (typeof read === "object" && read !== null && !Array.isArray(read)) {
        answering = answeringOptions(parsed.options, read as Record<string, unknown>)
        hostEvent = hostEventOf(answering, read as Record<string, unknown>)
      }
    } catch {
      // not JSON: the call answers so itself
    }
    send(connection, { t: "accepted", guard: { ...guardReply(answering, hostEvent), ms: guardMs(answering) } })
  } else {
    send(connection, { t: "accepted" })
  }
  if (!(await confirmed(connection, after))) return void connection.destroy()
  const ownEnv = { ...process.env }
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
          Effect.provideService(Logger.LogToStderr, true)
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
    setEnvironment(ownEnv)
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
  setEnvironment(ownEnv)
  process.umask(ownUmask)
  process.chdir(ownCwd)
  send(connection, { t: "done", stdout: stdout.bytes().toString("base64"), stderr: stderr.bytes().toString("base64"), exitCode: code })
  connection.end()
}

/**
 * Serves calls on `socket` until idle. Exits 1 when the folder is not the user's own private folder.
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
  let idle: NodeJS.Timeout | undefined
  let ino: number | undefined
  const stop = (): never => {
    server.close()
    try {
      if (ino !== undefined && lstatSync(socket).ino === ino) rmSync(socket, { force: true })
    } catch {
      // gone already
    }
    process.exit(0)
  }
  const rest = () => {
    if (idle !== undefined) clearTimeout(idle)
    idle = setTimeout(() => (busy ? rest() : stop()), idleMs)
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
    let pending: Buffer = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      if (header === undefined) {
        const at = pending.indexOf(10)
        if (at === -1) {
          if (pending.length > MAX_HEADER) connection.destroy()
          return
        }
        let parsed: unknown
        try {
          parsed = JSON.parse(pending.subarray(0, at).toString("utf8"))
        } catch {
          return void connection.destroy()
        }
        if (!isRequest(parsed)) return (send(connection, { t: "fallback" }), void connection.end())
        header = parsed
        pending = pending.subarray(at + 1)
      }
      if (pending.length < header.stdinLength) return
      connection.off("data", onData)
      if (busy) return (send(connection, { t: "busy" }), void connection.end())
      busy = true
      rest()
      const request = header
      runCall(request, pending.subarray(0, request.stdinLength), pending.subarray(request.stdinLength), connection)
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
