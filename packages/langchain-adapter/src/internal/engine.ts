import type { HookEngine, HookError, PromiseEngine } from "@agent-hooks/core"
import { Layer } from "effect"
import type { DispatchOutcome, HookDispatcher, HooksMiddlewareOptions } from "../HooksMiddleware.ts"

/** The engine as the middleware uses it. */
export interface Engine {
  readonly dispatch: (event: string, payload: Record<string, unknown>) => Promise<DispatchOutcome>
  /** The outcome of a dispatch that would run no hook, when the engine can tell at once; else `undefined`. */
  readonly unmatched: (event: string, payload: Record<string, unknown>) => DispatchOutcome | undefined
  /** `false` when the settings are known and have no hook for `event` (host turn events). */
  readonly mayHaveHooks: (event: string) => boolean
  /**
   * `false` when the engine is known to have no hook for `event`: the settings are known, have
   * none, and the programmatic hooks were declared (`callbackEvents`) without it.
   */
  readonly hasHooks: (event: string) => boolean
  /**
   * The events that have any hook, when the engine tells so now (a built engine that names its
   * hooked events, or settings plus the declared callback events); `undefined` when not known yet.
   */
  readonly hooked: () => ReadonlySet<string> | undefined
  /** Releases the engine when the adapter built it (from a layer or from engine options). */
  readonly close: () => Promise<void>
}

const inSettings = (dispatcher: HookDispatcher | undefined, event: string): boolean => {
  const hooks = dispatcher?.settings?.hooks
  if (hooks === undefined) return true
  const entries = hooks[event]
  return entries !== undefined && entries.length > 0
}

/** @internal */
export const fromOption = (
  engine: HooksMiddlewareOptions["engine"],
  callbackEvents?: ReadonlyArray<string> | undefined,
  onWarning?: ((warning: string) => void) | undefined
): Engine => {
  const callbacks = callbackEvents === undefined ? undefined : new Set(callbackEvents)
  // `undefined`: the engine is not built yet (a layer), it may have hooks for anything.
  const tests = (settingsOf: () => HookDispatcher | undefined) => ({
    mayHaveHooks: (event: string) => {
      const dispatcher = settingsOf()
      if (dispatcher?.hookedEvents !== undefined && callbacks === undefined) return dispatcher.hookedEvents.has(event)
      return dispatcher === undefined || inSettings(dispatcher, event) || (callbacks?.has(event) ?? false)
    },
    // An engine that says which events have hooks (programmatic ones included) is believed; else,
    // without the declared callback events, it may have a callback for any event.
    hasHooks: (event: string) => {
      const dispatcher = settingsOf()
      if (dispatcher?.hookedEvents !== undefined && callbacks === undefined) return dispatcher.hookedEvents.has(event)
      return dispatcher === undefined || callbacks === undefined || inSettings(dispatcher, event) || callbacks.has(event)
    }
  })
  if (!Layer.isLayer(engine) && typeof (engine as HookDispatcher | undefined)?.dispatch === "function") {
    const dispatcher = engine as HookDispatcher
    const hooked = (): ReadonlySet<string> | undefined => {
      if (dispatcher.hookedEvents !== undefined && callbacks === undefined) return dispatcher.hookedEvents
      const hooks = dispatcher.settings?.hooks
      if (hooks === undefined || callbacks === undefined) return undefined
      return new Set([...Object.keys(hooks).filter((event) => (hooks[event]?.length ?? 0) > 0), ...callbacks])
    }
    const unmatched = dispatcher.unmatched
    return {
      dispatch: (event, payload) => dispatcher.dispatch(event, payload),
      unmatched: unmatched === undefined ? () => undefined : (event, payload) => unmatched.call(dispatcher, event, payload),
      hooked,
      ...tests(() => dispatcher),
      close: async () => {}
    }
  }
  if (typeof engine !== "object" || engine === null) {
    throw new TypeError(
      `hooksMiddleware: \`engine\` must be an engine with a dispatch(event, payload) method, an Effect layer providing HookEngine, or engine options ({ settings: [...] }); got ${engine === null ? "null" : typeof engine}`
    )
  }
  let built: Promise<PromiseEngine.PromiseHookEngine> | undefined
  let resolved: PromiseEngine.PromiseHookEngine | undefined
  const get = () => {
    // Loaded on demand: hosts that pass a dispatcher never load the core.
    built ??= (Layer.isLayer(engine)
      ? import("@agent-hooks/core").then((core) => core.PromiseEngine.fromLayer(engine as Layer.Layer<HookEngine.HookEngine, HookError.HookError>))
      // Engine options: the Node engine (it runs on Node, Bun and Deno), owned by the middleware.
      : import("@agent-hooks/node").then((node) => node.createHookEngine({ ...(onWarning === undefined ? {} : { onWarning }), ...(engine as HookEngine.EngineOptions) })))
      .then((engine) => (resolved = engine))
    return built
  }
  return {
    dispatch: async (event, payload) => (await get()).dispatch(event, payload),
    unmatched: (event, payload) => resolved?.unmatched(event, payload),
    hooked: () => undefined,
    ...tests(() => resolved),
    close: async () => {
      if (built === undefined) return
      const engine = await built.catch(() => undefined)
      await engine?.close()
    }
  }
}
