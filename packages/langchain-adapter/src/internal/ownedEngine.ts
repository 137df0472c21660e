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
  /** `true` when the engine already said this outcome warning through its `onWarning`. */
  readonly alreadyWarned: (warning: string) => boolean
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
  // A failed hook is one line: the engine built here tells `onWarning` at once, and the outcome's
  // copy of that warning is not said again.
  const lines = heardLines()
  const engineWarning = onWarning === undefined ? undefined : (line: string) => {
    lines.heard(line)
    onWarning(line)
  }
  let built: Promise<PromiseEngine.PromiseHookEngine> | undefined
  let resolved: PromiseEngine.PromiseHookEngine | undefined
  return {
    get: () => {
      // Loaded on demand: hosts that pass a dispatcher never load the core.
      built ??= (Layer.isLayer(engine)
        ? import("@agent-hooks/core").then((core) => core.PromiseEngine.fromLayer(engine as Layer.Layer<HookEngine.HookEngine, HookError.HookError>))
        // Engine options: the Node engine (it runs on Node, Bun and Deno), owned by the middleware.
        : import("@agent-hooks/node").then((node) => node.createHookEngine({ ...(engineWarning === undefined ? {} : { onWarning: engineWarning }), ...(engine as HookEngine.EngineOptions) })))
        .then((engine) => (resolved = engine))
      return built
    },
    resolved: () => resolved,
    close: async () => {
      if (built === undefined) return
      const engine = await built.catch(() => undefined)
      await engine?.close()
    },
    // A layer's engine has its own onWarning: the outcome is all the adapter hears of it.
    alreadyWarned: (warning) => !Layer.isLayer(engine) && lines.repeats(warning)
  }
}
