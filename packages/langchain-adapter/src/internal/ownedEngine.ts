/**
 * The engine shapes `hooksMiddleware` still accepts but no longer documents (deprecated): an
 * Effect layer that provides `HookEngine`, and engine options (`settings`). The middleware builds
 * such an engine once, on first use, owns it and releases it with `close()`. A host's
 * `HookDispatcher` (an engine from `createHookEngine`) is the documented way.
 */
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as Layer from "effect/Layer"

/** An engine the middleware builds and owns. */
export interface Owned {
  /** The engine, built on the first call. */
  readonly get: () => Promise<PromiseEngine.PromiseHookEngine>
  /** The engine once it is built, else `undefined` (no hook has run). */
  readonly resolved: () => PromiseEngine.PromiseHookEngine | undefined
  readonly close: () => Promise<void>
}

/** An engine built from a layer or from engine options, on first use. */
export const make = (
  engine: Layer.Layer<HookEngine.HookEngine, unknown> | HookEngine.EngineOptions | undefined,
  onWarning: ((warning: string) => void) | undefined
): Owned => {
  if (typeof engine !== "object" || engine === null) {
    throw new TypeError(
      `hooksMiddleware: \`engine\` must be an engine with a dispatch(event, payload) method, an Effect layer providing HookEngine, or engine options ({ settings: [...] }); got ${engine === null ? "null" : typeof engine}`
    )
  }
  let built: Promise<PromiseEngine.PromiseHookEngine> | undefined
  let resolved: PromiseEngine.PromiseHookEngine | undefined
  return {
    get: () => {
      // Loaded on demand: hosts that pass a dispatcher never load the core.
      built ??= (
        Layer.isLayer(engine)
          ? import("@agent-hooks/core").then((core) =>
              core.PromiseEngine.fromLayer(engine as Layer.Layer<HookEngine.HookEngine, HookError.HookError>)
            )
          : // Engine options: the Node engine (it runs on Node, Bun and Deno), owned by the middleware;
            // it says its warnings through the middleware's onWarning (its reportsWarnings).
            import("@agent-hooks/node").then((node) =>
              node.createHookEngine({ ...(onWarning === undefined ? {} : { onWarning }), ...(engine as HookEngine.EngineOptions) })
            )
      ).then((engine) => (resolved = engine))
      return built
    },
    resolved: () => resolved,
    close: async () => {
      if (built === undefined) return
      const engine = await built.catch(() => undefined)
      await engine?.close()
    }
  }
}
