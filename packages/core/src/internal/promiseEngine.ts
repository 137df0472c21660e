import { Cause, Effect, Exit, ManagedRuntime } from "effect"
import type { Layer } from "effect"
import { HookEngine } from "../HookEngine.ts"
import type { HookError } from "../HookError.ts"
import type { PromiseHookEngine } from "../PromiseEngine.ts"

/** Runs an effect and rejects with the typed failure itself (not a wrapper). */
const run = async <A, E>(runtime: ManagedRuntime.ManagedRuntime<HookEngine, HookError>, effect: Effect.Effect<A, E, HookEngine>): Promise<A> => {
  const exit = await runtime.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** @internal */
export const fromLayer = async (layer: Layer.Layer<HookEngine, HookError>): Promise<PromiseHookEngine> => {
  const runtime = ManagedRuntime.make(layer)
  let engine: HookEngine["Service"]
  try {
    engine = await run(runtime, Effect.gen(function*() {
      return yield* HookEngine
    }))
  } catch (error) {
    await runtime.dispose()
    throw error
  }
  let closed = false
  return {
    settings: engine.settings,
    hookedEvents: engine.hookedEvents,
    dispatch: (event, payload) => {
      if (closed) return Promise.reject(new Error("the hook engine is closed"))
      // A dispatch that matches no hook resolves at once, without entering the Effect runtime.
      const unmatched = engine.unmatched(event, payload)
      return unmatched !== undefined ? Promise.resolve(unmatched) : run(runtime, engine.dispatch(event, payload))
    },
    unmatched: (event, payload) => (closed ? undefined : engine.unmatched(event, payload)),
    takeAsyncResults: () => run(runtime, engine.takeAsyncResults),
    awaitAsync: () => run(runtime, engine.awaitAsync),
    close: async () => {
      if (closed) return
      closed = true
      await runtime.dispose()
    }
  }
}
