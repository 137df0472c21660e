import type { HookVerdict, Outcome } from "../Verdict.ts"
import type { StopGuard } from "../StopGuard.ts"

/** @internal */
export const reached = (streak: number, cap: number): boolean => cap > 0 && streak >= cap

/** The released outcome: not blocked, the block reasons no longer sent to the model, a note for the user. */
const release = (outcome: Outcome, verdicts: ReadonlyArray<HookVerdict>, note: string): Outcome => {
  const blockReasons = new Set(
    verdicts.flatMap((verdict) => (verdict.decision === "block" && verdict.reason !== null ? [verdict.reason] : []))
  )
  if (outcome.reason !== null) blockReasons.add(outcome.reason)
  return {
    ...outcome,
    blocked: false,
    decision: null,
    reason: null,
    toModel: outcome.toModel.filter((text) => !blockReasons.has(text)),
    toUser: [...outcome.toUser, note],
    warnings: [...outcome.warnings, note]
  }
}

/** @internal */
export const make = (cap: number): StopGuard => {
  const streaks = new Map<string, number>()
  const record = (key: string, blocked: boolean, event: string): string | undefined => {
    const streak = streaks.get(key) ?? 0
    if (blocked && reached(streak, cap)) {
      streaks.delete(key)
      return (
        `${event} hooks blocked ${streak} times in a row; the agent may stop now (cap ${cap}; set ` +
        `stopBlockCap or AGENT_HOOKS_STOP_HOOK_BLOCK_CAP, 0 = off)`
      )
    }
    if (blocked) streaks.set(key, streak + 1)
    else streaks.delete(key)
    return undefined
  }
  return {
    cap,
    streak: (key) => streaks.get(key) ?? 0,
    record,
    apply: (key, outcome, verdicts) => {
      const note = record(key, outcome.blocked, outcome.event)
      return note === undefined ? outcome : release(outcome, verdicts, note)
    }
  }
}
