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
 * The names the engine's settings are written in, from its preset (the config dialect), for a host
 * whose tools and events have names of their own (the LangChain adapter): which tool names its
 * matchers use, and which of its events stand for catalog events.
 *
 * @since 0.2.0
 * @category models
 */
export interface PresetNames {
  /** The preset's name (`"claude"`, `"wingman"`, `"pigo"`...). */
  readonly name: string
  /**
   * The tool names the settings' matchers are written in: Claude Code's (`Bash`, `Write`, `Edit`...)
   * for Claude Code's settings and the dialects that share them (Wave, orchestration), the agent's
   * own otherwise (Gemini CLI's `run_shell_command`, `write_file`; Codex's `Bash`, `apply_patch`);
   * `[]` when the dialect's agent names its tools itself (Wingman's deepagents tools, pigo's): its
   * matchers are written in the host's own tool names.
   */
  readonly toolNames: ReadonlyArray<string>
  /**
   * Catalog event → the preset's own event that stands for it, where the preset has exactly one
   * of another name (pigo: `PreToolUse` → `tool_start`; Gemini CLI: `PreToolUse` → `BeforeTool`).
   * A host that raises catalog events dispatches this one in its place.
   */
  readonly events: Readonly<Record<string, string>>
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
   * The names its settings are written in (its preset's tool names and event names).
   *
   * @since 0.2.0
   */
  readonly preset: PresetNames
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
