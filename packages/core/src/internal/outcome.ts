import type { HookEventSpec } from "../HookEvent.ts"
import type { HookVerdict } from "../HookOutput.ts"
import type { Decision, HookResult, Outcome } from "../Outcome.ts"
import * as Gemini from "./presets/geminiOutput.ts"

const PERMISSION_RANK: Record<string, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

const fallbackReason = (result: HookResult): string =>
  `blocked by hook ${JSON.stringify(result.command)}${result.exitCode === 2 ? " (exit code 2, no stderr)" : ""}`

/** @internal */
export const aggregate = (
  event: HookEventSpec,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly verdict: HookVerdict }>,
  warnings: ReadonlyArray<string>,
  asyncHooks: ReadonlyArray<string> = [],
  label: string = event.name
): Outcome => {
  const toModel: Array<string> = []
  const toUser: Array<string> = []
  const route = (audience: "model" | "user" | "none", text: string) => {
    if (audience === "model") toModel.push(text)
    else if (audience === "user") toUser.push(text)
  }
  let decision: Decision | null = null
  let reason: string | null = null
  let blocked = false

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
    if (reason !== null) route(decision === "deny" ? (reasonFrom === "stderr" ? event.exit2StderrTo : event.reasonTo) : "user", reason)
  } else if (event.blocking === "decision") {
    const reasons: Array<string> = []
    for (const { result, verdict } of hooks) {
      if (verdict.decision === "block") {
        blocked = true
        const text = verdict.reason ?? fallbackReason(result)
        reasons.push(text)
        route(verdict.reasonFrom === "stderr" ? event.exit2StderrTo : event.reasonTo, text)
      }
    }
    if (blocked) {
      decision = "block"
      reason = reasons.join("\n")
    }
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
      // Gemini CLI's hooks combine as its reference documents (tool configs by union, model requests field by field).
      specific = event.outputDialect === "claude"
        ? { ...(specific ?? {}), ...verdict.hookSpecificOutput }
        : Gemini.mergeSpecific(specific, verdict.hookSpecificOutput)
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
  // DirectoryAdded's systemMessage goes to the model (Claude Code adds it to Claude's context); everywhere else to the user.
  if (event.behavesAs === "DirectoryAdded") toModel.push(...systemMessages)
  else toUser.push(...systemMessages)
  if (!cont && stopReason !== null) toUser.push(stopReason)

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
    hookSpecificOutput: specific,
    toModel,
    toUser,
    terminalSequences,
    asyncHooks,
    warnings
  }
}
