import * as Predicate from "effect/Predicate"
import type { HookEventSpec } from "../HookEvent.ts"
import type { HookVerdict, RawRun } from "../HookOutput.ts"
import type { Decision } from "../Outcome.ts"
import * as Gemini from "./presets/geminiOutput.ts"
import * as AgentJson from "./presets/agentJsonOutput.ts"
import * as Peer from "./presets/peerOutput.ts"

type Json = Record<string, unknown>


const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "string" ? JSON.stringify(value) : typeof value

const PERMISSION_DECISIONS = ["allow", "deny", "ask", "defer"] as const

/** The fields a hook may return, already validated for the event. */
interface Fields {
  readonly continue: boolean
  readonly stopReason: string | null
  readonly systemMessage: string | null
  readonly decision: Decision | null
  readonly reason: string | null
  readonly additionalContext: string | null
  readonly updatedInput: Record<string, unknown> | null
  readonly specific: Record<string, unknown> | null
  readonly terminalSequence: string | null
  readonly notes: ReadonlyArray<string>
}

/** OSC 0/1/2/9/99/777 sequences (BEL- or ST-terminated) or a bare BEL, nothing else: the terminal escapes Claude Code lets through in a systemMessage. */
const TERMINAL_SEQUENCE = /^(?:\u001b\](?:0|1|2|9|99|777);[^\u0007\u001b]*(?:\u0007|\u001b\\)|\u0007)+$/

/** hookSpecificOutput fields the aggregation handles itself; the others pass through to the host. */
const AGGREGATED = new Set(["hookEventName", "additionalContext", "permissionDecision", "permissionDecisionReason", "updatedInput", "decision"])

type Validation = { readonly _tag: "valid"; readonly fields: Fields } | { readonly _tag: "invalid"; readonly problems: ReadonlyArray<string> }

/** Validates a JSON object printed by a hook against the event's output shape. */
const validate = (event: HookEventSpec, output: Json): Validation => {
  const problems: Array<string> = []
  const notes: Array<string> = []
  const str = (key: string, value: unknown, path = key): string | null => {
    if (value === undefined) return null
    if (typeof value === "string") return value
    problems.push(`${path}: expected string, got ${describe(value)}`)
    return null
  }
  const cont = output["continue"]
  if (cont !== undefined && typeof cont !== "boolean") problems.push(`continue: expected boolean, got ${describe(cont)}`)
  let terminalSequence: string | null = null
  const sequence = output["terminalSequence"]
  if (sequence !== undefined) {
    if (typeof sequence === "string" && TERMINAL_SEQUENCE.test(sequence)) terminalSequence = sequence
    else notes.push(`terminalSequence ignored: only OSC 0, 1, 2, 9, 99, 777 or BEL are allowed`)
  }
  const suppress = output["suppressOutput"]
  if (suppress !== undefined && typeof suppress !== "boolean") problems.push(`suppressOutput: expected boolean, got ${describe(suppress)}`)
  const stopReason = str("stopReason", output["stopReason"])
  const systemMessage = str("systemMessage", output["systemMessage"])
  const topReason = str("reason", output["reason"])
  const topDecision = output["decision"]
  if (topDecision !== undefined && topDecision !== "approve" && topDecision !== "block") {
    problems.push(`decision: expected "approve" | "block", got ${describe(topDecision)}`)
  }
  if (output["permissionDecision"] !== undefined) {
    notes.push(`top-level "permissionDecision" is ignored: put it inside "hookSpecificOutput" with "hookEventName": "${event.name}"`)
  }
  if (output["additionalContext"] !== undefined) {
    notes.push(`top-level "additionalContext" is ignored: put it inside "hookSpecificOutput" with "hookEventName": "${event.name}"`)
  }

  let decision: Decision | null = null
  let reason: string | null = null
  let additionalContext: string | null = null
  let updatedInput: Record<string, unknown> | null = null
  let extras: Record<string, unknown> | null = null

  const specific = output["hookSpecificOutput"]
  if (specific !== undefined) {
    if (!Predicate.isObject(specific)) {
      problems.push(`hookSpecificOutput: expected object, got ${describe(specific)}`)
    } else if (specific["hookEventName"] === undefined) {
      problems.push(`hookSpecificOutput is missing required field "hookEventName"`)
    } else if (specific["hookEventName"] !== event.name) {
      problems.push(`Hook returned incorrect event name: expected '${event.name}' but got '${String(specific["hookEventName"])}'`)
    } else if (event.specificOutput.length === 0) {
      problems.push(`hookSpecificOutput is not supported on ${event.name}; use the top-level fields (continue, stopReason, systemMessage${event.blocking === "decision" ? ", decision, reason" : ""})`)
    } else {
      for (const [key, value] of Object.entries(specific)) {
        if (!AGGREGATED.has(key) && event.specificOutput.includes(key)) (extras ??= {})[key] = value
      }
      additionalContext = str("additionalContext", specific["additionalContext"], "hookSpecificOutput.additionalContext")
      if (event.blocking === "permission") {
        const pd = specific["permissionDecision"]
        if (pd !== undefined) {
          if (typeof pd === "string" && (PERMISSION_DECISIONS as ReadonlyArray<string>).includes(pd)) decision = pd as Decision
          else problems.push(`hookSpecificOutput.permissionDecision: expected "allow" | "deny" | "ask" | "defer", got ${describe(pd)}`)
        }
        reason = str("permissionDecisionReason", specific["permissionDecisionReason"], "hookSpecificOutput.permissionDecisionReason")
      }
      if (event.blocking === "permission" || event.blocking === "permission-request") {
        const ui = specific["updatedInput"]
        if (ui !== undefined) {
          if (Predicate.isObject(ui)) updatedInput = ui
          else problems.push(`hookSpecificOutput.updatedInput: expected object, got ${describe(ui)}`)
        }
      }
      if (event.blocking === "permission-request" && specific["decision"] !== undefined) {
        const d = specific["decision"]
        if (!Predicate.isObject(d) || (d["behavior"] !== "allow" && d["behavior"] !== "deny")) {
          problems.push(`hookSpecificOutput.decision: expected {"behavior": "allow" | "deny", ...}, got ${describe(d)}`)
        } else {
          decision = d["behavior"]
          reason = str("message", d["message"], "hookSpecificOutput.decision.message")
          // updatedPermissions and interrupt reach the host as they are.
          for (const key of ["updatedPermissions", "interrupt"]) if (d[key] !== undefined) (extras ??= {})[key] = d[key]
          if (d["updatedInput"] !== undefined) {
            if (Predicate.isObject(d["updatedInput"])) updatedInput = d["updatedInput"]
            else problems.push(`hookSpecificOutput.decision.updatedInput: expected object, got ${describe(d["updatedInput"])}`)
          }
        }
      }
    }
  }
  if (problems.length > 0) return { _tag: "invalid", problems }

  // The legacy top-level decision.
  if (topDecision !== undefined) {
    if (event.blocking === "permission") {
      if (decision === null) {
        decision = topDecision === "approve" ? "allow" : "deny"
        reason = topReason
      }
    } else if (event.blocking === "decision" && topDecision === "block") {
      decision = "block"
      reason = topReason
    }
  }
  if (decision === "block" || (event.blocking === "permission" && decision !== null)) reason ??= topReason
  return {
    _tag: "valid",
    fields: {
      continue: cont !== false,
      stopReason,
      systemMessage,
      decision,
      reason,
      additionalContext,
      updatedInput,
      specific: extras,
      terminalSequence,
      notes
    }
  }
}

const firstLine = (text: string): string => text.trim().split("\n")[0]?.trim() ?? ""

/** The verdict of a hook that said nothing. @internal */
export const none: HookVerdict = {
  status: "success",
  decision: null,
  reason: null,
  continue: true,
  stopReason: null,
  systemMessage: null,
  additionalContext: [],
  updatedInput: null,
  hookSpecificOutput: null,
  reasonFrom: null,
  messages: []
}

/** What exit 2 decides on an event. */
const exit2Decision = (event: HookEventSpec): Decision | null =>
  event.blocking === "permission" ? "deny" : event.blocking === "decision" ? "block" : null

/** @internal */
export const interpret = (event: HookEventSpec, raw: RawRun): HookVerdict => {
  let run = raw
  if (run.spawnError !== undefined) {
    return { ...none, status: "non-blocking-error", messages: [`could not start: ${run.spawnError}`] }
  }
  if (run.timedOut) {
    return { ...none, status: "cancelled", messages: [`timed out after ${run.timeout} s; output discarded, no decision`] }
  }
  // Gemini CLI's output rules live with its preset: the documented ones, or the source's (`geminiCompat: "source"`).
  if (event.outputDialect === "gemini" || event.outputDialect === "gemini-source") {
    return Gemini.interpret(event, run, event.outputDialect === "gemini" ? "documented" : "source")
  }
  // Kiro, Windsurf, Cline and Antigravity CLI: their own exit codes and answers
  if (Peer.isPeerDialect(event.outputDialect)) return Peer.interpret(event, run, event.outputDialect)

  const messages: Array<string> = []
  // Cursor's, Copilot CLI's, Codex's and VS Code's answers, in Claude Code's fields (or refused as that agent refuses them)
  if (AgentJson.isPeer(event.outputDialect)) {
    const normalized = AgentJson.normalize(event.outputDialect, event, run)
    if ("verdict" in normalized) return normalized.verdict
    run = normalized.run
    messages.push(...normalized.notes)
  }
  let fields: Fields | undefined
  let invalidJson = false
  let unreadable = false
  const trimmed = run.stdout.trimStart()
  if (trimmed.startsWith("{")) {
    let parsed: unknown
    try {
      parsed = JSON.parse(run.stdout)
    } catch (error) {
      unreadable = true
      messages.push(
        `stdout looks like a JSON object but is not valid JSON (${error instanceof Error ? error.message : String(error)}); treated as plain text`
      )
    }
    if (Predicate.isObject(parsed)) {
      const validation = validate(event, parsed)
      if (validation._tag === "valid") {
        fields = validation.fields
        messages.push(...validation.fields.notes)
      } else {
        invalidJson = true
        messages.push(...validation.problems.map((problem) => `Hook JSON output validation failed — ${problem}`))
      }
    }
  }
  const stderr = run.stderr.trimEnd()
  const plainContext = fields === undefined && !invalidJson && event.plainStdoutToContext && run.exitCode === 0 && run.stdout.trim() !== ""
    ? [run.stdout.trim()]
    : []
  const fromFields = fields === undefined
    ? { ...none, messages }
    : {
      status: "success" as const,
      decision: fields.decision,
      reason: fields.reason,
      continue: fields.continue,
      stopReason: fields.continue ? null : fields.stopReason,
      systemMessage: fields.systemMessage,
      additionalContext: fields.additionalContext === null ? [] : [fields.additionalContext],
      updatedInput: fields.updatedInput,
      hookSpecificOutput: fields.specific,
      terminalSequence: fields.terminalSequence,
      reasonFrom: fields.reason === null ? null : "json" as const,
      messages
    }

  if (run.exitCode === 2 || (event.nonZeroBlocks && run.exitCode !== null && run.exitCode !== 0)) {
    const decision = exit2Decision(event)
    if (decision === null) {
      messages.push(
        event.blocking === "none"
          ? `exit code 2: ${event.name} cannot block${stderr === "" ? "" : `; stderr: ${firstLine(stderr)}`}`
          : `exit code 2 is ignored on ${event.name}; use the JSON decision`
      )
    }
    const useStderr = decision !== null && fromFields.reason === null && stderr !== ""
    return {
      ...fromFields,
      // A preset's event that cannot block (Wingman's PostToolUse and Stop: "log error, continue")
      // logs exit 2 as an error like any other exit; Claude Code's own events keep its status.
      status: decision === null && event.custom && event.blocking === "none" ? "non-blocking-error" : "blocking-error",
      decision: decision ?? fromFields.decision,
      reason: useStderr ? stderr : fromFields.reason,
      reasonFrom: useStderr ? "stderr" : fromFields.reasonFrom,
      stderrNotice: decision === null && stderr !== "" ? stderr : null,
      messages
    }
  }
  if (event.behavesAs === "WorktreeCreate" && run.exitCode !== null && run.exitCode !== 0) {
    messages.push(`exit code ${run.exitCode}: worktree creation fails`)
    return { ...fromFields, status: "blocking-error", decision: "block", reason: stderr === "" ? `WorktreeCreate hook exited ${run.exitCode}` : stderr, reasonFrom: "stderr", messages }
  }
  if (run.exitCode === 0) {
    if (invalidJson) return { ...none, status: "non-blocking-error", messages }
    if (event.behavesAs === "WorktreeCreate" && fields === undefined) {
      // The last non-empty line of stdout, ANSI escapes stripped, is the worktree path.
      const lines = run.stdout.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").split("\n").map((line) => line.trim()).filter((line) => line !== "")
      const path = lines[lines.length - 1]
      return path === undefined ? fromFields : { ...fromFields, hookSpecificOutput: { worktreePath: path } }
    }
    return { ...fromFields, additionalContext: [...fromFields.additionalContext, ...plainContext], ...(unreadable ? { answerDropped: true } : {}) }
  }
  // Any other exit code, or killed by a signal we did not send.
  if (fields !== undefined) return fromFields
  const how = run.exitCode === null ? `terminated by signal ${run.signal ?? "unknown"}` : `Failed with non-blocking status code ${run.exitCode}`
  messages.push(`${how}: ${stderr === "" ? "No stderr output" : firstLine(stderr)}`)
  return { ...none, status: "non-blocking-error", messages }
}
