import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as Stdio from "effect/Stdio"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import { Blocked, Failed } from "../ExitCode.ts"
import { checkPreset, engineWarnings, withEngine } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"
import { knownEvents, unknownEvent } from "./events.ts"
import { noSettingsLine } from "./noSettings.ts"
import { readPayload } from "./stdin.ts"
import * as Debug from "./debug.ts"

/** Options of `agent-hooks run`. */
export interface RunOptions extends Omit<SettingsOptions, "preset"> {
  readonly event: string
  readonly preset: string
  /** `--fail-closed`: any hook failure on a blocking event blocks (engine option `failClosed`). */
  readonly failClosed?: boolean | undefined
  /** `--strict`: a handler that does not decode fails the whole load (engine option `strict`). */
  readonly strict?: boolean | undefined
  /** `--quiet`: no settings warnings; the hook-failure lines stay. */
  readonly quiet?: boolean | undefined
}

/** The first line of `text`, at most 200 characters. */
const firstLine = (text: string): string => {
  const line = text.trim().split("\n")[0] ?? ""
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

/**
 * On a terminal, a status line on stderr for hooks still running after a second (their
 * `statusMessage`, else the command), cleared when the event's dispatch ends; nothing when stderr
 * is not a TTY.
 */
const statusLine = (): { readonly onHookStart: HookEngine.EngineOptions["onHookStart"]; readonly done: () => void } => {
  if (process.stderr.isTTY !== true) return { onHookStart: undefined, done: () => {} }
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let shown = false
  return {
    onHookStart: (hook) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        shown = true
        process.stderr.write(`\r\x1b[K⋯ ${firstLine(hook.statusMessage ?? hook.command)}`)
      }, 1000)
      timer.unref?.()
      timers.add(timer)
    },
    done: () => {
      for (const timer of timers) clearTimeout(timer)
      if (shown) process.stderr.write("\r\x1b[K")
    }
  }
}

/**
 * `agent-hooks run <Event>`: reads the payload from stdin, dispatches it, prints the Outcome as
 * one JSON line on stdout, and fails with `Blocked` when the Outcome is blocked. Settings
 * warnings and the hook-failure lines go to stderr, since stdout holds only the Outcome. An event
 * that is neither in the catalog nor declared by the preset or the settings fails (exit 1).
 *
 * @internal
 */
export const run = (options: RunOptions): Effect.Effect<void, Blocked | Failed, Stdio.Stdio> =>
  Effect.gen(function* () {
    const preset = yield* checkPreset(options.preset)
    const payload = yield* readPayload
    const status = statusLine()
    // --fail-closed and --strict turn the engine's modes on; absent, the environment and the
    // settings still may (a flag never turns them off).
    const engineOptions: Partial<HookEngine.EngineOptions> = {
      onHookStart: status.onHookStart,
      // The CLI exits after this dispatch: async (fire-and-forget) hooks must outlive it.
      detachAsync: true,
      // One event per process: the Cedar engine loads only when this event runs a cedar hook.
      preloadCedar: false,
      ...(options.failClosed === true ? { failClosed: true } : {}),
      ...(options.strict === true ? { strict: true } : {})
    }
    // --log-level: debug adds what was loaded, matched and skipped; error is --quiet
    const level = yield* Debug.verbosity
    const quiet = options.quiet === true || level.quiet
    const debug = level.debug
    // settings warnings and payload notices obey --quiet; the lines about this dispatch never do
    const warnings = engineWarnings(quiet, quiet)
    const outcome = yield* withEngine({ ...options, preset, engineOptions }, warnings.onWarning, (engine) =>
      Effect.gen(function* () {
        const unknown = unknownEvent(options.event, knownEvents(engine, preset))
        if (unknown !== undefined) return yield* Effect.fail(new Failed({ message: unknown }))
        if (options.plugin === undefined || options.plugin.length === 0) {
          const none = noSettingsLine(engine)
          if (none !== undefined) process.stderr.write(`${none}\n`)
        }
        if (debug) {
          Debug.loaded(engine.plan)
          Debug.matched(engine.plan, options.event, payload)
        }
        warnings.dispatching()
        const outcome = yield* engine.dispatch(options.event, payload).pipe(Effect.ensuring(Effect.sync(status.done)))
        // The Outcome is printed as soon as it is known: closing the engine (starting detached
        // hooks, flushing telemetry) must not hold back the host that waits for it.
        if (debug) Debug.results(outcome)
        yield* Console.log(JSON.stringify(outcome))
        return outcome
      })
    )
    if (outcome.blocked) return yield* Effect.fail(new Blocked({ event: outcome.event }))
  })
