import { Clock, Duration, Effect, Option } from "effect"
import type { ProcessRun, RunnerOptions } from "../HookRunner.ts"
import { ProcessSpawner } from "../ProcessSpawner.ts"
import type { ProcessExit, ProcessRequest } from "../ProcessSpawner.ts"

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

/** @internal */
export const run = (
  request: ProcessRequest,
  timeout: Duration.Input,
  options: RunnerOptions = defaultOptions
): Effect.Effect<ProcessRun, never, ProcessSpawner> =>
  Effect.gen(function*() {
    const spawner = yield* ProcessSpawner
    const start = yield* Clock.currentTimeMillis
    return yield* Effect.scoped(
      spawner.spawn(request).pipe(
        Effect.flatMap((handle) =>
          Effect.gen(function*() {
            let timedOut = false
            let exit: ProcessExit
            const first = yield* Effect.timeoutOption(handle.exited, timeout)
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
            const drained = yield* Effect.timeoutOption(handle.output, options.drainWindow)
            const output = Option.getOrElse(drained, handle.outputSoFar)
            return {
              exitCode: exit.exitCode,
              signal: exit.signal,
              timedOut,
              durationMs: yield* elapsed(start),
              stdout: output.stdout,
              stderr: output.stderr,
              stdoutTruncated: output.stdoutTruncated,
              stderrTruncated: output.stderrTruncated,
              spawnError: undefined
            } satisfies ProcessRun
          })
        ),
        Effect.catchTag("SpawnError", (error) =>
          Effect.map(elapsed(start), (durationMs) =>
            makeRun({ exitCode: null, durationMs, stderr: error.message, spawnError: error.detail })))
      )
    )
  })
