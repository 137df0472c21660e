import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type * as Scope from "effect/Scope"
import type { CollectedOutput, ProcessRun, RunnerOptions } from "../HookRunner.ts"
import { ProcessSpawner } from "../ProcessSpawner.ts"
import type { ProcessExit, ProcessHandle, ProcessOutput, ProcessRequest, SpawnError } from "../ProcessSpawner.ts"

/** A run with defaults for every field (exit 0, no output), overridden by `over`. @internal */
export const makeRun = (over: Partial<ProcessRun>): ProcessRun => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 0,
  stdout: "",
  stderr: "",
  stdoutTruncated: false,
  stderrTruncated: false,
  spawnError: undefined,
  ...over
})

/** @internal */
export const defaultOptions: RunnerOptions = { killGrace: Duration.seconds(1), drainWindow: Duration.millis(100) }

const elapsed = (start: number) => Effect.map(Clock.currentTimeMillis, (now) => Math.round((now - start) * 10) / 10)

// --- output ------------------------------------------------------------------------------------

interface TextDecoderLike {
  decode(input?: Uint8Array, options?: { readonly stream?: boolean }): string
}
const TextDecoderCtor = (globalThis as unknown as { readonly TextDecoder: new (label: string) => TextDecoderLike }).TextDecoder

/**
 * One of stdout / stderr: incremental UTF-8, at most `cap` bytes kept; past the cap chunks are
 * dropped undecoded. With `plainCap` (smaller), output that is not a JSON answer (its first
 * character after white space is not `{`) is kept only up to `plainCap`: a hook printing 1 GiB of
 * text costs the host no more than before, while a JSON answer is kept up to `cap`.
 */
const collector = (cap: number, plainCap: number = cap) => {
  let decoder: TextDecoderLike | undefined
  let text = ""
  let bytes = 0
  let finished: string | undefined
  const state = {
    truncated: false,
    /** Keeps what fits; `false` once nothing more is kept (the spawner may drop the rest unread). */
    push(chunk: Uint8Array): boolean {
      if (state.truncated) return false
      if (cap > plainCap && bytes + chunk.byteLength > plainCap) {
        // The plain cap is reached: what came so far decides whether this is a JSON answer.
        const head = chunk.subarray(0, plainCap - bytes)
        chunk = chunk.subarray(plainCap - bytes)
        bytes += head.byteLength
        if (head.byteLength > 0) text += (decoder ??= new TextDecoderCtor("utf-8")).decode(head, { stream: true })
        if (!text.trimStart().startsWith("{")) cap = plainCap
        plainCap = cap
      }
      const room = cap - bytes
      if (chunk.byteLength > room) {
        state.truncated = true
        chunk = chunk.subarray(0, Math.max(0, room))
      }
      bytes += chunk.byteLength
      if (chunk.byteLength > 0) text += (decoder ??= new TextDecoderCtor("utf-8")).decode(chunk, { stream: true })
      return !state.truncated
    },
    soFar: (): string => text,
    finish(): string {
      // An incomplete character at the end of a complete stream is invalid input (U+FFFD); one cut by the cap is dropped.
      finished ??= state.truncated || decoder === undefined ? text : text + decoder.decode()
      return finished
    }
  }
  return state
}

const pump = (stream: Stream.Stream<Uint8Array>, into: ReturnType<typeof collector>) =>
  Stream.runForEachArray(stream, (chunks) =>
    Effect.sync(() => {
      for (const chunk of chunks) into.push(chunk)
    })
  )

/** @internal */
export const collect = (
  handle: ProcessHandle,
  maxOutputBytes: number,
  maxStderrBytes: number = maxOutputBytes,
  maxPlainStdoutBytes: number = maxOutputBytes
): Effect.Effect<CollectedOutput, never, Scope.Scope> =>
  Effect.suspend(() => {
    // Each pipe is read as it comes (incremental UTF-8), so memory is bounded by the caps, not by what a hook writes.
    const stdout = collector(maxOutputBytes, Math.min(maxOutputBytes, maxPlainStdoutBytes))
    const stderr = collector(Math.min(maxOutputBytes, maxStderrBytes))
    const soFar = (): ProcessOutput => ({
      stdout: stdout.soFar(),
      stderr: stderr.soFar(),
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated
    })
    const finish = (): ProcessOutput => ({
      stdout: stdout.finish(),
      stderr: stderr.finish(),
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated
    })
    if (handle.listen !== undefined) {
      // A real spawner's pipes: read through callbacks, with no fiber or stream per hook (a hook's
      // cost over a raw spawn is mostly this bookkeeping). Both end when the scope closes (the
      // spawner's release ends them).
      let open = 2
      const waiting: Array<() => void> = []
      const ended = () => {
        if (--open === 0) for (const wake of waiting.splice(0)) wake()
      }
      handle.listen.stdout((chunk) => stdout.push(chunk), ended)
      handle.listen.stderr((chunk) => stderr.push(chunk), ended)
      const output = Effect.callback<ProcessOutput>((resume) => {
        if (open === 0) return resume(Effect.sync(finish))
        const wake = () => resume(Effect.sync(finish))
        waiting.push(wake)
        // A wait cut short (the drain's window) leaves nothing behind.
        return Effect.sync(() => {
          const at = waiting.indexOf(wake)
          if (at >= 0) waiting.splice(at, 1)
        })
      })
      return Effect.succeed<CollectedOutput>({ output, soFar, done: () => open === 0 })
    }
    // Any other stream (a scripted spawner's): both readers stop when the scope closes (the
    // runtime's stream finalizers close the pipes).
    let done = false
    return Effect.map(
      Effect.forkScoped(
        Effect.all([pump(handle.stdout, stdout), pump(handle.stderr, stderr)], { concurrency: 2, discard: true }).pipe(
          Effect.ensuring(Effect.sync(() => void (done = true)))
        )
      ),
      (reading): CollectedOutput => ({ output: Effect.map(Fiber.join(reading), finish), soFar, done: () => done })
    )
  })

// --- the ladder --------------------------------------------------------------------------------

/**
 * How long after the exit the end of the output is waited for while nothing is left in the hook's
 * group: far more than a loaded host takes to read what is in the pipes (seconds at worst), and a
 * bound for a process that left the group holding them (its result then comes with a warning).
 */
const OUTPUT_END_WAIT_MS = 10_000

/**
 * After the direct child's exit: the output to its end. The end of a pipe is a race between the
 * exit and the reads on a loaded host's event loop (a 100 ms timer can fire before the loop reads
 * bytes that were in the pipe at the exit), so no timer decides while the end is certain: only a
 * process still in the hook's group can hold the pipes, and while none is, the end is waited for
 * (until `until`). With one there (or groups unknown) the window decides; output not ended by then
 * comes back with `complete: false`.
 */
const drain = (handle: ProcessHandle, reader: CollectedOutput, until: number, options: RunnerOptions) =>
  Effect.gen(function* () {
    for (;;) {
      const ended = yield* Effect.timeoutOption(reader.output, options.drainWindow)
      if (Option.isSome(ended)) return { output: ended.value, complete: true }
      const now = yield* Clock.currentTimeMillis
      if (handle.groupAlive !== undefined && !handle.groupAlive() && now < until) continue
      // The deadline (and the window) are timers, and a stalled event loop (a loaded host: seconds
      // of spawns or CPU starvation) runs due timers before it reads the pipes again: an end that
      // came during the stall would still be unread. Whatever was there is read first.
      if (reader.done?.() !== true) yield* afterPoll
      if (reader.done?.() === true) return { output: yield* reader.output, complete: true }
      return { output: reader.soFar(), complete: false }
    }
  })

/**
 * Resumes once the event loop has read its I/O again: an immediate runs after the loop's next poll
 * on Node and Bun, whatever phase it was set from (a due timer may run before it: its time passed
 * during a stall). On Deno the timer after it is a turn later, not a sure one: its reads of the
 * pipes are promises that may settle after it.
 */
const afterPoll: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const timers = globalThis as unknown as {
    readonly setImmediate?: (f: () => void) => unknown
    readonly setTimeout: (f: () => void, ms: number) => unknown
  }
  const immediate = timers.setImmediate ?? ((f: () => void) => f())
  immediate(() => void timers.setTimeout(() => resume(Effect.void), 0))
})

const ladder = (handle: ProcessHandle, request: ProcessRequest, timeout: Duration.Input, options: RunnerOptions, start: number) =>
  Effect.gen(function* () {
    const reader = yield* collect(handle, request.maxOutputBytes, request.maxStderrBytes, request.maxPlainStdoutBytes)
    let timedOut = false
    let exit: ProcessExit
    let first = yield* Effect.timeoutOption(handle.exited, timeout)
    // The deadline is a timer too: a host whose event loop stalled past it runs it before it reads
    // an exit that came in time (the hook answered: its answer is kept, not called a timeout)
    if (Option.isNone(first)) {
      yield* afterPoll
      first = yield* Effect.timeoutOption(handle.exited, 0)
    }
    if (Option.isSome(first)) {
      exit = first.value
    } else {
      timedOut = true
      yield* handle.kill("SIGTERM")
      const afterTerm = yield* Effect.timeoutOption(handle.exited, options.killGrace)
      if (Option.isSome(afterTerm)) {
        exit = afterTerm.value
      } else {
        yield* handle.kill("SIGKILL")
        const afterKill = yield* Effect.timeoutOption(handle.exited, options.killGrace)
        exit = Option.getOrElse(afterKill, (): ProcessExit => ({ exitCode: null, signal: "SIGKILL" }))
      }
    }
    // Output that ended with the process needs no drain (and no race for it).
    if (reader.done?.() === true) return { exit, timedOut, output: yield* reader.output, openMs: undefined }
    // The end is waited for at most OUTPUT_END_WAIT_MS and the hook's own timeout, or killGrace after a kill.
    const exitedAt = yield* Clock.currentTimeMillis
    const until = timedOut
      ? exitedAt + Duration.toMillis(Duration.fromInputUnsafe(options.killGrace))
      : Math.min(exitedAt + OUTPUT_END_WAIT_MS, start + Duration.toMillis(Duration.fromInputUnsafe(timeout)))
    const { output, complete } = yield* drain(handle, reader, until, options)
    // After a timeout the hook's group was killed and its answer is not used: output that closes late
    // then is the kill being reaped (Bun reports it later than Node), not a process left running, and
    // "timed out" is what the user is told
    const openMs = complete || timedOut ? undefined : Math.round((yield* Clock.currentTimeMillis) - exitedAt)
    return { exit, timedOut, output, openMs }
  })

/** What is said of output taken before it ended. */
const incomplete = (output: ProcessOutput, ms: number): string =>
  `${output.stdout === "" && output.stderr === "" ? "no output was read" : "the output read so far was used"}: ` +
  `stdout or stderr was still open ${ms} ms after the hook exited ` +
  "(a process it left running holds it), so its answer may be missing; redirect what a hook starts in the background (>/dev/null 2>&1)"

const isAbsolute = (path: string) => path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)

/** @internal */
export const run = (
  request: ProcessRequest,
  timeout: Duration.Input,
  options: RunnerOptions = defaultOptions
): Effect.Effect<ProcessRun, never, ProcessSpawner> =>
  Effect.gen(function* () {
    const spawner = yield* ProcessSpawner
    const start = yield* Clock.currentTimeMillis
    const warnings: Array<string> = []
    const projectDir = options.projectDir
    // A relative cwd would resolve against the host's directory: the project directory is meant.
    if (projectDir !== undefined && !isAbsolute(request.cwd)) {
      warnings.push(`cwd ${JSON.stringify(request.cwd)} is not absolute; the hook runs in the project directory ${projectDir}`)
      request = { ...request, cwd: projectDir }
    }
    const spawnIn = (req: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
      spawner.spawn(req).pipe(
        Effect.catchTag("SpawnError", (error) => {
          // A cwd that does not exist (a payload value) must not stop the hook: run it in the project directory.
          if (error.reason !== "cwd" || projectDir === undefined || req.cwd === projectDir) return Effect.fail(error)
          warnings.push(`${error.detail.replace(/^.*\((cwd .*)\)$/, "$1")}; the hook runs in the project directory ${projectDir}`)
          return spawner.spawn({ ...req, cwd: projectDir })
        })
      )
    return yield* Effect.scoped(
      spawnIn(request).pipe(
        Effect.flatMap((handle) => ladder(handle, request, timeout, options, start)),
        Effect.flatMap(({ exit, output, timedOut, openMs }) => {
          const said = openMs === undefined ? warnings : [...warnings, incomplete(output, openMs)]
          return Effect.map(
            elapsed(start),
            (durationMs): ProcessRun => ({
              exitCode: exit.exitCode,
              signal: exit.signal,
              timedOut,
              durationMs,
              stdout: output.stdout,
              stderr: output.stderr,
              stdoutTruncated: output.stdoutTruncated,
              stderrTruncated: output.stderrTruncated,
              spawnError: undefined,
              ...(openMs === undefined ? {} : { outputIncomplete: true }),
              // A detached request's launcher exits 0 once the process has started: its end is not known.
              ...(request.detached !== undefined && exit.exitCode === 0 && !timedOut ? { detached: true } : {}),
              ...(said.length > 0 ? { warnings: said } : {})
            })
          )
        }),
        Effect.catchTag("SpawnError", (error) =>
          Effect.map(elapsed(start), (durationMs) =>
            makeRun({
              exitCode: null,
              durationMs,
              stderr: error.message,
              spawnError: error.detail,
              spawnErrorReason: error.reason,
              ...(warnings.length > 0 ? { warnings } : {})
            })
          )
        )
      )
    )
  })
