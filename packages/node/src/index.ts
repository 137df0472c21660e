/**
 * @agent-hooks/node: agent-hooks on Node. (On Deno, use `@agent-hooks/deno`.)
 *
 * @since 0.1.0
 */
export * as NodeCedar from "./NodeCedar.ts"
export * as NodeHookEngine from "./NodeHookEngine.ts"
export * as NodeProcessSpawner from "./NodeProcessSpawner.ts"
export { createHookEngine } from "./NodeHookEngine.ts"
export type { NodeEngineOptions, SpawnHelperOptions } from "./NodeHookEngine.ts"
export * as ProjectEngine from "./ProjectEngine.ts"
export { closeProjectEngines, projectEngine } from "./ProjectEngine.ts"
export type { ProjectEngineOptions } from "./ProjectEngine.ts"
