/**
 * agent-hooks in the OpenAI Agents SDK: the project's agent-hooks policy (the same settings files
 * that guard Claude Code and Codex, every scope, the audit trail, telemetry) judges each tool call
 * of an agent, through the SDK's own seams:
 *
 * - `PreToolUse` runs once per call: a deny becomes a tool input guardrail's `rejectContent` with
 *   the reason (the model reads it as the tool's result, the run goes on); an `ask` becomes the
 *   tool's `needsApproval` (the run stops with an approval interruption, resumable as usual); an
 *   `updatedInput` runs the tool with the policy's input. A policy that crashes or times out
 *   rejects that call with a reason the model reads (never `throwException`: the run goes on).
 * - `PostToolUse` runs after the tool: its `additionalContext` and block reason are appended to
 *   the result the model reads.
 * - `UserPromptSubmit` runs as an input guardrail of the agent (`withAgentHooks`): a block trips it
 *   (the SDK's `InputGuardrailTripwireTriggered`, whose `result.output.outputInfo.reason` is the
 *   reason); its `additionalContext` cannot reach the model (the SDK has no place for it).
 *
 * Tool names are mapped to Claude Code's where the tool is a usual one (`shell`, `exec_command`,
 * `run_shell_command` → `Bash` with `command`, `read_file` → `Read` with `file_path`, ...), so a
 * policy written for Claude Code matches; a matcher may name either the SDK tool's name or Claude
 * Code's.
 *
 * **Example**
 *
 * ```ts
 * import { Agent, run, tool } from "@openai/agents"
 * import { withAgentHooks } from "@agent-hooks/openai-agents"
 *
 * const agent = withAgentHooks(new Agent({ name: "builder", tools: [shell] }))
 * const result = await run(agent, "clean the build folder")
 * ```
 *
 * @since 0.1.0
 */
import type { Agent, Tool } from "@openai/agents"
import type * as Outcome from "@agent-hooks/core/Outcome"
import type { ProjectEngineOptions } from "@agent-hooks/node/ProjectEngine"
import * as internal from "./internal/agentHooks.ts"

/**
 * Any agent, any tool: the SDK's own bounds (its `run` takes `Agent<any, any>`).
 *
 * @since 0.1.0
 * @category models
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's bound for an agent of any context and output
export type AnyAgent = Agent<any, any>
/**
 * @since 0.1.0
 * @category models
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's bound for a tool of any context
export type AnyTool = Tool<any>

/**
 * The engine the guardrails run: what they need of it. An engine from `createHookEngine` or
 * `projectEngine` (`@agent-hooks/node`) is one; only `dispatch` is required.
 *
 * @since 0.1.0
 * @category models
 */
export interface HookDispatcher {
  readonly dispatch: (
    event: string,
    payload: Record<string, unknown>,
    context?: { readonly traceparent?: string | undefined }
  ) => Promise<Outcome.Outcome>
  readonly unmatched?: ((event: string, payload: Record<string, unknown>) => Outcome.Outcome | undefined) | undefined
}

/**
 * How one SDK tool is shown to the hooks: the name they see (`Bash`), and its input in that
 * tool's fields (`toInput`), with the way back for a rewritten input (`fromInput`).
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolMapping {
  readonly name: string
  /** The SDK tool's arguments → the `tool_input` hooks see. Default: unchanged. */
  readonly toInput?: ((args: Record<string, unknown>) => Record<string, unknown>) | undefined
  /** A policy's `updatedInput` → the SDK tool's arguments (given the call's own arguments). Default: unchanged. */
  readonly fromInput?: ((toolInput: Record<string, unknown>, args: Record<string, unknown>) => Record<string, unknown>) | undefined
}

/**
 * Options of `withAgentHooks` and `guardTools`.
 *
 * @since 0.1.0
 * @category models
 */
export interface AgentHooksOptions {
  /** The project whose settings apply. Default: `process.cwd()`. Ignored when `engine` is given. */
  readonly projectDir?: string | undefined
  /**
   * The engine, or a Promise of it. Default: `projectEngine({ projectDir, ...engineOptions })` of
   * `@agent-hooks/node`, created on the first call and shared by the process. Never closed here.
   */
  readonly engine?: HookDispatcher | Promise<HookDispatcher> | undefined
  /** Options of the default engine (`settings`, `failClosed`, `auditLog`, `telemetry`, ...). */
  readonly engineOptions?: Omit<ProjectEngineOptions, "projectDir"> | undefined
  /** SDK tool name → the name hooks see, or a `ToolMapping`; merged over the built-in mapping. */
  readonly toolNames?: Readonly<Record<string, string | ToolMapping>> | undefined
  /** Use the built-in mapping (`shell` → `Bash`, ...). Default `true`. */
  readonly defaultToolNames?: boolean | undefined
  /** The payloads' `session_id`. Default: one per run (per `RunContext`). */
  readonly sessionId?: string | undefined
  /** The payloads' `cwd`. Default: `process.cwd()`. */
  readonly cwd?: string | undefined
  /**
   * Milliseconds the policy may take on one call before the call is rejected (a policy that
   * hangs blocks that call, not the run). Default 600000 (Claude Code's hook timeout); each hook
   * keeps its own `timeout` inside it.
   */
  readonly timeoutMs?: number | undefined
  /** After each dispatch: the event, the payload the hooks saw and the outcome. */
  readonly onOutcome?: ((event: string, payload: Record<string, unknown>, outcome: Outcome.Outcome) => void) | undefined
}

/**
 * The tools, each guarded by the policy: function tools get a tool input guardrail (deny →
 * `rejectContent`), a `needsApproval` that also asks where the policy says `ask` (the tool's own
 * `needsApproval` still counts), and an `invoke` that applies an `updatedInput` and runs
 * `PostToolUse`. Returned as new tool objects (the given ones are not changed); tools that are not
 * function tools (hosted tools, computer, shell, apply-patch) are returned as they are.
 *
 * @since 0.1.0
 * @category constructors
 */
export const guardTools: <T extends AnyTool>(tools: ReadonlyArray<T>, options?: AgentHooksOptions) => Array<T> = internal.guardTools

/**
 * A copy of the agent whose function tools are guarded (`guardTools`) and whose input goes through
 * `UserPromptSubmit` (an input guardrail that trips on a block). Handoff agents are not changed:
 * wrap each agent that runs tools.
 *
 * @since 0.1.0
 * @category constructors
 */
export const withAgentHooks: <A extends AnyAgent>(agent: A, options?: AgentHooksOptions) => A = internal.withAgentHooks

/**
 * The built-in mapping of SDK tool names to Claude Code's (`shell` → `Bash`, `read_file` → `Read`, ...).
 *
 * @since 0.1.0
 * @category models
 */
export const defaultToolNames: Readonly<Record<string, string | ToolMapping>> = internal.defaultToolNames
