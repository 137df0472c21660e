import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as Layer from "effect/Layer"
import type { AsyncHookResult, DispatchOutcome, HookDispatcher, HooksMiddlewareOptions } from "../HooksMiddleware.ts"

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
  /**
   * `true` when the engine the adapter built already reported this outcome warning through its
   * `onWarning` (a failed hook's line): it is not said twice. Always `false` for a host's engine.
   */
  readonly alreadyWarned: (warning: string) => boolean
  /** `true` when some hook may be `async` (the settings name one, or are not known) and the engine gives their results. */
  readonly asyncHooks: () => boolean
  /** The results of `async` hooks that finished since the last call (none when `asyncHooks()` is `false`). */
  readonly takeAsyncResults: () => Promise<ReadonlyArray<AsyncHookResult>>
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
        return [handler, ...(Array.isArray(group) ? group : [])].some((h) =>
          typeof h === "object" && h !== null && ((h as { async?: unknown }).async === true || (h as { asyncRewake?: unknown }).asyncRewake === true)
        )
      })
    )
    asyncSeen.set(hooks, found)
  }
  return found
}

/** The `hook "<command>" (<source>): ` label that starts a hook's warning, and the rest. */
const hookLabel = (line: string): readonly [string, string] | undefined => {
  const match = /^(hook ".*?" \([^)]*\): )(.*)$/s.exec(line)
  return match === null ? undefined : [match[1]!, match[2]!]
}

/**
 * The lines a built engine gave its `onWarning` that an outcome will repeat: a failed hook is one
 * line (`hook "<command>" (<source>): <why>`, its messages joined by "; ") and, in the outcome, one
 * warning per message. Each warning the outcome repeats is taken off once; the oldest lines go
 * first when nothing repeats them (at most `cap` kept).
 */
const heardLines = (cap = 200) => {
  const pending: Array<{ readonly label: string; parts: Array<string> }> = []
  return {
    heard: (line: string) => {
      const labelled = hookLabel(line)
      pending.push(labelled === undefined ? { label: line, parts: [""] } : { label: labelled[0], parts: labelled[1].split("; ") })
      if (pending.length > cap) pending.shift()
    },
    repeats: (warning: string): boolean => {
      const labelled = hookLabel(warning)
      const [label, rest] = labelled ?? [warning, ""]
      const at = pending.findIndex((entry) => entry.label === label && (entry.parts.includes(rest) || entry.parts.join("; ").includes(rest)))
      if (at < 0) return false
      const entry = pending[at]!
      const part = entry.parts.indexOf(rest)
      if (part >= 0) entry.parts.splice(part, 1)
      if (part < 0 || entry.parts.length === 0) pending.splice(at, 1)
      return true
    }
  }
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
      // A reload can add any event: everything is registered.
      if (dispatcher.watching === true) return undefined
      if (dispatcher.hookedEvents !== undefined && callbacks === undefined) return dispatcher.hookedEvents
      const hooks = dispatcher.settings?.hooks
      if (hooks === undefined || callbacks === undefined) return undefined
      return new Set([...Object.keys(hooks).filter((event) => (hooks[event]?.length ?? 0) > 0), ...callbacks])
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
      dispatch: (event, payload) => dispatcher.dispatch(event, payload),
      unmatched: unmatched === undefined ? () => undefined : (event, payload) => unmatched.call(dispatcher, event, payload),
      hooked,
      ...tests(() => dispatcher),
      close: async () => {},
      alreadyWarned: () => false
    }
  }
  if (typeof engine !== "object" || engine === null) {
    throw new TypeError(
      `hooksMiddleware: \`engine\` must be an engine with a dispatch(event, payload) method, an Effect layer providing HookEngine, or engine options ({ settings: [...] }); got ${engine === null ? "null" : typeof engine}`
    )
  }
  // A failed hook is one line: the engine built here tells `onWarning` at once, and the outcome's
  // copy of that warning is not said again.
  const lines = heardLines()
  const engineWarning = onWarning === undefined ? undefined : (line: string) => {
    lines.heard(line)
    onWarning(line)
  }
  let built: Promise<PromiseEngine.PromiseHookEngine> | undefined
  let resolved: PromiseEngine.PromiseHookEngine | undefined
  const get = () => {
    // Loaded on demand: hosts that pass a dispatcher never load the core.
    built ??= (Layer.isLayer(engine)
      ? import("@agent-hooks/core").then((core) => core.PromiseEngine.fromLayer(engine as Layer.Layer<HookEngine.HookEngine, HookError.HookError>))
      // Engine options: the Node engine (it runs on Node, Bun and Deno), owned by the middleware.
      : import("@agent-hooks/node").then((node) => node.createHookEngine({ ...(engineWarning === undefined ? {} : { onWarning: engineWarning }), ...(engine as HookEngine.EngineOptions) })))
      .then((engine) => (resolved = engine))
    return built
  }
  // Before the engine is built no hook has run: there is nothing to take.
  const asyncHooks = () => resolved !== undefined && hasAsync(resolved.settings.hooks)
  return {
    asyncHooks,
    takeAsyncResults: async () => (asyncHooks() ? await resolved!.takeAsyncResults() : []),
    dispatch: async (event, payload) => (await get()).dispatch(event, payload),
    unmatched: (event, payload) => resolved?.unmatched(event, payload),
    hooked: () => undefined,
    ...tests(() => resolved),
    close: async () => {
      if (built === undefined) return
      const engine = await built.catch(() => undefined)
      await engine?.close()
    },
    // A layer's engine has its own onWarning: the outcome is all the adapter hears of it.
    alreadyWarned: (warning) => !Layer.isLayer(engine) && lines.repeats(warning)
  }
}
