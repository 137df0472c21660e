/**
 * The engine: settings loaded once, matchers compiled once, and `dispatch(event, payload)`
 * running every matching hook of that event concurrently into one `Outcome`.
 *
 * **Example** (Effect API)
 *
 * ```ts
 * import { Effect } from "effect"
 * import { HookEngine } from "@agent-hooks/core"
 * import { NodeHookEngine } from "@agent-hooks/node"
 *
 * const program = Effect.gen(function* () {
 *   const engine = yield* HookEngine.HookEngine
 *   const outcome = yield* engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
 *   if (outcome.blocked) console.log("blocked:", outcome.reason)
 * })
 * Effect.runPromise(program.pipe(Effect.provide(NodeHookEngine.layer({ settings: ["./hooks.json"], projectDir: "." }))))
 * ```
 *
 * @since 0.1.0
 */
import type { Effect, FileSystem, Layer, Path } from "effect"
import { Context } from "effect"
import type { HookError } from "./HookError.ts"
import type { LoadedSettings } from "./Settings.ts"
import type { Outcome } from "./Outcome.ts"
import type { ProcessSpawner } from "./ProcessSpawner.ts"
import * as internal from "./internal/engine.ts"

/**
 * Where the settings come from and where the project is.
 *
 * @since 0.1.0
 * @category models
 */
export interface EngineOptions {
  /** Explicit settings files. When given, discovery is off and only these are read. */
  readonly settings?: ReadonlyArray<string> | undefined
  /** The project root (absolute or relative to `cwd`). Default: `cwd`. */
  readonly projectDir?: string | undefined
  /** The directory relative paths are resolved against. Default: the project dir, else `"."`. */
  readonly cwd?: string | undefined
  /**
   * The environment hooks inherit (plus `AGENT_HOOKS_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`).
   * Also read for `AGENT_HOOKS_HOME` and `HOME` during discovery. Default: none; runtime packages pass
   * the process environment.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** Receives each warning (a skipped settings entry, an invalid matcher...). Default: collected only. */
  readonly onWarning?: ((warning: string) => void) | undefined
}

/**
 * The engine service.
 *
 * @since 0.1.0
 * @category tags
 */
export class HookEngine extends Context.Service<
  HookEngine,
  {
    /** The merged settings, with the warnings raised while loading them. */
    readonly settings: LoadedSettings
    /**
     * Runs every hook configured for `event` whose matcher fits `payload`.
     * Fails only for engine errors (a payload that is not an object); hook failures are results.
     */
    readonly dispatch: (event: string, payload: unknown) => Effect.Effect<Outcome, HookError>
  }
>()("@agent-hooks/core/HookEngine") {}

/**
 * Loads the settings and builds the engine.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  options: EngineOptions
) => Effect.Effect<HookEngine["Service"], HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path> =
  internal.make

/**
 * The engine as a layer. The runtime package provides `ProcessSpawner`, `FileSystem` and `Path`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (
  options: EngineOptions
) => Layer.Layer<HookEngine, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path> = internal.layer
