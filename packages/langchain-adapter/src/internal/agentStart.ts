/**
 * The start of a run (`beforeAgent`): SessionStart the first time a session is seen,
 * UserPromptSubmit for the run's prompt, SubagentStart for an agent run from a tool of a hooked
 * agent; and `submitPrompt`, UserPromptSubmit before the run.
 */
import { randomUUID } from "node:crypto"
import { HumanMessage, RemoveMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import type { PromptSubmission } from "../HooksMiddleware.ts"
import { dispatch } from "./dispatch.ts"
import { contextMessage, hookAIMessage, messageText, messageType } from "./messages.ts"
import { common, hasCheckpointer, newMainInfo, onThrow, parentRun, subagentInfo, threadId, transcriptOf } from "./session.ts"
import type { RunInfo, State } from "./state.ts"
import { remember } from "./util.ts"

type Messages = ReadonlyArray<BaseMessage>

/** SessionStart, the first time the session is seen: its context message, if a hook gave one. */
const sessionStart = async (s: State, info: RunInfo, messages: Messages | undefined, prompt: BaseMessage | undefined) => {
  const sessionId = info.sessionId
  if (s.startedSessions.has(sessionId)) return undefined
  s.startedSessions.add(sessionId)
  s.openSessions.set(sessionId, { transcriptPath: info.transcriptPath, perRun: info.perRun })
  const resumed = messages !== undefined && messages.length > (prompt === undefined ? 0 : 1)
  const start = await dispatch(s, "SessionStart", {
    session_id: sessionId,
    transcript_path: info.transcriptPath,
    cwd: s.cwd,
    source: resumed ? "resume" : "startup"
  })
  return start.additionalContext.length > 0 ? contextMessage("SessionStart", start.additionalContext) : undefined
}

/** UserPromptSubmit for the run's prompt (once: a prompt `submitPrompt` let through has its outcome). */
const promptSubmit = async (s: State, info: RunInfo, prompt: BaseMessage) => {
  const submitted = prompt.id === undefined ? undefined : s.submittedPrompts.get(prompt.id)
  if (submitted !== undefined) s.submittedPrompts.delete(prompt.id!)
  return submitted ?? (await dispatch(s, "UserPromptSubmit", { ...common(s, info), prompt: messageText(prompt) }))
}

/** `beforeAgent` of a main agent's run: SessionStart the first time, UserPromptSubmit. */
const startRun = async (s: State, info: RunInfo, messages: Array<BaseMessage> | undefined, madeId: boolean) => {
  const transcript = transcriptOf(s, info, madeId)
  const prompt =
    messages !== undefined && messages.length > 0 && messageType(messages[messages.length - 1]!) === "human"
      ? messages[messages.length - 1]!
      : undefined
  // The prompt reaches the transcript only once UserPromptSubmit let it through.
  transcript.sync(prompt === undefined ? messages : messages!.slice(0, -1))
  const sessionContext = await sessionStart(s, info, messages, prompt)
  // A run without thread is known by its first message: the one it has after this update.
  const update = <U extends { readonly messages?: Messages }>(u: U): U | undefined => {
    if (madeId) {
      const removed = new Set<string | undefined>((u.messages ?? []).filter((m) => RemoveMessage.isInstance(m)).map((m) => m.id))
      const first = (messages ?? []).find((m) => !removed.has(m.id)) ?? (u.messages ?? []).find((m) => !RemoveMessage.isInstance(m))
      if (first?.id !== undefined) remember(s.runSessions, first.id, info.sessionId)
    }
    return Object.keys(u).length === 0 ? undefined : u
  }
  if (prompt === undefined) return update(sessionContext === undefined ? {} : { messages: [sessionContext] })

  const outcome = await promptSubmit(s, info, prompt)
  if (outcome.blocked || !outcome.continue) {
    const reason = outcome.blocked
      ? `Prompt blocked by a UserPromptSubmit hook: ${outcome.reason ?? "no reason given"}`
      : (outcome.stopReason ?? "Stopped by a UserPromptSubmit hook")
    // A blocked prompt may hold a secret: it leaves the state (and so every later checkpoint) and
    // is never written to the transcript.
    const removed = prompt.id === undefined ? [] : [new RemoveMessage({ id: prompt.id })]
    return update({ messages: [...removed, hookAIMessage(reason, "UserPromptSubmit")], jumpTo: "end" as const })
  }
  const promptContext = outcome.additionalContext.length > 0 ? [contextMessage("UserPromptSubmit", outcome.additionalContext)] : []
  if (sessionContext === undefined || prompt.id === undefined) {
    const added = [...(sessionContext === undefined ? [] : [sessionContext]), ...promptContext]
    return update(added.length > 0 ? { messages: added } : {})
  }
  // SessionStart context goes before the session's first prompt, as in Claude Code: the prompt
  // moves after it (a new id; the messages reducer cannot insert before a message).
  const moved = new HumanMessage({
    content: prompt.content as HumanMessage["content"],
    id: randomUUID(),
    additional_kwargs: prompt.additional_kwargs,
    response_metadata: prompt.response_metadata,
    ...(prompt.name === undefined ? {} : { name: prompt.name })
  })
  return update({ messages: [new RemoveMessage({ id: prompt.id }), sessionContext, moved, ...promptContext] })
}

/** `beforeAgent`: a subagent's SubagentStart, or the start of a main agent's run. */
export const beforeAgent = async (s: State, state: Record<string, unknown>, runtime: unknown) => {
  const messages = state["messages"] as Array<BaseMessage> | undefined
  const parent = parentRun.getStore()
  if (parent !== undefined) {
    // A subagent: run inside a tool call of a hooked agent.
    const info = (parent.subagent ??= subagentInfo(s, parent.info, parent.subagentType))
    transcriptOf(s, info, true).sync(messages)
    const outcome = await dispatch(s, "SubagentStart", common(s, info, false))
    return outcome.additionalContext.length > 0 ? { messages: [contextMessage("SubagentStart", outcome.additionalContext)] } : undefined
  }
  const thread = threadId(runtime)
  const madeId = (s.options.sessionId ?? thread) === undefined
  const sessionId = s.options.sessionId ?? thread ?? randomUUID()
  const info = newMainInfo(s, sessionId, madeId && !hasCheckpointer())
  try {
    return await startRun(s, info, messages, madeId)
  } catch (error) {
    return onThrow(s, info, error)
  }
}

/** UserPromptSubmit for a prompt before the agent runs (`HooksMiddleware.submitPrompt`). */
export const submitPrompt = async (
  s: State,
  prompt: string,
  config?: { readonly configurable?: Record<string, unknown> | undefined }
): Promise<PromptSubmission> => {
  const thread = config?.configurable?.["thread_id"]
  const sessionId = s.options.sessionId ?? (typeof thread === "string" || typeof thread === "number" ? String(thread) : randomUUID())
  const outcome = await dispatch(s, "UserPromptSubmit", { ...common(s, newMainInfo(s, sessionId, false)), prompt })
  if (outcome.blocked || !outcome.continue) {
    const reason = outcome.blocked ? (outcome.reason ?? "no reason given") : (outcome.stopReason ?? "Stopped by a UserPromptSubmit hook")
    return { blocked: true, reason }
  }
  const id = randomUUID()
  s.submittedPrompts.set(id, outcome)
  return { blocked: false, message: new HumanMessage({ content: prompt, id }), additionalContext: outcome.additionalContext }
}
