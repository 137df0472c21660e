/**
 * @agent-hooks/langchain-adapter: agent-hooks as LangChain v1 agent middleware.
 *
 * The deepagents helper lives in `@agent-hooks/langchain-adapter/DeepAgents`.
 *
 * @since 0.1.0
 */
export * as HooksMiddleware from "./HooksMiddleware.ts"
export { defaultToolNames, hooksMiddleware, submitPrompt } from "./HooksMiddleware.ts"
export type {
  ActionRequestWithHooks,
  AsyncHookResult,
  DispatchContext,
  DispatchOutcome,
  HookDispatcher,
  HooksReviewRequest,
  HooksMiddlewareOptions,
  PromptSubmission,
  ToolMapping,
  ToolResult
} from "./HooksMiddleware.ts"
