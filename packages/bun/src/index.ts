/**
 * @agent-hooks/bun: agent-hooks on Bun, with process spawning on `Bun.spawn`.
 *
 * @since 0.1.0
 */
export * as BunHookEngine from "./BunHookEngine.ts"
export * as BunProcessSpawner from "./BunProcessSpawner.ts"
export { createHookEngine } from "./BunHookEngine.ts"
export type { BunEngineOptions } from "./BunHookEngine.ts"
