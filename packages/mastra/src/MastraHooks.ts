/**
 * agent-hooks for Mastra agents: the hooks of the project's agent-hooks settings (Claude Code's
 * hooks protocol: the same files that guard Claude Code or Codex through `agent-hooks hook`) run
 * around the tool calls of a Mastra `Agent`.
 *
 * | hook event | where it runs |
 * | --- | --- |
 * | PreToolUse | `toolHooks.beforeToolCall`: deny → `{ proceed: false, output: <reason> }` (the model gets the reason as the call's result); a rewrite (`updatedInput`) replaces the input the tool runs with; `ask` → see `requireToolApproval` |
 * | PreToolUse `ask` | `requireToolApproval` (give it to `generate` / `stream`): the run suspends for a human (`approveToolCallGenerate` / `declineToolCallGenerate`); without it an `ask` is a deny with the reason (headless) |
 * | PostToolUse / PostToolUseFailure | `toolHooks.afterToolCall`; their `additionalContext` (and a block's reason) reaches the model before its next step through `processor` |
 * | UserPromptSubmit | `processor` (an input processor): a block ends the run before the model sees the prompt (Mastra's tripwire, with the reason); context is added as a system message |
 * | Stop | `hooks.stop(result)`, after the run: a block gives the reason to send back as the next prompt |
 *
 * A policy that fails (the settings cannot be loaded, the engine throws, a hook crashes or times
 * out) blocks the call it guards with a reason the model sees; the run goes on.
 *
 * **Example**
 *
 * ```ts
 * import { Agent } from "@mastra/core/agent"
 * import { agentHooks } from "@agent-hooks/mastra"
 *
 * const hooks = agentHooks() // the agent-hooks settings of process.cwd()
 * const agent = new Agent({ id: "ops", name: "ops", instructions, model, tools, hooks: hooks.toolHooks, inputProcessors: [hooks.processor] })
 * const result = await agent.generate("clean up the build folder", { requireToolApproval: hooks.requireToolApproval })
 * ```
 *
 * @since 0.1.0
 */
import type * as Outcome from "@agent-hooks/core/Outcome"
import type { ProjectEngineOptions } from "@agent-hooks/node"
import type { Processor } from "@mastra/core/processors"
import type { ToolAfterHookContext, ToolBeforeHookResult, ToolHookContext } from "@mastra/core/tools"
import * as adapter from "./internal/adapter.ts"
import * as internal from "./internal/mastra.ts"

/**
 * The engine the hooks run on: what the adapter needs of it. The engines of `createHookEngine` and
 * `projectEngine` (`@agent-hooks/node`) are ones.
 *
 * @since 0.1.0
 * @category models
 */
export interface AdapterEngine {
  readonly dispatch: (
    event: string,
    payload: Record<string, unknown>,
    context?: { readonly traceparent?: string | undefined }
  ) => Promise<Pick<Outcome.Outcome, "blocked" | "decision" | "reason" | "updatedInput" | "additionalContext" | "warnings">>
  /** The loaded settings (their tool-event matchers decide which name a tool is given). */
  readonly settings?: { readonly hooks: Readonly<Record<string, ReadonlyArray<unknown>>> } | undefined
  /** The preset's tool names (a preset written in its agent's own names sees the tools as named). */
  readonly preset?: { readonly toolNames?: ReadonlyArray<string> | undefined } | undefined
  /** The outcome of a dispatch that would run no hook, at once, else `undefined` (then the transcript is written). */
  readonly unmatched?: ((event: string, payload: Record<string, unknown>) => unknown) | undefined
  /** The engine says its warnings itself: the adapter does not repeat an outcome's warnings. */
  readonly reportsWarnings?: boolean | undefined
  readonly close?: (() => Promise<void>) | undefined
}

/**
 * How a tool appears to hooks.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolMapping {
  /** The `tool_name` hooks see and matchers test (`Bash`, `Read`, `mcp__github__create_issue`...). */
  readonly name: string
  /** The tool's input as `tool_input`. Default: as it is. */
  readonly toInput?: ((args: Record<string, unknown>) => Record<string, unknown>) | undefined
  /** A hook's `updatedInput` back to the tool's input. Default: as it is. */
  readonly fromInput?: ((toolInput: Record<string, unknown>) => Record<string, unknown>) | undefined
}

/**
 * Options of `agentHooks`.
 *
 * @since 0.1.0
 * @category models
 */
export interface AdapterOptions {
  /**
   * The engine. Default: `projectEngine({ projectDir })` of `@agent-hooks/node`: the agent-hooks
   * settings of the project folder (every scope: managed, user, project, local; the preset, trust,
   * audit, telemetry, `permissions`), created once per process and shared.
   */
  readonly engine?: AdapterEngine | undefined
  /** The project folder whose settings apply (with the default engine). Default: `cwd`. */
  readonly projectDir?: string | undefined
  /** More options of the default engine (`env`, `telemetry`, `auditLog`, `requireTrust`...). Ignored with `engine`. */
  readonly engineOptions?: ProjectEngineOptions | undefined
  /** The `cwd` of every payload. Default: `process.cwd()`. */
  readonly cwd?: string | undefined
  /** With the default engine: a hook that crashes, times out or answers unreadably blocks the call. Default `true`. */
  readonly failClosed?: boolean | undefined
  /**
   * Mastra tool names → the names hooks see. A string renames; a `ToolMapping` also reshapes the
   * input. Merged over `defaultToolNames` (`bash` → `Bash`, `readFile` → `Read`...).
   */
  readonly toolNames?: Readonly<Record<string, string | ToolMapping>> | undefined
  /**
   * Use `defaultToolNames`. Default `true`; a default applies only where the engine's preset uses
   * the name it maps to, and not to a tool that the settings' matchers name by its own name (a
   * matcher may name either: `bash` or `Bash`).
   */
  readonly defaultToolNames?: boolean | undefined
  /** The payloads' `session_id`. Default: a new id per adapter. */
  readonly sessionId?: string | undefined
  /**
   * Where the transcripts are written: `<dir>/<session_id>.jsonl`, the payloads' `transcript_path`:
   * the conversation Mastra hands the tool hooks, as JSONL in Claude Code's line format, written
   * before each tool-call dispatch that may run a hook. Files 0600, folders 0700. Default:
   * `<os tmpdir>/agent-hooks-<uid>/transcripts` (the per-user folder must belong to the user);
   * `false`: none (`transcript_path` is `""`).
   */
  readonly transcriptDir?: string | false | undefined
  /** The payloads' `permission_mode`. Default `"default"`. */
  readonly permissionMode?: string | undefined
  /** The adapter's warnings (a policy that failed). Default: `console.warn`, prefixed `[agent-hooks]`. */
  readonly onWarning?: ((warning: string) => void) | undefined
}

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
export const defaultToolNames: Readonly<Record<string, string | ToolMapping>> = adapter.defaults

/**
 * The adapter, on the project's engine (or `options.engine`). The engine is made on first use.
 *
 * @since 0.1.0
 * @category constructors
 */
export const agentHooks: (options?: MastraHooksOptions) => MastraHooks = internal.make
