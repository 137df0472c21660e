/**
 * @agent-hooks/deno: agent-hooks on Deno, with process spawning on `Deno.Command`.
 *
 * @since 0.1.0
 */
export * as DenoHookEngine from "./DenoHookEngine.ts"
export * as DenoProcessSpawner from "./DenoProcessSpawner.ts"
export { createHookEngine } from "./DenoHookEngine.ts"
export type { DenoEngineOptions } from "./DenoHookEngine.ts"
