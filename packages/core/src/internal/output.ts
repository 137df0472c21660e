import * as Predicate from "effect/Predicate"
import type { HookEventSpec } from "../HookEvent.ts"
import type { Decision, HookVerdict, RawRun } from "../Verdict.ts"
import { catalog, EXIT2_IGNORES_SPECIFIC } from "./hookEvent.ts"
import { nearest } from "./text.ts"

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
  /** Parts of the answer already known to be ignored on the event, one line each. */
  readonly notes: ReadonlyArray<string>
  /** The answer as the hook printed it, to tell afterwards which fields the verdict used. */
  readonly output: Json
  /** Where `decision` and `reason` came from: the top level, or `hookSpecificOutput`. */
  readonly decisionFrom: "top" | "specific" | null
  readonly reasonFrom: "top" | "specific" | null
}

/**
 * OSC 0/1/2/9/99/777 sequences (BEL- or ST-terminated) or a bare BEL, nothing else: the terminal escapes Claude Code
 * lets through in a systemMessage.
 */
const TERMINAL_SEQUENCE = /^(?:\u001b\](?:0|1|2|9|99|777);[^\u0007\u001b]*(?:\u0007|\u001b\\)|\u0007)+$/

/** hookSpecificOutput fields the aggregation handles itself; the others pass through to the host. */
const AGGREGATED = new Set([
  "hookEventName",
  "additionalContext",
  "permissionDecision",
  "permissionDecisionReason",
  "updatedInput",
  "decision"
])

/** Every hookSpecificOutput field some catalog event reads. */
const SPECIFIC_FIELDS: ReadonlySet<string> = new Set([...AGGREGATED, ...catalog.flatMap((event) => event.specificOutput)])

/** The top-level fields of a hook's JSON answer on every event. */
const TOP_LEVEL = [
  "continue",
  "stopReason",
  "suppressOutput",
  "systemMessage",
  "decision",
  "reason",
  "hookSpecificOutput",
  "terminalSequence"
]

/** A hostile answer with thousands of unknown keys gets this many lines, then one that counts the rest. */
const MAX_UNKNOWN_LINES = 10

/** A key as a message names it: JSON-quoted (no raw control characters), at most 80 characters. */
const keyName = (key: string): string => JSON.stringify(key.length > 80 ? `${key.slice(0, 79)}…` : key)

/** A field as a message names it: `"reason"` at the top level, `hookSpecificOutput.sessionTitle` inside. */
const fieldName = (key: string, inSpecific: boolean): string =>
  !inSpecific ? keyName(key) : /^[A-Za-z_$][\w$]{0,79}$/.test(key) ? `hookSpecificOutput.${key}` : `hookSpecificOutput[${keyName(key)}]`

/**
 * One line per unknown key (`"key" is ignored: ...`), at most MAX_UNKNOWN_LINES, then one
 * line for the rest: an answer the hook's author thought meant something is never dropped unseen.
 */
const unknownKeys = (keys: ReadonlyArray<string>, inSpecific: boolean, known: ReadonlyArray<string>, why: string): Array<string> => {
  const lines = keys.slice(0, MAX_UNKNOWN_LINES).map((key) => {
    const near = key.length <= 80 ? nearest(key, known) : undefined
    return `${fieldName(key, inSpecific)} is ignored: ${why}${near === undefined ? "" : ` (did you mean "${near}"?)`}`
  })
  if (keys.length > MAX_UNKNOWN_LINES)
    lines.push(`${keys.length - MAX_UNKNOWN_LINES} more unknown fields ${inSpecific ? "in hookSpecificOutput " : ""}are ignored`)
  return lines
}

type Validation =
  | { readonly _tag: "valid"; readonly fields: Fields }
  | { readonly _tag: "invalid"; readonly problems: ReadonlyArray<string> }

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
  // Where the event shows none, a systemMessage is still checked, then not delivered (`unused` names it)
  const message = str("systemMessage", output["systemMessage"])
  const systemMessage = event.systemMessageShown ? message : null
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

  const unknown = Object.keys(output).filter(
    (key) => !TOP_LEVEL.includes(key) && key !== "permissionDecision" && key !== "additionalContext"
  )
  notes.push(...unknownKeys(unknown, false, TOP_LEVEL, `a hook's JSON answer has only ${TOP_LEVEL.join(", ")}`))

  let decision: Decision | null = null
  let reason: string | null = null
  let decisionFrom: "top" | "specific" | null = null
  let reasonFrom: "top" | "specific" | null = null
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
    } else if (event.specificOutput.length === 0 && !event.custom) {
      problems.push(
        `hookSpecificOutput is not supported on ${event.name}; use the top-level fields (continue, ` +
          `stopReason, systemMessage${event.blocking === "decision" ? ", decision, reason" : ""})`
      )
    } else {
      // The event's field table is the one source: a field it does not list is not read (not
      // delivered, not validated) and is named, whatever the field, on every event.
      const reads = (key: string) => event.specificOutput.includes(key)
      const others: Array<string> = []
      for (const [key, value] of Object.entries(specific)) {
        if (key === "hookEventName") continue
        if (!reads(key)) others.push(key)
        else if (!AGGREGATED.has(key)) (extras ??= {})[key] = value
      }
      // A field some event reads is always named; only the count of keys no event knows is bounded.
      // A preset's event whose agent reads no field of it (Qwen Code's Stop) takes the object and names each field
      const why =
        event.specificOutput.length === 0
          ? `${event.name} reads no hookSpecificOutput field here`
          : `${event.name} reads only hookSpecificOutput.${event.specificOutput.join(", ")}`
      const known = others.filter((key) => SPECIFIC_FIELDS.has(key))
      notes.push(...known.map((key) => `${fieldName(key, true)} is ignored: ${why}`))
      notes.push(
        ...unknownKeys(
          others.filter((key) => !SPECIFIC_FIELDS.has(key)),
          true,
          event.specificOutput,
          why
        )
      )
      if (reads("additionalContext")) {
        additionalContext = str("additionalContext", specific["additionalContext"], "hookSpecificOutput.additionalContext")
      }
      if (event.blocking === "permission" && reads("permissionDecision")) {
        const pd = specific["permissionDecision"]
        if (pd !== undefined) {
          if (typeof pd === "string" && (PERMISSION_DECISIONS as ReadonlyArray<string>).includes(pd)) {
            decision = pd as Decision
            decisionFrom = "specific"
          } else problems.push(`hookSpecificOutput.permissionDecision: expected "allow" | "deny" | "ask" | "defer", got ${describe(pd)}`)
        }
      }
      if (event.blocking === "permission" && reads("permissionDecisionReason")) {
        reason = str("permissionDecisionReason", specific["permissionDecisionReason"], "hookSpecificOutput.permissionDecisionReason")
        if (reason !== null) reasonFrom = "specific"
      }
      if ((event.blocking === "permission" || event.blocking === "permission-request") && reads("updatedInput")) {
        const ui = specific["updatedInput"]
        if (ui !== undefined) {
          if (Predicate.isObject(ui)) updatedInput = ui
          else problems.push(`hookSpecificOutput.updatedInput: expected object, got ${describe(ui)}`)
        }
      }
      if (event.blocking === "permission-request" && reads("decision") && specific["decision"] !== undefined) {
        const d = specific["decision"]
        if (!Predicate.isObject(d) || (d["behavior"] !== "allow" && d["behavior"] !== "deny")) {
          problems.push(`hookSpecificOutput.decision: expected {"behavior": "allow" | "deny", ...}, got ${describe(d)}`)
        } else {
          decision = d["behavior"]
          decisionFrom = "specific"
          reason = str("message", d["message"], "hookSpecificOutput.decision.message")
          if (reason !== null) reasonFrom = "specific"
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
        decisionFrom = "top"
        reason = topReason
        reasonFrom = topReason === null ? null : "top"
      }
    } else if (event.blocking === "decision" && topDecision === "block") {
      decision = "block"
      decisionFrom = "top"
      reason = topReason
      reasonFrom = topReason === null ? null : "top"
    }
  }
  if ((decision === "block" || (event.blocking === "permission" && decision !== null)) && reason === null && topReason !== null) {
    reason = topReason
    reasonFrom = "top"
  }
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
      notes,
      output,
      decisionFrom,
      reasonFrom
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

/**
 * How an agent's hooks answer, where it differs from Claude Code's: a preset whose events carry
 * an `outputDialect` supplies the reader of that dialect (and, if its hooks' `hookSpecificOutput`
 * combine other than by a shallow merge, how they do). The core knows no dialect but Claude Code's.
 *
 * @internal
 */
export interface OutputReader {
  /**
   * Reads a run that started and finished in time. `claude` reads a run by Claude Code's rules
   * (with notes to keep in its messages), for a dialect that only translates its answer first.
   */
  readonly interpret: (event: HookEventSpec, run: RawRun, claude: (run: RawRun, notes: ReadonlyArray<string>) => HookVerdict) => HookVerdict
  /** How the `hookSpecificOutput` of an event's hooks combine, in hook order. Default: a shallow merge. */
  readonly mergeSpecific?:
    | ((earlier: Record<string, unknown> | null, later: Record<string, unknown>) => Record<string, unknown>)
    | undefined
}

/** A shallow merge, a later hook's keys winning: Claude Code's way, and any dialect's that says no other. @internal */
export const shallowMerge = (earlier: Record<string, unknown> | null, later: Record<string, unknown>): Record<string, unknown> => ({
  ...(earlier ?? {}),
  ...later
})

/**
 * The reading of one run, given the dialects' readers: a run that could not start or timed out
 * decides nothing in every dialect; the rest is the event's dialect's reader, else Claude Code's rules.
 *
 * @internal
 */
export const interpretWith =
  (readers: Readonly<Record<string, OutputReader>>) =>
  (event: HookEventSpec, run: RawRun): HookVerdict => {
    if (run.spawnError !== undefined) {
      return { ...none, status: "non-blocking-error", messages: [`could not start: ${run.spawnError}`] }
    }
    if (run.timedOut) {
      return { ...none, status: "cancelled", messages: [`timed out after ${run.timeout} s; output discarded, no decision`] }
    }
    const reader = Object.hasOwn(readers, event.outputDialect) ? readers[event.outputDialect] : undefined
    return reader === undefined
      ? claude(event, run, [])
      : reader.interpret(event, run, (translated, notes) => claude(event, translated, notes))
  }

/**
 * The fields of a valid answer that the verdict did not use, one line each naming the field and why:
 * what Claude Code ignores stays ignored, but never unseen. Read off the final verdict (after exit 2
 * has had its say), so a field is named exactly when leaving it out would change nothing.
 */
const unused = (event: HookEventSpec, fields: Fields, verdict: HookVerdict): Array<string> => {
  const { output } = fields
  const on = `is ignored on ${event.name}`
  const lines: Array<string> = []
  const decided = verdict.decision
  // exit 2 (or a dialect's non-zero exit) replaced the JSON decision
  const overridden = decided !== fields.decision ? `: the exit code ${decided === "deny" ? "denies" : "blocks"}` : null
  if (output["decision"] !== undefined) {
    const why =
      fields.decisionFrom === "top"
        ? overridden
        : event.blocking === "none"
          ? ": it cannot block"
          : event.blocking === "permission-request"
            ? `: it takes hookSpecificOutput.decision {"behavior": "allow" | "deny"}`
            : event.blocking === "permission"
              ? ": hookSpecificOutput.permissionDecision decides"
              : output["decision"] === "approve"
                ? `: only "block" decides there`
                : ": the call was not blocked by it"
    if (why !== null) lines.push(`"decision" ${on}${why}`)
  }
  if (output["reason"] !== undefined && !(fields.reasonFrom === "top" && decided !== null)) {
    const why =
      event.blocking === "none"
        ? "it cannot block"
        : event.blocking === "permission-request"
          ? "it takes hookSpecificOutput.decision.message"
          : fields.reasonFrom === "specific"
            ? `the reason is hookSpecificOutput.${event.blocking === "permission" ? "permissionDecisionReason" : "decision.message"}`
            : event.blocking === "permission"
              ? "it goes with a decision, and the hook made none"
              : `it goes with "decision": "block", and the hook did not block`
    lines.push(`"reason" ${on}: ${why}`)
  }
  if (output["systemMessage"] !== undefined && !event.systemMessageShown) {
    lines.push(`"systemMessage" ${on}: ${event.name} shows nothing of a hook's JSON answer (only its terminalSequence)`)
  }
  if (output["continue"] === false && !event.continueHonored) lines.push(`"continue": false ${on}: it cannot stop the agent there`)
  if (output["stopReason"] !== undefined && (output["continue"] !== false || !event.continueHonored)) {
    lines.push(
      `"stopReason" ${on}: ` +
        `${output["continue"] !== false ? `it goes with "continue": false` : `"continue": false cannot stop the agent there`}`
    )
  }
  const specific = output["hookSpecificOutput"]
  if (Predicate.isObject(specific)) {
    const where = (key: string) => `hookSpecificOutput.${key} ${on}`
    const permission = event.blocking === "permission"
    // A field the event's table does not list was named when the answer was read; only listed ones are left.
    const given = (key: string) => specific[key] !== undefined && event.specificOutput.includes(key)
    if (given("permissionDecision")) {
      if (!permission) lines.push(`${where("permissionDecision")}: it takes no permission decision`)
      else if (fields.decisionFrom === "specific" && overridden !== null) lines.push(`${where("permissionDecision")}${overridden}`)
    }
    if (given("permissionDecisionReason") && !(permission && fields.reasonFrom === "specific" && decided !== null)) {
      lines.push(
        `${where("permissionDecisionReason")}: ` +
          (permission
            ? "it is the reason of hookSpecificOutput.permissionDecision, which the hook did not give"
            : "it takes no permission decision")
      )
    }
    if (given("decision") && event.blocking !== "permission-request") {
      lines.push(
        `${where("decision")}: only PermissionRequest takes a decision object${event.blocking === "none" ? ", and it cannot block" : ""}`
      )
    }
    const takesInput = permission || event.blocking === "permission-request"
    const replaced =
      event.blocking === "permission-request" &&
      given("decision") &&
      Predicate.isObject(specific["decision"]) &&
      specific["decision"]["updatedInput"] !== undefined
    const denied = ": the call is denied, so its input is not changed"
    if (given("updatedInput")) {
      if (!takesInput) lines.push(`${where("updatedInput")}: it takes no updatedInput`)
      else if (replaced) lines.push(`${where("updatedInput")}: hookSpecificOutput.decision.updatedInput replaces it`)
      else if (decided === "deny") lines.push(`${where("updatedInput")}${denied}`)
    }
    if (replaced && decided === "deny") lines.push(`${where("decision.updatedInput")}${denied}`)
  }
  return lines
}

/** Claude Code's rules for one run that started and finished in time. */
const claude = (event: HookEventSpec, run: RawRun, notes: ReadonlyArray<string>): HookVerdict => {
  // What the event ignores is in the messages where it was found, and each line on its own for onWarning.
  const ignored: Array<string> = [...notes]
  const messages: Array<string> = [...notes]
  const found: { fields?: Fields } = {}
  const verdict = readRun(event, run, messages, ignored, found)
  // The fields the verdict did not use go first: the last message stays the one that says how the hook ended.
  const dropped = found.fields === undefined ? [] : unused(event, found.fields, verdict)
  ignored.push(...dropped)
  if (ignored.length === 0) return verdict
  return { ...verdict, messages: [...dropped, ...messages], ignored }
}

/**
 * Claude Code's rules for one run: the verdict; `messages` collects why, `ignored` what the event
 * ignores, `found` the answer's fields when it had a valid one.
 */
const readRun = (
  event: HookEventSpec,
  run: RawRun,
  messages: Array<string>,
  ignored: Array<string>,
  found: { fields?: Fields }
): HookVerdict => {
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
        `stdout looks like a JSON object but is not valid JSON ` +
          `(${error instanceof Error ? error.message : String(error)}); treated as plain text`
      )
    }
    if (Predicate.isObject(parsed)) {
      const validation = validate(event, parsed)
      if (validation._tag === "valid") {
        fields = validation.fields
        found.fields = fields
        messages.push(...fields.notes)
        ignored.push(...fields.notes)
      } else {
        invalidJson = true
        messages.push(...validation.problems.map((problem) => `Hook JSON output validation failed — ${problem}`))
      }
    }
  }
  const stderr = run.stderr.trimEnd()
  const plainContext =
    fields === undefined && !invalidJson && event.plainStdoutToContext && run.exitCode === 0 && run.stdout.trim() !== ""
      ? [run.stdout.trim()]
      : []
  const fromFields =
    fields === undefined
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
          reasonFrom: fields.reason === null ? null : ("json" as const),
          messages
        }

  if (run.exitCode === 2 || (event.nonZeroBlocks && run.exitCode !== null && run.exitCode !== 0)) {
    const decision = exit2Decision(event)
    if (decision === null) {
      // An exit 2 the event cannot act on is an ignored answer too.
      const line =
        event.blocking === "none"
          ? `exit code 2: ${event.name} cannot block${stderr === "" ? "" : `; stderr: ${firstLine(stderr)}`}`
          : `exit code 2 is ignored on ${event.name}; use the JSON decision`
      messages.push(line)
      ignored.push(line)
    }
    const useStderr = decision !== null && fromFields.reason === null && stderr !== ""
    // Exit 2 blocks Elicitation without reading hookSpecificOutput: each field it carried is named.
    const dropSpecific = decision !== null && EXIT2_IGNORES_SPECIFIC.has(event.behavesAs) && fromFields.hookSpecificOutput !== null
    if (dropSpecific) {
      const lines = Object.keys(fromFields.hookSpecificOutput ?? {}).map(
        (key) => `${fieldName(key, true)} is ignored on ${event.name}: the exit code ${decision === "deny" ? "denies" : "blocks"}`
      )
      messages.unshift(...lines)
      ignored.push(...lines)
    }
    return {
      ...fromFields,
      ...(dropSpecific ? { hookSpecificOutput: null } : {}),
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
    return {
      ...fromFields,
      status: "blocking-error",
      decision: "block",
      reason: stderr === "" ? `WorktreeCreate hook exited ${run.exitCode}` : stderr,
      reasonFrom: "stderr",
      messages
    }
  }
  if (run.exitCode === 0) {
    if (invalidJson) return { ...none, status: "non-blocking-error", messages }
    if (event.behavesAs === "WorktreeCreate" && fields === undefined) {
      // The last non-empty line of stdout, ANSI escapes stripped, is the worktree path.
      const lines = run.stdout
        .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
      const path = lines[lines.length - 1]
      return path === undefined ? fromFields : { ...fromFields, hookSpecificOutput: { worktreePath: path } }
    }
    return {
      ...fromFields,
      additionalContext: [...fromFields.additionalContext, ...plainContext],
      ...(unreadable ? { answerDropped: true } : {})
    }
  }
  // Any other exit code, or killed by a signal we did not send.
  if (fields !== undefined) return fromFields
  const how =
    run.exitCode === null ? `terminated by signal ${run.signal ?? "unknown"}` : `Failed with non-blocking status code ${run.exitCode}`
  messages.push(`${how}: ${stderr === "" ? "No stderr output" : firstLine(stderr)}`)
  return { ...none, status: "non-blocking-error", messages }
}
