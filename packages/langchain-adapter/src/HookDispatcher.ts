/**
 * The engine as the LangChain middleware sees it: `HookDispatcher`, the smallest interface it
 * needs (only `dispatch` is required). The engine of `createHookEngine` (`@agent-hooks/node`,
 * `@agent-hooks/bun`, `@agent-hooks/deno`) is one.
 *
 * **Example**
 *
 * ```ts
 * import { createHookEngine } from "@agent-hooks/node"
 * import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
 *
 * const engine = await createHookEngine({ settings: ["./hooks.json"], projectDir: process.cwd() })
 * const hooks = hooksMiddleware({ engine })
 * ```
 *
 * @since 0.2.0
 */
import type * as Outcome from "@agent-hooks/core/Outcome"

/**
 * The part of an `Outcome` the adapter reads. The real engine resolves to a full `Outcome`.
 *
 * @since 0.1.0
 * @category models
 */
export type DispatchOutcome = Pick<
  Outcome.Outcome,
  | "event"
  | "blocked"
  | "decision"
  | "reason"
  | "continue"
  | "stopReason"
  | "updatedInput"
  | "additionalContext"
  | "systemMessages"
  | "warnings"
> & {
  readonly hookSpecificOutput?: Record<string, unknown> | null | undefined
  /** The hooks that ran (the real engine's `Outcome.hooks`); an empty list lets the adapter skip recording. */
  readonly hooks?: ReadonlyArray<unknown> | undefined
  /** The `async` hooks started (the real engine's `Outcome.asyncHooks`). */
  readonly asyncHooks?: ReadonlyArray<unknown> | undefined
}

/**
 * What a dispatch knows besides its payload: the trace of the LangChain run it happens in (a W3C
 * trace context), which the engine's spans for it join (their parent) when telemetry is on.
 *
 * @since 0.2.0
 * @category models
 */
export interface DispatchContext {
  /** `00-<trace id>-<span id>-<flags>`: the LangChain run's span. */
  readonly traceparent?: string | undefined
}

/**
 * The engine the middleware runs hooks with: what it needs of it. The engine of `createHookEngine`
 * (from `@agent-hooks/node`, `@agent-hooks/bun` or `@agent-hooks/deno`) is one; a host's own object
 * with the same `dispatch` is another (only `dispatch` is required).
 *
 * @since 0.1.0
 * @category models
 */
export interface HookDispatcher {
  /**
   * Runs the hooks of `event`. `context` (since 0.2.0) carries the LangChain run's trace, when it
   * has one; an engine from `createHookEngine` makes it the parent of the dispatch's span.
   */
  readonly dispatch: (event: string, payload: Record<string, unknown>, context?: DispatchContext) => Promise<DispatchOutcome>
  /**
   * The loaded settings, when known. Used to skip the host events (`BeforeModel`, `AfterModel`)
   * that no hook is configured for and, with `HooksMiddlewareOptions.callbackEvents`, every event
   * that no hook is configured for.
   */
  readonly settings?: { readonly hooks: Readonly<Record<string, ReadonlyArray<unknown>>> } | undefined
  /**
   * The events that have any hook, programmatic ones included (engines from `createHookEngine`
   * have it). When present, events outside it are not dispatched, without `callbackEvents`.
   */
  readonly hookedEvents?: ReadonlySet<string> | undefined
  /**
   * The outcome of a dispatch that would run no hook (no matcher fits), synchronously, else
   * `undefined` (engines from `createHookEngine` have it). With it the middleware skips the
   * transcript write and the engine call for such events. Whether a tool's calls can match any
   * tool-event hook is asked once per tool while `hookedEvents` stays the same object: an engine
   * whose matchers change gives a new `hookedEvents` set (as a reload does), or says `watching`.
   */
  readonly unmatched?: ((event: string, payload: Record<string, unknown>) => DispatchOutcome | undefined) | undefined
  /**
   * `true` when the engine may reload its settings (hot reload): the middleware then registers
   * everything a reload could need (the agent nodes), as for an engine that does
   * not say which events have hooks. Without it, a reload that adds hooks for the start or end of a
   * run is reported once through `onWarning` (they cannot run in an agent built before).
   *
   * @since 0.2.0
   */
  readonly watching?: boolean | undefined
  /**
   * Removes and returns the results of `async` hooks that finished (engines from
   * `createHookEngine` have it). With it, what an `async` hook says to the model
   * (`additionalContext`, `systemMessage`, an `asyncRewake` hook's message) reaches the model at the
   * next model call of the session that started the hook.
   *
   * @since 0.2.0
   */
  readonly takeAsyncResults?: (() => Promise<ReadonlyArray<AsyncHookResult>>) | undefined
  /**
   * `true` when the engine says its warnings itself, through its own `onWarning` (engines from
   * `createHookEngine` do: the host's `onWarning`, else the console). The middleware then does not
   * repeat an outcome's `warnings`, so a failed hook is heard once; without it the middleware says
   * them through its `onWarning`.
   *
   * @since 0.2.0
   */
  readonly reportsWarnings?: boolean | undefined
  /**
   * The names the engine's settings are written in (engines from `createHookEngine` have it, from
   * their preset). `toolNames`: the tool names its matchers use; the built-in mapping
   * (`defaultToolNames`) renames a LangChain tool only to a name in this list, so a preset written
   * in its agent's own names (Wingman's `write_file`, pigo's `bash`) sees the tools as they are
   * named. `events`: catalog event → the preset's own event for it (pigo's `tool_start` for
   * PreToolUse), dispatched in its place. Without it: Claude Code's names, every default mapping.
   *
   * @since 0.2.0
   */
  readonly preset?:
    | {
        readonly name?: string | undefined
        readonly toolNames?: ReadonlyArray<string> | undefined
        readonly events?: Readonly<Record<string, string>> | undefined
      }
    | undefined
}

/**
 * What the middleware reads of an `async` hook's result (`HookEngine.AsyncResult` has it).
 *
 * @since 0.2.0
 * @category models
 */
export interface AsyncHookResult {
  readonly event: string
  /** The session that started the hook; a result without one goes to the next model call of any session. */
  readonly sessionId?: string | undefined
  /** `additionalContext` and `systemMessage`, for the model. */
  readonly toModel: ReadonlyArray<string>
  /** An `asyncRewake` hook exited 2: `rewakeMessage` is for the model. */
  readonly rewake: boolean
  readonly rewakeMessage: string | null
}
