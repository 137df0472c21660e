/**
 * The Promise facade, for hosts that do not use Effect. Runtime packages wrap it:
 * `createHookEngine(options)` from `@agent-hooks/node` is `fromLayer(NodeHookEngine.layer(options))`.
 *
 * **Example**
 *
 * ```ts
 * import { createHookEngine } from "@agent-hooks/node"
 *
 * const engine = await createHookEngine({ settings: ["./hooks.json"], projectDir: process.cwd() })
 * const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
 * if (outcome.blocked) console.log("blocked:", outcome.reason)
 * await engine.close()
 * ```
 *
 * Promises reject only for engine failures (`SettingsError`, `PayloadError`, each with a readable
 * `message`); a hook that fails, blocks or times out resolves as part of the `Outcome`.
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type { AsyncResult, HookEngine } from "./HookEngine.ts"
import type { HookError } from "./HookError.ts"
import type { Outcome } from "./Outcome.ts"
import type { LoadedSettings } from "./SettingsModel.ts"
import * as internal from "./internal/promiseEngine.ts"

/**
 * What a host knows of a dispatch besides its payload: the trace it happens in (a LangChain run's),
 * as a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`). A malformed one is ignored.
 *
 * @since 0.2.0
 * @category models
 */
export interface DispatchContext {
  readonly traceparent?: string | undefined
}

/**
 * The engine, with Promises.
 *
 * @since 0.1.0
 * @category models
 */
export interface PromiseHookEngine {
  readonly settings: LoadedSettings
  /** The events that have at least one hook (settings and programmatic ones); dispatching any other event runs nothing. */
  readonly hookedEvents: ReadonlySet<string>
  /**
   * Runs the hooks of `event` for `payload` (a JSON object). `context` (since 0.2.0): the host's
   * trace (a W3C `traceparent`), the parent of the dispatch's span when telemetry is on.
   */
  readonly dispatch: (event: string, payload: Record<string, unknown>, context?: DispatchContext) => Promise<Outcome>
  /**
   * The outcome of dispatching `event` when no hook's matcher fits `payload`, synchronously (the
   * plan's index); `undefined` when some hook may run: then `dispatch`.
   *
   * @since 0.2.0
   */
  readonly unmatched: (event: string, payload: Record<string, unknown>) => Outcome | undefined
  /**
   * Removes and returns the results of `async` hooks that finished since the last call (the last 100 at most: older
   * ones are dropped, said once through `onWarning`).
   */
  readonly takeAsyncResults: () => Promise<ReadonlyArray<AsyncResult>>
  /** Waits until every running `async` hook has finished. */
  readonly awaitAsync: () => Promise<void>
  /** Releases the engine; hooks still running (`async` ones included) are killed. Safe to call twice. */
  readonly close: () => Promise<void>
  /**
   * `true` when the engine says each of its warnings itself, as it happens, through an `onWarning`:
   * the host's, else the console (`createHookEngine` of `@agent-hooks/node`, `bun` and `deno`
   * always does). A hook that did not run, failed, timed out or whose answer was dropped, a skipped
   * settings entry, an unknown event: each is one line there. An `Outcome`'s `warnings` keep the
   * record of the dispatch; a host that prints them too when this is `true` says each failure twice.
   * `false` (an engine from `fromLayer` without `reportsWarnings`): the outcomes are where a host hears them.
   *
   * @since 0.2.0
   */
  readonly reportsWarnings: boolean
}

/**
 * How `fromLayer` describes the engine it builds.
 *
 * @since 0.2.0
 * @category models
 */
export interface FromLayerOptions {
  /**
   * The layer's engine has an `onWarning` that reports each warning (the engine's
   * `reportsWarnings`). Default `false`.
   */
  readonly reportsWarnings?: boolean | undefined
}

/**
 * Builds a Promise engine from a layer that provides `HookEngine`. `options` (since 0.2.0): say
 * `reportsWarnings: true` when the layer's engine was given an `onWarning`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromLayer: (layer: Layer.Layer<HookEngine, HookError>, options?: FromLayerOptions) => Promise<PromiseHookEngine> =
  internal.fromLayer

/**
 * The Promise facades' default `onWarning`: each warning on stderr through `console.warn`, prefixed
 * `agent-hooks: `. A settings entry that was skipped, or a hook that could not run or whose answer
 * was dropped, is never silent unless the host passes its own `onWarning`.
 *
 * @since 0.2.0
 * @category warnings
 */
export const warnToConsole: (warning: string) => void = internal.warnToConsole
