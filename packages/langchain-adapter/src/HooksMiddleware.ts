/**
 * agent-hooks as LangChain v1 agent middleware: the hooks of a settings file (Claude Code's
 * hooks protocol) run around the agent loop of `createAgent`.
 *
 * | hook event | where it runs |
 * | --- | --- |
 * | SessionStart | `beforeAgent`, the first time a session is seen (its context before the first prompt) |
 * | UserPromptSubmit | `beforeAgent`, for the prompt of the run (or `submitPrompt`, before the run) |
 * | PreToolUse | `wrapModelCall`, for every tool call of the model's message; applied in `wrapToolCall`; the asks of a turn are one interrupt, raised by its first asked call |
 * | Notification | `wrapModelCall`, when the adapter is about to ask a human |
 * | PostToolUse / PostToolUseFailure | `wrapToolCall`, after the tool (or its error) |
 * | Stop / SubagentStop | `afterAgent` |
 * | SubagentStart | `beforeAgent` of an agent run from a tool of a hooked agent |
 * | PreCompact / PostCompact | around `summarizationMiddleware`, wrapped with `compaction()` |
 * | SessionEnd | end of the run, also one that throws (runs without a checkpointer and without a thread), else `endSession()` / `close()` |
 * | BeforeModel / AfterModel | `wrapModelCall`, before / after each model call (host events, only when configured) |
 *
 * **Example**
 *
 * ```ts
 * import { createAgent } from "langchain"
 * import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
 *
 * import { createHookEngine } from "@agent-hooks/node"
 *
 * const engine = await createHookEngine({ settings: ["./hooks.json"], projectDir: process.cwd() })
 * const hooks = hooksMiddleware({ engine, toolNames: { shell: "Bash" } })
 * const agent = createAgent({ model, tools, checkpointer, middleware: [hooks] })
 * const result = await agent.invoke({ messages: [{ role: "user", content: "clean up /tmp" }] }, config)
 * // result.__interrupt__: the calls the hooks asked about; resume with new Command({ resume: { decisions } })
 * await hooks.close() // SessionEnd for the sessions still open
 * await engine.close()
 * ```
 *
 * @since 0.1.0
 */
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type { HumanMessage } from "@langchain/core/messages"
import type * as Layer from "effect/Layer"
import type { ActionRequest, AgentMiddleware, HITLRequest, ReviewConfig } from "langchain"
import type { DispatchOutcome, HookDispatcher } from "./HookDispatcher.ts"
import * as internal from "./internal/middleware.ts"
import * as toolNames from "./internal/toolNames.ts"

// The engine's interface has its own module; named here too, where 0.1.0 had it.
export type { AsyncHookResult, DispatchContext, DispatchOutcome, HookDispatcher } from "./HookDispatcher.ts"

/**
 * How a LangChain tool appears to hooks.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolMapping {
  /** The `tool_name` hooks see and matchers test (`Bash`, `Write`, `mcp__github__create_issue`...). */
  readonly name: string
  /** The tool's arguments as `tool_input`. Default: the arguments as they are. */
  readonly toInput?: ((args: Record<string, unknown>) => Record<string, unknown>) | undefined
  /** A hook's `updatedInput` back to the tool's arguments. Default: as it is. */
  readonly fromInput?: ((toolInput: Record<string, unknown>) => Record<string, unknown>) | undefined
  /** The tool's result as `tool_response`. Default: the result's text. */
  readonly toResponse?: ((result: ToolResult) => unknown) | undefined
}

/**
 * A tool's result, as handed to `ToolMapping.toResponse`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolResult {
  /** The text of the `ToolMessage` the model receives. */
  readonly text: string
  /** The `ToolMessage`'s `artifact`, if the tool returned one. */
  readonly artifact: unknown
  /** The `tool_input` the tool ran with. */
  readonly toolInput: Record<string, unknown>
}

/**
 * Options of `hooksMiddleware`.
 *
 * @since 0.1.0
 * @category models
 */
export interface HooksMiddlewareOptions {
  /**
   * The engine: `await createHookEngine({ settings: ["./hooks.json"], projectDir })` from the
   * runtime package (`@agent-hooks/node`, `@agent-hooks/bun`, `@agent-hooks/deno`), or any
   * `HookDispatcher`. The host owns it: `close()` of the middleware ends the sessions and leaves
   * the engine open (close the engine after the middleware).
   *
   * Deprecated since 0.2.0, still accepted: an Effect layer that provides `HookEngine` (use
   * `await PromiseEngine.fromLayer(layer)`), or engine options (use `createHookEngine(options)`).
   * The middleware builds such an engine on first use with `@agent-hooks/node`, owns it and
   * releases it with `close()`.
   */
  readonly engine?: HookDispatcher | Layer.Layer<HookEngine.HookEngine, unknown> | HookEngine.EngineOptions | undefined
  /**
   * Settings files, for an engine the middleware builds and owns: short for
   * `engine: { settings, projectDir: cwd }`.
   *
   * @deprecated since 0.2.0: pass `engine: await createHookEngine({ settings, projectDir })`.
   */
  readonly settings?: ReadonlyArray<string> | undefined
  /**
   * LangChain tool names → the names hooks see. A string renames; a `ToolMapping` also reshapes
   * the input and the response. Merged over `defaultToolNames` (set an entry to the tool's own
   * name to undo a default).
   */
  readonly toolNames?: Readonly<Record<string, string | ToolMapping>> | undefined
  /**
   * Use `defaultToolNames` (`bash` → `Bash`, `write_file` → `Write`...). Default: where the engine's
   * preset uses the name a default maps to (its `preset.toolNames`): every default for Claude
   * Code's settings (and Wave's, orchestration's), none for a preset written in its agent's own
   * tool names (Wingman's `write_file|edit_file`, pigo's `bash`), whose matchers then see the
   * LangChain names; every default for an engine that does not say. `true`: every default, whatever
   * the preset; `false`: none.
   */
  readonly defaultToolNames?: boolean | undefined
  /** The `cwd` of every payload, and where hooks run. Default: `process.cwd()`. */
  readonly cwd?: string | undefined
  /**
   * A fixed session id. Default: the run's `thread_id`, else a new id per run (such a session ends
   * with its run).
   */
  readonly sessionId?: string | undefined
  /** The payloads' `permission_mode`. Default `"default"`. */
  readonly permissionMode?: string | undefined
  /**
   * Where the JSONL transcripts are written: `<dir>/<session_id>.jsonl`, and subagents'
   * `<dir>/<session_id>/subagents/agent-<agent_id>.jsonl`. A transcript names every message of the
   * run so far whenever a hook runs, and every message once the run is over (lines are written in
   * batches, before each dispatch that runs hooks and at the end of the run). A prompt blocked by
   * UserPromptSubmit is never written. Folders the adapter makes are 0700, transcripts 0600.
   * Default: `<os tmpdir>/agent-hooks-<uid>/transcripts` (the per-user folder must belong to the
   * user; it is made 0700).
   */
  readonly transcriptDir?: string | undefined
  /** Consecutive Stop blocks after which the agent stops anyway. Default 8; 0 turns the guard off. */
  readonly stopBlockCap?: number | undefined
  /**
   * Host events around model calls, dispatched only when a hook is configured for them (in the
   * settings, or declared in `callbackEvents`), or the engine does not tell. `false` turns them off.
   * Default: `BeforeModel` and `AfterModel`.
   */
  readonly turnEvents?: false | { readonly beforeModel?: string | undefined; readonly afterModel?: string | undefined } | undefined
  /**
   * The events the engine has programmatic hooks for (`EngineOptions.hooks`, which `engine.settings`
   * does not list); `[]` when it has none. Once declared, an event that has no hook in
   * `engine.settings.hooks` and is not listed here is not dispatched at all: the middleware goes on
   * as if the dispatch had run no hook (the session bookkeeping and the Stop loop guard are the
   * same), and skips the engine call. Default: not declared, so every lifecycle event is dispatched
   * (only the host turn events are skipped when the settings have no hook for them). Ignored when
   * the engine does not expose its settings.
   *
   * **Example**: `hooksMiddleware({ engine, callbackEvents: [] })` for an engine built from settings
   * files only.
   */
  readonly callbackEvents?: ReadonlyArray<string> | undefined
  /** The `agent_type` of runs of this middleware when it is installed on a subagent. */
  readonly agentType?: string | undefined
  /**
   * The middleware's name (names must be unique within one agent), after LangChain's own
   * (`HumanInTheLoopMiddleware`, `SummarizationMiddleware`...). Default `"AgentHooksMiddleware"`.
   */
  readonly name?: string | undefined
  /**
   * Called after each dispatch, e.g. to show `systemMessages` to the user or to log. Events that are
   * not dispatched because no hook is configured for them (see `callbackEvents`) are not reported.
   */
  readonly onOutcome?: ((event: string, payload: Record<string, unknown>, outcome: DispatchOutcome) => void) | undefined
  /**
   * Receives the adapter's own warnings (Stop cap reached, ...) and, for an engine that does not
   * report its warnings itself, the outcomes' warnings (a hook that timed out, crashed, or was
   * skipped by a malformed entry). An engine from `createHookEngine` reports them (its
   * `reportsWarnings`): each is said once, through that engine's `onWarning` (the console by
   * default), never repeated here. Default: `console.warn`, prefixed with `[agent-hooks]`, as
   * LangChain reports its own warnings. Also the built engine's `onWarning` when the middleware
   * builds it (deprecated).
   */
  readonly onWarning?: ((warning: string) => void) | undefined
}

/**
 * One asked tool call in a `HooksReviewRequest`: LangChain's `ActionRequest` (`name` is the
 * LangChain tool name, e.g. `bash`), plus the name hooks see and the hook's reason.
 *
 * @since 0.2.0
 * @category models
 */
export interface ActionRequestWithHooks extends ActionRequest {
  /** The `tool_name` hooks saw (`Bash`). */
  readonly hookToolName: string
  /** The PreToolUse hook's reason for asking, if it gave one. */
  readonly reason: string | null
  /** The tool call's id (`tool_use_id` for hooks). */
  readonly toolCallId: string
}

/**
 * What an `ask` (or `defer`) decision of the PreToolUse hooks interrupts the run with (LangGraph
 * `interrupt()`, agents with a checkpointer only): the asks of one model turn form one interrupt,
 * in `humanInTheLoopMiddleware`'s `HITLRequest` shape, so that UIs built for LangChain's
 * human-in-the-loop work unchanged.
 *
 * Resume with `new Command({ resume: { decisions: [...] } })`, one decision per asked call, in
 * order: `{ type: "approve" }`, `{ type: "edit", editedAction: { name, args } }` (the PreToolUse
 * hooks run again on the edited call; there an `ask` counts as answered, a deny or exit 2 still
 * blocks) or `{ type: "reject", message? }`. Where exactly one call is asked, `true` / `"allow"` /
 * `{ decision: "allow" }` and `false` / `"deny"` / `{ decision: "deny", reason }` are accepted too.
 * Any other answer is never taken for a refusal: the same question comes back (a new interrupt)
 * with `error` naming these shapes.
 *
 * The hooks' decision and the human's answer are recorded per `tool_call_id` in the (checkpointed)
 * graph state: on resume the PreToolUse hooks do not run again for a decided call, and a refusal
 * stands.
 *
 * @since 0.2.0
 * @category models
 */
export interface HooksReviewRequest extends HITLRequest {
  readonly actionRequests: Array<ActionRequestWithHooks>
  readonly reviewConfigs: Array<ReviewConfig>
  /** Set when the question is asked again because the last answer could not be read: why, and the accepted shapes. */
  readonly error?: string | undefined
}

/**
 * What `submitPrompt` found: the prompt was blocked (do not `invoke`), or the message to `invoke`
 * with (UserPromptSubmit does not run again for it; its `additionalContext` is added in the run).
 *
 * @since 0.2.0
 * @category models
 */
export type PromptSubmission =
  | { readonly blocked: true; readonly reason: string }
  | { readonly blocked: false; readonly message: HumanMessage; readonly additionalContext: ReadonlyArray<string> }

/**
 * The middleware, with its session controls.
 *
 * @since 0.1.0
 * @category models
 */
export interface HooksMiddleware extends AgentMiddleware {
  /** Dispatches `SessionEnd` for one session (default: every open one). */
  readonly endSession: (options?: { readonly sessionId?: string | undefined; readonly reason?: string | undefined }) => Promise<void>
  /** Ends the open sessions, and releases the engine if the middleware built it. Safe to call twice. */
  readonly close: () => Promise<void>
  /** `close()`, for `await using hooks = hooksMiddleware(...)`. */
  readonly [Symbol.asyncDispose]: () => Promise<void>
  /**
   * Runs UserPromptSubmit for a prompt before the agent runs. LangGraph checkpoints a run's input
   * before any middleware runs, so with a checkpointer a prompt blocked inside the run is in that
   * first checkpoint (the adapter removes it from the state, and the later checkpoints, at once).
   * Checking it here first keeps a blocked prompt (a secret) out of every checkpoint:
   *
   * ```ts
   * const check = await hooks.submitPrompt(text, config)
   * if (check.blocked) show(check.reason)
   * else await agent.invoke({ messages: [check.message] }, config)
   * ```
   *
   * The session is the one `config`'s `thread_id` (or the `sessionId` option) names; without
   * either, the check has a session id of its own.
   */
  readonly submitPrompt: (
    prompt: string,
    config?: { readonly configurable?: Record<string, unknown> | undefined }
  ) => Promise<PromptSubmission>
  /**
   * LangChain's `summarizationMiddleware` with the compaction events around it: PreCompact
   * (`trigger: "auto"`) once its summary is made and before it replaces the messages (a block
   * discards the summary, the messages stay), then PostCompact with `compact_summary`.
   *
   * ```ts
   * const agent = createAgent({ model, tools, middleware: [hooks, hooks.compaction(summarizationMiddleware({ model,
   * trigger: { tokens: 4000 } }))] })
   * ```
   */
  readonly compaction: <M extends AgentMiddleware>(summarization: M) => M
  /** The tool names hooks see, after the mapping. */
  readonly toolName: (langchainName: string) => string
}

/**
 * Built-in LangChain tool names (deepagents' and common ones) and Claude Code's names for them.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultToolNames: Readonly<Record<string, string | ToolMapping>> = toolNames.defaults

/**
 * Builds the middleware.
 *
 * @since 0.1.0
 * @category constructors
 */
export const hooksMiddleware: (options: HooksMiddlewareOptions) => HooksMiddleware = internal.make

/**
 * Runs UserPromptSubmit for a prompt before `invoke` (see `HooksMiddleware.submitPrompt`).
 *
 * @since 0.2.0
 * @category combinators
 */
export const submitPrompt = (
  hooks: HooksMiddleware,
  prompt: string,
  config?: { readonly configurable?: Record<string, unknown> | undefined }
): Promise<PromptSubmission> => hooks.submitPrompt(prompt, config)
