/**
 * The engine on Deno: the core's `HookEngine` with the `Deno.Command` process spawner, the file
 * system of `@effect/platform-node-shared` (on Deno's `node:fs`) and Deno's environment, as an
 * Effect layer and as the Promise facade. Same options and behaviour as `@agent-hooks/node`.
 * Needs `--allow-run`, `--allow-read`, `--allow-write` and `--allow-env` (or `-A`).
 *
 * **Example** (Promise facade)
 *
 * ```ts
 * // deno run -A main.ts
 * import { createHookEngine } from "@agent-hooks/deno"
 *
 * const engine = await createHookEngine({ settings: ["./hooks.json"], projectDir: Deno.cwd() })
 * const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
 * await engine.close()
 * ```
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as internal from "./internal/hookEngine.ts"

/**
 * Options of the Deno engine: the core's `EngineOptions`, with the defaults `env: Deno.env` and
 * `cwd: Deno.cwd()`.
 *
 * @since 0.1.0
 * @category models
 */
export interface DenoEngineOptions extends HookEngine.EngineOptions {}

/**
 * The engine layer, with everything it needs provided.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (options?: DenoEngineOptions) => Layer.Layer<HookEngine.HookEngine, HookError.HookError> = internal.layer

/**
 * The Promise facade. Its warnings go to `options.onWarning`, else to the console
 * (`PromiseEngine.warnToConsole`), as they happen; the engine's `reportsWarnings` is `true`, so a
 * host that also prints the outcomes' warnings can leave them out and say each once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const createHookEngine: (options?: DenoEngineOptions) => Promise<PromiseEngine.PromiseHookEngine> = internal.createHookEngine
