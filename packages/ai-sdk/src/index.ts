/**
 * @agent-hooks/ai-sdk: agent-hooks for the Vercel AI SDK (`generateText`, `streamText`,
 * `ToolLoopAgent`): the project's hooks as `toolApproval` and guarded tools.
 *
 * @since 0.1.0
 */
export * as AiSdkHooks from "./AiSdkHooks.ts"
export { agentHooks, defaultToolNames } from "./AiSdkHooks.ts"
export type {
  AdapterEngine,
  AdapterOptions,
  AiSdkHooksOptions,
  PromptSubmission,
  StopCheck,
  ToolApproval,
  ToolMapping
} from "./AiSdkHooks.ts"
export type { AiSdkHooks as Hooks } from "./AiSdkHooks.ts"
