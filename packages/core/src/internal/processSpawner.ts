import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import type * as Cause from "effect/Cause"
import type * as Scope from "effect/Scope"
import { launcherArgs } from "./detach.ts"
// Type-only edges to the public twin (it hands the `SpawnError` class in): no import cycle with a value edge.
import type { GroupWatch, KillSignal, OutputPipe, ProcessHandle, ReadingPipes, WebByteStream, ProcessRequest, ProcessSpawner, SpawnError, SpawnErrorReason, SpawnPrimitive } from "../ProcessSpawner.ts"

/** The `SpawnError` constructor, given by the public module. @internal */
export type SpawnErrorClass = new(args: {
  readonly file: string
  readonly cause: unknown
  readonly detail: string
  readonly reason?: SpawnErrorReason
}) => SpawnError

const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

const RESOURCE_CODES = new Set(["EMFILE", "ENFILE", "EAGAIN", "ENOMEM"])
// A runtime that gives no errno code says it in the message (Rust's `os error 24` for EMFILE).
const RESOURCE_MESSAGE = /\b(?:EMFILE|ENFILE|EAGAIN|ENOMEM)\b|too many open files|os error (?:11|12|23|24)\b/i

/**
 * A start the request's size refused: E2BIG (some runtimes give only its message, "Argument list
 * too long (os error 7)"), or the runtime's own limit hit while it prepared the arguments (Deno's
 * node:child_process scans a `sh -c` command with a regex that overflows the stack on a long one).
 */
const tooLarge = (code: string | undefined, cause: unknown): boolean =>
  code === "E2BIG" || cause instanceof RangeError || (cause instanceof Error && /Argument list too long|os error 7\b/.test(cause.message))

const reasonOf = (code: string | undefined, cwd: string | undefined, cause: unknown): SpawnErrorReason =>
  cwd !== undefined
    ? "cwd"
    : code === "ENOENT" || code === "EACCES" || code === "ENOEXEC"
    ? "not-found"
    : tooLarge(code, cause)
    ? "payload"
    : code !== undefined && RESOURCE_CODES.has(code)
    ? "resources"
    : "other"

/** The `SpawnError` of a failed start, worded the same on every runtime. @internal */
export const spawnErrorFrom = (
  SpawnError: SpawnErrorClass,
  request: ProcessRequest,
  cause: unknown,
  cwdProblem: (cwd: string) => string | undefined
): SpawnError => {
  const code = errorCode(cause)
  const message = (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!
  // An errno reads the same on every runtime: `spawn <file> <code>`.
  const base = code !== undefined && /^E[A-Z0-9]+$/.test(code) ? `spawn ${request.file} ${code}` : message
  // Runtimes report a missing cwd as ENOENT of the executable, which points at the wrong thing.
  const cwd = code === "ENOENT" || code === "ENOTDIR" ? cwdProblem(request.cwd) : undefined
  const reason = code === undefined && cwd === undefined && RESOURCE_MESSAGE.test(message) ? "resources" : reasonOf(code, cwd, cause)
  return new SpawnError({ file: request.file, cause, detail: cwd ? `${base} (${cwd})` : base, reason })
}

// NUL cannot be passed in argv or the environment (C strings end there): every runtime would throw.
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/g
const strip = (text: string): string => (text.includes("\u0000") ? text.replace(NUL, "") : text)

const stripEnv = (env: Readonly<Record<string, string>>): Readonly<Record<string, string>> => {
  let clean: Record<string, string> | undefined
  for (const [name, value] of Object.entries(env)) {
    if (!name.includes("\u0000") && !value.includes("\u0000")) continue
    clean ??= { ...env }
    delete clean[name]
    const key = strip(name)
    if (key !== "") clean[key] = strip(value)
  }
  return clean ?? env
}

/** The request without NUL bytes (the same object when it had none, the common case). @internal */
export const withoutNul = (request: ProcessRequest): ProcessRequest => {
  const dirty = request.file.includes("\u0000") || request.cwd.includes("\u0000") || request.args.some((arg) => arg.includes("\u0000"))
  const env = stripEnv(request.env)
  if (!dirty && env === request.env) return request
  return { ...request, file: strip(request.file), cwd: strip(request.cwd), args: request.args.map(strip), env }
}

/** @internal */
export const make = (SpawnError: SpawnErrorClass) => (primitive: SpawnPrimitive): ProcessSpawner["Service"] => {
  // NUL is looked for only after a failed start: the environment is often `process.env`, whose
  // every read is slow, and the runtime reads it once already.
  const start = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
    primitive.start(request).pipe(
      Effect.catch((cause) => {
        const clean = withoutNul(request)
        return clean === request ? Effect.fail(cause) : primitive.start(clean)
      }),
      Effect.mapError((cause) => spawnErrorFrom(SpawnError, request, cause, primitive.cwdProblem))
    )

  const spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
    Effect.suspend(() => {
      if (request.detached !== undefined) {
        // The launcher is started in the request's place: the runtime starts it as any process.
        const launcher = launcherArgs({ ...request, detached: request.detached })
        if (launcher === undefined) {
          return Effect.fail(new SpawnError({ file: request.file, cause: undefined, detail: "a value file's variable is not a plain name", reason: "other" }))
        }
        const { detached: _, ...rest } = request
        return spawnNow({ ...rest, ...launcher })
      }
      return spawnNow(request)
    })

  const spawnNow = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
    Effect.suspend(() => {
      const files = request.files
      if (files === undefined || files.length === 0) return start(request)
      const { files: _, ...rest } = request
      return Effect.acquireRelease(
        Effect.try({
          try: () => primitive.tempFiles.write(files.map((file) => file.content)),
          catch: (cause) =>
            new SpawnError({
              file: request.file,
              cause,
              detail: `could not write the payload files: ${(cause instanceof Error ? cause.message : String(cause)).split("\n")[0]}`,
              reason: "payload"
            })
        }),
        // After the process's own release (scopes close last-in, first-out): the hook has exited or been killed.
        (written) => Effect.sync(() => written.remove())
      ).pipe(
        Effect.flatMap((written) => {
          const env: Record<string, string> = { ...rest.env }
          files.forEach((file, i) => {
            env[strip(file.env)] = written.paths[i]!
          })
          return start({ ...rest, env })
        })
      )
    })

  return { capabilities: primitive.capabilities, spawn }
}

/** A pipe's bytes handed to callbacks as they come, without a stream (what the runner reads). */
type Listen = (onChunk: (chunk: Uint8Array) => void, onEnd: () => void) => void

/** The pipes `makeOutputPipe` made, by their stream: the runner reads those through callbacks. */
const listeners = new WeakMap<object, Listen>()

/**
 * How to read `stream` through callbacks, when it is an `OutputPipe`'s (a real spawner's pipe):
 * no fiber, queue or channel per chunk. A pipe has one reader: its stream or its callbacks.
 *
 * @internal
 */
export const listenerOf = (stream: Stream.Stream<Uint8Array>): Listen | undefined => listeners.get(stream)

/** @internal */
export const makeOutputPipe = (): OutputPipe => {
  let chunks: Array<Uint8Array> = []
  let queue: Queue.Queue<Uint8Array, Cause.Done> | undefined
  let onChunk: ((chunk: Uint8Array) => void) | undefined
  let onEnd: (() => void) | undefined
  let ended = false
  const stream = Stream.callback<Uint8Array>((q) =>
    Effect.sync(() => {
      queue = q
      for (const chunk of chunks) Queue.offerUnsafe(q, chunk)
      chunks = []
      if (ended) Queue.endUnsafe(q)
    })
  )
  listeners.set(stream, (chunk, end) => {
    for (const kept of chunks) chunk(kept)
    chunks = []
    if (ended) return end()
    onChunk = chunk
    onEnd = end
  })
  return {
    push: (chunk) => {
      if (ended) return
      if (onChunk !== undefined) onChunk(chunk)
      else if (queue === undefined) chunks.push(chunk)
      else Queue.offerUnsafe(queue, chunk)
    },
    end: () => {
      if (ended) return
      ended = true
      if (onEnd !== undefined) onEnd()
      else if (queue !== undefined) Queue.endUnsafe(queue)
    },
    stream
  }
}

/** What a "bring your own buffer" read reads into: big enough for a pipe's largest read. */
const BYOB_BYTES = 64 * 1024

/** @internal */
export const readWebPipe = (
  readable: WebByteStream,
  pipe: OutputPipe,
  limit: number,
  options: { readonly byob?: boolean | undefined; readonly whileDraining?: ((droppedBytes: number) => void) | undefined } = {}
): (() => void) => {
  let byob = options.byob === true
  let reader: ReturnType<WebByteStream["getReader"]>
  try {
    reader = readable.getReader(byob ? { mode: "byob" } : undefined)
  } catch {
    // Not a byte stream: chunk by chunk.
    byob = false
    reader = readable.getReader()
  }
  let left = limit
  let dropped = 0
  void (async () => {
    let view: Uint8Array | undefined = byob ? new Uint8Array(BYOB_BYTES) : undefined
    try {
      for (;;) {
        const { done, value } = await reader.read(view)
        if (done || value === undefined) break
        // The buffer comes back with the bytes read (the one passed in is detached): read into it again.
        if (view !== undefined) view = new Uint8Array(value.buffer, 0, BYOB_BYTES)
        if (left === 0) {
          dropped += value.byteLength
          options.whileDraining?.(dropped)
          continue
        }
        // A chunk read into the reused buffer is copied before it is kept.
        const chunk = value.byteLength < left ? value : value.subarray(0, left)
        left -= chunk.byteLength
        pipe.push(view !== undefined ? chunk.slice() : chunk)
        if (left === 0) pipe.end()
      }
    } catch {
      // A read error (or the cancel below) ends what the core reads; the exit status still comes from the process.
    }
    pipe.end()
  })()
  return () => void reader.cancel().catch(() => {})
}

/** @internal */
export const readPipes = <P>(
  request: ProcessRequest,
  stdout: P,
  stderr: P,
  read: (readable: P, pipe: OutputPipe, limit: number) => () => void
): ReadingPipes => {
  const out = makeOutputPipe()
  const err = makeOutputPipe()
  const limit = request.maxOutputBytes + 1
  const stops = [read(stdout, out, limit), read(stderr, err, limit)]
  return { stdout: out, stderr: err, stopReading: () => stops.forEach((stop) => stop()) }
}

/** @internal */
export const signalGroup = (kill: (pid: number, signal: string) => unknown, pid: number, signal: KillSignal): boolean => {
  // The common failure (ESRCH: the hook left nothing in its group) throws; its stack trace is most
  // of what a hook's release costs, and nobody reads it.
  const errors = Error as { stackTraceLimit?: number }
  const limit = errors.stackTraceLimit
  errors.stackTraceLimit = 0
  try {
    kill(-pid, signal)
    return true
  } catch {
    return false
  } finally {
    errors.stackTraceLimit = limit
  }
}

/** ESRCH, as each runtime says it: Node and Bun an errno `code`, Deno a `NotFound` error. */
const isNoSuchProcess = (cause: unknown): boolean =>
  errorCode(cause) === "ESRCH" || (cause instanceof Error && (cause.name === "NotFound" || /\bESRCH\b/.test(cause.message)))

const groupAlive = (kill: (pid: number, signal: number) => unknown, pid: number): boolean => {
  // Signal 0 sends nothing: it only asks whether the group has a process left.
  const errors = Error as { stackTraceLimit?: number }
  const limit = errors.stackTraceLimit
  errors.stackTraceLimit = 0
  try {
    kill(-pid, 0)
    return true
  } catch (cause) {
    // EPERM: a process is there (one the host may not signal), so it may hold the pipes.
    return !isNoSuchProcess(cause)
  } finally {
    errors.stackTraceLimit = limit
  }
}

/** @internal */
export const watchGroup = (kill: (pid: number, signal: number) => unknown, pid: number | undefined): GroupWatch => {
  let gone = pid === undefined
  return {
    // Once empty, always: a later group of the same number (a reused pid) is someone else's.
    alive: () => !gone && !(gone = !groupAlive(kill, pid!)),
    gone: () => gone
  }
}
