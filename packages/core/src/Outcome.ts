/**
 * The result of dispatching one event: one `HookResult` per hook that ran, and the
 * aggregated `Outcome` that the host acts on. `Outcome` is exactly the JSON object that
 * `agent-hooks run` prints and that `engine.dispatch()` resolves to (see the CLI contract);
 * fields may be added, the existing ones keep their meaning.
 *
 * @since 0.1.0
 */

/**
 * How a hook's run was classified, a permission decision or block, one hook's run and the aggregated
 * outcome: defined in `Verdict` (their home), re-exported here.
 *
 * @since 0.1.0
 */
export type { Decision, HookResult, HookStatus, Outcome, PermissionMatch } from "./Verdict.ts"

import type { HookEventSpec } from "./HookEvent.ts"
import { aggregate as aggregateWithReaders } from "./internal/presets/outputReaders.ts"
import type { HookResult, HookVerdict, Outcome } from "./Verdict.ts"

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
