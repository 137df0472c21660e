/**
 * How a Gemini CLI hook's exit code and output are read. Two modes:
 *
 * - `documented` (the default): Gemini CLI's reference docs. Exit 0: stdout is the JSON answer (or
 *   plain text shown as a system message). Exit 2: a block, stderr is the reason. Any other exit:
 *   a warning, the action proceeds (a missing script does not block every tool call). stderr is
 *   never read as JSON. A Claude Code style `hookSpecificOutput.permissionDecision` is honoured,
 *   since users reuse Claude Code hooks.
 * - `source` (`geminiCompat: "source"`): what Gemini CLI's source does. stdout, else stderr, is
 *   parsed as JSON (a JSON string holding the document is unwrapped) at any exit code; exit 1 is a
 *   warning; any other non-zero exit denies with the text as reason; `permissionDecision` is ignored.
 */
import * as Predicate from "effect/Predicate"
import type { HookEventSpec } from "../../../HookEvent.ts"
import type { Decision, HookVerdict, RawRun } from "../../../Verdict.ts"
import { GEMINI_CONTEXT } from "./host.ts"
import { none, type OutputReader } from "../../output.ts"

/** @internal */
export type GeminiCompat = "documented" | "source"

/**
 * Events on which the reference docs support no `decision`, `continue` or `systemMessage`
 * (BeforeToolSelection only edits the tool configuration): those fields do not change the outcome.
 */
const TOOL_CONFIG_ONLY = new Set(["BeforeToolSelection"])

/** Gemini CLI's JSON, or `undefined`: one document, possibly a JSON string holding the document. */
const geminiJson = (text: string): Record<string, unknown> | undefined => {
  if (!text.startsWith("{") && !text.startsWith('"')) return undefined
  try {
    let value: unknown = JSON.parse(text)
    if (typeof value === "string") value = JSON.parse(value)
    return Predicate.isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

const AGGREGATED = new Set(["additionalContext", "tool_input", "hookEventName"])
/** Claude Code's decision fields, read (not passed through) by the documented rules. */
const CLAUDE_DECISION = new Set([...AGGREGATED, "permissionDecision", "permissionDecisionReason"])

const passThrough = (specific: Record<string, unknown>, compat: GeminiCompat): Record<string, unknown> | null => {
  const read = compat === "documented" ? CLAUDE_DECISION : AGGREGATED
  const rest = Object.fromEntries(Object.entries(specific).filter(([key]) => !read.has(key)))
  return Object.keys(rest).length === 0 ? null : rest
}

const str = (value: unknown): string | null => (typeof value === "string" ? value : null)

/** A JSON answer, read the same way in both modes (but for `permissionDecision`, honoured when documented). */
const fromJson = (event: HookEventSpec, json: Record<string, unknown>, compat: GeminiCompat): HookVerdict => {
  const canBlock = event.blocking !== "none"
  const blockDecision: Decision | null = !canBlock ? null : event.blocking === "decision" ? "block" : "deny"
  const specific = Predicate.isObject(json["hookSpecificOutput"]) ? json["hookSpecificOutput"] : undefined
  const word = (raw: unknown): Decision | null =>
    raw === "deny" || raw === "block"
      ? blockDecision
      : raw === "ask" && event.blocking === "permission"
        ? "ask"
        : (raw === "allow" || raw === "approve") && event.blocking === "permission"
          ? "allow"
          : null
  let decision = word(json["decision"])
  let reason = str(json["reason"])
  // A Claude Code hook answers with hookSpecificOutput.permissionDecision; the documented engine honours it.
  if (compat === "documented" && json["decision"] === undefined && specific !== undefined && event.blocking === "permission") {
    const claude = specific["permissionDecision"]
    if (claude === "deny" || claude === "ask" || claude === "allow") {
      decision = word(claude)
      reason = str(specific["permissionDecisionReason"]) ?? reason
    }
  }
  // Gemini CLI adds a hook's additionalContext on AfterTool, BeforeAgent and SessionStart only, and takes
  // tool_input only where a tool call can be rewritten (BeforeTool); elsewhere each is named, not delivered.
  const readsContext = GEMINI_CONTEXT.has(event.behavesAs)
  const context = specific === undefined || !readsContext ? null : str(specific["additionalContext"])
  const rewrites = event.blocking === "permission"
  const toolInput = specific !== undefined && rewrites && Predicate.isObject(specific["tool_input"]) ? specific["tool_input"] : null
  const configOnly = compat === "documented" && TOOL_CONFIG_ONLY.has(event.name)
  const stops = !configOnly && json["continue"] === false
  // What the answer says that the event drops: one line each, in messages and for onWarning.
  const ignored = [
    ...(configOnly && (json["decision"] !== undefined || json["continue"] !== undefined || json["systemMessage"] !== undefined)
      ? [`${event.name} supports no decision, continue or systemMessage; ignored`]
      : !configOnly && decision === null && (json["decision"] === "deny" || json["decision"] === "block")
        ? [`"decision": "${json["decision"]}" is ignored on ${event.name}: it cannot block`]
        : []),
    ...(specific !== undefined && !readsContext && specific["additionalContext"] !== undefined
      ? [
          `hookSpecificOutput.additionalContext is ignored on ${event.name}: ` +
            "Gemini CLI reads it on AfterTool, BeforeAgent and SessionStart only"
        ]
      : []),
    ...(specific !== undefined && !rewrites && specific["tool_input"] !== undefined
      ? [`hookSpecificOutput.tool_input is ignored on ${event.name}: Gemini CLI rewrites a tool's input on BeforeTool only`]
      : [])
  ]
  return {
    status: decision === "deny" || decision === "block" ? "blocking-error" : "success",
    decision: configOnly ? null : decision,
    reason: configOnly ? null : reason,
    reasonFrom: configOnly || reason === null ? null : "json",
    continue: !stops,
    stopReason: stops ? str(json["stopReason"]) : null,
    systemMessage: configOnly ? null : str(json["systemMessage"]),
    additionalContext: context === null ? [] : [context],
    updatedInput: toolInput,
    // Everything else (llm_request, llm_response, toolConfig, tailToolCallRequest, clearContext...) goes to the host as it is.
    hookSpecificOutput: specific === undefined ? null : passThrough(specific, compat),
    messages: ignored,
    ...(ignored.length > 0 ? { ignored } : {})
  }
}

/** The documented rules: JSON from stdout on exit 0 only; exit 2 blocks with stderr; any other exit warns. */
const documented = (event: HookEventSpec, run: RawRun): HookVerdict => {
  const stdout = run.stdout.trim()
  const stderr = run.stderr.trim()
  const canBlock = event.blocking !== "none" && !TOOL_CONFIG_ONLY.has(event.name)
  if (run.exitCode === 0) {
    const json = geminiJson(stdout)
    if (json !== undefined) return fromJson(event, json, "documented")
    return { ...none, systemMessage: stdout === "" ? null : stdout }
  }
  if (run.exitCode === 2 && canBlock) {
    // The documented exit 2 reads stderr only: what stdout says is named, not applied
    const dropped = stdout === "" ? [] : [`stdout is ignored on exit 2: Gemini CLI's reason is stderr`]
    return {
      ...none,
      status: "blocking-error",
      decision: event.blocking === "decision" ? "block" : "deny",
      reason: stderr === "" ? null : stderr,
      reasonFrom: stderr === "" ? null : "stderr",
      messages: [...dropped, "exit code 2"],
      ...(dropped.length > 0 ? { ignored: dropped } : {})
    }
  }
  // Exit 1, 3, 127 (a missing script), a signal, or exit 2 where nothing can block: a warning; the action proceeds.
  const how = run.exitCode === null ? `terminated by signal ${run.signal ?? "unknown"}` : `exit code ${run.exitCode}`
  return {
    ...none,
    status: "non-blocking-error",
    systemMessage: stderr === "" ? null : `Warning: ${stderr}`,
    messages: [`${how}${run.exitCode === 2 ? `: ${event.name} cannot block` : ""}: ${stderr === "" ? "no stderr output" : stderr}`]
  }
}

/** The source's rules (peer reference: stdout else stderr parsed at any exit, any code above 1 denies). */
const source = (event: HookEventSpec, run: RawRun): HookVerdict => {
  const text = (run.stdout.trim() !== "" ? run.stdout : run.stderr).trim()
  const canBlock = event.blocking !== "none"
  const json = geminiJson(text)
  if (json !== undefined) return fromJson(event, json, "source")
  if (run.exitCode === 0) return { ...none, decision: null, systemMessage: text === "" ? null : text }
  if (run.exitCode === 1) {
    return {
      ...none,
      status: "non-blocking-error",
      systemMessage: text === "" ? null : `Warning: ${text}`,
      messages: [`exit code 1: ${text || "no output"}`]
    }
  }
  return {
    ...none,
    status: canBlock ? "blocking-error" : "non-blocking-error",
    decision: !canBlock ? null : event.blocking === "decision" ? "block" : "deny",
    reason: text === "" ? null : text,
    reasonFrom: "stderr",
    messages: [
      run.exitCode === null
        ? `terminated by signal ${run.signal ?? "unknown"}`
        : `exit code ${run.exitCode}${canBlock ? "" : `: ${event.name} cannot block`}`
    ]
  }
}

/** @internal */
export const interpret = (event: HookEventSpec, run: RawRun, compat: GeminiCompat): HookVerdict =>
  compat === "source" ? source(event, run) : documented(event, run)

const TOOL_CONFIG_MODE_RANK: Readonly<Record<string, number>> = { NONE: 3, ANY: 2, AUTO: 1 }

/**
 * BeforeToolSelection: allowed function names are the union (sorted); a mode of NONE wins over ANY
 * over AUTO, and under NONE no function is allowed (the list is empty, as Gemini CLI's aggregator
 * makes it: no hook's list survives beside NONE).
 */
const mergeToolConfig = (earlier: unknown, later: unknown): unknown => {
  if (!Predicate.isObject(earlier) || !Predicate.isObject(later)) return later
  const modes = [earlier["mode"], later["mode"]].filter((mode): mode is string => typeof mode === "string")
  const mode = modes.reduce<string | undefined>(
    (best, next) => (best === undefined || (TOOL_CONFIG_MODE_RANK[next] ?? 0) > (TOOL_CONFIG_MODE_RANK[best] ?? 0) ? next : best),
    undefined
  )
  const names = [earlier["allowedFunctionNames"], later["allowedFunctionNames"]].filter(Array.isArray).flat()
  const merged: Record<string, unknown> = { ...earlier, ...later }
  if (mode !== undefined) merged["mode"] = mode
  if (mode === "NONE") merged["allowedFunctionNames"] = []
  else if (names.length > 0) merged["allowedFunctionNames"] = [...new Set(names.filter((name) => typeof name === "string"))].sort()
  return merged
}

/** BeforeModel / AfterModel: a later hook overrides parts of the request (or response), field by field, in hook order. */
const overrideParts = (earlier: unknown, later: unknown): unknown =>
  Predicate.isObject(earlier) && Predicate.isObject(later) ? { ...earlier, ...later } : later

/**
 * How the `hookSpecificOutput` of several Gemini hooks of one event combine, as the reference
 * documents it: `toolConfig` by union and NONE-wins, `llm_request` / `llm_response` field by field in
 * hook order; anything else, the later hook's value.
 *
 * @internal
 */
export const mergeSpecific = (earlier: Record<string, unknown> | null, later: Record<string, unknown>): Record<string, unknown> => {
  if (earlier === null) return later
  const merged: Record<string, unknown> = { ...earlier }
  for (const [key, value] of Object.entries(later)) {
    merged[key] =
      key === "toolConfig"
        ? mergeToolConfig(earlier[key], value)
        : key === "llm_request" || key === "llm_response"
          ? overrideParts(earlier[key], value)
          : value
  }
  return merged
}

/** Gemini CLI's readers: the documented rules (`gemini`) and its source's (`gemini-source`). @internal */
export const readers: Readonly<Record<"gemini" | "gemini-source", OutputReader>> = {
  gemini: { interpret: (event, run) => interpret(event, run, "documented"), mergeSpecific },
  "gemini-source": { interpret: (event, run) => interpret(event, run, "source"), mergeSpecific }
}
