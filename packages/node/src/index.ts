/**
 * @agent-hooks/node: agent-hooks on Node (and on Deno, where it spawns hooks with `Deno.Command`).
 *
 * @since 0.1.0
 */
export * as DenoProcessSpawner from "./DenoProcessSpawner.ts"
export * as NodeHookEngine from "./NodeHookEngine.ts"
export * as NodeProcessSpawner from "./NodeProcessSpawner.ts"
export { createHookEngine } from "./NodeHookEngine.ts"
export type { NodeEngineOptions } from "./NodeHookEngine.ts"
