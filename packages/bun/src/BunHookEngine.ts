/**
 * The engine on Bun: the core's `HookEngine` with the `Bun.spawn` process spawner, the file
 * system of `@effect/platform-node-shared` (which runs on Bun) and the process environment, as
 * an Effect layer and as the Promise facade. Same options and behaviour as `@agent-hooks/node`.
 *
 * **Example** (Promise facade)
 *
 * ```ts
 * import { createHookEngine } from "@agent-hooks/bun"
 *
 * const engine = await createHookEngine({ settings: ["./hooks.json"], projectDir: process.cwd() })
 * const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
 * await engine.close()
 * ```
 *
 * **Example** (Effect)
 *
 * ```ts
 * import { Effect } from "effect"
 * import { HookEngine } from "@agent-hooks/core"
 * import { BunHookEngine } from "@agent-hooks/bun"
 *
 * const program = Effect.gen(function* () {
 *   const engine = yield* HookEngine.HookEngine
 *   return yield* engine.dispatch("Stop", {})
 * }).pipe(Effect.provide(BunHookEngine.layer({ settings: ["./hooks.json"] })))
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
 * Options of the Bun engine: the core's `EngineOptions`, with the defaults `env: process.env`
 * and `cwd: process.cwd()`.
 *
 * @since 0.1.0
 * @category models
 */
export interface BunEngineOptions extends HookEngine.EngineOptions {}

/**
 * The engine layer, with everything it needs provided.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (options?: BunEngineOptions) => Layer.Layer<HookEngine.HookEngine, HookError.HookError> = internal.layer

/**
 * The Promise facade. Its warnings go to `options.onWarning`, else to the console
 * (`PromiseEngine.warnToConsole`), as they happen; the engine's `reportsWarnings` is `true`, so a
 * host that also prints the outcomes' warnings can leave them out and say each once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const createHookEngine: (options?: BunEngineOptions) => Promise<PromiseEngine.PromiseHookEngine> = internal.createHookEngine
