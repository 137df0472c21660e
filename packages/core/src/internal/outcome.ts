import type { HookEventSpec } from "../HookEvent.ts"
import type { Decision, HookResult, HookVerdict, Outcome } from "../Verdict.ts"

const PERMISSION_RANK: Record<string, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

const fallbackReason = (result: HookResult): string =>
  `blocked by hook ${JSON.stringify(result.command)}${result.exitCode === 2 ? " (exit code 2, no stderr)" : ""}`

/**
 * How the `hookSpecificOutput` of one event's hooks combine, for the event's output dialect.
 *
 * @internal
 */
export type MergeSpecific = (
  dialect: string
) => (earlier: Record<string, unknown> | null, later: Record<string, unknown>) => Record<string, unknown>

type Audience = "model" | "user" | "none"

type Answered = ReadonlyArray<{ readonly result: HookResult; readonly verdict: HookVerdict }>

/**
 * What one event's hooks decided, before the outcome is assembled: whether the event is blocked,
 * the decision and its reason (what the audit trail records), and where the block's reasons go.
 *
 * @internal
 */
export interface Decided {
  readonly blocked: boolean
  readonly decision: Decision | null
  readonly reason: string | null
  /** The hooks blocked, whatever the Stop guard then said. */
  readonly blockedByHooks: boolean
  /** The Stop guard's note when it released the hooks' block: it goes to the user and the warnings. */
  readonly released: string | undefined
  /** The block's reasons, each to its audience; none once the Stop guard released the block. */
  readonly reasonRoutes: ReadonlyArray<readonly [Audience, string]>
}

/**
 * The decision of one event's hooks, given in config order. `release`, the Stop guard's say: told
 * whether the hooks block, it answers with a note when the block is released (the streak reached
 * the cap): then the event is not blocked and the block's reasons are not sent.
 *
 * @internal
 */
export const decide = (
  event: HookEventSpec,
  hooks: Answered,
  release?: ((blocked: boolean) => string | undefined) | undefined
): Decided => {
  let decision: Decision | null = null
  let reason: string | null = null
  let blocked = false
  const reasonRoutes: Array<readonly [Audience, string]> = []

  if (event.blocking === "permission" || event.blocking === "permission-request") {
    let rank = 0
    let reasonFrom: "json" | "stderr" | null = null
    for (const { result, verdict } of hooks) {
      const r = verdict.decision === null ? 0 : (PERMISSION_RANK[verdict.decision] ?? 0)
      if (r > rank) {
        rank = r
        decision = verdict.decision
        reason = verdict.reason ?? (verdict.decision === "deny" ? fallbackReason(result) : null)
        reasonFrom = verdict.reasonFrom
      }
    }
    blocked = decision === "deny"
    // A deny's reason goes where the event sends it (PreToolUse: the model); allow / ask reasons go to the user.
    if (reason !== null)
      reasonRoutes.push([decision === "deny" ? (reasonFrom === "stderr" ? event.exit2StderrTo : event.reasonTo) : "user", reason])
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
  const released = release?.(blocked)
  if (released !== undefined && blocked) {
    return { blocked: false, decision: null, reason: null, blockedByHooks: true, released, reasonRoutes: [] }
  }
  return { blocked, decision, reason, blockedByHooks: blocked, released: undefined, reasonRoutes }
}

/**
 * What an outcome says besides its hooks' answers: what the engine had to say before the dispatch
 * (a reload of the settings), the dispatch's warnings, the hooks started in the background, how
 * notices name the event (e.g. `PreToolUse:Bash`), and what the sinks could not do before the
 * outcome was returned (audit records not written), after the Stop guard's note.
 *
 * @internal
 */
export interface Besides {
  /** Said before this dispatch (a reload's notice): the first of the warnings. */
  readonly notices?: ReadonlyArray<string> | undefined
  readonly warnings: ReadonlyArray<string>
  readonly asyncHooks?: ReadonlyArray<string> | undefined
  readonly label?: string | undefined
  readonly sinkWarnings?: ReadonlyArray<string> | undefined
}

/**
 * The outcome, assembled once from the hooks' decision and everything else they said, given how
 * each dialect merges `hookSpecificOutput` (a preset supplies its own).
 *
 * @internal
 */
export const assembleWith =
  (mergeFor: MergeSpecific) =>
  (event: HookEventSpec, hooks: Answered, decided: Decided, besides: Besides): Outcome => {
    const label = besides.label ?? event.name
    const toModel: Array<string> = []
    const toUser: Array<string> = []
    const merge = mergeFor(event.outputDialect)
    const route = (audience: Audience, text: string) => {
      if (audience === "model") toModel.push(text)
      else if (audience === "user") toUser.push(text)
    }
    for (const [audience, text] of decided.reasonRoutes) route(audience, text)

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
    // DirectoryAdded's systemMessage goes to the model (Claude Code adds it to Claude's context); everywhere else to the user.
    if (event.behavesAs === "DirectoryAdded") toModel.push(...systemMessages)
    else toUser.push(...systemMessages)
    if (!cont && stopReason !== null) toUser.push(stopReason)
    if (decided.released !== undefined) toUser.push(decided.released)

    const notices = besides.notices ?? []
    const sinkWarnings = besides.sinkWarnings ?? []
    return {
      event: event.name,
      blocked: decided.blocked,
      decision: decided.decision,
      reason: decided.reason,
      continue: cont,
      stopReason,
      updatedInput: decided.blockedByHooks ? null : updatedInput,
      additionalContext,
      systemMessages,
      hooks: hooks.map(({ result }) => result),
      hookSpecificOutput: specific,
      toModel,
      toUser,
      terminalSequences,
      asyncHooks: besides.asyncHooks ?? [],
      // In the order they were said: before the dispatch, during it, the Stop guard's release, the sinks.
      warnings:
        notices.length === 0 && decided.released === undefined && sinkWarnings.length === 0
          ? besides.warnings
          : [...notices, ...besides.warnings, ...(decided.released === undefined ? [] : [decided.released]), ...sinkWarnings]
    }
  }

/**
 * The aggregation, given how each dialect merges `hookSpecificOutput`: the decision (with the Stop
 * guard's say, `release`), then the outcome assembled from it.
 *
 * @internal
 */
export const aggregateWith = (mergeFor: MergeSpecific) => {
  const assemble = assembleWith(mergeFor)
  return (
    event: HookEventSpec,
    hooks: Answered,
    warnings: ReadonlyArray<string>,
    asyncHooks: ReadonlyArray<string> = [],
    label: string = event.name,
    release?: ((blocked: boolean) => string | undefined) | undefined
  ): Outcome => assemble(event, hooks, decide(event, hooks, release), { warnings, asyncHooks, label })
}
