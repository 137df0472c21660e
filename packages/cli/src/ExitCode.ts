/**
 * The exit status of `agent-hooks`, decided in one place:
 *
 * | Status | When |
 * | --- | --- |
 * | `0` | the command finished and, for `run`, the event is not blocked |
 * | `2` | `run`: the Outcome is `blocked` (the host must not go ahead as planned) |
 * | `1` | the engine itself failed: a settings file that cannot be read or decoded, stdin that is not a JSON object, an unknown preset, invalid arguments, an internal error |
 *
 * Commands never call `process.exit`; they succeed, fail with `Blocked` or fail with `Failed`,
 * and `fromExit` maps the result to the status. A message goes to stderr once, prefixed
 * `agent-hooks:`.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import type * as Runtime from "effect/Runtime"
import * as Data from "effect/Data"
import * as internal from "./internal/exitCode.ts"

/**
 * @since 0.1.0
 * @category models
 */
export type ExitCode = 0 | 1 | 2

/**
 * `run` printed an Outcome with `blocked: true`. Not an error of the engine: it becomes exit 2.
 *
 * @since 0.1.0
 * @category errors
 */
export class Blocked extends Data.TaggedError("Blocked")<{
  readonly event: string
}> {}

/**
 * The command could not do its job. `message` is shown on stderr as `agent-hooks: <message>`
 * and the status is 1.
 *
 * @since 0.1.0
 * @category errors
 */
export class Failed extends Data.TaggedError("Failed")<{
  readonly message: string
}> {}

/**
 * Runs a command program to its exit status: success is 0, `Blocked` is 2, anything else is 1
 * after its message was written to stderr (parse errors of the command line were already shown
 * by the CLI, with the help text).
 *
 * @since 0.1.0
 * @category running
 */
export const run: <E, R>(program: Effect.Effect<void, E, R>) => Effect.Effect<ExitCode, never, R> = internal.run

/**
 * The status for the result of `run` (a program that cannot fail any more): its value, or 1.
 *
 * @since 0.1.0
 * @category running
 */
export const fromExit: (exit: Exit.Exit<unknown, unknown>) => ExitCode = internal.fromExit

/**
 * A `runMain` teardown that flushes stdout and stderr, then exits with `fromExit(exit)`.
 *
 * @since 0.1.0
 * @category running
 */
export const teardown: Runtime.Teardown = internal.teardown
