import { AsyncLocalStorage } from "node:async_hooks"
import { randomUUID } from "node:crypto"
import { dirname, join } from "node:path"
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { Command, getConfig, interrupt, isCommand, isGraphBubbleUp } from "@langchain/langgraph"
import { withLangGraph } from "@langchain/langgraph/zod"
import * as StopGuard from "@agent-hooks/core/StopGuard"
import { createMiddleware } from "langchain"
import type { AgentMiddleware } from "langchain"
import { z } from "zod"
import type { DispatchOutcome, HooksMiddleware, HooksMiddlewareOptions, PromptSubmission } from "../HooksMiddleware.ts"
import * as Compaction from "./compaction.ts"
import * as Engine from "./engine.ts"
import { appendText, contentText, messageText, messageType } from "./messages.ts"
import * as Review from "./review.ts"
import { resolver } from "./toolNames.ts"
import * as Transcript from "./transcript.ts"

/** What the middleware keeps in the graph state (private key `_agentHooks`) for one run. */
interface RunInfo {
  readonly sessionId: string
  readonly transcriptPath: string
  /** Set when this run is a subagent's. */
  readonly agentId: string | null
  readonly agentType: string | null
  readonly agentTranscriptPath: string | null
  /** The session ends with this run (no checkpointer, no thread, no fixed session id). */
  readonly perRun: boolean
  /** Consecutive Stop blocks in this run. */
  readonly stopBlocks: number
  readonly promptBlocked: boolean
  /** Set when a hook said `continue: false`: the run ends before the next model call. */
  readonly halt: string | null
  /**
   * The PreToolUse decisions of the last model turn, and the human's answers, per `tool_call_id`:
   * a decided call is not decided again (also after an interrupt and a resume).
   */
  readonly calls?: Readonly<Record<string, CallRecord>> | null | undefined
}

/** The PreToolUse hooks' decision about one tool call, and the human's answer to an ask. */
interface CallRecord {
  /** The `tool_input` decided on (JSON): a call whose input changed since is decided again. */
  readonly input: string
  readonly blocked: boolean
  readonly decision: string | null
  readonly reason: string | null
  readonly updatedInput: Record<string, unknown> | null
  readonly additionalContext: ReadonlyArray<string>
  /** The hook's `stopReason` when it said `continue: false`. */
  readonly halt: string | null
  readonly answer?: Review.Answer | undefined
  /** No hook ran for the call. */
  readonly quiet?: boolean | undefined
}

const asks = (record: CallRecord) => !record.blocked && (record.decision === "ask" || record.decision === "defer")

type InfoUpdate = Partial<RunInfo> | null

const merge = (current: RunInfo | null | undefined, update: InfoUpdate | undefined): RunInfo | null =>
  update === undefined ? current ?? null : update === null ? null : { ...(current as RunInfo), ...update }

const stateSchema = z.object({
  _agentHooks: withLangGraph(z.any().nullable().optional(), {
    reducer: { fn: merge, schema: z.any() },
    default: () => null
  })
})

/** Set around every tool call: an agent started inside it (a subagent) belongs to this run's session. */
const parentRun = new AsyncLocalStorage<{ readonly info: RunInfo; readonly subagentType: string | null }>()

const reminder = (label: string, text: string) => `<system-reminder>\n${label}: ${text}\n</system-reminder>`

const contextMessage = (event: string, contexts: ReadonlyArray<string>) =>
  new HumanMessage({
    content: contexts.map((context) => reminder(`${event} hook additional context`, context)).join("\n"),
    additional_kwargs: { agent_hooks: { event } }
  })

const hookAIMessage = (text: string, event: string) =>
  new AIMessage({ content: text, name: "agent-hooks", additional_kwargs: { agent_hooks: { event } } })

const lastOfType = (messages: ReadonlyArray<BaseMessage> | undefined, type: string): BaseMessage | undefined => {
  if (messages === undefined) return undefined
  for (let i = messages.length - 1; i >= 0; i--) if (messageType(messages[i]!) === type) return messages[i]
  return undefined
}

const hasCheckpointer = (): boolean => {
  try {
    const configurable = getConfig()?.configurable as Record<string, unknown> | undefined
    return Boolean(configurable?.["__pregel_checkpointer"])
  } catch {
    return false
  }
}

const threadId = (runtime: unknown): string | undefined => {
  const fromRuntime = (runtime as { configurable?: Record<string, unknown> } | undefined)?.configurable?.["thread_id"]
  if (typeof fromRuntime === "string" || typeof fromRuntime === "number") return String(fromRuntime)
  try {
    const fromConfig = (getConfig()?.configurable as Record<string, unknown> | undefined)?.["thread_id"]
    return typeof fromConfig === "string" || typeof fromConfig === "number" ? String(fromConfig) : undefined
  } catch {
    return undefined
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

interface ToolCallLike {
  readonly id?: string | undefined
  readonly name: string
  readonly args: Record<string, unknown>
}

const toolCallsOf = (message: unknown): ReadonlyArray<ToolCallLike> =>
  (message as { tool_calls?: ReadonlyArray<ToolCallLike> } | undefined)?.tool_calls ?? []

interface ToolMessageLike extends BaseMessage {
  readonly tool_call_id: string
  readonly status?: "success" | "error" | undefined
  readonly artifact?: unknown
}

const withContent = (message: ToolMessageLike, content: string | Array<unknown>, status?: "success" | "error") =>
  new ToolMessage({
    content: content as ToolMessage["content"],
    tool_call_id: message.tool_call_id,
    ...(message.name === undefined ? {} : { name: message.name }),
    ...(message.id === undefined ? {} : { id: message.id }),
    status: status ?? message.status ?? "success",
    artifact: message.artifact,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata
  })

/** The `ToolMessage` of a tool call's result: the result itself, or the one a `Command` adds. */
const toolMessageOf = (result: unknown, toolCallId: string | undefined): ToolMessageLike | undefined => {
  if (isCommand(result)) {
    const update = (result as Command).update
    const messages = isRecord(update) ? update["messages"] : Array.isArray(update) ? update.find((entry) => entry[0] === "messages")?.[1] : undefined
    const list = Array.isArray(messages) ? messages : messages === undefined ? [] : [messages]
    const tools = list.filter((message): message is ToolMessageLike => isRecord(message) && messageType(message as unknown as BaseMessage) === "tool")
    return tools.find((message) => message.tool_call_id === toolCallId) ?? tools[0]
  }
  return isRecord(result) && messageType(result as unknown as BaseMessage) === "tool" ? result as unknown as ToolMessageLike : undefined
}

/** Replaces the tool message in a result (a `ToolMessage` or a `Command`), and adds state updates. */
const replaceToolMessage = (
  result: ToolMessage | Command,
  original: ToolMessageLike | undefined,
  replacement: ToolMessage,
  extraUpdate: Record<string, unknown> | undefined
): ToolMessage | Command => {
  if (!isCommand(result)) {
    return extraUpdate === undefined ? replacement : new Command({ update: { messages: [replacement], ...extraUpdate } })
  }
  const command = result as Command
  const swap = (messages: unknown) => {
    if (Array.isArray(messages)) return messages.map((message) => (message === original ? replacement : message))
    return messages === original ? [replacement] : messages
  }
  let update: Record<string, unknown> | Array<[string, unknown]>
  if (Array.isArray(command.update)) {
    update = command.update.map(([key, value]): [string, unknown] => [key, key === "messages" ? swap(value) : value])
    if (original === undefined) update.push(["messages", [replacement]])
    if (extraUpdate !== undefined) update.push(...Object.entries(extraUpdate))
  } else {
    const current = command.update ?? {}
    const messages = original === undefined
      ? [...(Array.isArray(current["messages"]) ? current["messages"] : current["messages"] === undefined ? [] : [current["messages"]]), replacement]
      : swap(current["messages"])
    update = { ...current, messages, ...extraUpdate }
  }
  return new Command({
    update,
    ...(command.goto === undefined ? {} : { goto: command.goto }),
    ...(command.graph === undefined ? {} : { graph: command.graph }),
    ...(command.resume === undefined ? {} : { resume: command.resume })
  })
}

/** The outcome of a dispatch that ran no hook. */
const nothingHappened = (event: string): DispatchOutcome => ({
  event,
  blocked: false,
  decision: null,
  reason: null,
  continue: true,
  stopReason: null,
  updatedInput: null,
  additionalContext: [],
  systemMessages: [],
  warnings: [],
  hooks: [],
  asyncHooks: []
})

/** The run info a hook's state holds, if any (set by `beforeAgent`). */
const stateInfo = (state: Record<string, unknown> | undefined): RunInfo | undefined => {
  const info = state?.["_agentHooks"] as RunInfo | null | undefined
  return info !== null && info !== undefined && typeof info.sessionId === "string" ? info : undefined
}

/** The events the middleware dispatches from the agent loop (not `submitPrompt`, `compaction`). */
const agentLoopEvents = (beforeModel: string | undefined, afterModel: string | undefined): ReadonlyArray<string> => [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionEnd",
  ...(beforeModel === undefined ? [] : [beforeModel]),
  ...(afterModel === undefined ? [] : [afterModel])
]

/** @internal */
export const make = (options: HooksMiddlewareOptions): HooksMiddleware => {
  // Failures are heard: a guard that timed out, crashed or was skipped lets the tool run, so its
  // warning goes to the console unless the host takes it.
  const warn = options.onWarning ?? ((warning: string) => console.warn(`[agent-hooks] ${warning}`))
  const engine = Engine.fromOption(
    options.engine ?? (options.settings === undefined ? undefined : { settings: options.settings, ...(options.cwd === undefined ? {} : { projectDir: options.cwd }) }),
    options.callbackEvents,
    warn
  )
  const cwd = options.cwd ?? process.cwd()
  const permissionMode = options.permissionMode ?? "default"
  let transcriptDir_: string | undefined = options.transcriptDir
  const transcriptDir = () => (transcriptDir_ ??= Transcript.defaultDir())
  const stopBlockCap = options.stopBlockCap ?? 8
  const tools = resolver(options.toolNames, options.defaultToolNames !== false)
  const toolName = (name: string) => tools(name).name
  const beforeModelEvent = options.turnEvents === false ? undefined : options.turnEvents?.beforeModel ?? "BeforeModel"
  const afterModelEvent = options.turnEvents === false ? undefined : options.turnEvents?.afterModel ?? "AfterModel"

  /** Sessions that had their SessionStart and no SessionEnd yet. */
  const openSessions = new Map<string, { readonly transcriptPath: string; readonly perRun: boolean }>()
  /**
   * Sessions seen (SessionStart done): a thread's id stays here, so a thread ended by `endSession()`
   * and run again is not started twice. A per-run session's id leaves with its SessionEnd.
   */
  const startedSessions = new Set<string>()
  /** Tool calls for which no PreToolUse hook ran when the model asked for them: id → input (JSON). */
  const quietCalls = new Map<string, string>()
  const quietRecord = (id: string): CallRecord | undefined => {
    const input = quietCalls.get(id)
    if (input === undefined) return undefined
    quietCalls.delete(id)
    return { input, blocked: false, decision: null, reason: null, updatedInput: null, additionalContext: [], halt: null, quiet: true }
  }
  /** Prompts that `submitPrompt` let through, by message id: their UserPromptSubmit outcome. */
  const submittedPrompts = new Map<string, DispatchOutcome>()

  const dispatch = async (event: string, payload: Record<string, unknown>): Promise<DispatchOutcome> => {
    // No hook can run: nothing to dispatch, and the same outcome as a dispatch that ran none.
    if (!engine.hasHooks(event)) return nothingHappened(event)
    // No matcher fits (the engine can tell at once): no hook reads the transcript, nothing to call.
    // Else a hook may read transcript_path: it names every message so far.
    const unmatched = engine.unmatched(event, payload)
    if (unmatched === undefined) Transcript.flushAll()
    const outcome = unmatched ?? await engine.dispatch(event, payload)
    // One line per failed hook: what the engine built here already said is not said again.
    for (const warning of outcome.warnings ?? []) if (!engine.alreadyWarned(warning)) warn(warning)
    options.onOutcome?.(event, payload, outcome)
    return outcome
  }

  /** `fresh`: the path names an id made just now, so no file can be there yet. */
  const transcriptOf = (info: RunInfo, fresh = false) =>
    Transcript.open(info.agentTranscriptPath ?? info.transcriptPath, {
      sessionId: info.sessionId,
      cwd,
      agentId: info.agentId ?? undefined,
      toolName
    }, fresh)

  const common = (info: RunInfo, withPermissionMode = true): Record<string, unknown> => ({
    session_id: info.sessionId,
    transcript_path: info.transcriptPath,
    cwd,
    ...(withPermissionMode ? { permission_mode: permissionMode } : {}),
    ...(info.agentId === null ? {} : { agent_id: info.agentId, agent_type: info.agentType })
  })

  const endSession = async (sessionId: string, reason: string) => {
    const session = openSessions.get(sessionId)
    if (session === undefined) return
    openSessions.delete(sessionId)
    try {
      await dispatch("SessionEnd", { session_id: sessionId, transcript_path: session.transcriptPath, cwd, reason })
    } finally {
      // Its id is never seen again: nothing of it is kept (also when the dispatch was skipped or failed).
      if (session.perRun) startedSessions.delete(sessionId)
      Transcript.release(sessionId)
    }
  }

  /** The end of a run whose session ends with it (a main agent's, `perRun`): SessionEnd. */
  const endRunSession = async (info: RunInfo) => {
    if (info.agentId !== null || !info.perRun) return
    try {
      await endSession(info.sessionId, "other")
    } finally {
      // Also when the host ended the session during the run.
      startedSessions.delete(info.sessionId)
    }
  }

  /**
   * A run that throws ends here: its transcript is written in full and, when its session ends with
   * the run, SessionEnd (`reason: "other"`) runs once. The error then goes on as it is; a failing
   * SessionEnd is only a warning. Interrupts and parent commands (`isGraphBubbleUp`) are not failures.
   */
  const onThrow = async (info: RunInfo | undefined, error: unknown): Promise<never> => {
    Transcript.closeAll()
    if (info !== undefined && !isGraphBubbleUp(error)) {
      try {
        await endRunSession(info)
      } catch (endError) {
        warn(`SessionEnd after a failed run: ${endError instanceof Error ? endError.message : String(endError)}`)
      }
    }
    throw error
  }

  /** Runs a hook; if it throws, `onThrow` with the run info of its state. */
  const guarded = <A extends [unknown, ...Array<unknown>], R>(
    f: (...args: A) => Promise<R>,
    stateOf: (...args: A) => Record<string, unknown> | undefined
  ) => async (...args: A): Promise<R> => {
    try {
      return await f(...args)
    } catch (error) {
      return onThrow(stateInfo(stateOf(...args)), error)
    }
  }

  /** The run info from the state, else one made on the spot (a tool call outside a hooked run). */
  const infoOf = (state: Record<string, unknown> | undefined, runtime: unknown): RunInfo => {
    const fromState = stateInfo(state)
    if (fromState !== undefined) return fromState
    const parent = parentRun.getStore()
    if (parent !== undefined) return parent.info
    const sessionId = options.sessionId ?? threadId(runtime) ?? randomUUID()
    return newMainInfo(sessionId, false)
  }

  const newMainInfo = (sessionId: string, perRun: boolean): RunInfo => ({
    sessionId,
    transcriptPath: join(transcriptDir(), `${sessionId}.jsonl`),
    agentId: null,
    agentType: null,
    agentTranscriptPath: null,
    perRun,
    stopBlocks: 0,
    promptBlocked: false,
    halt: null
  })

  const beforeAgent = async (state: Record<string, unknown>, runtime: unknown) => {
    const messages = state["messages"] as Array<BaseMessage> | undefined
    const parent = parentRun.getStore()
    if (parent !== undefined) {
      // A subagent: run inside a tool call of a hooked agent.
      const agentId = randomUUID().replace(/-/g, "").slice(0, 17)
      const info: RunInfo = {
        ...parent.info,
        agentId,
        agentType: options.agentType ?? parent.subagentType ?? "subagent",
        agentTranscriptPath: join(
          dirname(parent.info.transcriptPath),
          parent.info.sessionId,
          "subagents",
          `agent-${agentId}.jsonl`
        ),
        perRun: false,
        stopBlocks: 0,
        promptBlocked: false,
        halt: null
      }
      transcriptOf(info, true).sync(messages)
      const outcome = await dispatch("SubagentStart", common(info, false))
      return {
        _agentHooks: info,
        ...(outcome.additionalContext.length > 0 ? { messages: [contextMessage("SubagentStart", outcome.additionalContext)] } : {})
      }
    }

    const previous = state["_agentHooks"] as RunInfo | null | undefined
    const thread = threadId(runtime)
    const madeId = (previous?.sessionId ?? options.sessionId ?? thread) === undefined
    const sessionId = previous?.sessionId ?? options.sessionId ?? thread ?? randomUUID()
    const perRun = options.sessionId === undefined && thread === undefined && !hasCheckpointer()
    const info: RunInfo = { ...newMainInfo(sessionId, perRun), ...(previous?.transcriptPath ? { transcriptPath: previous.transcriptPath } : {}) }
    try {
      return await startRun(info, previous, messages, madeId)
    } catch (error) {
      // The state has no run info yet: the failure is this run's.
      return onThrow(info, error)
    }
  }

  /** `beforeAgent` of a main agent's run: SessionStart the first time, UserPromptSubmit. */
  const startRun = async (info: RunInfo, previous: RunInfo | null | undefined, messages: Array<BaseMessage> | undefined, madeId: boolean) => {
    const sessionId = info.sessionId
    const transcript = transcriptOf(info, madeId && previous?.transcriptPath === undefined)
    const prompt = messages !== undefined && messages.length > 0 && messageType(messages[messages.length - 1]!) === "human"
      ? messages[messages.length - 1]!
      : undefined
    // The prompt reaches the transcript only once UserPromptSubmit let it through.
    transcript.sync(prompt === undefined ? messages : messages!.slice(0, -1))

    let sessionContext: BaseMessage | undefined
    if (!startedSessions.has(sessionId)) {
      startedSessions.add(sessionId)
      openSessions.set(sessionId, { transcriptPath: info.transcriptPath, perRun: info.perRun })
      const resumed = previous !== null && previous !== undefined || (messages !== undefined && messages.length > (prompt === undefined ? 0 : 1))
      const start = await dispatch("SessionStart", {
        session_id: sessionId,
        transcript_path: info.transcriptPath,
        cwd,
        source: resumed ? "resume" : "startup"
      })
      if (start.additionalContext.length > 0) sessionContext = contextMessage("SessionStart", start.additionalContext)
    }
    if (prompt === undefined) return { _agentHooks: info, ...(sessionContext === undefined ? {} : { messages: [sessionContext] }) }

    const submitted = prompt.id === undefined ? undefined : submittedPrompts.get(prompt.id)
    if (submitted !== undefined) submittedPrompts.delete(prompt.id!)
    const outcome = submitted ?? await dispatch("UserPromptSubmit", { ...common(info), prompt: messageText(prompt) })
    if (outcome.blocked || !outcome.continue) {
      const reason = outcome.blocked
        ? `Prompt blocked by a UserPromptSubmit hook: ${outcome.reason ?? "no reason given"}`
        : outcome.stopReason ?? "Stopped by a UserPromptSubmit hook"
      // A blocked prompt may hold a secret: it leaves the state (and so every later checkpoint) and
      // is never written to the transcript.
      const removed = prompt.id === undefined ? [] : [new RemoveMessage({ id: prompt.id })]
      return { _agentHooks: { ...info, promptBlocked: true }, messages: [...removed, hookAIMessage(reason, "UserPromptSubmit")], jumpTo: "end" as const }
    }
    const promptContext = outcome.additionalContext.length > 0 ? [contextMessage("UserPromptSubmit", outcome.additionalContext)] : []
    if (sessionContext === undefined || prompt.id === undefined) {
      return { _agentHooks: info, ...([sessionContext, ...promptContext].some((m) => m !== undefined) ? { messages: [...(sessionContext === undefined ? [] : [sessionContext]), ...promptContext] } : {}) }
    }
    // SessionStart context goes before the session's first prompt, as in Claude Code: the prompt
    // moves after it (a new id; the messages reducer cannot insert before a message).
    const moved = new HumanMessage({ content: prompt.content as HumanMessage["content"], id: randomUUID(), additional_kwargs: prompt.additional_kwargs, response_metadata: prompt.response_metadata, ...(prompt.name === undefined ? {} : { name: prompt.name }) })
    return { _agentHooks: info, messages: [new RemoveMessage({ id: prompt.id }), sessionContext, moved, ...promptContext] }
  }

  /** Model calls: the host turn events, and the end of a run a hook stopped (`continue: false`). */
  const wrapModelCall = async (
    request: { state: Record<string, unknown>; runtime: unknown; messages: Array<BaseMessage> },
    handler: (request: never) => Promise<AIMessage> | AIMessage
  ): Promise<AIMessage | Command> => {
    const info = infoOf(request.state, request.runtime)
    const messages = request.state["messages"] as Array<BaseMessage> | undefined
    transcriptOf(info).sync(messages)
    // Answering in place of the model (no tool calls) ends the loop without a graph node of our own.
    if (info.halt !== null) return hookAIMessage(info.halt, "continue")
    const stop = (event: string, outcome: DispatchOutcome) => {
      const reason = outcome.stopReason ?? outcome.reason ?? `Stopped by a ${event} hook`
      return new Command({ update: { messages: [hookAIMessage(reason, event)], _agentHooks: { halt: reason } } })
    }
    let effective = request
    if (beforeModelEvent !== undefined && engine.mayHaveHooks(beforeModelEvent)) {
      const turn = (messages ?? []).filter((message) => messageType(message) === "ai").length + 1
      const outcome = await dispatch(beforeModelEvent, { ...common(info), turn, message_count: messages?.length ?? 0 })
      if (!outcome.continue || outcome.blocked) return stop(beforeModelEvent, outcome)
      if (outcome.additionalContext.length > 0) {
        effective = { ...request, messages: [...request.messages, contextMessage(beforeModelEvent, outcome.additionalContext)] }
      }
    }
    const response = await handler(effective as never)
    if (afterModelEvent !== undefined && engine.mayHaveHooks(afterModelEvent)) {
      const calls = (response as { tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }> }).tool_calls ?? []
      const outcome = await dispatch(afterModelEvent, {
        ...common(info),
        last_assistant_message: messageText(response),
        tool_calls: calls.map((call) => ({ tool_name: toolName(call.name), tool_input: tools(call.name).toInput(call.args), tool_use_id: call.id }))
      })
      // The response is replaced: its tool calls do not run.
      if (!outcome.continue || outcome.blocked) return stop(afterModelEvent, outcome)
    }
    const calls = toolCallsOf(response).filter((call) => typeof call.id === "string" && call.id !== "" && !call.name.startsWith("extract-"))
    if (calls.length === 0 || !engine.hasHooks("PreToolUse")) return response
    // PreToolUse runs as soon as the model asks for its tools, and its decisions are committed with
    // the model's message: the interrupt for an `ask` (afterModel) and the tool calls read them, so
    // a resume never runs the hooks again for a decided call.
    // The transcript names a message by its id: one the state will assign later would be written twice.
    if (typeof response.id !== "string" || response.id === "") response.id = randomUUID()
    transcriptOf(info).sync([...(messages ?? []), response])
    const records = await Promise.all(calls.map((call) => decide(info, call)))
    const decided = Object.fromEntries(calls.map((call, i) => [call.id!, records[i]!]))
    if (records.every((record) => record.quiet === true)) {
      // No hook ran for any call of the turn: the state is not written; the tool calls know it from here.
      for (const [i, call] of calls.entries()) quietCalls.set(call.id!, records[i]!.input)
      // A call that never reaches the tools (the run ended first) is forgotten in time.
      for (const id of quietCalls.keys()) {
        if (quietCalls.size <= 1000) break
        quietCalls.delete(id)
      }
      return response
    }
    const asked = calls.filter((call) => asks(decided[call.id!]!))
    // Notification where the adapter is about to ask a human (once: this node is not run again).
    if (asked.length > 0 && hasCheckpointer()) await notify(info, asked.map((call) => toolName(call.name)))
    return new Command({ update: { _agentHooks: { calls: decided } } })
  }

  /** The PreToolUse hooks' decision about one tool call. */
  const decide = async (info: RunInfo, call: ToolCallLike): Promise<CallRecord> => {
    const tool = tools(call.name)
    const toolInput = tool.toInput(isRecord(call.args) ? call.args : {})
    const pre = await dispatch("PreToolUse", { ...common(info), tool_name: tool.name, tool_input: toolInput, tool_use_id: call.id })
    return {
      input: JSON.stringify(toolInput),
      blocked: pre.blocked,
      decision: pre.decision,
      reason: pre.reason,
      updatedInput: pre.updatedInput,
      additionalContext: pre.additionalContext,
      halt: pre.continue ? null : pre.stopReason ?? "Stopped by a PreToolUse hook",
      // The engine says no hook ran (none matched): nothing to record in the state.
      ...(pre.hooks !== undefined && pre.hooks.length === 0 && (pre.asyncHooks ?? []).length === 0 ? { quiet: true } : {})
    }
  }

  const notify = async (info: RunInfo, names: ReadonlyArray<string>) => {
    if (!engine.hasHooks("Notification")) return
    await dispatch("Notification", {
      ...common(info, false),
      message: `The agent needs your permission to use ${[...new Set(names)].join(", ")}`,
      title: "Permission needed",
      notification_type: "permission_prompt"
    })
  }

  const refusal = (call: ToolCallLike, text: string) =>
    new ToolMessage({ content: text, tool_call_id: call.id ?? "", name: call.name, status: "error" })

  const refusedText = (hookToolName: string, answer: Review.Answer & { type: "reject" }) =>
    answer.message ?? `The user refused this ${hookToolName} call.`

  /**
   * After the model: the calls the PreToolUse hooks asked about go to a human, all of one turn in
   * one interrupt (humanInTheLoopMiddleware's shape); the answers are recorded per tool call. A
   * refused call gets its error ToolMessage here and never reaches the tools.
   */
  const afterModel = async (state: Record<string, unknown>) => {
    const info = stateInfo(state)
    const calls = info?.calls
    if (info === undefined || calls === null || calls === undefined) return undefined
    const messages = state["messages"] as Array<BaseMessage> | undefined
    const last = messages?.at(-1)
    if (last === undefined || messageType(last) !== "ai") return undefined
    const toolCalls = toolCallsOf(last)
    const asked = toolCalls.filter((call) => {
      const record = call.id === undefined ? undefined : calls[call.id]
      return record !== undefined && record.answer === undefined && asks(record)
    })
    // Without a checkpointer no one can be asked: the tool call refuses with the hook's reason.
    if (asked.length === 0 || !hasCheckpointer()) return undefined
    const answers = Review.ask(Review.request(asked.map((call) => ({
      id: call.id!,
      name: call.name,
      args: call.args,
      hookToolName: toolName(call.name),
      reason: calls[call.id!]!.reason
    }))), interrupt)
    const updated: Record<string, CallRecord> = { ...calls }
    const refused: Array<ToolMessage> = []
    let revised: Array<ToolCallLike> = [...toolCalls]
    for (let i = 0; i < asked.length; i++) {
      const call = asked[i]!
      const answer = answers[i]!
      const id = call.id!
      if (answer.type === "approve") {
        updated[id] = { ...calls[id]!, answer }
      } else if (answer.type === "reject") {
        updated[id] = { ...calls[id]!, answer }
        refused.push(refusal(call, refusedText(toolName(call.name), answer)))
      } else {
        // An edited call is decided again on its new arguments: the human answered the ask, but
        // a deny (or exit 2) of the hooks still blocks it.
        const edited: ToolCallLike = { ...call, name: answer.name, args: answer.args }
        revised = revised.map((entry) => (entry.id === id ? edited : entry))
        const record = await decide(info, edited)
        updated[id] = { ...record, answer }
        if (record.blocked) refused.push(refusal(edited, record.reason ?? `The PreToolUse hook denied this ${toolName(edited.name)} call.`))
      }
    }
    const edits = answers.some((answer) => answer.type === "edit")
    const revisedMessage = edits
      ? new AIMessage({
        content: last.content as AIMessage["content"],
        ...(last.id === undefined ? {} : { id: last.id }),
        ...(last.name === undefined ? {} : { name: last.name }),
        tool_calls: revised.map((call) => ({ ...call, type: "tool_call" as const })),
        additional_kwargs: last.additional_kwargs,
        response_metadata: last.response_metadata
      })
      : undefined
    const answered = new Set<string>([
      ...refused.map((message) => message.tool_call_id),
      ...(messages ?? []).filter((message) => messageType(message) === "tool").map((message) => (message as ToolMessageLike).tool_call_id)
    ])
    // Every call refused: back to the model (LangChain would otherwise end the run here).
    const pending = revised.some((call) => call.id === undefined || !answered.has(call.id))
    return {
      messages: [...(revisedMessage === undefined ? [] : [revisedMessage]), ...refused],
      _agentHooks: { calls: updated },
      ...(pending ? {} : { jumpTo: "model" as const })
    }
  }

  const afterAgent = async (state: Record<string, unknown>, runtime: unknown) => {
    const info = infoOf(state, runtime)
    const messages = state["messages"] as Array<BaseMessage> | undefined
    transcriptOf(info).sync(messages)
    // The end of the run: the transcript is written in full.
    const finish = async () => {
      await endRunSession(info)
      Transcript.closeAll()
    }
    if (info.promptBlocked || info.halt !== null) {
      await finish()
      return undefined
    }
    const last = lastOfType(messages, "ai")
    const event = info.agentId === null ? "Stop" : "SubagentStop"
    const outcome = await dispatch(event, {
      ...common(info),
      stop_hook_active: info.stopBlocks > 0,
      last_assistant_message: last === undefined ? "" : messageText(last),
      ...(info.agentTranscriptPath === null ? {} : { agent_transcript_path: info.agentTranscriptPath })
    })
    if (outcome.blocked && outcome.continue) {
      // The engine's Stop guard rule: after stopBlockCap blocks in a row the agent may stop.
      if (StopGuard.reached(info.stopBlocks, stopBlockCap)) {
        warn(`${event} hooks blocked ${info.stopBlocks} times in a row; the agent stops anyway (stopBlockCap ${stopBlockCap}, 0 = off)`)
      } else {
        const reason = outcome.reason ?? `${event} hook asked to continue`
        return {
          jumpTo: "model" as const,
          messages: [new HumanMessage({ content: `${event} hook feedback:\n${reason}`, additional_kwargs: { agent_hooks: { event } } })],
          _agentHooks: { stopBlocks: info.stopBlocks + 1 }
        }
      }
    }
    await finish()
    return info.stopBlocks === 0 ? undefined : { _agentHooks: { stopBlocks: 0 } }
  }

  const wrapToolCall = async (
    request: { toolCall: { id?: string; name: string; args: Record<string, unknown> }; state: Record<string, unknown>; runtime: unknown },
    handler: (request: never) => Promise<ToolMessage | Command> | ToolMessage | Command
  ): Promise<ToolMessage | Command> => {
    const info = infoOf(request.state, request.runtime)
    let call = request.toolCall
    const tool = tools(call.name)
    const transcript = transcriptOf(info)
    transcript.sync(request.state["messages"] as Array<BaseMessage> | undefined)
    let toolInput = tool.toInput(isRecord(call.args) ? call.args : {})
    const base = { ...common(info), tool_name: tool.name }
    const notes: Array<string> = []
    let halt: string | null = null
    const noteContext = (event: string, contexts: ReadonlyArray<string>) => {
      for (const context of contexts) notes.push(reminder(`${event}:${tool.name} hook additional context`, context))
    }
    const stopIfAsked = (event: string, outcome: DispatchOutcome) => {
      if (!outcome.continue) halt ??= outcome.stopReason ?? `Stopped by a ${event} hook`
    }
    const haltUpdate = () => (halt === null ? undefined : { _agentHooks: { halt } })
    const refuse = (text: string) => {
      const message = new ToolMessage({
        content: notes.length > 0 ? `${text}\n\n${notes.join("\n")}` : text,
        tool_call_id: call.id ?? "",
        name: call.name,
        status: "error"
      })
      const update = haltUpdate()
      return update === undefined ? message : new Command({ update: { messages: [message], ...update } })
    }

    // Decided when the model asked for the call (and answered by a human after an ask): the
    // hooks do not run again. A call decided on other arguments, or never seen, is decided here.
    const recorded = call.id === undefined ? undefined : info.calls?.[call.id] ?? quietRecord(call.id)
    let pre = recorded !== undefined && recorded.input === JSON.stringify(toolInput) ? recorded : await decide(info, call)
    if (pre.halt !== null) halt ??= pre.halt
    noteContext("PreToolUse", pre.additionalContext)
    if (pre.blocked) return refuse(pre.reason ?? `The PreToolUse hook denied this ${tool.name} call.`)
    if (asks(pre)) {
      let answer = pre.answer
      if (answer === undefined) {
        if (!hasCheckpointer()) {
          return refuse(pre.reason ?? `A PreToolUse hook asked for confirmation of this ${tool.name} call, and this agent cannot ask (it has no checkpointer).`)
        }
        // A call the model node did not decide (added by another middleware): asked on its own.
        answer = Review.ask(Review.request([{ id: call.id ?? "", name: call.name, args: call.args, hookToolName: tool.name, reason: pre.reason }]), interrupt)[0]!
        if (answer.type === "edit") {
          if (answer.name !== call.name) return refuse(`The user's edit names another tool (${answer.name}); this ${tool.name} call did not run.`)
          call = { ...call, args: answer.args }
          toolInput = tool.toInput(answer.args)
          pre = await decide(info, call)
          noteContext("PreToolUse", pre.additionalContext)
          if (pre.blocked) return refuse(pre.reason ?? `The PreToolUse hook denied this ${tool.name} call.`)
        }
      }
      if (answer.type === "reject") return refuse(refusedText(tool.name, answer))
    }

    const input = pre.updatedInput ?? toolInput
    const args = pre.updatedInput === null ? call.args : tool.fromInput(pre.updatedInput)
    const effective = call === request.toolCall && pre.updatedInput === null ? request : { ...request, toolCall: { ...call, args } }
    const subagentType = typeof input["subagent_type"] === "string" ? input["subagent_type"] : null
    /** PostToolUseFailure: the tool threw, or returned an error result. */
    const failed = async (error: string, durationMs: number) => {
      const failure = await dispatch("PostToolUseFailure", {
        ...base,
        tool_input: input,
        tool_use_id: call.id,
        error,
        is_interrupt: false,
        duration_ms: durationMs
      })
      stopIfAsked("PostToolUseFailure", failure)
      noteContext("PostToolUseFailure", failure.additionalContext)
      if (failure.blocked && failure.reason !== null) notes.push(reminder(`PostToolUseFailure:${tool.name} hook feedback`, failure.reason))
    }
    const started = performance.now()
    let result: ToolMessage | Command
    try {
      result = await parentRun.run({ info, subagentType }, () => handler(effective as never))
    } catch (error) {
      if (isGraphBubbleUp(error)) throw error
      const message = error instanceof Error ? error.message : String(error)
      await failed(message, Math.round(performance.now() - started))
      return refuse(`Error: ${message}\n Please fix your mistakes.`)
    }
    const durationMs = Math.round(performance.now() - started)
    const original = toolMessageOf(result, call.id)
    const text = original === undefined ? "" : contentText(original.content)
    let replacementContent: string | Array<unknown> | undefined
    if (original !== undefined && original.status === "error") {
      await failed(text, durationMs)
    } else {
      const post = await dispatch("PostToolUse", {
        ...base,
        tool_input: input,
        tool_response: tool.toResponse({ text, artifact: original?.artifact, toolInput: input }),
        tool_use_id: call.id,
        duration_ms: durationMs
      })
      stopIfAsked("PostToolUse", post)
      const updated = post.hookSpecificOutput?.["updatedToolOutput"]
      if (updated !== undefined && updated !== null) replacementContent = typeof updated === "string" ? updated : JSON.stringify(updated)
      if (post.blocked) notes.push(reminder(`PostToolUse:${tool.name} hook blocking error`, post.reason ?? "blocked"))
      noteContext("PostToolUse", post.additionalContext)
    }
    const extra = haltUpdate()
    if (notes.length === 0 && replacementContent === undefined && extra === undefined) return result
    if (original === undefined) {
      // A Command without a tool message: say it next to it.
      warn(`${tool.name}: the tool returned no ToolMessage; hook feedback goes in a separate message`)
      const message = new ToolMessage({ content: notes.join("\n"), tool_call_id: call.id ?? "", name: call.name })
      return replaceToolMessage(result, undefined, message, extra)
    }
    const content = replacementContent ?? original.content
    const replacement = withContent(original, notes.length > 0 ? appendText(content, notes.join("\n")) : content)
    return replaceToolMessage(result, original, replacement, extra)
  }

  let closed = false
  // What LangChain runs costs even when it does nothing (a state channel about 0.5 ms per run, a
  // node 0.1 to 0.3 ms): an engine known to have no hook for any event of the agent loop gets a
  // middleware with nothing in it, and the review node (afterModel) is there only when PreToolUse
  // may have hooks.
  const hooked = engine.hooked()
  const anyHooked = hooked === undefined || agentLoopEvents(beforeModelEvent, afterModelEvent).some((event) => hooked.has(event))
  const mayAsk = hooked === undefined || hooked.has("PreToolUse")
  const middleware = anyHooked
    ? createMiddleware({
      name: options.name ?? "AgentHooksMiddleware",
      stateSchema,
      // beforeAgent finds its run info itself (the state has none yet, or the previous run's).
      beforeAgent: { canJumpTo: ["end"], hook: guarded(beforeAgent, () => undefined) as never },
      wrapModelCall: guarded(wrapModelCall, (request) => request.state) as never,
      ...(mayAsk ? { afterModel: { canJumpTo: ["model"], hook: guarded(afterModel, (state) => state) as never } } : {}),
      afterAgent: { canJumpTo: ["model"], hook: guarded(afterAgent, (state) => state) as never },
      wrapToolCall: guarded(wrapToolCall, (request) => request.state) as never
    })
    : createMiddleware({ name: options.name ?? "AgentHooksMiddleware" })
  const submitPrompt = async (prompt: string, config?: { readonly configurable?: Record<string, unknown> | undefined }): Promise<PromptSubmission> => {
    const thread = config?.configurable?.["thread_id"]
    const sessionId = options.sessionId ?? (typeof thread === "string" || typeof thread === "number" ? String(thread) : randomUUID())
    const outcome = await dispatch("UserPromptSubmit", { ...common(newMainInfo(sessionId, false)), prompt })
    if (outcome.blocked || !outcome.continue) {
      return { blocked: true, reason: outcome.blocked ? outcome.reason ?? "no reason given" : outcome.stopReason ?? "Stopped by a UserPromptSubmit hook" }
    }
    const id = randomUUID()
    submittedPrompts.set(id, outcome)
    return { blocked: false, message: new HumanMessage({ content: prompt, id }), additionalContext: outcome.additionalContext }
  }

  const close = async () => {
    if (closed) return
    closed = true
    for (const id of [...openSessions.keys()]) await endSession(id, "other")
    Transcript.closeAll()
    await engine.close()
  }

  const compaction = <M extends AgentMiddleware>(summarization: M): M =>
    Compaction.wrap(summarization, {
      stateSchema,
      pre: async (state, runtime) => {
        const info = infoOf(state, runtime)
        transcriptOf(info).sync(state["messages"] as Array<BaseMessage> | undefined)
        const outcome = await dispatch("PreCompact", { ...common(info, false), trigger: "auto", custom_instructions: "" })
        return { blocked: outcome.blocked }
      },
      post: async (state, runtime, summary) => {
        if (!engine.hasHooks("PostCompact")) return
        await dispatch("PostCompact", { ...common(infoOf(state, runtime), false), trigger: "auto", compact_summary: summary })
      }
    })

  return Object.assign(middleware, {
    compaction,
    submitPrompt,
    endSession: async (end?: { readonly sessionId?: string | undefined; readonly reason?: string | undefined }) => {
      const ids = end?.sessionId === undefined ? [...openSessions.keys()] : [end.sessionId]
      for (const id of ids) await endSession(id, end?.reason ?? "other")
    },
    close,
    toolName,
    [Symbol.asyncDispose]: () => close()
  }) as unknown as HooksMiddleware
}
