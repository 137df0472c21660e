/**
 * What one hook's run means: its exit code, stdout and stderr classified the way Claude Code
 * does it (Claude Code's exit-code and JSON rules), for the event it ran on.
 *
 * - stdout that starts with `{` (after leading white space) is parsed as one JSON document;
 *   anything else is plain text;
 * - exit 0: JSON fields apply; plain text reaches the model's context on the events where
 *   Claude Code does that (SessionStart, UserPromptSubmit, UserPromptExpansion, PostModelSwitch);
 * - exit 2: a block (what it blocks depends on the event); the reason is the JSON reason if the
 *   hook gave one, else its stderr; valid JSON fields are still read;
 * - any other exit code: valid JSON applies as if the hook succeeded; otherwise a non-blocking
 *   error whose message is the first line of stderr;
 * - a timed-out hook is cancelled: its output is discarded and it decides nothing.
 *
 * @since 0.1.0
 */
import type { HookEventSpec } from "./HookEvent.ts"
import { interpret as interpretWithReaders } from "./internal/presets/outputReaders.ts"

/**
 * How a hook's run was classified (Claude Code's vocabulary):
 * - `success`: exit 0 (or valid JSON output with any exit code other than 2);
 * - `blocking-error`: exit 2 (or a failure of a fail-closed hook);
 * - `non-blocking-error`: any other exit code, a hook that could not start, invalid JSON output;
 * - `cancelled`: timed out (its output is discarded);
 * - `detached` (since 0.2.0): started detached under `agent-hooks run` (engine option
 *   `detachAsync`) and still running: how it ends is not known to the engine (exit code `null`);
 *   its launcher appends that to the execution log when it ends.
 *
 * @since 0.1.0
 * @category models
 */
export type HookStatus = "success" | "blocking-error" | "non-blocking-error" | "cancelled" | "detached"

/**
 * A permission decision (PreToolUse and the like) or a block on other events.
 *
 * @since 0.1.0
 * @category models
 */
export type Decision = "allow" | "deny" | "ask" | "defer" | "block"

/**
 * How the process ended and what it wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface RawRun {
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  /** Seconds, for messages. */
  readonly timeout: number
  readonly stdout: string
  readonly stderr: string
  /** Set when the process could not be started. */
  readonly spawnError?: string | undefined
}

/**
 * One hook's verdict, before aggregation.
 *
 * @since 0.1.0
 * @category models
 */
export interface HookVerdict {
  readonly status: HookStatus
  readonly decision: Decision | null
  /** The reason for `decision` (JSON reason, else stderr on exit 2). */
  readonly reason: string | null
  /** `false` when the hook asked the agent to stop entirely. */
  readonly continue: boolean
  readonly stopReason: string | null
  readonly systemMessage: string | null
  /** A valid `terminalSequence` (OSC 0/1/2/9/99/777 or BEL), for the host's terminal; else `null`. */
  readonly terminalSequence?: string | null | undefined
  readonly additionalContext: ReadonlyArray<string>
  readonly updatedInput: Record<string, unknown> | null
  /** Other `hookSpecificOutput` fields the event accepts (`updatedToolOutput`, `sessionTitle`, `watchPaths`...). */
  readonly hookSpecificOutput: Record<string, unknown> | null
  /** Where `reason` came from: the hook's JSON, or its stderr on exit 2. */
  readonly reasonFrom: "json" | "stderr" | null
  /** On an event that cannot block, the stderr of an exit 2 (shown to whoever the event's rules name). */
  readonly stderrNotice?: string | null | undefined
  /** Why it was classified so, or what was wrong with its output. */
  readonly messages: ReadonlyArray<string>
  /**
   * The hook's answer could not be read (stdout looked like a JSON object but did not parse), so
   * whatever it decided was dropped. `onFailure: "block"` and fail-closed engines treat it as a failure.
   */
  readonly answerDropped?: boolean | undefined
  /**
   * The parts of the hook's answer that change nothing on this event, one line each naming the
   * field and why (`"decision" is ignored on Notification: it cannot block`); also in `messages`.
   * The result is Claude Code's; these lines only make the dropped part visible (the engine says
   * them through `onWarning`).
   *
   * @since 0.2.0
   */
  readonly ignored?: ReadonlyArray<string> | undefined
}

/**
 * Interprets one run for one event.
 *
 * @since 0.1.0
 * @category interpretation
 */
export const interpret: (event: HookEventSpec, run: RawRun) => HookVerdict = interpretWithReaders
