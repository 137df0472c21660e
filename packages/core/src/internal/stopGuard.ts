import type { StopGuard } from "../StopGuard.ts"

/** @internal */
export const reached = (streak: number, cap: number): boolean => cap > 0 && streak >= cap

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
    record
  }
}
