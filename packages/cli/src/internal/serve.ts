import type * as HookEngine from "@agent-hooks/core/HookEngine"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Semaphore from "effect/Semaphore"
import type * as Scope from "effect/Scope"
import { createServer } from "node:net"
import type { Socket } from "node:net"
import { Failed } from "../ExitCode.ts"
import { checkPreset, warnOnStderr, withEngine } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"
import * as Debug from "./debug.ts"
import { knownEvents, unknownEvent } from "./events.ts"
import * as LineFramer from "./lineFramer.ts"
import * as Sessions from "./serveSessions.ts"
import * as UnixSocket from "./unixSocket.ts"
import { checkPayload, maxPayloadLength } from "./stdin.ts"
import { onDrainSignal } from "./signals.ts"

/** Options of `agent-hooks serve`. */
export interface ServeOptions extends Omit<SettingsOptions, "preset"> {
  readonly preset: string
  readonly socket: Option.Option<string>
  readonly version: string
  /** `--watch`: hot reload (engine option `watch`), each reload reported on stderr. */
  readonly watch?: boolean | undefined
}

/** One stderr line per reload attempt: what was reloaded, or why the old hooks stay. */
const reportReload = (event: HookEngine.ReloadEvent): void => {
  const files = event.files.join(", ")
  process.stderr.write(
    event._tag === "Reloaded"
      ? `agent-hooks: reloaded ${files}${event.warnings.length > 0 ? ` (${event.warnings.length} warnings)` : ""}${
          event.dropped === undefined ? "" : `; ${event.dropped.length} hooks no longer run: ${event.dropped.join("; ")}`
        }\n`
      : `agent-hooks: reload ${event._tag === "Failed" ? "failed" : "blocked"} (${files}): ${event.message}; the previous hooks stay\n`
  )
}

/** The protocol version in the hello line; it changes only when an existing field changes meaning. */
export const protocol = 1

/** The longest request line, in bytes: a payload at its limit plus room for `id` and `event`. */
const maxLineBytes = maxPayloadLength + 64 * 1024

/**
 * Requests dispatched at once, over all connections; the others wait their turn in arrival order.
 * Without a cap, 1 000 requests at once ran out of file descriptors (EMFILE) and hooks could not
 * start.
 */
const maxRunning = 32

/** Requests read and not yet answered on one connection before it stops reading (backpressure). */
const maxPending = 256

/** The byte source and line sink of one client: stdin/stdout, or one socket connection. */
interface Connection {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
  /** Where a broken output is said (the client went away without reading its answers). */
  readonly name: string
  /**
   * Whether its sessions' async results stop reaching it when it stops reading requests: a socket
   * connection is closed then; stdout stays open until the server exits, so that the results of
   * async hooks still running after stdin EOF are written.
   */
  readonly closesAtEnd: boolean
}

/** What the server shares between connections. */
interface Shared {
  readonly engine: HookEngine.HookEngine["Service"]
  readonly known: ReadonlyArray<string>
  readonly stop: Deferred.Deferred<void>
  readonly version: string
  readonly running: Semaphore.Semaphore
  readonly sessions: ReturnType<typeof Sessions.make>
}

type Parsed =
  | { readonly _tag: "Request"; readonly id: string | number; readonly event: string; readonly payload: unknown }
  | { readonly _tag: "Bad"; readonly id: string | number | null; readonly error: string }

const describe = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`)

/** One request line: `{"id": string | number, "event": string, "payload"?: object}`. */
const parseLine = (line: string): Parsed => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return { _tag: "Bad", id: null, error: `not a JSON line (${(error as Error).message}): expected {"id", "event", "payload"}` }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { _tag: "Bad", id: null, error: `expected a JSON object {"id", "event", "payload"}, got ${describe(value)}` }
  }
  const request = value as Record<string, unknown>
  const id = typeof request.id === "string" || typeof request.id === "number" ? request.id : null
  if (id === null) {
    return { _tag: "Bad", id: null, error: `$.id: expected a string or a number, got ${describe(request.id)}` }
  }
  if (typeof request.event !== "string") {
    return { _tag: "Bad", id, error: `$.event: expected the event name (a string), got ${describe(request.event)}` }
  }
  const payload = request.payload === undefined ? {} : request.payload
  const problem = checkPayload(payload, "$.payload")
  if (problem !== undefined) return { _tag: "Bad", id, error: problem }
  return { _tag: "Request", id, event: request.event, payload }
}

/**
 * Serves one connection: the hello line, then one response line per request line, each written
 * when its dispatch completes (concurrent requests may be answered out of order; clients match
 * them by id). Returns when the input ends or `stop` completes, after every request it read has
 * been answered; or, when the client stops reading (a write fails: EPIPE, a reset), at once, with
 * the requests still running interrupted (their hooks are killed, none is left behind) and counted.
 */
const serveConnection = (
  shared: Shared,
  connection: Connection
): Effect.Effect<{ readonly gone: boolean; readonly stopped: number }, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { engine, known, stop, version, running, sessions } = shared
    const { debug } = yield* Debug.verbosity
    const requests = yield* FiberSet.make<void, never>()
    const fork = yield* FiberSet.runtime(requests)<never>()
    const gone = yield* Deferred.make<void>()
    const { input, output } = connection
    let broken = false
    const onOutputError = () => {
      broken = true
      Deferred.doneUnsafe(gone, Exit.void)
    }
    output.on("error", onOutputError)
    // Reading pauses while too many requests wait or the client does not read its answers.
    let pending = 0
    let paused = false
    let draining = false
    const flow = () => {
      const hold = pending >= maxPending || draining
      if (hold && !paused) input.pause()
      else if (!hold && paused) input.resume()
      paused = hold
    }
    const write = (line: string) => {
      if (broken || (output as { destroyed?: boolean }).destroyed === true) return
      try {
        if (!output.write(line) && !draining) {
          draining = true
          output.once("drain", () => {
            draining = false
            flow()
          })
          flow()
        }
      } catch {
        onOutputError()
      }
    }
    const client: Sessions.Client = { write, ownSession: Sessions.newSessionId() }
    sessions.connect(client)
    if (connection.closesAtEnd) yield* Effect.addFinalizer(() => Effect.sync(() => sessions.release(client)))
    const respond = (response: Record<string, unknown>) => write(`${JSON.stringify(response)}\n`)
    const handle = (line: string) => {
      if (line.trim() === "") return
      const parsed = parseLine(line)
      if (parsed._tag === "Bad") return respond({ id: parsed.id, error: parsed.error })
      const unknown = unknownEvent(parsed.event, known)
      if (unknown !== undefined) return respond({ id: parsed.id, error: unknown })
      const payload = sessions.claim(client, parsed.payload as Record<string, unknown>)
      if (debug) Debug.matched(engine.plan, parsed.event, payload)
      pending++
      flow()
      fork(
        running
          .withPermits(1)(engine.dispatch(parsed.event, payload))
          .pipe(
            Effect.matchCause({
              onSuccess: (outcome) => {
                if (debug) Debug.results(outcome)
                respond({ id: parsed.id, outcome })
              },
              onFailure: (cause) => {
                const error = cause.reasons.find((reason) => reason._tag === "Fail")
                respond({
                  id: parsed.id,
                  error:
                    error !== undefined && error._tag === "Fail"
                      ? String((error.error as { message?: unknown }).message ?? error.error)
                      : "the dispatch was interrupted"
                })
              }
            }),
            Effect.ensuring(
              Effect.sync(() => {
                pending--
                flow()
              })
            )
          )
      )
    }
    const framer = LineFramer.make(maxLineBytes, (frame) => {
      switch (frame._tag) {
        case "Line":
          return handle(frame.text)
        case "TooLong":
          return respond({ id: null, error: `a line over ${frame.limit} bytes (the limit); skipped up to its end` })
        case "NotUtf8":
          return respond({ id: null, error: "a line that is not valid UTF-8; skipped (send JSON text encoded as UTF-8)" })
      }
    })
    write(`${JSON.stringify({ type: "hello", protocol, version })}\n`)
    // Read lines until the input ends, a drain is asked for, or the client stops reading.
    yield* Effect.raceAll([
      Effect.callback<void>((resume) => {
        const onData = (chunk: Uint8Array | string) => framer.push(chunk)
        const onEnd = () => {
          framer.end()
          resume(Effect.void)
        }
        input.on("data", onData)
        input.on("end", onEnd)
        input.on("error", onEnd)
        return Effect.sync(() => {
          input.off("data", onData)
          input.off("end", onEnd)
          input.off("error", onEnd)
          input.pause()
        })
      }),
      Deferred.await(stop),
      Deferred.await(gone)
    ])
    // Answer what is running, unless the client went away: then nobody reads the answers.
    yield* Effect.raceFirst(FiberSet.awaitEmpty(requests), Deferred.await(gone))
    if (!broken) return { gone: false, stopped: 0 }
    const stopped = yield* FiberSet.size(requests)
    yield* FiberSet.clear(requests)
    process.stderr.write(
      `agent-hooks: ${connection.name} stopped reading (its output is closed)${stopped > 0 ? `; ${stopped} running ${stopped === 1 ? "request was" : "requests were"} interrupted and their hooks killed` : ""}\n`
    )
    return { gone: true, stopped }
  })

/**
 * `agent-hooks serve`: loads and compiles the settings once, then answers dispatch requests as
 * JSON lines on stdin/stdout, or on a Unix socket with `--socket PATH` (one hello line per
 * connection). `async` hook results are written as `{"type": "async", ...}` lines to the
 * connections that dispatched their session. Stdin EOF (or the first SIGTERM, SIGINT or SIGHUP)
 * stops reading; running requests are answered and running `async` hooks finish, then it exits 0.
 * A client that closes stdout before its answers are written ends the server with status 1.
 *
 * @internal
 */
export const serve = (options: ServeOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const preset = yield* checkPreset(options.preset)
    const socketPath = Option.getOrUndefined(options.socket)
    const stop = yield* Deferred.make<void>()
    const unregister = onDrainSignal(() => Deferred.doneUnsafe(stop, Exit.void))
    const sessions = Sessions.make()
    const running = yield* Semaphore.make(maxRunning)
    // A reload is said on stderr and in the JSON stream (`{"type": "reload", ...}`), to every client.
    const onReload = (event: HookEngine.ReloadEvent) => {
      reportReload(event)
      sessions.broadcast(`${JSON.stringify({ type: "reload", ...event })}\n`)
    }
    yield* withEngine(
      {
        ...options,
        preset,
        engineOptions: { onAsyncResult: sessions.deliver, ...(options.watch === true ? { watch: true, onReload } : {}) }
      },
      warnOnStderr,
      (engine) =>
        Effect.scoped(
          Effect.gen(function* () {
            if ((yield* Debug.verbosity).debug) Debug.loaded(engine.plan)
            const shared: Shared = { engine, known: knownEvents(engine, preset), stop, version: options.version, running, sessions }
            let failure: Failed | undefined
            if (socketPath === undefined) {
              const done = yield* Effect.scoped(
                serveConnection(shared, { input: process.stdin, output: process.stdout, name: "the client", closesAtEnd: false })
              )
              if (done.gone) failure = new Failed({ message: "stdout was closed before every answer was written" })
            } else {
              yield* serveSocket(shared, socketPath)
            }
            // Running async hooks finish (their results still reach the clients) before the exit.
            yield* engine.awaitAsync
            if (failure !== undefined) return yield* failure
          })
        )
    ).pipe(Effect.ensuring(Effect.sync(unregister)))
  })

const serveSocket = (shared: Shared, path: string): Effect.Effect<void, Failed, Scope.Scope> =>
  Effect.gen(function* () {
    const connections = yield* FiberSet.make<void, never>()
    const fork = yield* FiberSet.runtime(connections)<never>()
    // Half-open: a client that ends its writing side still gets the answers to what it sent.
    const server = createServer({ allowHalfOpen: true }, (socket: Socket) => {
      fork(
        Effect.scoped(serveConnection(shared, { input: socket, output: socket, name: "a client of the socket", closesAtEnd: true })).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              if (!socket.destroyed) socket.end()
            })
          )
        )
      )
    })
    // Refused connections (too many open files) are said, never fatal to the server.
    server.on("error", (error) => process.stderr.write(`agent-hooks: the socket ${path}: ${error.message}\n`))
    server.maxConnections = maxConnections
    yield* UnixSocket.listen(server, path)
    yield* Deferred.await(shared.stop)
    // No new connections; the open ones stop reading and answer what they have.
    server.close()
    yield* FiberSet.awaitEmpty(connections)
  })

/** Open connections at once; more are refused (closed at once) until one ends. */
const maxConnections = 128
