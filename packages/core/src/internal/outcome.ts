import type { HookEventSpec } from "../HookEvent.ts"
import type { HookVerdict } from "../HookOutput.ts"
import type { Decision, HookResult, Outcome } from "../Outcome.ts"

const PERMISSION_RANK: Record<string, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

const fallbackReason = (result: HookResult): string =>
  `blocked by hook ${JSON.stringify(result.command)}${result.exitCode === 2 ? " (exit code 2, no stderr)" : ""}`

/** @internal */
export const aggregate = (
  event: HookEventSpec,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly verdict: HookVerdict }>,
  warnings: ReadonlyArray<string>
): Outcome => {
  let decision: Decision | null = null
  let reason: string | null = null
  let blocked = false

  if (event.blocking === "permission" || event.blocking === "permission-request") {
    let rank = 0
    for (const { result, verdict } of hooks) {
      const r = verdict.decision === null ? 0 : PERMISSION_RANK[verdict.decision] ?? 0
      if (r > rank) {
        rank = r
        decision = verdict.decision
        reason = verdict.reason ?? (verdict.decision === "deny" ? fallbackReason(result) : null)
      }
    }
    blocked = decision === "deny"
  } else if (event.blocking === "decision") {
    const reasons: Array<string> = []
    for (const { result, verdict } of hooks) {
      if (verdict.decision === "block") {
        blocked = true
        reasons.push(verdict.reason ?? fallbackReason(result))
      }
    }
    if (blocked) {
      decision = "block"
      reason = reasons.join("\n")
    }
  }

  let updatedInput: Record<string, unknown> | null = null
  let cont = true
  let stopReason: string | null = null
  const additionalContext: Array<string> = []
  const systemMessages: Array<string> = []
  for (const { verdict } of hooks) {
    if (verdict.updatedInput !== null) updatedInput = { ...(updatedInput ?? {}), ...verdict.updatedInput }
    if (!verdict.continue) {
      cont = false
      stopReason ??= verdict.stopReason
    }
    additionalContext.push(...verdict.additionalContext)
    if (verdict.systemMessage !== null) systemMessages.push(verdict.systemMessage)
  }

  return {
    event: event.name,
    blocked,
    decision,
    reason,
    continue: cont,
    stopReason,
    updatedInput: blocked ? null : updatedInput,
    additionalContext,
    systemMessages,
    hooks: hooks.map(({ result }) => result),
    warnings
  }
}
