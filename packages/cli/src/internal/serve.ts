import type * as HookEngine from "@agent-hooks/core/HookEngine"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { createServer } from "node:net"
import type { Socket } from "node:net"
import { rmSync } from "node:fs"
import { Failed } from "../ExitCode.ts"
import { checkPreset, warnOnStderr, withEngine } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"
import * as Debug from "./debug.ts"
import { knownEvents, unknownEvent } from "./events.ts"
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

/** The longest request line: a payload at its limit plus room for `id` and `event`. */
const maxLineLength = maxPayloadLength + 64 * 1024

/** A readable byte source and a line sink: stdin/stdout, or one socket connection. */
interface Connection {
  readonly input: NodeJS.ReadableStream
  readonly write: (line: string) => void
}

type Parsed =
  | { readonly _tag: "Request"; readonly id: string | number; readonly event: string; readonly payload: unknown }
  | { readonly _tag: "Bad"; readonly id: string | number | null; readonly error: string }

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`

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
 * been answered.
 */
const serveConnection = (
  engine: HookEngine.HookEngine["Service"],
  known: ReadonlyArray<string>,
  connection: Connection,
  stop: Deferred.Deferred<void>,
  version: string
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { debug } = yield* Debug.verbosity
    const requests = yield* FiberSet.make<void, never>()
    const fork = yield* FiberSet.runtime(requests)<never>()
    const respond = (response: Record<string, unknown>) => connection.write(`${JSON.stringify(response)}\n`)
    const handle = (line: string) => {
      if (line.trim() === "") return
      const parsed = parseLine(line)
      if (parsed._tag === "Bad") return respond({ id: parsed.id, error: parsed.error })
      const unknown = unknownEvent(parsed.event, known)
      if (unknown !== undefined) return respond({ id: parsed.id, error: unknown })
      if (debug) Debug.matched(engine.plan, parsed.event, parsed.payload)
      fork(
        engine.dispatch(parsed.event, parsed.payload).pipe(
          Effect.matchCause({
            onSuccess: (outcome) => {
              if (debug) Debug.results(outcome)
              respond({ id: parsed.id, outcome })
            },
            onFailure: (cause) => {
              const error = cause.reasons.find((reason) => reason._tag === "Fail")
              respond({
                id: parsed.id,
                error: error !== undefined && error._tag === "Fail"
                  ? String((error.error as { message?: unknown }).message ?? error.error)
                  : "the dispatch was interrupted"
              })
            }
          })
        )
      )
    }
    connection.write(`${JSON.stringify({ type: "hello", protocol, version })}\n`)
    // Read lines until the input ends or a drain is asked for; then answer what is running.
    yield* Effect.raceFirst(
      Effect.callback<void>((resume) => {
        let buffer = ""
        // A line over the limit is answered once and skipped up to its end, never held whole.
        let skipping = false
        const onData = (chunk: Buffer | string) => {
          buffer += typeof chunk === "string" ? chunk : chunk.toString("utf8")
          let newline = buffer.indexOf("\n")
          while (newline >= 0) {
            const line = buffer.slice(0, newline)
            buffer = buffer.slice(newline + 1)
            if (skipping) skipping = false
            else handle(line)
            newline = buffer.indexOf("\n")
          }
          if (buffer.length > maxLineLength) {
            if (!skipping) respond({ id: null, error: `a line over ${maxLineLength} characters (the limit); skipped` })
            skipping = true
            buffer = ""
          }
        }
        const onEnd = () => {
          if (buffer !== "" && !skipping) handle(buffer)
          buffer = ""
          resume(Effect.void)
        }
        connection.input.on("data", onData)
        connection.input.on("end", onEnd)
        connection.input.on("error", onEnd)
        return Effect.sync(() => {
          connection.input.off("data", onData)
          connection.input.off("end", onEnd)
          connection.input.off("error", onEnd)
          ;(connection.input as { pause?: () => void }).pause?.()
        })
      }),
      Deferred.await(stop)
    )
    yield* FiberSet.awaitEmpty(requests)
  })

/**
 * `agent-hooks serve`: loads and compiles the settings once, then answers dispatch requests as
 * JSON lines on stdin/stdout, or on a Unix socket with `--socket PATH` (one hello line per
 * connection). `async` hook results are written as `{"type": "async", ...}` lines. Stdin EOF (or
 * the first SIGTERM, SIGINT or SIGHUP) stops reading; running requests are answered and running
 * `async` hooks finish, then it exits 0.
 *
 * @internal
 */
export const serve = (options: ServeOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const preset = yield* checkPreset(options.preset)
    const socketPath = Option.getOrUndefined(options.socket)
    const stop = yield* Deferred.make<void>()
    const unregister = onDrainSignal(() => Deferred.doneUnsafe(stop, Exit.void))
    const writers = new Set<(line: string) => void>()
    const onAsyncResult = (result: HookEngine.AsyncResult) => {
      const line = `${JSON.stringify({ type: "async", ...result })}\n`
      for (const write of writers) write(line)
    }
    // A reload is said on stderr and in the JSON stream (`{"type": "reload", ...}`), to every client.
    const onReload = (event: HookEngine.ReloadEvent) => {
      reportReload(event)
      const line = `${JSON.stringify({ type: "reload", ...event })}\n`
      for (const write of writers) write(line)
    }
    yield* withEngine(
      { ...options, preset, engineOptions: { onAsyncResult, ...(options.watch === true ? { watch: true, onReload } : {}) } },
      warnOnStderr,
      (engine) =>
        Effect.scoped(Effect.gen(function*() {
          if ((yield* Debug.verbosity).debug) Debug.loaded(engine.plan)
          const known = knownEvents(engine, preset)
          if (socketPath === undefined) {
            const write = (line: string) => {
              process.stdout.write(line)
            }
            writers.add(write)
            yield* serveConnection(engine, known, { input: process.stdin, write }, stop, options.version)
          } else {
            yield* serveSocket(engine, known, socketPath, stop, options.version, writers)
          }
          // Running async hooks finish (their results still reach the clients) before the exit.
          yield* engine.awaitAsync
        }))
    ).pipe(Effect.ensuring(Effect.sync(unregister)))
  })

const serveSocket = (
  engine: HookEngine.HookEngine["Service"],
  known: ReadonlyArray<string>,
  path: string,
  stop: Deferred.Deferred<void>,
  version: string,
  writers: Set<(line: string) => void>
): Effect.Effect<void, Failed, Scope.Scope> =>
  Effect.gen(function*() {
    const connections = yield* FiberSet.make<void, never>()
    const fork = yield* FiberSet.runtime(connections)<never>()
    const server = createServer((socket: Socket) => {
      const write = (line: string) => {
        if (!socket.destroyed) socket.write(line)
      }
      writers.add(write)
      socket.on("error", () => writers.delete(write))
      fork(
        Effect.scoped(serveConnection(engine, known, { input: socket, write }, stop, version)).pipe(
          Effect.ensuring(Effect.sync(() => {
            writers.delete(write)
            socket.end()
          }))
        )
      )
    })
    yield* Effect.acquireRelease(
      Effect.callback<void, Failed>((resume) => {
        server.once("error", (error) => resume(Effect.fail(new Failed({ message: `cannot listen on ${path}: ${error.message}` }))))
        server.listen(path, () => {
          process.stderr.write(`agent-hooks: serving on ${path}\n`)
          resume(Effect.void)
        })
      }),
      () =>
        Effect.sync(() => {
          server.close()
          rmSync(path, { force: true })
        })
    )
    yield* Deferred.await(stop)
    // No new connections; the open ones stop reading and answer what they have.
    server.close()
    yield* FiberSet.awaitEmpty(connections)
  })
