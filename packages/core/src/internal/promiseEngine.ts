import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type * as Layer from "effect/Layer"
import * as Tracer from "effect/Tracer"
import { HookEngine } from "../HookEngine.ts"
import type { HookError } from "../HookError.ts"
import type { DispatchContext, FromLayerOptions, PromiseHookEngine } from "../PromiseEngine.ts"
import { parseTraceparent } from "./telemetry.ts"

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
