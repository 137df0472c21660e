/**
 * PreToolUse: decided as soon as the model asks for its tools (in the model call), so that all the
 * asks of one turn go to a human together; the tool calls apply the decisions.
 */
import { randomUUID } from "node:crypto"
import type { AIMessage, BaseMessage } from "@langchain/core/messages"
import type { DispatchOutcome } from "../HookDispatcher.ts"
import { dispatch, quick } from "./dispatch.ts"
import { messageType, toolCallsOf } from "./messages.ts"
import type { ToolCallLike } from "./messages.ts"
import { common, hasCheckpointer, transcriptOf } from "./session.ts"
import type { CallRecord, QuietTool, RunInfo, State } from "./state.ts"
import { isRecord, remember } from "./util.ts"

/** The hooks asked a human about the call (`ask`, or `defer`). */
export const asks = (record: CallRecord) => !record.blocked && (record.decision === "ask" || record.decision === "defer")

/**
 * The PreToolUse decisions of a model turn that asks a human, in its `AIMessage`
 * (`additional_kwargs.agent_hooks.calls`): committed (and checkpointed) with the message, so that
 * after the interrupt and a resume, in this process or another, the tool calls read them and the
 * hooks do not run again for a decided call.
 */
export const turnRecords = (message: BaseMessage | undefined): Readonly<Record<string, CallRecord>> | undefined => {
  const calls = (message?.additional_kwargs?.["agent_hooks"] as { calls?: unknown } | undefined)?.calls
  return isRecord(calls) ? (calls as Record<string, CallRecord>) : undefined
}

/** The AI message of the state that asked for tool call `id` (the last one that has it). */
export const turnOf = (messages: ReadonlyArray<BaseMessage> | undefined, id: string): BaseMessage | undefined => {
  if (messages === undefined) return undefined
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (messageType(message) === "ai" && toolCallsOf(message).some((call) => call.id === id)) return message
  }
  return undefined
}

/** The record of a call no PreToolUse hook ran for when the model asked for it (taken once). */
export const quietRecord = (s: State, id: string): CallRecord | undefined => {
  const input = s.quietCalls.get(id)
  if (input === undefined) return undefined
  s.quietCalls.delete(id)
  return { input, blocked: false, decision: null, reason: null, updatedInput: null, additionalContext: [], halt: null, quiet: true }
}

/**
 * Whether a hook of the tool events can match the tool `name` (a tool event's matcher reads the
 * tool name alone). Kept per tool while the engine's hooked events stay the
 * same object (a reload makes a new one); worked out every time for an engine that does not say
 * (a layer, a watching engine) or a host that wants every outcome (`onOutcome`).
 */
export const quietToolOf = (s: State, name: string): QuietTool => {
  const hookedNow = s.engine.hooked()
  const cached = hookedNow !== undefined && s.options.onOutcome === undefined
  if (cached && hookedNow !== s.quietFor) {
    s.quietTools.clear()
    s.quietFor = hookedNow
  }
  const known = cached ? s.quietTools.get(name) : undefined
  if (known !== undefined) return known
  const probe = { tool_name: s.toolName(name) }
  const pre = quick(s, "PreToolUse", probe) !== undefined
  const quiet = { pre, all: pre && quick(s, "PostToolUse", probe) !== undefined && quick(s, "PostToolUseFailure", probe) !== undefined }
  if (cached && s.quietTools.size < 256) s.quietTools.set(name, quiet)
  return quiet
}

const recordOf = (toolInput: Record<string, unknown>, pre: DispatchOutcome): CallRecord => ({
  input: JSON.stringify(toolInput),
  blocked: pre.blocked,
  decision: pre.decision,
  reason: pre.reason,
  updatedInput: pre.updatedInput,
  additionalContext: pre.additionalContext,
  halt: pre.continue ? null : (pre.stopReason ?? "Stopped by a PreToolUse hook"),
  // The engine says no hook ran (none matched) and nothing decided (a permissions rule decides with no hook): nothing to record in the state.
  ...(pre.hooks !== undefined && pre.hooks.length === 0 && (pre.asyncHooks ?? []).length === 0 && !pre.blocked && pre.decision === null
    ? { quiet: true }
    : {})
})

/** The PreToolUse hooks' decision about one tool call: at once (no promise) when no PreToolUse hook can match the call's tool. */
export const decide = (s: State, info: () => RunInfo, call: ToolCallLike, seen?: () => void): CallRecord | Promise<CallRecord> => {
  const tool = s.tools(call.name)
  const toolInput = tool.toInput(isRecord(call.args) ? call.args : {})
  const probe = { tool_name: tool.name }
  const fast = quick(s, "PreToolUse", probe)
  if (fast !== undefined) return recordOf(toolInput, fast)
  return dispatch(
    s,
    "PreToolUse",
    () => ({ ...common(s, info()), tool_name: tool.name, tool_input: toolInput, tool_use_id: call.id }),
    seen,
    probe
  ).then((pre) => recordOf(toolInput, pre))
}

/** Notification where the adapter is about to ask a human. */
const notify = async (s: State, info: RunInfo, names: ReadonlyArray<string>) => {
  if (!s.engine.hasHooks("Notification")) return
  await dispatch(s, "Notification", {
    ...common(s, info, false),
    message: `The agent needs your permission to use ${[...new Set(names)].join(", ")}`,
    title: "Permission needed",
    notification_type: "permission_prompt"
  })
}

/** The PreToolUse decisions of a model turn's tool calls, made as soon as the model asks for them. */
export const decideTurn = async (
  s: State,
  info: () => RunInfo,
  messages: Array<BaseMessage> | undefined,
  response: AIMessage
): Promise<AIMessage> => {
  const calls = toolCallsOf(response).filter((call) => typeof call.id === "string" && call.id !== "" && !call.name.startsWith("extract-"))
  if (calls.length === 0 || !s.engine.hasHooks("PreToolUse")) return response
  // The transcript names a message by its id: one the state will assign later would be written twice.
  const seenWithResponse = () => {
    if (typeof response.id !== "string" || response.id === "") response.id = randomUUID()
    transcriptOf(s, info()).sync([...(messages ?? []), response])
  }
  const decisions = calls.map((call) => decide(s, info, call, seenWithResponse))
  // Decided at once when no hook can match: no promise to wait for.
  const records = decisions.every((record) => !(record instanceof Promise))
    ? (decisions as Array<CallRecord>)
    : await Promise.all(decisions)
  if (records.every((record) => record.quiet === true)) {
    // No hook ran for any call of the turn: nothing is written; the tool calls know it from here
    // (a call that never reaches the tools, the run ended first, is forgotten in time).
    for (const [i, call] of calls.entries()) remember(s.quietCalls, call.id!, records[i]!.input)
    return response
  }
  for (const [i, call] of calls.entries()) remember(s.decidedCalls, call.id!, records[i]!)
  const asked = calls.filter((_, i) => asks(records[i]!))
  if (asked.length === 0 || !hasCheckpointer()) return response
  // A human will be asked: the decisions go with the model's message into the checkpoint, so
  // that after the interrupt and a resume (maybe in another process) the hooks do not run again.
  const decided = Object.fromEntries(calls.map((call, i) => [call.id!, records[i]!]))
  const kwargs = { ...response.additional_kwargs, agent_hooks: { event: "PreToolUse", calls: decided } }
  response.additional_kwargs = kwargs
  ;(response as unknown as { lc_kwargs: Record<string, unknown> }).lc_kwargs["additional_kwargs"] = kwargs
  // Notification where the adapter is about to ask a human (once: the model is not called again).
  await notify(
    s,
    info(),
    asked.map((call) => s.toolName(call.name))
  )
  return response
}
