/**
 * How the answers of Cursor, Copilot CLI, Codex and VS Code hooks are read: each agent's own JSON
 * is rewritten into Claude Code's fields, then read by Claude Code's rules (exit 2, validation,
 * aggregation), so that every dialect blocks the same way.
 *
 * - `cursor`: `{permission: allow|deny|ask, user_message, agent_message}` on before* events (the
 *   agent's message is the reason the model sees); beforeSubmitPrompt `{continue: false,
 *   user_message}` blocks the prompt; stop/subagentStop `{followup_message}` is sent back as the
 *   next prompt (a Stop block with that reason); sessionStart `{additional_context}`.
 * - `copilot`: flat `{permissionDecision, permissionDecisionReason}`; permissionRequest
 *   `{behavior: allow|deny, message}`; `additionalContext` at the top level.
 * - `codex`: Claude Code's fields read strictly, as Codex reads them: a key Codex does not know on
 *   that event, `permissionDecision: "ask"` (unsupported) or an `allow` without `updatedInput`
 *   fails the hook, which fails open (the call runs) unless the hook or the engine fails closed.
 * - `vscode`: Claude Code's fields; on Stop and SubagentStop VS Code reads the block inside
 *   `hookSpecificOutput` (`{"decision": "block", "reason": ...}`).
 */
import * as Predicate from "effect/Predicate"
import type { HookEventSpec } from "../../HookEvent.ts"
import type { HookVerdict, RawRun } from "../../Verdict.ts"
import { CODEX_OUTPUT } from "../agents/codex/output.ts"
import { CURSOR_CONTEXT } from "../agents/cursor/host.ts"
import { none, type OutputReader } from "../output.ts"

/** The output dialects of these agents. @internal */
export const PEER_DIALECTS = ["cursor", "copilot", "codex", "vscode"] as const
/** @internal */
export type PeerDialect = (typeof PEER_DIALECTS)[number]

/** @internal */
export const isPeer = (dialect: string): dialect is PeerDialect => (PEER_DIALECTS as ReadonlyArray<string>).includes(dialect)

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

const parse = (stdout: string): Record<string, unknown> | undefined => {
  if (!stdout.trimStart().startsWith("{")) return undefined
  try {
    const value: unknown = JSON.parse(stdout)
    return Predicate.isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** What a peer's answer becomes: the same run with Claude Code's JSON on stdout, or a verdict of its own. */
type Normalized = { readonly run: RawRun; readonly notes: ReadonlyArray<string> } | { readonly verdict: HookVerdict }

const withJson = (run: RawRun, json: Record<string, unknown>, notes: ReadonlyArray<string>): Normalized => ({
  run: { ...run, stdout: Object.keys(json).length === 0 ? "" : JSON.stringify(json) },
  notes
})

const cursor = (event: HookEventSpec, run: RawRun, json: Record<string, unknown>): Normalized => {
  const out: Record<string, unknown> = {}
  const specific: Record<string, unknown> = {}
  const notes: Array<string> = []
  const permission = json["permission"]
  const userMessage = str(json["user_message"])
  const agentMessage = str(json["agent_message"])
  for (const [key, value] of Object.entries(json)) {
    switch (key) {
      case "permission":
        if (event.blocking !== "permission") notes.push(`"permission" is ignored on ${event.name}: only before* events take a permission`)
        else if (permission !== "allow" && permission !== "deny" && permission !== "ask") {
          notes.push(`"permission" must be "allow", "deny" or "ask", got ${JSON.stringify(value)}; ignored`)
        } else {
          specific["permissionDecision"] = permission
          const reason = agentMessage ?? userMessage
          if (reason !== undefined) specific["permissionDecisionReason"] = reason
        }
        break
      case "user_message":
        if (userMessage !== undefined && !(event.blocking === "decision" && json["continue"] === false)) out["systemMessage"] = userMessage
        break
      case "agent_message":
        break
      case "continue":
        // beforeSubmitPrompt {continue: false} stops the prompt
        if (value === false && event.blocking === "decision") {
          out["decision"] = "block"
          out["reason"] = userMessage ?? "blocked by a hook"
        } else if (value !== true) notes.push(`"continue" is read on beforeSubmitPrompt only; ignored on ${event.name}`)
        break
      case "followup_message":
        // stop/subagentStop: the follow-up is submitted as the next prompt, so the agent goes on
        if (str(value) !== undefined && event.blocking === "decision") {
          out["decision"] = "block"
          out["reason"] = value
        } else notes.push(`"followup_message" is read on stop and subagentStop only; ignored on ${event.name}`)
        break
      case "additional_context":
        // Cursor adds it on sessionStart only; elsewhere it is named, not delivered
        if (!CURSOR_CONTEXT.has(event.name))
          notes.push(`"additional_context" is ignored on ${event.name}: Cursor reads it on sessionStart only`)
        else if (str(value) !== undefined) specific["additionalContext"] = value
        break
      case "env":
        notes.push(`"env" of ${event.name} is for Cursor's own later hooks; agent-hooks does not carry it over`)
        break
      default:
        notes.push(`unknown Cursor output field "${key}"; ignored`)
    }
  }
  if (Object.keys(specific).length > 0) out["hookSpecificOutput"] = { hookEventName: event.name, ...specific }
  return withJson(run, out, notes)
}

const copilot = (event: HookEventSpec, run: RawRun, json: Record<string, unknown>): Normalized => {
  const { permissionDecision, permissionDecisionReason, behavior, message, additionalContext, modifiedArgs, ...rest } = json
  const specific: Record<string, unknown> = Predicate.isObject(rest["hookSpecificOutput"]) ? { ...rest["hookSpecificOutput"] } : {}
  if (permissionDecision !== undefined) specific["permissionDecision"] = permissionDecision
  if (permissionDecisionReason !== undefined) specific["permissionDecisionReason"] = permissionDecisionReason
  if (modifiedArgs !== undefined) specific["updatedInput"] = modifiedArgs
  if (additionalContext !== undefined) specific["additionalContext"] = additionalContext
  if (behavior !== undefined) specific["decision"] = { behavior, ...(message === undefined ? {} : { message }) }
  const out: Record<string, unknown> = { ...rest }
  if (Object.keys(specific).length > 0) out["hookSpecificOutput"] = { hookEventName: event.name, ...specific }
  return withJson(run, out, [])
}

const CODEX_UNIVERSAL = new Set(["continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"])

const codex = (event: HookEventSpec, run: RawRun, json: Record<string, unknown>): Normalized => {
  const failed = (problem: string): Normalized => ({
    verdict: { ...none, status: "non-blocking-error", messages: [`Codex refuses this answer: ${problem}; the hook counts as failed`] }
  })
  const base = event.behavesAs
  for (const key of Object.keys(json)) {
    if (!CODEX_UNIVERSAL.has(key) || (base === "Interrupt" && key !== "systemMessage"))
      return failed(`unknown field "${key}" on ${event.name}`)
  }
  const specific = json["hookSpecificOutput"]
  if (specific !== undefined) {
    if (!Predicate.isObject(specific)) return failed(`"hookSpecificOutput" must be an object`)
    const allowed = CODEX_OUTPUT[base] ?? []
    for (const key of Object.keys(specific)) {
      if (key !== "hookEventName" && !allowed.includes(key)) return failed(`unknown field "hookSpecificOutput.${key}" on ${event.name}`)
    }
    if (specific["permissionDecision"] === "ask") return failed(`unsupported permissionDecision:ask`)
    if (specific["permissionDecision"] === "allow" && specific["updatedInput"] === undefined) {
      return failed(`permissionDecision "allow" is only read with "updatedInput"`)
    }
  }
  return { run, notes: [] }
}

const vscode = (event: HookEventSpec, run: RawRun, json: Record<string, unknown>): Normalized => {
  const specific = json["hookSpecificOutput"]
  if (
    event.blocking !== "decision" ||
    !Predicate.isObject(specific) ||
    specific["decision"] === undefined ||
    json["decision"] !== undefined
  ) {
    return { run, notes: [] }
  }
  const { decision, reason, ...others } = specific
  const hookSpecificOutput = Object.keys(others).filter((key) => key !== "hookEventName").length === 0 ? undefined : others
  return withJson(run, { ...json, decision, ...(reason === undefined ? {} : { reason }), hookSpecificOutput }, [])
}

/**
 * A peer's answer in Claude Code's fields (a run to read by Claude Code's rules), or the verdict
 * when the agent itself would refuse the answer.
 *
 * @internal
 */
export const normalize = (dialect: PeerDialect, event: HookEventSpec, run: RawRun): Normalized => {
  const json = parse(run.stdout)
  if (json === undefined) return { run, notes: [] }
  switch (dialect) {
    case "cursor":
      return cursor(event, run, json)
    case "copilot":
      return copilot(event, run, json)
    case "codex":
      return codex(event, run, json)
    case "vscode":
      return vscode(event, run, json)
  }
}

/** A peer dialect's reader. */
const reader = (dialect: PeerDialect): OutputReader => ({
  interpret: (event, run, claude) => {
    const normalized = normalize(dialect, event, run)
    return "verdict" in normalized ? normalized.verdict : claude(normalized.run, normalized.notes)
  }
})

/**
 * The readers of Cursor's, Copilot CLI's, Codex's and VS Code's dialects: the answer in Claude
 * Code's fields, then read by Claude Code's rules (or the verdict when the agent refuses it). @internal
 */
export const readers: Readonly<Record<PeerDialect, OutputReader>> = {
  cursor: reader("cursor"),
  copilot: reader("copilot"),
  codex: reader("codex"),
  vscode: reader("vscode")
}
