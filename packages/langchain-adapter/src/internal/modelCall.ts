/**
 * Model calls: the host turn events (`BeforeModel`, `AfterModel`), what `async` hooks said since
 * the session's last model call, the end of a run a hook stopped (`continue: false`), and the
 * PreToolUse decisions of the model's tool calls.
 */
import { randomUUID } from "node:crypto"
import { HumanMessage } from "@langchain/core/messages"
import type { AIMessage, BaseMessage } from "@langchain/core/messages"
import type { Command } from "@langchain/langgraph"
import type { DispatchOutcome } from "../HookDispatcher.ts"
import { dispatch } from "./dispatch.ts"
import { contextMessage, hookAIMessage, messageText, messageType, promptId, reminder, toolCallsOf } from "./messages.ts"
import { decideTurn, quietToolOf } from "./preToolUse.ts"
import { common, lazyInfoOf, transcriptOf } from "./session.ts"
import { checkReload } from "./state.ts"
import type { State } from "./state.ts"
import { remember } from "./util.ts"

/** What async hooks said that the model has not seen yet: at most this many notes per session, and this many sessions. */
const LATE_NOTES = 100
const LATE_SESSIONS = 1000

export interface ModelRequest {
  state: Record<string, unknown>
  runtime: unknown
  messages: Array<BaseMessage>
}
export type ModelHandler = (request: never) => Promise<AIMessage> | AIMessage

/** Keeps what finished `async` hooks said for the model, per session (bounded). */
const takeLateNotes = async (s: State) => {
  /** Notes dropped per session in this take: said once each, never lost unseen. */
  const dropped = new Map<string, number>()
  for (const result of await s.engine.takeAsyncResults()) {
    const notes = [
      ...result.toModel.map((text) => reminder(`${result.event} hook additional context (async)`, text)),
      ...(result.rewake && result.rewakeMessage !== null ? [reminder(`${result.event} hook feedback (async)`, result.rewakeMessage)] : [])
    ]
    if (notes.length === 0) continue
    const key = result.sessionId ?? ""
    const kept = [...(s.lateNotes.get(key) ?? []), ...notes]
    // At most the last LATE_NOTES per session, and LATE_SESSIONS sessions: a session that never
    // calls its model again does not grow.
    if (kept.length > LATE_NOTES) dropped.set(key, (dropped.get(key) ?? 0) + kept.length - LATE_NOTES)
    if (!s.lateNotes.has(key) && s.lateNotes.size >= LATE_SESSIONS) {
      const oldest = s.lateNotes.keys().next().value!
      s.warn(
        `the notes of async hooks for session ${JSON.stringify(oldest)} were dropped: ` +
          `more than ${LATE_SESSIONS} sessions were waiting for their next model call`
      )
    }
    remember(s.lateNotes, key, kept.length > LATE_NOTES ? kept.slice(-LATE_NOTES) : kept, LATE_SESSIONS)
  }
  for (const [key, count] of dropped) {
    s.warn(
      `async hooks said more for session ${JSON.stringify(key)} than its next model call takes: ` +
        `its ${count} oldest notes were dropped (the last ${LATE_NOTES} are kept)`
    )
  }
}

/** The model call's message of what `async` hooks said since the session's last one, if any. */
const asyncContext = async (s: State, sessionId: string): Promise<HumanMessage | undefined> => {
  if (s.engine.asyncHooks()) await takeLateNotes(s)
  if (s.lateNotes.size === 0) return undefined
  const notes = [...(s.lateNotes.get(sessionId) ?? []), ...(s.lateNotes.get("") ?? [])]
  s.lateNotes.delete(sessionId)
  s.lateNotes.delete("")
  if (notes.length === 0) return undefined
  return new HumanMessage({ id: randomUUID(), content: notes.join("\n"), additional_kwargs: { agent_hooks: { event: "async" } } })
}

/**
 * A model call the middleware has nothing to do before: no hook runs before or after a model
 * call, no hook ended the run, and the transcript is kept only for hooks that run (no agent
 * nodes). Its answer is passed on as it is unless a PreToolUse hook can match one of its calls.
 */
const quietModelCall = (s: State): boolean =>
  !s.agentNodes &&
  s.halts.size === 0 &&
  s.lateNotes.size === 0 &&
  !s.engine.asyncHooks() &&
  (s.beforeModelEvent === undefined || !s.engine.mayHaveHooks(s.beforeModelEvent)) &&
  (s.afterModelEvent === undefined || !s.engine.mayHaveHooks(s.afterModelEvent))

const quietTurn = async (s: State, request: ModelRequest, handler: ModelHandler): Promise<AIMessage | Command> => {
  const response = await handler(request as never)
  for (const call of toolCallsOf(response)) {
    if (!quietToolOf(s, call.name).pre) {
      const info = lazyInfoOf(s, request.state, request.runtime)
      return decideTurn(s, info, request.state["messages"] as Array<BaseMessage> | undefined, response)
    }
  }
  return response
}

/** `wrapModelCall` of a middleware without agent nodes: a quiet turn when there is nothing to do around it. */
export const wrapModelCall = (s: State, request: ModelRequest, handler: ModelHandler): Promise<AIMessage | Command> => {
  checkReload(s)
  return quietModelCall(s) ? quietTurn(s, request, handler) : modelCall(s, request, handler)
}

/** The answer that ends the run in place of the model's (it has no tool calls), and tells afterAgent that a hook ended it. */
const stop = (event: string, outcome: DispatchOutcome) =>
  hookAIMessage(outcome.stopReason ?? outcome.reason ?? `Stopped by a ${event} hook`, event)

export const modelCall = async (s: State, request: ModelRequest, handler: ModelHandler): Promise<AIMessage | Command> => {
  const info = lazyInfoOf(s, request.state, request.runtime)
  const messages = request.state["messages"] as Array<BaseMessage> | undefined
  const seen = () => transcriptOf(s, info()).sync(messages)
  // With agent nodes the transcript is complete at the end of a run (also one that throws); else
  // it is written only for a hook that runs.
  if (s.agentNodes) seen()
  // Answering in place of the model (no tool calls) ends the loop without a graph node of our own.
  const halt = s.halts.size === 0 ? null : (s.halts.get(promptId(messages) ?? "") ?? null)
  if (halt !== null) return hookAIMessage(halt, "continue")
  let effective = request
  // What async hooks said since the session's last model call (Claude Code gives it on the next turn).
  const late = await asyncContext(s, info().sessionId)
  if (late !== undefined) effective = { ...request, messages: [...request.messages, late] }
  const before = s.beforeModelEvent
  if (before !== undefined && s.engine.mayHaveHooks(before)) {
    const turn = (messages ?? []).filter((message) => messageType(message) === "ai").length + 1
    const outcome = await dispatch(s, before, { ...common(s, info()), turn, message_count: messages?.length ?? 0 }, seen)
    if (!outcome.continue || outcome.blocked) return stop(before, outcome)
    if (outcome.additionalContext.length > 0) {
      effective = { ...effective, messages: [...effective.messages, contextMessage(before, outcome.additionalContext)] }
    }
  }
  const response = await handler(effective as never)
  const after = s.afterModelEvent
  if (after !== undefined && s.engine.mayHaveHooks(after)) {
    const outcome = await dispatch(
      s,
      after,
      {
        ...common(s, info()),
        last_assistant_message: messageText(response),
        tool_calls: toolCallsOf(response).map((call) => ({
          tool_name: s.toolName(call.name),
          tool_input: s.tools(call.name).toInput(call.args),
          tool_use_id: call.id
        }))
      },
      seen
    )
    // The response is replaced: its tool calls do not run.
    if (!outcome.continue || outcome.blocked) return stop(after, outcome)
  }
  return decideTurn(s, info, messages, response)
}
