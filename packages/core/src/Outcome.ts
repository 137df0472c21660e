/**
 * The result of dispatching one event: one `HookResult` per hook that ran, and the
 * aggregated `Outcome` that the host acts on. `Outcome` is exactly the JSON object that
 * `agent-hooks run` prints and that `engine.dispatch()` resolves to (see the CLI contract);
 * fields may be added, the existing ones keep their meaning.
 *
 * @since 0.1.0
 */

/**
 * How a hook's run was classified, and a permission decision or block: defined with the verdict
 * of one hook (`HookOutput`), re-exported here.
 *
 * @since 0.1.0
 */
export type { Decision, HookStatus } from "./HookOutput.ts"

/**
 * One hook's run, in config order.
 *
 * @since 0.1.0
 * @category models
 */
export interface HookResult {
  /** The command as configured (exec form: the command and its args joined with spaces). */
  readonly command: string
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly durationMs: number
  readonly stdout: string
  readonly stderr: string
  readonly status: HookStatus
  /** The settings file the hook came from (`null` for programmatic hooks). */
  readonly source: string | null
  /** The decision this hook made, if any (before aggregation). */
  readonly decision: Decision | null
  /** Why the run was classified as it was, or what was wrong with its output; empty when all went well. */
  readonly messages: ReadonlyArray<string>
}

/**
 * The aggregated outcome of one event.
 *
 * @since 0.1.0
 * @category models
 */
export interface Outcome {
  readonly event: string
  /** The event's action must not go ahead as planned (see the CLI contract for each event). */
  readonly blocked: boolean
  readonly decision: Decision | null
  /** The blocking reason: the JSON reason when a hook gave one, else the blocking hook's stderr. */
  readonly reason: string | null
  /** `false` when a hook asked the agent to stop entirely (`"continue": false`). */
  readonly continue: boolean
  readonly stopReason: string | null
  /** The tool input to use instead of the original, merged in config order; `null` when no hook changed it. */
  readonly updatedInput: Record<string, unknown> | null
  readonly additionalContext: ReadonlyArray<string>
  readonly systemMessages: ReadonlyArray<string>
  readonly hooks: ReadonlyArray<HookResult>
  /**
   * Other `hookSpecificOutput` fields the event accepts (`updatedToolOutput`, `sessionTitle`, `watchPaths`,
   * `worktreePath`...), merged in config order; `null` when none.
   */
  readonly hookSpecificOutput: Record<string, unknown> | null
  /**
   * What the host must show the model, in order (Claude Code's rules of who sees what): the block reason
   * where the model receives it, and every `additionalContext`.
   */
  readonly toModel: ReadonlyArray<string>
  /**
   * What the host must show the user, in order: `systemMessage`s, the `stopReason` when
   * `continue` is false, the block or ask reason where the user receives it, and one
   * `<hook> hook error: ...` notice per failed hook.
   */
  readonly toUser: ReadonlyArray<string>
  /** `terminalSequence`s the hooks returned (OSC 0/1/2/9/99/777 or BEL only), for an interactive host to write to its terminal. */
  readonly terminalSequences: ReadonlyArray<string>
  /** Hooks started in the background (`async`); their results arrive later (`takeAsyncResults`). */
  readonly asyncHooks: ReadonlyArray<string>
  /** Problems worth showing to whoever maintains the hooks (bad JSON output, config warnings). */
  readonly warnings: ReadonlyArray<string>
}

import type { HookEventSpec } from "./HookEvent.ts"
import type { Decision, HookStatus, HookVerdict } from "./HookOutput.ts"
import { aggregate as aggregateWithReaders } from "./internal/presets/outputReaders.ts"

/**
 * Combines the verdicts of every hook of one event, given in config order:
 * - permission events: `deny` > `defer` > `ask` > `allow`; exit 2 counts as `deny`;
 *   `blocked` when the result is `deny`;
 * - other blocking events: `blocked` when any hook blocked (exit 2 or `decision: "block"`);
 *   the reasons of all blocking hooks are joined, in config order;
 * - events that cannot block are never blocked;
 * - `additionalContext` and `systemMessages`: every value, in config order;
 * - `updatedInput`: each hook's object shallow-merged over the previous ones in config order
 *   (a later hook's keys win); `null` when the event is blocked or no hook changed the input.
 *   Claude Code instead keeps whichever hook finished last, which is not deterministic;
 * - `continue`: `false` when any hook said so (on events that honour it); `stopReason` is the first one given;
 * - `toModel` / `toUser`: each message routed to its audience as Claude Code's rules say.
 *
 * @since 0.1.0
 * @category constructors
 */
export const aggregate: (
  event: HookEventSpec,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly verdict: HookVerdict }>,
  warnings: ReadonlyArray<string>,
  asyncHooks?: ReadonlyArray<string>,
  /** How notices name the event, e.g. `PreToolUse:Bash`. Default: the event's name. */
  label?: string
) => Outcome = aggregateWithReaders
