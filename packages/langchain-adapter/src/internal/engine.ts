import type { HookEngine, HookError, PromiseEngine } from "@agent-hooks/core"
import { Layer } from "effect"
import type { DispatchOutcome, HookDispatcher, HooksMiddlewareOptions } from "../HooksMiddleware.ts"

/** The engine as the middleware uses it. */
export interface Engine {
  readonly dispatch: (event: string, payload: Record<string, unknown>) => Promise<DispatchOutcome>
  /** `false` when the settings are known and have no hook for `event`. */
  readonly mayHaveHooks: (event: string) => boolean
  /** Releases the engine when the adapter built it (from a layer). */
  readonly close: () => Promise<void>
}

const hasHooks = (dispatcher: HookDispatcher | undefined, event: string): boolean => {
  const hooks = dispatcher?.settings?.hooks
  if (hooks === undefined) return true
  const entries = hooks[event]
  return entries !== undefined && entries.length > 0
}

/** @internal */
export const fromOption = (engine: HooksMiddlewareOptions["engine"]): Engine => {
  if (!Layer.isLayer(engine)) {
    const dispatcher = engine as HookDispatcher
    if (typeof dispatcher?.dispatch !== "function") {
      throw new TypeError("hooksMiddleware: `engine` must have a dispatch(event, payload) method, or be an Effect layer providing HookEngine")
    }
    return {
      dispatch: (event, payload) => dispatcher.dispatch(event, payload),
      mayHaveHooks: (event) => hasHooks(dispatcher, event),
      close: async () => {}
    }
  }
  const layer = engine as Layer.Layer<HookEngine.HookEngine, HookError.HookError>
  let built: Promise<PromiseEngine.PromiseHookEngine> | undefined
  let resolved: PromiseEngine.PromiseHookEngine | undefined
  const get = () => {
    // Loaded on demand: hosts that pass a dispatcher never load the core.
    built ??= import("@agent-hooks/core").then((core) => core.PromiseEngine.fromLayer(layer)).then((engine) => (resolved = engine))
    return built
  }
  return {
    dispatch: async (event, payload) => (await get()).dispatch(event, payload),
    mayHaveHooks: (event) => resolved === undefined || hasHooks(resolved, event),
    close: async () => {
      if (built === undefined) return
      const engine = await built.catch(() => undefined)
      await engine?.close()
    }
  }
}
