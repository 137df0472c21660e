import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type * as Layer from "effect/Layer"
import * as Tracer from "effect/Tracer"
import { HookEngine } from "../HookEngine.ts"
import type { HookError } from "../HookError.ts"
import type { Preset } from "../PresetModel.ts"
import type { DispatchContext, FromLayerOptions, PresetNames, PromiseHookEngine } from "../PromiseEngine.ts"
import { TOOL_NAMES } from "./scriptCheck.ts"
import { parseTraceparent } from "./telemetry.ts"

const presetNamesOf = new WeakMap<Preset, PresetNames>()
/** A preset's names, worked out once per preset: tool names default to Claude Code's; an event alias is the one own event that extends a catalog event. */
const presetNames = (preset: Preset): PresetNames => {
  let names = presetNamesOf.get(preset)
  if (names === undefined) {
    const own = new Set(preset.events.map((event) => event.name))
    const extending = new Map<string, Array<string>>()
    for (const event of preset.events) {
      if (event.extends === undefined || event.extends === event.name) continue
      extending.set(event.extends, [...(extending.get(event.extends) ?? []), event.name])
    }
    const events: Record<string, string> = {}
    // Only one own event for a catalog event the preset does not have itself: several (Cursor's
    // per-tool events) are not one event, and a catalog event the preset declares is its own.
    for (const [catalog, names] of extending) if (names.length === 1 && !own.has(catalog)) events[catalog] = names[0]!
    names = { name: preset.name, toolNames: preset.toolNames ?? TOOL_NAMES, events }
    presetNamesOf.set(preset, names)
  }
  return names
}

/** Rejects a dispatch that was in flight when the engine closed, or one made after. */
const closedError = () => new Error("the hook engine is closed")

/**
 * Runs an effect and rejects with the typed failure itself (not a wrapper); an effect interrupted
 * because the engine closed rejects with "the hook engine is closed".
 */
const run = async <A, E>(
  runtime: ManagedRuntime.ManagedRuntime<HookEngine, HookError>,
  effect: Effect.Effect<A, E, HookEngine>,
  isClosed: () => boolean
): Promise<A> => {
  const exit = await runtime.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  if (isClosed() && Cause.hasInterruptsOnly(exit.cause)) throw closedError()
  throw Cause.squash(exit.cause)
}

/**
 * The Promise facades' default `onWarning`: each warning on stderr (`console.warn`), prefixed
 * `agent-hooks: `, so that a skipped settings entry or a hook that did not run is never silent.
 * @internal
 */
export const warnToConsole = (warning: string): void => {
  ;(globalThis as unknown as { readonly console: { readonly warn: (message: string) => void } }).console.warn(`agent-hooks: ${warning}`)
}

/** The host's trace is the parent of the dispatch's span (a malformed `traceparent` is ignored). */
const withTrace = <A, E, R>(self: Effect.Effect<A, E, R>, context: DispatchContext | undefined): Effect.Effect<A, E, R> => {
  const parent = parseTraceparent(context?.traceparent)
  return parent === undefined ? self : Effect.withParentSpan(self, Tracer.externalSpan(parent))
}

/** @internal */
export const fromLayer = async (layer: Layer.Layer<HookEngine, HookError>, options?: FromLayerOptions): Promise<PromiseHookEngine> => {
  const runtime = ManagedRuntime.make(layer)
  let engine: HookEngine["Service"]
  try {
    engine = await run(
      runtime,
      Effect.gen(function* () {
        return yield* HookEngine
      }),
      () => false
    )
  } catch (error) {
    await runtime.dispose()
    throw error
  }
  let closed = false
  const isClosed = () => closed
  return {
    // A host that prints the outcomes' warnings reads this to say each warning once.
    reportsWarnings: options?.reportsWarnings === true,
    // Getters: with hot reload (`watch`) the engine's settings change.
    get settings() {
      return engine.settings
    },
    get hookedEvents() {
      return engine.hookedEvents
    },
    get preset() {
      return presetNames(engine.plan.preset)
    },
    dispatch: (event, payload, context) => {
      if (closed) return Promise.reject(closedError())
      // A dispatch that matches no hook resolves at once, without entering the Effect runtime.
      const unmatched = engine.unmatched(event, payload)
      return unmatched !== undefined
        ? Promise.resolve(unmatched)
        : run(runtime, withTrace(engine.dispatch(event, payload), context), isClosed)
    },
    unmatched: (event, payload) => (closed ? undefined : engine.unmatched(event, payload)),
    takeAsyncResults: () => run(runtime, engine.takeAsyncResults, isClosed),
    awaitAsync: () => run(runtime, engine.awaitAsync, isClosed),
    close: async () => {
      if (closed) return
      closed = true
      await runtime.dispose()
    }
  }
}
