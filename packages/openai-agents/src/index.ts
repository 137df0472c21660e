/**
 * @agent-hooks/openai-agents: agent-hooks in the OpenAI Agents SDK.
 *
 * @since 0.1.0
 */
export * as AgentHooks from "./AgentHooks.ts"
export { defaultToolNames, guardTools, withAgentHooks } from "./AgentHooks.ts"
export type { AgentHooksOptions, AnyAgent, AnyTool, HookDispatcher, ToolMapping } from "./AgentHooks.ts"
