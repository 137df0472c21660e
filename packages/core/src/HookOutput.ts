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
import type { HookVerdict, RawRun } from "./Verdict.ts"

/**
 * How a run was classified, the decision, the run and one hook's verdict: defined in `Verdict` (their
 * home), re-exported here.
 *
 * @since 0.1.0
 */
export type { Decision, HookStatus, HookVerdict, RawRun } from "./Verdict.ts"

/**
 * Interprets one run for one event.
 *
 * @since 0.1.0
 * @category interpretation
 */
export const interpret: (event: HookEventSpec, run: RawRun) => HookVerdict = interpretWithReaders
