/**
 * How the hooks of Kiro, Windsurf, Cline and Antigravity CLI are read: each agent's own exit codes
 * and output, not Claude Code's.
 *
 * - `exit-code` (Kiro, Windsurf): no JSON is read. Exit 0: stdout is context where the event says so
 *   (Kiro), else nothing. Exit 2 blocks where the event can block (Kiro's and Windsurf's pre hooks);
 *   any other exit is a warning and the action goes on (unless the engine fails closed).
 * - `cline`: stdout on exit 0 is `{cancel, contextModification, errorMessage}`. `cancel: true`
 *   blocks where the event can block, else stops the task; any non-zero exit is an error, never a
 *   block (unless the engine fails closed).
 * - `antigravity` (documented): stdout on exit 0 is `{"allowTool": false, "denyReason": "..."}` to
 *   block a PreToolUse; `antigravity-1.0` (observed on agy 1.0 builds): `{"decision": "deny",
 *   "reason": "..."}`. A non-zero exit is an error, never a block (the exit codes are not documented).
 */
import * as Predicate from "effect/Predicate"
import type { HookEventSpec } from "../../HookEvent.ts"
import type { HookVerdict, RawRun } from "../../Verdict.ts"
import { none, type OutputReader } from "../output.ts"

/** @internal */
export type PeerDialect = "exit-code" | "cline" | "antigravity" | "antigravity-1.0"

/** @internal */
export const DIALECTS: ReadonlyArray<PeerDialect> = ["exit-code", "cline", "antigravity", "antigravity-1.0"]

/** @internal */
export const isPeerDialect = (dialect: string): dialect is PeerDialect => (DIALECTS as ReadonlyArray<string>).includes(dialect)

const str = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null)

const blockVerdict = (event: HookEventSpec, reason: string | null, from: "json" | "stderr", note: string): HookVerdict => ({
  ...none,
  status: "blocking-error",
  decision: event.blocking === "permission" ? "deny" : "block",
  reason,
  reasonFrom: reason === null ? null : from,
  messages: [note]
})

/** A hook that failed: a warning, the action goes on (the engine's failClosed / onFailure "block" turn it into a block). */
const failed = (run: RawRun, why: string): HookVerdict => {
  const stderr = run.stderr.trim()
  const how = run.exitCode === null ? `terminated by signal ${run.signal ?? "unknown"}` : `exit code ${run.exitCode}`
  return {
    ...none,
    status: "non-blocking-error",
    messages: [`${how} (${why}): ${stderr === "" ? "no stderr output" : stderr}`]
  }
}

/** The agent's JSON answer on stdout: an object, `undefined` for nothing, or a problem. */
const jsonAnswer = (stdout: string): Record<string, unknown> | undefined | { readonly problem: string } => {
  const text = stdout.trim()
  if (text === "") return undefined
  try {
    const value: unknown = JSON.parse(text)
    return Predicate.isObject(value) && !Array.isArray(value) ? value : { problem: `stdout is not a JSON object` }
  } catch (error) {
    return { problem: `stdout is not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
}

/** An answer the event ignores: no decision, but one line naming what was dropped (in messages and for onWarning). */
const ignoring = (line: string): HookVerdict => ({ ...none, messages: [line], ignored: [line] })

const isProblem = (value: unknown): value is { readonly problem: string } => Predicate.isObject(value) && "problem" in value

const exitCode = (event: HookEventSpec, run: RawRun): HookVerdict => {
  const canBlock = event.blocking !== "none"
  if (run.exitCode === 0) {
    const stdout = run.stdout.trim()
    return { ...none, additionalContext: event.plainStdoutToContext && stdout !== "" ? [stdout] : [] }
  }
  if (run.exitCode === 2 && canBlock) return blockVerdict(event, str(run.stderr.trim()), "stderr", "exit code 2")
  return failed(run, run.exitCode === 2 ? `${event.name} cannot block; a warning` : "a warning; only exit 2 blocks")
}

const cline = (event: HookEventSpec, run: RawRun): HookVerdict => {
  if (run.exitCode !== 0) return failed(run, "an error in Cline, not a block")
  const answer = jsonAnswer(run.stdout)
  if (answer === undefined) return none
  if (isProblem(answer)) {
    // Cline cannot read it: the hook failed (visible; failClosed blocks)
    return {
      ...none,
      status: "non-blocking-error",
      messages: [`${answer.problem}; Cline expects {"cancel": boolean, "contextModification"?: string, "errorMessage"?: string}`]
    }
  }
  const messages: Array<string> = []
  for (const key of Object.keys(answer).slice(0, 10)) {
    if (key !== "cancel" && key !== "contextModification" && key !== "errorMessage")
      messages.push(`unknown key ${JSON.stringify(key.slice(0, 80))} in Cline's answer; ignored`)
  }
  // Each unknown key is an ignored part of the answer: said through onWarning too.
  const ignored = [...messages]
  if (answer["cancel"] !== undefined && typeof answer["cancel"] !== "boolean") {
    return { ...none, status: "non-blocking-error", messages: [`"cancel" must be a boolean, got ${JSON.stringify(answer["cancel"])}`] }
  }
  const context = str(answer["contextModification"])
  const reason = str(answer["errorMessage"])
  if (answer["cancel"] === true) {
    if (event.blocking !== "none") {
      return {
        ...blockVerdict(event, reason, "json", "cancel: true"),
        additionalContext: context === null ? [] : [context],
        messages,
        ignored
      }
    }
    // cancel on an event that cannot block stops the task
    return {
      ...none,
      continue: false,
      stopReason: reason,
      additionalContext: context === null ? [] : [context],
      messages: [...messages, "cancel: true stops the task"],
      ignored
    }
  }
  return { ...none, additionalContext: context === null ? [] : [context], messages, ignored }
}

const antigravity = (event: HookEventSpec, run: RawRun, observed: boolean): HookVerdict => {
  if (run.exitCode !== 0) return failed(run, "an error, not a block")
  const answer = jsonAnswer(run.stdout)
  if (answer === undefined) return none
  if (isProblem(answer)) return { ...none, status: "non-blocking-error", messages: [`${answer.problem}; the answer could not be read`] }
  const canBlock = event.blocking !== "none"
  if (observed) {
    const decision = answer["decision"]
    if ((decision === "deny" || decision === "block") && canBlock)
      return blockVerdict(event, str(answer["reason"]), "json", `decision: ${decision}`)
    if (decision === "deny" || decision === "block")
      return ignoring(`"decision": "${decision}" is ignored on ${event.name}: it cannot block`)
    if (decision !== undefined && decision !== "allow" && decision !== "deny" && decision !== "block") {
      return { ...none, status: "non-blocking-error", messages: [`"decision" must be "allow" or "deny", got ${JSON.stringify(decision)}`] }
    }
    // The documented contract's answer, which the 1.0 builds do not read
    if (answer["allowTool"] !== undefined && decision === undefined) {
      return ignoring(`"allowTool" is ignored: Antigravity 1.0 reads {"decision": "deny", "reason": "..."} (or use the antigravity preset)`)
    }
    return none
  }
  const allow = answer["allowTool"]
  if (allow === false && canBlock) return blockVerdict(event, str(answer["denyReason"]), "json", "allowTool: false")
  if (allow === false) return ignoring(`"allowTool": false is ignored on ${event.name}: it cannot block`)
  if (allow !== undefined && typeof allow !== "boolean") {
    return { ...none, status: "non-blocking-error", messages: [`"allowTool" must be a boolean, got ${JSON.stringify(allow)}`] }
  }
  if (answer["decision"] !== undefined && answer["allowTool"] === undefined) {
    // Gemini CLI's answer: agy's documented contract replaced it with allowTool / denyReason
    return {
      ...none,
      status: "non-blocking-error",
      messages: [
        `"decision" is Gemini CLI's answer, which Antigravity's documented contract does not read: ` +
          `write {"allowTool": false, "denyReason": "..."} (or use the antigravity-1.0 preset)`
      ]
    }
  }
  return none
}

/** @internal */
export const interpret = (event: HookEventSpec, run: RawRun, dialect: PeerDialect): HookVerdict =>
  dialect === "exit-code"
    ? exitCode(event, run)
    : dialect === "cline"
      ? cline(event, run)
      : antigravity(event, run, dialect === "antigravity-1.0")

/** The readers of Kiro's, Windsurf's, Cline's and Antigravity's dialects. @internal */
export const readers: Readonly<Record<PeerDialect, OutputReader>> = {
  "exit-code": { interpret: (event, run) => interpret(event, run, "exit-code") },
  cline: { interpret: (event, run) => interpret(event, run, "cline") },
  antigravity: { interpret: (event, run) => interpret(event, run, "antigravity") },
  "antigravity-1.0": { interpret: (event, run) => interpret(event, run, "antigravity-1.0") }
}
