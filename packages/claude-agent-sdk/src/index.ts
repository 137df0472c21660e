/**
 * @agent-hooks/claude-agent-sdk: agent-hooks as the hooks of the Claude Agent SDK.
 *
 * @since 0.1.0
 */
export * as AgentHooks from "./AgentHooks.ts"
export { agentHooks } from "./AgentHooks.ts"
export type { AgentHooksOptions, HookDispatcher } from "./AgentHooks.ts"
