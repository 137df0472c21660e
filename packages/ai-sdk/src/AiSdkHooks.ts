import type { ToolApprovalStatus, ToolSet } from "ai"
import * as FrameworkAdapter from "@agent-hooks/node/FrameworkAdapter"
import * as internal from "./internal/aiSdk.ts"

/**
 * The engine the hooks run on, the tool mappings and the options every framework adapter takes:
 * `@agent-hooks/node`'s `FrameworkAdapter`, which this adapter builds on.
 *
 * @since 0.1.0
 * @category models
 */
export type AdapterEngine = FrameworkAdapter.AdapterEngine

/**
 * A framework tool as hooks see it: Claude Code's name, and how its input reads in Claude Code's fields.
 *
 * @since 0.1.0
 * @category models
 */
export type ToolMapping = FrameworkAdapter.ToolMapping

/**
 * Options shared by the framework adapters (`FrameworkAdapter.AdapterOptions` of `@agent-hooks/node`).
 *
 * @since 0.1.0
 * @category models
 */
export type AdapterOptions = FrameworkAdapter.AdapterOptions

/**
 * Options of `agentHooks`.
 *
 * @since 0.1.0
 * @category models
 */
export interface AiSdkHooksOptions extends AdapterOptions {
  /**
   * What a PreToolUse `ask` becomes: `"user-approval"` (default; the SDK's approval request, with
   * the hook's reason), or `"deny"` for an agent that has no one to ask (headless).
   */
  readonly ask?: "user-approval" | "deny" | undefined
}

/**
 * The `toolApproval` function of `generateText` / `streamText` / `ToolLoopAgent`.
 *
 * @since 0.1.0
 * @category models
 */
export type ToolApproval = (options: {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  /** The messages sent to the model before the call (the transcript's content). */
  readonly messages?: ReadonlyArray<unknown> | undefined
}) => Promise<ToolApprovalStatus>

/**
 * What `submitPrompt` found: the prompt was blocked (do not call the model), or it may go, with the
 * hooks' `additionalContext` for the model.
 *
 * @since 0.1.0
 * @category models
 */
export type PromptSubmission =
  | { readonly blocked: true; readonly reason: string }
  | {
      readonly blocked: false
      /** The prompt, followed by the hooks' context (what to send the model). */
      readonly prompt: string
      readonly additionalContext: ReadonlyArray<string>
    }

/**
 * What `stop` found: `block` with the reason to give the model as the next prompt, else done.
 *
 * @since 0.1.0
 * @category models
 */
export type StopCheck = { readonly block: true; readonly reason: string } | { readonly block: false }

/**
 * The adapter.
 *
 * @since 0.1.0
 * @category models
 */
export interface AiSdkHooks {
  /** PreToolUse as the SDK's `toolApproval` (the generic function form). */
  readonly toolApproval: ToolApproval
  /**
   * The same tools, guarded: a PreToolUse rewrite is applied, PostToolUse and PostToolUseFailure
   * run after each call (their context reaches the model with the result), and a call that
   * `toolApproval` did not see (not passed to the SDK) is decided here: a deny is the tool's error
   * with the reason, an ask a deny (nobody can be asked from inside a tool).
   */
  readonly tools: <TOOLS extends ToolSet>(tools: TOOLS) => TOOLS
  /** UserPromptSubmit for a prompt, before the call. */
  readonly submitPrompt: (prompt: string) => Promise<PromptSubmission>
  /** Stop, after the call (`stop_hook_active` when the last prompt came from a Stop block). */
  readonly stop: (result: { readonly text: string }, options?: { readonly stopHookActive?: boolean | undefined }) => Promise<StopCheck>
  /** The name hooks see for a tool. */
  readonly toolName: (name: string) => string
  /** Releases the engine if the adapter made it with options of its own; the shared project engine stays. */
  readonly close: () => Promise<void>
}

/**
 * Common tool names and Claude Code's names for them.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultToolNames: Readonly<Record<string, string | ToolMapping>> = FrameworkAdapter.defaults

/**
 * The adapter, on the project's engine (or `options.engine`). The engine is made on first use.
 *
 * @since 0.1.0
 * @category constructors
 */
export const agentHooks: (options?: AiSdkHooksOptions) => AiSdkHooks = internal.make
