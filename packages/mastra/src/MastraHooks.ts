import type { Processor } from "@mastra/core/processors"
import type { ToolAfterHookContext, ToolBeforeHookResult, ToolHookContext } from "@mastra/core/tools"
import * as FrameworkAdapter from "@agent-hooks/node/FrameworkAdapter"
import * as internal from "./internal/mastra.ts"

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
 * @since 0.1.0
 * @category models
 */
export type MastraHooksOptions = AdapterOptions

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
export interface MastraHooks {
  /** The Agent's `hooks` (`new Agent({ hooks })`, or `generate(prompt, { hooks })`). */
  readonly toolHooks: {
    readonly beforeToolCall: (context: ToolHookContext) => Promise<ToolBeforeHookResult<unknown> | undefined>
    readonly afterToolCall: (context: ToolAfterHookContext) => Promise<void>
  }
  /** `requireToolApproval` of `generate` / `stream`: `true` for the calls a PreToolUse hook asks about. */
  readonly requireToolApproval: (context: { readonly toolName: string; readonly args: Record<string, unknown> }) => Promise<boolean>
  /** The input processor (`inputProcessors`): UserPromptSubmit, and the hooks' context for the model before each step. */
  readonly processor: Processor<"agent-hooks"> & Required<Pick<Processor<"agent-hooks">, "processInput" | "processInputStep">>
  /** Stop, after a run (`stop_hook_active` when the last prompt came from a Stop block). */
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
export const agentHooks: (options?: MastraHooksOptions) => MastraHooks = internal.make
