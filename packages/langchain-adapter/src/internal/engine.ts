import * as Layer from "effect/Layer"
import type { AsyncHookResult, DispatchContext, DispatchOutcome, HookDispatcher } from "../HookDispatcher.ts"
import type { HooksMiddlewareOptions } from "../HooksMiddleware.ts"
import * as Owned from "./ownedEngine.ts"

/** The engine as the middleware uses it. */
export interface Engine {
  /** `context`: the trace the hooks' spans join (the LangChain run's), when there is one. */
  readonly dispatch: (event: string, payload: Record<string, unknown>, context?: DispatchContext) => Promise<DispatchOutcome>
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
  /**
   * `true` when the engine says its warnings itself (its `reportsWarnings`): the outcome's
   * warnings are not said again. `false` until an engine the adapter builds is built.
   */
  readonly reportsWarnings: () => boolean
  /** `true` when some hook may be `async` (the settings name one, or are not known) and the engine gives their results. */
  readonly asyncHooks: () => boolean
  /** The results of `async` hooks that finished since the last call (none when `asyncHooks()` is `false`). */
  readonly takeAsyncResults: () => Promise<ReadonlyArray<AsyncHookResult>>
  /**
   * The tool names the settings' matchers are written in (the preset's); `undefined` when the
   * engine does not say (Claude Code's names, or an engine the adapter has not built yet).
   */
  readonly toolNames: () => ReadonlyArray<string> | undefined
  /** Whether `toolNames()` is final: `false` only for an engine the adapter builds, before it is built. */
  readonly toolNamesKnown: () => boolean
}

type Preset = HookDispatcher["preset"]

/**
 * A preset's own name for a catalog event (pigo's `tool_start` for PreToolUse): the middleware
 * raises catalog events, the engine is asked with the preset's.
 */
const ownEvent = (preset: Preset, event: string): string => {
  const own = preset?.events?.[event]
  return typeof own === "string" ? own : event
}

const catalogOf = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>()
/**
 * The hooked events in catalog names: a preset's own event also names the catalog event it stands
 * for. The same set for the same engine set (the middleware tells a change of hooks by the set).
 */
const catalogEvents = (preset: Preset, events: ReadonlySet<string>): ReadonlySet<string> => {
  const aliases = preset?.events
  if (aliases === undefined) return events
  let catalog = catalogOf.get(events)
  if (catalog === undefined) {
    const extra = Object.entries(aliases).filter(([name, own]) => events.has(own) && !events.has(name))
    catalog = extra.length === 0 ? events : new Set([...events, ...extra.map(([name]) => name)])
    catalogOf.set(events, catalog)
  }
  return catalog
}

type SettingsHooks = Readonly<Record<string, ReadonlyArray<unknown>>>
const asyncSeen = new WeakMap<SettingsHooks, boolean>()
/** Whether settings' hooks have an `async` (or `asyncRewake`) handler; worked out once per hooks object. */
const hasAsync = (hooks: SettingsHooks): boolean => {
  let found = asyncSeen.get(hooks)
  if (found === undefined) {
    found = Object.values(hooks).some((entries) =>
      entries.some((entry) => {
        // An engine's entry has its `handler`; a settings file's matcher group its `hooks`.
        const { handler, hooks: group } = entry as { readonly handler?: unknown; readonly hooks?: unknown }
        return [handler, ...(Array.isArray(group) ? group : [])].some(
          (h) =>
            typeof h === "object" &&
            h !== null &&
            ((h as { async?: unknown }).async === true || (h as { asyncRewake?: unknown }).asyncRewake === true)
        )
      })
    )
    asyncSeen.set(hooks, found)
  }
  return found
}

const inSettings = (dispatcher: HookDispatcher | undefined, event: string): boolean => {
  const hooks = dispatcher?.settings?.hooks
  if (hooks === undefined) return true
  const entries = hooks[event]
  return entries !== undefined && entries.length > 0
}

/** What the middleware asks of an engine: whether an event may have hooks (settings, declared callbacks, or the engine's own list). */
const hookTests = (dispatcherOf: () => HookDispatcher | undefined, callbacks: ReadonlySet<string> | undefined) => ({
  // `undefined`: the engine is not built yet (a layer), it may have hooks for anything.
  mayHaveHooks: (catalog: string) => {
    const dispatcher = dispatcherOf()
    const event = ownEvent(dispatcher?.preset, catalog)
    if (dispatcher?.hookedEvents !== undefined && callbacks === undefined) return dispatcher.hookedEvents.has(event)
    return (
      dispatcher === undefined || inSettings(dispatcher, event) || (callbacks?.has(event) ?? false) || (callbacks?.has(catalog) ?? false)
    )
  },
  // An engine that says which events have hooks (programmatic ones included) is believed; else,
  // without the declared callback events, it may have a callback for any event.
  hasHooks: (catalog: string) => {
    const dispatcher = dispatcherOf()
    const event = ownEvent(dispatcher?.preset, catalog)
    if (dispatcher?.hookedEvents !== undefined && callbacks === undefined) return dispatcher.hookedEvents.has(event)
    return (
      dispatcher === undefined || callbacks === undefined || inSettings(dispatcher, event) || callbacks.has(event) || callbacks.has(catalog)
    )
  }
})

const isDispatcher = (engine: unknown): engine is HookDispatcher =>
  !Layer.isLayer(engine) && typeof (engine as HookDispatcher | undefined)?.dispatch === "function"

/** The engine of a host's `HookDispatcher` (owned by the host: `close` leaves it open). */
export const fromDispatcher = (dispatcher: HookDispatcher, callbackEvents: ReadonlyArray<string> | undefined): Engine => {
  const callbacks = callbackEvents === undefined ? undefined : new Set(callbackEvents)
  const hooked = (): ReadonlySet<string> | undefined => {
    // A reload can add any event: everything is registered.
    if (dispatcher.watching === true) return undefined
    if (dispatcher.hookedEvents !== undefined && callbacks === undefined) return catalogEvents(dispatcher.preset, dispatcher.hookedEvents)
    const hooks = dispatcher.settings?.hooks
    if (hooks === undefined || callbacks === undefined) return undefined
    return catalogEvents(
      dispatcher.preset,
      new Set([...Object.keys(hooks).filter((event) => (hooks[event]?.length ?? 0) > 0), ...callbacks])
    )
  }
  const unmatched = dispatcher.unmatched
  const take = dispatcher.takeAsyncResults
  const asyncHooks = () => {
    if (typeof take !== "function") return false
    const hooks = dispatcher.settings?.hooks
    return hooks === undefined || hasAsync(hooks)
  }
  return {
    asyncHooks,
    takeAsyncResults: async () => (asyncHooks() ? await take!.call(dispatcher) : []),
    // The trace context goes only to a dispatch that has one: a host's dispatch sees two arguments, as before.
    dispatch: (catalog, payload, context) => {
      const event = ownEvent(dispatcher.preset, catalog)
      return context === undefined ? dispatcher.dispatch(event, payload) : dispatcher.dispatch(event, payload, context)
    },
    unmatched:
      unmatched === undefined
        ? () => undefined
        : (event, payload) => unmatched.call(dispatcher, ownEvent(dispatcher.preset, event), payload),
    toolNames: () => dispatcher.preset?.toolNames,
    toolNamesKnown: () => true,
    hooked,
    ...hookTests(() => dispatcher, callbacks),
    close: async () => {},
    reportsWarnings: () => dispatcher.reportsWarnings === true
  }
}

/**
 * The engine of the middleware's options: the host's `HookDispatcher` (`engine`), else one the
 * middleware builds from the deprecated shapes (a layer, engine options, `settings`).
 */
export const fromOptions = (options: HooksMiddlewareOptions, onWarning: (warning: string) => void): Engine => {
  const engine =
    options.engine ??
    (options.settings === undefined
      ? undefined
      : { settings: options.settings, ...(options.cwd === undefined ? {} : { projectDir: options.cwd }) })
  if (isDispatcher(engine)) return fromDispatcher(engine, options.callbackEvents)
  const owned = Owned.make(engine, onWarning)
  // Before the engine is built no hook has run: there is nothing to take.
  const asyncHooks = () => {
    const resolved = owned.resolved()
    return resolved !== undefined && hasAsync(resolved.settings.hooks)
  }
  return {
    asyncHooks,
    takeAsyncResults: async () => (asyncHooks() ? await owned.resolved()!.takeAsyncResults() : []),
    dispatch: async (event, payload, context) => {
      const engine = await owned.get()
      return engine.dispatch(ownEvent(engine.preset, event), payload, context)
    },
    unmatched: (event, payload) => {
      const engine = owned.resolved()
      return engine?.unmatched(ownEvent(engine.preset, event), payload)
    },
    toolNames: () => owned.resolved()?.preset.toolNames,
    toolNamesKnown: () => owned.resolved() !== undefined,
    hooked: () => undefined,
    ...hookTests(owned.resolved, options.callbackEvents === undefined ? undefined : new Set(options.callbackEvents)),
    close: owned.close,
    // The Node engine built from options reports to the middleware's onWarning; a layer's engine does not say.
    reportsWarnings: () => owned.resolved()?.reportsWarnings === true
  }
}
