/**
 * The engine on Node: the core's `HookEngine` with the Node process spawner, the Node file
 * system and the process environment, as an Effect layer and as the Promise facade.
 *
 * **Example** (Promise facade)
 *
 * ```ts
 * import { createHookEngine } from "@agent-hooks/node"
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
 * import { NodeHookEngine } from "@agent-hooks/node"
 *
 * const program = Effect.gen(function* () {
 *   const engine = yield* HookEngine.HookEngine
 *   return yield* engine.dispatch("Stop", {})
 * }).pipe(Effect.provide(NodeHookEngine.layer({ settings: ["./hooks.json"] })))
 * ```
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as cedar from "./internal/cedar.ts"
import * as internal from "./internal/hookEngine.ts"
import type { HelperRuntime } from "./NodeProcessSpawner.ts"

/**
 * The spawn helper in full: when hooks go through it, and which program runs it.
 *
 * **Example** (the helper run by Bun, for every hook)
 *
 * ```ts
 * import { createHookEngine } from "@agent-hooks/node"
 *
 * const engine = await createHookEngine({ settings: ["./hooks.json"], spawnHelper: { use: true, runtime: "bun" } })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SpawnHelperOptions extends HelperRuntime {
  /** `true`: every hook; `"auto"` (the default): above `NodeProcessSpawner.defaultHelperThresholdBytes` of host memory. */
  readonly use?: true | "auto" | undefined
}

/**
 * Options of the Node engine: the core's `EngineOptions`, with Node defaults:
 * `env` defaults to `process.env` and `cwd` to `process.cwd()`.
 *
 * @since 0.1.0
 * @category models
 */
export interface NodeEngineOptions extends HookEngine.EngineOptions {
  /**
   * Spawn hooks through a small helper process (`NodeProcessSpawner.helperLayer`): `true` always,
   * `false` never (straight from the host), `"auto"` (default) when the host's resident memory is
   * above `NodeProcessSpawner.defaultHelperThresholdBytes`, where the helper is measured faster.
   * An object (`SpawnHelperOptions`, since 0.2.0) also picks the program that runs the helper:
   * `{ runtime: "bun" }` runs it on Bun, which starts hooks faster than Node.
   */
  readonly spawnHelper?: boolean | "auto" | SpawnHelperOptions | undefined
}

/**
 * The engine layer, with everything it needs provided.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (options?: NodeEngineOptions) => Layer.Layer<HookEngine.HookEngine, HookError.HookError> = internal.layer

/**
 * The Promise facade. Its warnings go to `options.onWarning`, else to the console
 * (`PromiseEngine.warnToConsole`), as they happen; the engine's `reportsWarnings` is `true`, so a
 * host that also prints the outcomes' warnings can leave them out and say each once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const createHookEngine: (options?: NodeEngineOptions) => Promise<PromiseEngine.PromiseHookEngine> = internal.createHookEngine

/**
 * The Cedar runtime of `cedar` hooks on Node (the engine's default `cedar` option):
 * `@cedar-policy/cedar-wasm`, imported when an engine with a cedar hook loads, and its files read as
 * regular files only (`RegularFile.reader`: a FIFO or a device named as a policy fails the hook at
 * once, never blocks). For `HookEngine.checkCedarPolicies` without an engine.
 *
 * @since 0.2.0
 * @category constructors
 */
export const cedarRuntime: HookEngine.CedarRuntime = cedar.cedarRuntime
