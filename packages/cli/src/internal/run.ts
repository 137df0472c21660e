import { Console, Effect } from "effect"
import type { Stdio } from "effect"
import { Blocked, Failed } from "../ExitCode.ts"
import { checkPreset, warnOnStderr, withEngine } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"
import { readPayload } from "./stdin.ts"

/** Options of `agent-hooks run`. */
export interface RunOptions extends Omit<SettingsOptions, "preset"> {
  readonly event: string
  readonly preset: string
}

/**
 * `agent-hooks run <Event>`: reads the payload from stdin, dispatches it, prints the Outcome as
 * one JSON line on stdout, and fails with `Blocked` when the Outcome is blocked. Settings
 * warnings go to stderr, since stdout holds only the Outcome.
 *
 * @internal
 */
export const run = (options: RunOptions): Effect.Effect<void, Blocked | Failed, Stdio.Stdio> =>
  Effect.gen(function*() {
    const preset = yield* checkPreset(options.preset)
    const payload = yield* readPayload
    const outcome = yield* withEngine({ ...options, preset }, warnOnStderr, (engine) => engine.dispatch(options.event, payload))
    yield* Console.log(JSON.stringify(outcome))
    if (outcome.blocked) return yield* Effect.fail(new Blocked({ event: outcome.event }))
  })
