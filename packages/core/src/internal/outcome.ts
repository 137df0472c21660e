import type { HookEventSpec } from "../HookEvent.ts"
import type { Decision, HookVerdict } from "../HookOutput.ts"
import type { HookResult, Outcome } from "../Outcome.ts"

const PERMISSION_RANK: Record<string, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

const fallbackReason = (result: HookResult): string =>
  `blocked by hook ${JSON.stringify(result.command)}${result.exitCode === 2 ? " (exit code 2, no stderr)" : ""}`

/**
 * How the `hookSpecificOutput` of one event's hooks combine, for the event's output dialect.
 *
 * @internal
 */
export type MergeSpecific = (dialect: string) => (earlier: Record<string, unknown> | null, later: Record<string, unknown>) => Record<string, unknown>

/**
 * The aggregation, given how each dialect merges `hookSpecificOutput` (a preset supplies its own).
 * `release`, the Stop guard's say: told whether the hooks block, it answers with a note when the
 * block is released (the streak reached the cap): then the outcome does not block, the block's
 * reasons are not sent, and the note goes to the user and the warnings.
 *
 * @internal
 */
export const aggregateWith = (mergeFor: MergeSpecific) =>
(
  event: HookEventSpec,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly verdict: HookVerdict }>,
  warnings: ReadonlyArray<string>,
  asyncHooks: ReadonlyArray<string> = [],
  label: string = event.name,
  release?: ((blocked: boolean) => string | undefined) | undefined
): Outcome => {
  const toModel: Array<string> = []
  const toUser: Array<string> = []
  const merge = mergeFor(event.outputDialect)
  const route = (audience: "model" | "user" | "none", text: string) => {
    if (audience === "model") toModel.push(text)
    else if (audience === "user") toUser.push(text)
  }
  let decision: Decision | null = null
  let reason: string | null = null
  let blocked = false
  // The decision's reasons, sent once the Stop guard has had its say.
  const reasonRoutes: Array<readonly ["model" | "user" | "none", string]> = []

  if (event.blocking === "permission" || event.blocking === "permission-request") {
    let rank = 0
    let reasonFrom: "json" | "stderr" | null = null
    for (const { result, verdict } of hooks) {
      const r = verdict.decision === null ? 0 : PERMISSION_RANK[verdict.decision] ?? 0
      if (r > rank) {
        rank = r
        decision = verdict.decision
        reason = verdict.reason ?? (verdict.decision === "deny" ? fallbackReason(result) : null)
        reasonFrom = verdict.reasonFrom
      }
    }
    blocked = decision === "deny"
    // A deny's reason goes where the event sends it (PreToolUse: the model); allow / ask reasons go to the user.
    if (reason !== null) reasonRoutes.push([decision === "deny" ? (reasonFrom === "stderr" ? event.exit2StderrTo : event.reasonTo) : "user", reason])
  } else if (event.blocking === "decision") {
    const reasons: Array<string> = []
    for (const { result, verdict } of hooks) {
      if (verdict.decision === "block") {
        blocked = true
        const text = verdict.reason ?? fallbackReason(result)
        reasons.push(text)
        reasonRoutes.push([verdict.reasonFrom === "stderr" ? event.exit2StderrTo : event.reasonTo, text])
      }
    }
    if (blocked) {
      decision = "block"
      reason = reasons.join("\n")
    }
  }
  // The Stop guard: a block that reaches the cap is released before the outcome is made.
  const blockedByHooks = blocked
  const released = release?.(blocked)
  if (released !== undefined && blocked) {
    blocked = false
    decision = null
    reason = null
  } else {
    for (const [audience, text] of reasonRoutes) route(audience, text)
  }

  let updatedInput: Record<string, unknown> | null = null
  let specific: Record<string, unknown> | null = null
  let cont = true
  let stopReason: string | null = null
  const additionalContext: Array<string> = []
  const systemMessages: Array<string> = []
  const terminalSequences: Array<string> = []
  for (const { result, verdict } of hooks) {
    if (verdict.updatedInput !== null) updatedInput = { ...(updatedInput ?? {}), ...verdict.updatedInput }
    if (verdict.hookSpecificOutput !== null) {
      // Each dialect's hooks combine as its agent does (Gemini CLI: tool configs by union, model requests field by field).
      specific = merge(specific, verdict.hookSpecificOutput)
    }
    if (!verdict.continue && event.continueHonored) {
      cont = false
      stopReason ??= verdict.stopReason
    }
    additionalContext.push(...verdict.additionalContext)
    if (verdict.systemMessage !== null) systemMessages.push(verdict.systemMessage)
    if (verdict.terminalSequence !== undefined && verdict.terminalSequence !== null) terminalSequences.push(verdict.terminalSequence)
    if (verdict.stderrNotice !== undefined && verdict.stderrNotice !== null) {
      route(event.exit2StderrTo, `${label} hook error: ${verdict.stderrNotice}`)
    }
    if (verdict.status === "non-blocking-error" || verdict.status === "cancelled") {
      const detail = verdict.messages[verdict.messages.length - 1] ?? "failed"
      toUser.push(`${label} hook error: [${result.command}]: ${detail}`)
    }
  }
  toModel.push(...additionalContext)
  // DirectoryAdded's systemMessage goes to the model (§6.2); everywhere else to the user.
  if (event.behavesAs === "DirectoryAdded") toModel.push(...systemMessages)
  else toUser.push(...systemMessages)
  if (!cont && stopReason !== null) toUser.push(stopReason)
  if (released !== undefined && blockedByHooks) toUser.push(released)

  return {
    event: event.name,
    blocked,
    decision,
    reason,
    continue: cont,
    stopReason,
    updatedInput: blockedByHooks ? null : updatedInput,
    additionalContext,
    systemMessages,
    hooks: hooks.map(({ result }) => result),
    hookSpecificOutput: specific,
    toModel,
    toUser,
    terminalSequences,
    asyncHooks,
    warnings: released !== undefined && blockedByHooks ? [...warnings, released] : warnings
  }
}
