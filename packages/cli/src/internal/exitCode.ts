import { isHookError } from "@agent-hooks/core/HookError"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type { ExitCode } from "../ExitCode.ts"

const isTagged = (u: unknown, tag: string): u is { readonly _tag: string; readonly message: string } =>
  typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === tag

/**
 * An error of effect/cli's parser, known by its type id (`CliError.isCliError` tests the same
 * property): `run`'s own program must not load the parser to classify errors it never raises.
 */
const isCliError = (u: unknown): u is { readonly _tag: string; readonly message: string; readonly errors?: ReadonlyArray<unknown> } =>
  typeof u === "object" && u !== null && "~effect/cli/CliError" in u

/** What a finished program means: its status and the message to show, if any. */
const classify = (exit: Exit.Exit<void, unknown>): { readonly code: ExitCode; readonly message: string | undefined } => {
  if (Exit.isSuccess(exit)) return { code: 0, message: undefined }
  const cause = exit.cause
  const error = Cause.findErrorOption(cause)
  if (error._tag === "Some") {
    const e = error.value
    if (isTagged(e, "Blocked")) return { code: 2, message: undefined }
    if (isTagged(e, "Failed") || isHookError(e)) {
      return { code: 1, message: e.message }
    }
    if (isCliError(e)) {
      // Help without errors is a success; parse errors were already shown with the help text.
      if (e._tag === "ShowHelp") return { code: e.errors?.length === 0 ? 0 : 1, message: undefined }
      return { code: 1, message: e.message }
    }
    return { code: 1, message: `internal error: ${e instanceof Error ? e.message : String(e)}` }
  }
  if (Cause.hasInterruptsOnly(cause)) return { code: 1, message: "interrupted" }
  return { code: 1, message: `internal error:\n${Cause.pretty(cause)}` }
}

/** @internal */
export const run = <E, R>(program: Effect.Effect<void, E, R>): Effect.Effect<ExitCode, never, R> =>
  Effect.flatMap(Effect.exit(program), (exit) => {
    const { code, message } = classify(exit)
    return message === undefined ? Effect.succeed(code) : Effect.as(Console.error(`agent-hooks: ${message}`), code)
  })

/** @internal */
export const fromExit = (exit: Exit.Exit<unknown, unknown>): ExitCode =>
  Exit.isSuccess(exit) && (exit.value === 0 || exit.value === 1 || exit.value === 2) ? exit.value : 1

/** @internal */
export const teardown = <E, A>(exit: Exit.Exit<A, E>, onExit: (code: number) => void): void => {
  const code = fromExit(exit)
  // `process.exit` does not wait for pending writes to a pipe: flush both streams first. Then exit
  // even on success: the outcome is final, and an in-process hook that outlived its timeout (a
  // module that ignores its AbortSignal) must not hold the host's command open.
  process.stdout.write("", () =>
    process.stderr.write("", () => {
      onExit(code)
      process.exit(code)
    })
  )
}
