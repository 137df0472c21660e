/**
 * @agent-hooks/mastra: agent-hooks for Mastra agents: the project's hooks as the Agent's
 * `beforeToolCall` / `afterToolCall`, `requireToolApproval` and an input processor.
 *
 * @since 0.1.0
 */
export * as MastraHooks from "./MastraHooks.ts"
export { agentHooks, defaultToolNames } from "./MastraHooks.ts"
export type { AdapterEngine, AdapterOptions, MastraHooksOptions, StopCheck, ToolMapping } from "./MastraHooks.ts"
export type { MastraHooks as Hooks } from "./MastraHooks.ts"
