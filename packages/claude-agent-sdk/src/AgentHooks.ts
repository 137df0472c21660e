/**
 * agent-hooks as the `hooks` of the Claude Agent SDK's `query()`: one callback for every event the
 * SDK fires, which runs the agent-hooks policy of the project (every settings scope, the preset,
 * trust, the audit trail, telemetry) in this process and answers with the JSON a Claude Code
 * command hook would print: a deny, an ask, a rewritten input, context for the model, a blocked
 * Stop. The same files guard Claude Code (`agent-hooks hook --host claude`) and the agent you build.
 *
 * **Example**
 *
 * ```ts
 * import { query } from "@anthropic-ai/claude-agent-sdk"
 * import { agentHooks } from "@agent-hooks/claude-agent-sdk"
 *
 * for await (const message of query({ prompt: "clean the build folder", options: { hooks: agentHooks() } })) {
 *   if (message.type === "result") console.log(message)
 * }
 * ```
 *
 * @since 0.1.0
 */
import type { HookCallbackMatcher, HookEvent } from "@anthropic-ai/claude-agent-sdk"
import type * as Outcome from "@agent-hooks/core/Outcome"
import type { ProjectEngineOptions } from "@agent-hooks/node/ProjectEngine"
import * as internal from "./internal/agentHooks.ts"

/**
 * The engine the callbacks run: what they need of it. An engine from `createHookEngine` or
 * `projectEngine` (`@agent-hooks/node`) is one; only `dispatch` is required. `unmatched` lets a
 * call no hook matches be answered without a dispatch.
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
 * Options of `agentHooks`.
 *
 * @since 0.1.0
 * @category models
 */
export interface AgentHooksOptions {
  /**
   * The project whose settings apply (absolute, or relative to the process's working folder).
   * Default: `process.cwd()`. Ignored when `engine` is given.
   */
  readonly projectDir?: string | undefined
  /**
   * The engine, or a Promise of it. Default: `projectEngine({ projectDir, ...engineOptions })` of
   * `@agent-hooks/node`, created on the first event and shared by every `agentHooks()` of the
   * process for the same project. The engine is the caller's: nothing here closes it.
   */
  readonly engine?: HookDispatcher | Promise<HookDispatcher> | undefined
  /** Options of the default engine (`ProjectEngineOptions`: `settings`, `failClosed`, `auditLog`, `telemetry`, ...). */
  readonly engineOptions?: Omit<ProjectEngineOptions, "projectDir"> | undefined
  /** The events to register. Default: every event the SDK fires (its `HOOK_EVENTS`). */
  readonly events?: ReadonlyArray<HookEvent> | undefined
  /**
   * Seconds the SDK waits for one callback before it counts as failed (a failed guard blocks).
   * Default 600, Claude Code's own hook timeout; each hook keeps its own `timeout`.
   */
  readonly timeout?: number | undefined
  /**
   * What the adapter cannot say to the model: a failure of the engine on an event that cannot be
   * blocked. Default: `console.warn` with the `agent-hooks:` prefix. (The engine says its own
   * warnings, a hook that failed or timed out, through its `onWarning`.)
   */
  readonly onWarning?: ((warning: string) => void) | undefined
  /** After each dispatch: the event, the payload the hooks saw and the engine's outcome (to log, show `systemMessages`, ...). */
  readonly onOutcome?: ((event: string, payload: Record<string, unknown>, outcome: Outcome.Outcome) => void) | undefined
}

/**
 * The `hooks` option of `query()`: for each event, one matcher (every tool) whose callback runs the
 * policy's hooks of that event and answers as Claude Code's command hooks would: exit 2 or
 * `permissionDecision: "deny"` denies the tool call with the reason for the model; `ask` goes to
 * the SDK's permission flow (`canUseTool`, else denied); `updatedInput` rewrites the call;
 * `additionalContext`, `systemMessage`, `continue: false`, a blocked Stop as in Claude Code.
 * Every matcher has `onFailure: "block"`, and a failure of the engine (its settings cannot be
 * loaded, a dispatch fails) answers a deny itself on the events that can block: a broken policy
 * never lets a tool call through.
 *
 * @since 0.1.0
 * @category constructors
 */
export const agentHooks: (options?: AgentHooksOptions) => Partial<Record<HookEvent, Array<HookCallbackMatcher>>> = internal.agentHooks
