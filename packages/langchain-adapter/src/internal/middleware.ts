import { AsyncLocalStorage } from "node:async_hooks"
import { randomUUID } from "node:crypto"
import { dirname, join } from "node:path"
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { Command, getConfig, GraphInterrupt, interrupt, isCommand, isGraphBubbleUp } from "@langchain/langgraph"
import * as StopGuard from "@agent-hooks/core/StopGuard"
import { createMiddleware } from "langchain"
import type { AgentMiddleware } from "langchain"
import type { DispatchOutcome, HooksMiddleware, HooksMiddlewareOptions, PromptSubmission } from "../HooksMiddleware.ts"
import * as Compaction from "./compaction.ts"
import * as Engine from "./engine.ts"
import { appendText, contentText, messageText, messageType } from "./messages.ts"
import * as Resume from "./resume.ts"
import * as Review from "./review.ts"
import { resolver } from "./toolNames.ts"
import * as Transcript from "./transcript.ts"

/**
 * What the middleware knows of one run, made where it is needed: from the thread (or the run's
 * first message, or the tool call a subagent runs in). Nothing of it is kept in the graph state:
 * LangChain's `stream()` emits every state key, private ones too, in `values` and `updates` chunks.
 * What a run must remember is in its messages (a Stop hook's feedback, a hook's answer that ended
 * the run, the decisions of a turn that asked a human), so it is checkpointed with them.
 */
interface RunInfo {
  readonly sessionId: string
  readonly transcriptPath: string
  /** Set when this run is a subagent's. */
  readonly agentId: string | null
  readonly agentType: string | null
  readonly agentTranscriptPath: string | null
  /** The session ends with this run (no checkpointer, no thread, no fixed session id). */
  readonly perRun: boolean
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
  /** No hook ran for the call. */
  readonly quiet?: boolean | undefined
}

const asks = (record: CallRecord) => !record.blocked && (record.decision === "ask" || record.decision === "defer")

/** Set around every tool call: an agent started inside it (a subagent) belongs to this run's session. */
const parentRun = new AsyncLocalStorage<{ readonly info: RunInfo; readonly subagentType: string | null; subagent?: RunInfo }>()

/**
 * The PreToolUse decisions of a model turn that asks a human, in its `AIMessage`
 * (`additional_kwargs.agent_hooks.calls`): committed (and checkpointed) with the message, so that
 * after the interrupt and a resume, in this process or another, the tool calls read them and the
 * hooks do not run again for a decided call.
 */
const turnRecords = (message: BaseMessage | undefined): Readonly<Record<string, CallRecord>> | undefined => {
  const calls = (message?.additional_kwargs?.["agent_hooks"] as { calls?: unknown } | undefined)?.calls
  return isRecord(calls) ? calls as Record<string, CallRecord> : undefined
}

/** The AI message of the state that asked for tool call `id` (the last one that has it). */
const turnOf = (messages: ReadonlyArray<BaseMessage> | undefined, id: string): BaseMessage | undefined => {
  if (messages === undefined) return undefined
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (messageType(message) === "ai" && toolCallsOf(message).some((call) => call.id === id)) return message
  }
  return undefined
}

/** `f()`, computed the first time it is asked for. */
const once = <A>(f: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  return () => (value ??= { a: f() }).a
}

/** A map that forgets its oldest entries beyond `cap`. */
const remember = <V>(map: Map<string, V>, key: string, value: V, cap = 1000) => {
  map.delete(key)
  map.set(key, value)
  if (map.size > cap) map.delete(map.keys().next().value!)
}

/** What async hooks said that the model has not seen yet: at most this many notes per session, and this many sessions. */
const LATE_NOTES = 100
const LATE_SESSIONS = 1000

const reminder = (label: string, text: string) => `<system-reminder>\n${label}: ${text}\n</system-reminder>`

// The messages the middleware adds have their id from the start: a run without thread is known by its first message's id.
const contextMessage = (event: string, contexts: ReadonlyArray<string>) =>
  new HumanMessage({
    id: randomUUID(),
    content: contexts.map((context) => reminder(`${event} hook additional context`, context)).join("\n"),
    additional_kwargs: { agent_hooks: { event } }
  })

const hookAIMessage = (text: string, event: string) =>
  new AIMessage({ id: randomUUID(), content: text, name: "agent-hooks", additional_kwargs: { agent_hooks: { event } } })

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

/** Replaces the tool message in a result (a `ToolMessage` or a `Command`). */
const replaceToolMessage = (
  result: ToolMessage | Command,
  original: ToolMessageLike | undefined,
  replacement: ToolMessage
): ToolMessage | Command => {
  if (!isCommand(result)) return replacement
  const command = result as Command
  const swap = (messages: unknown) => {
    if (Array.isArray(messages)) return messages.map((message) => (message === original ? replacement : message))
    return messages === original ? [replacement] : messages
  }
  let update: Record<string, unknown> | Array<[string, unknown]>
  if (Array.isArray(command.update)) {
    update = command.update.map(([key, value]): [string, unknown] => [key, key === "messages" ? swap(value) : value])
    if (original === undefined) update.push(["messages", [replacement]])
  } else {
    const current = command.update ?? {}
    const messages = original === undefined
      ? [...(Array.isArray(current["messages"]) ? current["messages"] : current["messages"] === undefined ? [] : [current["messages"]]), replacement]
      : swap(current["messages"])
    update = { ...current, messages }
  }
  return new Command({
    update,
    ...(command.goto === undefined ? {} : { goto: command.goto }),
    ...(command.graph === undefined ? {} : { graph: command.graph }),
    ...(command.resume === undefined ? {} : { resume: command.resume })
  })
}

/** The model's message of a turn with the human's edits in its tool calls. */
const revisedTurn = (turn: BaseMessage, asked: ReadonlyArray<ToolCallLike>, answers: ReadonlyArray<Review.Answer>): AIMessage => {
  const edits = new Map<string | undefined, Review.Answer>(asked.map((call, i) => [call.id, answers[i]!]))
  return new AIMessage({
    content: turn.content as AIMessage["content"],
    ...(turn.id === undefined ? {} : { id: turn.id }),
    ...(turn.name === undefined ? {} : { name: turn.name }),
    tool_calls: toolCallsOf(turn).map((call) => {
      const edit = edits.get(call.id)
      return { ...call, ...(edit?.type === "edit" ? { name: edit.name, args: edit.args } : {}), type: "tool_call" as const }
    }),
    additional_kwargs: turn.additional_kwargs,
    response_metadata: turn.response_metadata
  })
}

/** The message of a thrown value (an `Error`'s message, else the value as text). */
const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** What the model reads for a tool that threw. */
const thrownText = (message: string): string => `Error: ${message}\n Please fix your mistakes.`

/** A tool call's result, with the model's message revised (same id: it replaces the original) first. */
const withRevision = (result: ToolMessage | Command, revision: AIMessage | undefined): ToolMessage | Command => {
  if (revision === undefined) return result
  if (!isCommand(result)) return new Command({ update: { messages: [revision, result] } })
  const command = result as Command
  const update: Record<string, unknown> | Array<[string, unknown]> = Array.isArray(command.update)
    ? [["messages", [revision]], ...command.update]
    : {
      ...command.update,
      messages: [revision, ...(Array.isArray(command.update?.["messages"]) ? command.update["messages"] : command.update?.["messages"] === undefined ? [] : [command.update["messages"]])]
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

/** A message a hook's answer put in place of the model's or of the prompt (`hookAIMessage`). */
const isHookAnswer = (message: BaseMessage | undefined): boolean =>
  message !== undefined && messageType(message) === "ai" && isRecord(message.additional_kwargs?.["agent_hooks"])

/** The `Stop` / `SubagentStop` feedback messages since the run's prompt: the consecutive blocks of this run. */
const stopBlocksOf = (messages: ReadonlyArray<BaseMessage> | undefined): number => {
  let blocks = 0
  for (let i = (messages?.length ?? 0) - 1; i >= 0; i--) {
    const message = messages![i]!
    if (messageType(message) !== "human") continue
    const event = (message.additional_kwargs?.["agent_hooks"] as { event?: unknown } | undefined)?.event
    if (event !== "Stop" && event !== "SubagentStop") break
    blocks++
  }
  return blocks
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

  // What LangChain runs costs even when it does nothing (a state key about 8 % of a run with a
  // model that answers at once, a beforeAgent node 13 %, an afterModel node 35 %): only what the
  // engine's hooks can need is registered. Known from the engine now (a built engine); unknown (a
  // layer or engine options, built later; an engine that reloads its settings): everything.
  const hooked = engine.hooked()
  /** Some hook of `event` may match a payload with `fields` (the matcher's field is what counts). */
  const mayMatch = (event: string, fields: Record<string, unknown>) =>
    engine.hasHooks(event) && engine.unmatched(event, { session_id: "", transcript_path: "", cwd, ...fields }) === undefined
  const anyHooked = hooked === undefined || agentLoopEvents(beforeModelEvent, afterModelEvent).some((event) => hooked.has(event))
  /**
   * The agent nodes: only when a hook of the run's start or end may run
   * (SessionStart on "startup" or "resume", UserPromptSubmit, SubagentStart, Stop, SubagentStop,
   * SessionEnd on "other"). Else the run's session comes from the thread, or from its first message.
   */
  const needsAgentNodes = (events: ReadonlySet<string> | undefined) =>
    events === undefined ||
    ["UserPromptSubmit", "SubagentStart", "Stop", "SubagentStop"].some((event) => events.has(event)) ||
    mayMatch("SessionStart", { source: "startup" }) || mayMatch("SessionStart", { source: "resume" }) ||
    mayMatch("SessionEnd", { reason: "other" })
  const agentNodes = needsAgentNodes(hooked)
  let reloadHeard = false
  /**
   * An engine that reloaded its settings (and did not say it would, `watching`) may now have hooks
   * that need the agent nodes this middleware was built without: they cannot run in agents built
   * before, and that is said once.
   */
  const checkReload = () => {
    if (agentNodes || reloadHeard) return
    const now = engine.hooked()
    if (now === hooked || !needsAgentNodes(now)) return
    reloadHeard = true
    warn("the engine's settings changed and now have hooks for the start or end of a run (SessionStart, UserPromptSubmit, SubagentStart, Stop, SubagentStop or SessionEnd); " +
      "they do not run in agents built before the change: build the agent again, or give the middleware an engine that says it reloads (watching: true)")
  }

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
  /** PreToolUse decisions of a turn that asks no one, per tool call id (the tool calls read them). */
  const decidedCalls = new Map<string, CallRecord>()
  /** The session of a run without thread, by the id of its first message. */
  const runSessions = new Map<string, string>()
  /** A hook's `continue: false` in a tool call, by the id of the run's prompt (its last human message): the next model call answers in its place. */
  const halts = new Map<string, string>()
  const promptId = (messages: ReadonlyArray<BaseMessage> | undefined) => lastOfType(messages, "human")?.id
  /**
   * What `async` hooks said for the model and it has not seen yet, by session ("": a result that
   * names none): given at the session's next model call.
   */
  const lateNotes = new Map<string, Array<string>>()
  /** The model call's message of what `async` hooks said since the session's last one, if any. */
  const asyncContext = async (sessionId: string): Promise<HumanMessage | undefined> => {
    if (engine.asyncHooks()) {
      /** Notes dropped per session in this take: said once each, never lost unseen. */
      const dropped = new Map<string, number>()
      for (const result of await engine.takeAsyncResults()) {
        const notes = [
          ...result.toModel.map((text) => reminder(`${result.event} hook additional context (async)`, text)),
          ...(result.rewake && result.rewakeMessage !== null ? [reminder(`${result.event} hook feedback (async)`, result.rewakeMessage)] : [])
        ]
        if (notes.length === 0) continue
        const key = result.sessionId ?? ""
        const kept = [...(lateNotes.get(key) ?? []), ...notes]
        // At most the last LATE_NOTES per session, and LATE_SESSIONS sessions: a session that never
        // calls its model again does not grow.
        if (kept.length > LATE_NOTES) dropped.set(key, (dropped.get(key) ?? 0) + kept.length - LATE_NOTES)
        if (!lateNotes.has(key) && lateNotes.size >= LATE_SESSIONS) {
          const oldest = lateNotes.keys().next().value!
          warn(`the notes of async hooks for session ${JSON.stringify(oldest)} were dropped: more than ${LATE_SESSIONS} sessions were waiting for their next model call`)
        }
        remember(lateNotes, key, kept.length > LATE_NOTES ? kept.slice(-LATE_NOTES) : kept, LATE_SESSIONS)
      }
      for (const [key, count] of dropped) {
        warn(`async hooks said more for session ${JSON.stringify(key)} than its next model call takes: its ${count} oldest notes were dropped (the last ${LATE_NOTES} are kept)`)
      }
    }
    if (lateNotes.size === 0) return undefined
    const notes = [...(lateNotes.get(sessionId) ?? []), ...(lateNotes.get("") ?? [])]
    lateNotes.delete(sessionId)
    lateNotes.delete("")
    return notes.length === 0 ? undefined : new HumanMessage({ id: randomUUID(), content: notes.join("\n"), additional_kwargs: { agent_hooks: { event: "async" } } })
  }
  /** Prompts that `submitPrompt` let through, by message id: their UserPromptSubmit outcome. */
  const submittedPrompts = new Map<string, DispatchOutcome>()

  /** `seen`: adds the messages so far to the transcript; called only when some hook runs. */
  /**
   * The outcome at once, without building a payload, when no hook of `event` can run: none at all,
   * or (without `onOutcome`, which wants the payload) no matcher fits `probe`, the field the
   * event's matcher tests (a tool event: `tool_name`). Else `undefined`.
   */
  const quick = (event: string, probe: Record<string, unknown>): DispatchOutcome | undefined => {
    if (!engine.hasHooks(event)) return nothingHappened(event)
    if (options.onOutcome !== undefined) return undefined
    const outcome = engine.unmatched(event, probe)
    if (outcome !== undefined) for (const warning of outcome.warnings ?? []) if (!engine.alreadyWarned(warning)) warn(warning)
    return outcome
  }

  /**
   * `payload`: built only when it is needed. `probe`: for an event whose matcher tests one field
   * (a tool event: `tool_name`), that field alone, which tells at once whether any hook can match.
   */
  const dispatch = async (
    event: string,
    lazyPayload: Record<string, unknown> | (() => Record<string, unknown>),
    seen?: () => void,
    probe?: Record<string, unknown>
  ): Promise<DispatchOutcome> => {
    const fast = probe === undefined ? (engine.hasHooks(event) ? undefined : nothingHappened(event)) : quick(event, probe)
    if (fast !== undefined) return fast
    const payload = typeof lazyPayload === "function" ? lazyPayload() : lazyPayload
    // Else a hook may read transcript_path: it names every message so far.
    const unmatched = probe !== undefined && options.onOutcome === undefined ? undefined : engine.unmatched(event, payload)
    if (unmatched === undefined) {
      seen?.()
      Transcript.flushAll()
    }
    const outcome = unmatched ?? await engine.dispatch(event, payload)
    // Without agent nodes no run end closes the transcript files: closed once the hooks have run.
    if (unmatched === undefined && !agentNodes) Transcript.closeAll()
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
    lateNotes.delete(sessionId)
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
        warn(`SessionEnd after a failed run: ${errorMessage(endError)}`)
      }
    }
    throw error
  }

  /** Runs a hook; if it throws, `onThrow` with the run info of its request. */
  const guarded = <A extends [unknown, ...Array<unknown>], R>(
    f: (...args: A) => Promise<R>,
    infoFrom: (...args: A) => RunInfo | undefined
  ) => async (...args: A): Promise<R> => {
    try {
      return await f(...args)
    } catch (error) {
      return onThrow(infoFrom(...args), error)
    }
  }

  /** The run's info: a subagent's (the tool call it runs in), a thread's, or a run's own (by its first message). */
  const infoOf = (state: Record<string, unknown> | undefined, runtime: unknown): RunInfo => {
    const parent = parentRun.getStore()
    if (parent !== undefined) return parent.subagent ??= subagentInfo(parent.info, parent.subagentType)
    const thread = threadId(runtime)
    const sessionId = options.sessionId ?? thread
    if (sessionId !== undefined) {
      // Without agent nodes a thread's session is open once seen: endSession() / close() end it.
      if (!agentNodes && !openSessions.has(sessionId)) {
        openSessions.set(sessionId, { transcriptPath: join(transcriptDir(), `${sessionId}.jsonl`), perRun: false })
      }
      return newMainInfo(sessionId, false)
    }
    // A run without thread: one session per run, named once by its first message.
    const first = (state?.["messages"] as Array<BaseMessage> | undefined)?.[0]?.id
    if (first === undefined) return newMainInfo(randomUUID(), true)
    let id = runSessions.get(first)
    if (id === undefined) remember(runSessions, first, id = randomUUID())
    return newMainInfo(id, true)
  }

  /** A subagent's run: run inside a tool call of a hooked agent. */
  const subagentInfo = (parent: RunInfo, subagentType: string | null): RunInfo => {
    const agentId = randomUUID().replace(/-/g, "").slice(0, 17)
    return {
      ...parent,
      agentId,
      agentType: options.agentType ?? subagentType ?? "subagent",
      agentTranscriptPath: join(dirname(parent.transcriptPath), parent.sessionId, "subagents", `agent-${agentId}.jsonl`),
      perRun: false
    }
  }

  const newMainInfo = (sessionId: string, perRun: boolean): RunInfo => ({
    sessionId,
    transcriptPath: join(transcriptDir(), `${sessionId}.jsonl`),
    agentId: null,
    agentType: null,
    agentTranscriptPath: null,
    perRun
  })

  const beforeAgent = async (state: Record<string, unknown>, runtime: unknown) => {
    const messages = state["messages"] as Array<BaseMessage> | undefined
    const parent = parentRun.getStore()
    if (parent !== undefined) {
      // A subagent: run inside a tool call of a hooked agent.
      const info = parent.subagent ??= subagentInfo(parent.info, parent.subagentType)
      transcriptOf(info, true).sync(messages)
      const outcome = await dispatch("SubagentStart", common(info, false))
      return outcome.additionalContext.length > 0 ? { messages: [contextMessage("SubagentStart", outcome.additionalContext)] } : undefined
    }

    const thread = threadId(runtime)
    const madeId = (options.sessionId ?? thread) === undefined
    const sessionId = options.sessionId ?? thread ?? randomUUID()
    const perRun = madeId && !hasCheckpointer()
    const info: RunInfo = newMainInfo(sessionId, perRun)
    try {
      return await startRun(info, messages, madeId)
    } catch (error) {
      return onThrow(info, error)
    }
  }

  /** `beforeAgent` of a main agent's run: SessionStart the first time, UserPromptSubmit. */
  const startRun = async (info: RunInfo, messages: Array<BaseMessage> | undefined, madeId: boolean) => {
    const sessionId = info.sessionId
    const transcript = transcriptOf(info, madeId)
    const prompt = messages !== undefined && messages.length > 0 && messageType(messages[messages.length - 1]!) === "human"
      ? messages[messages.length - 1]!
      : undefined
    // The prompt reaches the transcript only once UserPromptSubmit let it through.
    transcript.sync(prompt === undefined ? messages : messages!.slice(0, -1))

    let sessionContext: BaseMessage | undefined
    if (!startedSessions.has(sessionId)) {
      startedSessions.add(sessionId)
      openSessions.set(sessionId, { transcriptPath: info.transcriptPath, perRun: info.perRun })
      const resumed = messages !== undefined && messages.length > (prompt === undefined ? 0 : 1)
      const start = await dispatch("SessionStart", {
        session_id: sessionId,
        transcript_path: info.transcriptPath,
        cwd,
        source: resumed ? "resume" : "startup"
      })
      if (start.additionalContext.length > 0) sessionContext = contextMessage("SessionStart", start.additionalContext)
    }
    // A run without thread is known by its first message: the one it has after this update.
    const update = <U extends { readonly messages?: ReadonlyArray<BaseMessage> }>(u: U): U | undefined => {
      if (madeId) {
        const removed = new Set<string | undefined>((u.messages ?? []).filter((m) => RemoveMessage.isInstance(m)).map((m) => m.id))
        const first = (messages ?? []).find((m) => !removed.has(m.id)) ?? (u.messages ?? []).find((m) => !RemoveMessage.isInstance(m))
        if (first?.id !== undefined) remember(runSessions, first.id, sessionId)
      }
      return Object.keys(u).length === 0 ? undefined : u
    }
    if (prompt === undefined) return update(sessionContext === undefined ? {} : { messages: [sessionContext] })

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
      return update({ messages: [...removed, hookAIMessage(reason, "UserPromptSubmit")], jumpTo: "end" as const })
    }
    const promptContext = outcome.additionalContext.length > 0 ? [contextMessage("UserPromptSubmit", outcome.additionalContext)] : []
    if (sessionContext === undefined || prompt.id === undefined) {
      return update([sessionContext, ...promptContext].some((m) => m !== undefined) ? { messages: [...(sessionContext === undefined ? [] : [sessionContext]), ...promptContext] } : {})
    }
    // SessionStart context goes before the session's first prompt, as in Claude Code: the prompt
    // moves after it (a new id; the messages reducer cannot insert before a message).
    const moved = new HumanMessage({ content: prompt.content as HumanMessage["content"], id: randomUUID(), additional_kwargs: prompt.additional_kwargs, response_metadata: prompt.response_metadata, ...(prompt.name === undefined ? {} : { name: prompt.name }) })
    return update({ messages: [new RemoveMessage({ id: prompt.id }), sessionContext, moved, ...promptContext] })
  }

  /**
   * A model call the middleware has nothing to do before: no hook runs before or after a model
   * call, no hook ended the run, and the transcript is kept only for hooks that run (no agent
   * nodes). Its answer is passed on as it is unless a PreToolUse hook can match one of its calls.
   */
  const quietModelCall = (): boolean =>
    !agentNodes && halts.size === 0 && lateNotes.size === 0 && !engine.asyncHooks() &&
    (beforeModelEvent === undefined || !engine.mayHaveHooks(beforeModelEvent)) &&
    (afterModelEvent === undefined || !engine.mayHaveHooks(afterModelEvent))

  /** Model calls: the host turn events, and the end of a run a hook stopped (`continue: false`). */
  const wrapModelCall = (
    request: { state: Record<string, unknown>; runtime: unknown; messages: Array<BaseMessage> },
    handler: (request: never) => Promise<AIMessage> | AIMessage
  ): Promise<AIMessage | Command> => {
    checkReload()
    return quietModelCall() ? quietTurn(request, handler) : modelCall(request, handler)
  }

  const quietTurn = async (
    request: { state: Record<string, unknown>; runtime: unknown; messages: Array<BaseMessage> },
    handler: (request: never) => Promise<AIMessage> | AIMessage
  ): Promise<AIMessage | Command> => {
    const response = await handler(request as never)
    for (const call of toolCallsOf(response)) {
      if (!quietToolOf(call.name).pre) {
        return decideTurn(once(() => infoOf(request.state, request.runtime)), request.state["messages"] as Array<BaseMessage> | undefined, response)
      }
    }
    return response
  }

  const modelCall = async (
    request: { state: Record<string, unknown>; runtime: unknown; messages: Array<BaseMessage> },
    handler: (request: never) => Promise<AIMessage> | AIMessage
  ): Promise<AIMessage | Command> => {
    const info = once(() => infoOf(request.state, request.runtime))
    const messages = request.state["messages"] as Array<BaseMessage> | undefined
    const seen = () => transcriptOf(info()).sync(messages)
    // With agent nodes the transcript is complete at the end of a run (also one that throws); else
    // it is written only for a hook that runs.
    if (agentNodes) seen()
    // Answering in place of the model (no tool calls) ends the loop without a graph node of our own.
    const halt = halts.size === 0 ? null : halts.get(promptId(messages) ?? "") ?? null
    if (halt !== null) return hookAIMessage(halt, "continue")
    // The answer itself ends the run (it has no tool calls), and tells afterAgent that a hook ended it.
    const stop = (event: string, outcome: DispatchOutcome) => hookAIMessage(outcome.stopReason ?? outcome.reason ?? `Stopped by a ${event} hook`, event)
    let effective = request
    // What async hooks said since the session's last model call (Claude Code gives it on the next turn).
    const late = await asyncContext(info().sessionId)
    if (late !== undefined) effective = { ...request, messages: [...request.messages, late] }
    if (beforeModelEvent !== undefined && engine.mayHaveHooks(beforeModelEvent)) {
      const turn = (messages ?? []).filter((message) => messageType(message) === "ai").length + 1
      const outcome = await dispatch(beforeModelEvent, { ...common(info()), turn, message_count: messages?.length ?? 0 }, seen)
      if (!outcome.continue || outcome.blocked) return stop(beforeModelEvent, outcome)
      if (outcome.additionalContext.length > 0) {
        effective = { ...effective, messages: [...effective.messages, contextMessage(beforeModelEvent, outcome.additionalContext)] }
      }
    }
    const response = await handler(effective as never)
    if (afterModelEvent !== undefined && engine.mayHaveHooks(afterModelEvent)) {
      const calls = (response as { tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }> }).tool_calls ?? []
      const outcome = await dispatch(afterModelEvent, {
        ...common(info()),
        last_assistant_message: messageText(response),
        tool_calls: calls.map((call) => ({ tool_name: toolName(call.name), tool_input: tools(call.name).toInput(call.args), tool_use_id: call.id }))
      }, seen)
      // The response is replaced: its tool calls do not run.
      if (!outcome.continue || outcome.blocked) return stop(afterModelEvent, outcome)
    }
    return decideTurn(info, messages, response)
  }

  /** The PreToolUse decisions of a model turn's tool calls, made as soon as the model asks for them. */
  const decideTurn = async (info: () => RunInfo, messages: Array<BaseMessage> | undefined, response: AIMessage): Promise<AIMessage> => {
    const calls = toolCallsOf(response).filter((call) => typeof call.id === "string" && call.id !== "" && !call.name.startsWith("extract-"))
    if (calls.length === 0 || !engine.hasHooks("PreToolUse")) return response
    // PreToolUse runs as soon as the model asks for its tools (all the asks of one turn go to a
    // human together); the tool calls apply the decisions.
    // The transcript names a message by its id: one the state will assign later would be written twice.
    const seenWithResponse = () => {
      if (typeof response.id !== "string" || response.id === "") response.id = randomUUID()
      transcriptOf(info()).sync([...(messages ?? []), response])
    }
    const decided_ = calls.map((call) => decide(info, call, seenWithResponse))
    // Decided at once when no hook can match: no promise to wait for.
    const records = decided_.every((record) => !(record instanceof Promise))
      ? decided_ as Array<CallRecord>
      : await Promise.all(decided_)
    if (records.every((record) => record.quiet === true)) {
      // No hook ran for any call of the turn: nothing is written; the tool calls know it from here
      // (a call that never reaches the tools, the run ended first, is forgotten in time).
      for (const [i, call] of calls.entries()) remember(quietCalls, call.id!, records[i]!.input)
      return response
    }
    for (const [i, call] of calls.entries()) remember(decidedCalls, call.id!, records[i]!)
    const asked = calls.filter((_, i) => asks(records[i]!))
    if (asked.length === 0 || !hasCheckpointer()) return response
    // A human will be asked: the decisions go with the model's message into the checkpoint, so
    // that after the interrupt and a resume (maybe in another process) the hooks do not run again.
    const decided = Object.fromEntries(calls.map((call, i) => [call.id!, records[i]!]))
    const kwargs = { ...response.additional_kwargs, agent_hooks: { event: "PreToolUse", calls: decided } }
    response.additional_kwargs = kwargs
    ;(response as unknown as { lc_kwargs: Record<string, unknown> }).lc_kwargs["additional_kwargs"] = kwargs
    // Notification where the adapter is about to ask a human (once: the model is not called again).
    await notify(info(), asked.map((call) => toolName(call.name)))
    return response
  }

  /**
   * Whether a hook of the tool events can match the tool `name` (a tool event's matcher reads the
   * tool name alone). Kept per tool while the engine's hooked events stay the
   * same object (a reload makes a new one); worked out every time for an engine that does not say
   * (a layer, a watching engine) or a host that wants every outcome (`onOutcome`).
   */
  const quietTools = new Map<string, { readonly pre: boolean; readonly all: boolean }>()
  let quietFor: ReadonlySet<string> | undefined
  /** `pre`: no PreToolUse hook can match the tool; `all`: nor a PostToolUse or PostToolUseFailure hook. */
  const quietToolOf = (name: string): { readonly pre: boolean; readonly all: boolean } => {
    const hookedNow = engine.hooked()
    const cached = hookedNow !== undefined && options.onOutcome === undefined
    if (cached && hookedNow !== quietFor) {
      quietTools.clear()
      quietFor = hookedNow
    }
    const known = cached ? quietTools.get(name) : undefined
    if (known !== undefined) return known
    const probe = { tool_name: toolName(name) }
    const pre = quick("PreToolUse", probe) !== undefined
    const quiet = { pre, all: pre && quick("PostToolUse", probe) !== undefined && quick("PostToolUseFailure", probe) !== undefined }
    if (cached && quietTools.size < 256) quietTools.set(name, quiet)
    return quiet
  }
  const quietTool = (name: string): boolean => quietToolOf(name).all

  /** The PreToolUse hooks' decision about one tool call. */
  /** At once (no promise) when no PreToolUse hook can match the call's tool. */
  const decide = (info: () => RunInfo, call: ToolCallLike, seen?: () => void): CallRecord | Promise<CallRecord> => {
    const tool = tools(call.name)
    const toolInput = tool.toInput(isRecord(call.args) ? call.args : {})
    const probe = { tool_name: tool.name }
    const fast = quick("PreToolUse", probe)
    if (fast !== undefined) return recordOf(toolInput, fast)
    return dispatch(
      "PreToolUse",
      () => ({ ...common(info()), tool_name: tool.name, tool_input: toolInput, tool_use_id: call.id }),
      seen,
      probe
    ).then((pre) => recordOf(toolInput, pre))
  }

  const recordOf = (toolInput: Record<string, unknown>, pre: DispatchOutcome): CallRecord => {
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

  const afterAgent = async (state: Record<string, unknown>, runtime: unknown) => {
    const info = infoOf(state, runtime)
    const messages = state["messages"] as Array<BaseMessage> | undefined
    transcriptOf(info).sync(messages)
    // The end of the run: the transcript is written in full.
    const finish = async () => {
      await endRunSession(info)
      Transcript.closeAll()
    }
    // A run a hook ended (a blocked prompt, `continue: false`) does not ask the Stop hooks.
    if (isHookAnswer(messages?.at(-1)) || halts.has(promptId(messages) ?? "")) {
      await finish()
      return undefined
    }
    const stopBlocks = stopBlocksOf(messages)
    const last = lastOfType(messages, "ai")
    const event = info.agentId === null ? "Stop" : "SubagentStop"
    const outcome = await dispatch(event, {
      ...common(info),
      stop_hook_active: stopBlocks > 0,
      last_assistant_message: last === undefined ? "" : messageText(last),
      ...(info.agentTranscriptPath === null ? {} : { agent_transcript_path: info.agentTranscriptPath })
    })
    if (outcome.blocked && outcome.continue) {
      // The engine's Stop guard rule: after stopBlockCap blocks in a row the agent may stop.
      if (StopGuard.reached(stopBlocks, stopBlockCap)) {
        warn(`${event} hooks blocked ${stopBlocks} times in a row; the agent stops anyway (stopBlockCap ${stopBlockCap}, 0 = off)`)
      } else {
        const reason = outcome.reason ?? `${event} hook asked to continue`
        return {
          jumpTo: "model" as const,
          // The feedback message is also the count of this run's blocks (stopBlocksOf).
          messages: [new HumanMessage({ id: randomUUID(), content: `${event} hook feedback:\n${reason}`, additional_kwargs: { agent_hooks: { event } } })]
        }
      }
    }
    await finish()
    return undefined
  }

  const wrapToolCall = async (
    request: { toolCall: { id?: string; name: string; args: Record<string, unknown> }; state: Record<string, unknown>; runtime: unknown },
    handler: (request: never) => Promise<ToolMessage | Command> | ToolMessage | Command
  ): Promise<ToolMessage | Command> => {
    const info = once(() => infoOf(request.state, request.runtime))
    const messages = request.state["messages"] as Array<BaseMessage> | undefined
    const seen = () => transcriptOf(info()).sync(messages)
    if (agentNodes) seen()
    // What most calls are: no hook of a tool call's events can match this tool, and nothing of its
    // model turn waits for a human. The call goes to the tool with nothing else done (a subagent it
    // starts still knows its parent).
    if (quietTool(request.toolCall.name) && (request.toolCall.id === undefined || turnRecords(turnOf(messages, request.toolCall.id)) === undefined)) {
      const plain = request.toolCall
      if (plain.id !== undefined) quietCalls.delete(plain.id)
      // Read only by a subagent the tool starts.
      const store = {
        get info() {
          return info()
        },
        get subagentType() {
          const type = isRecord(plain.args) ? tools(plain.name).toInput(plain.args)["subagent_type"] : undefined
          return typeof type === "string" ? type : null
        }
      }
      try {
        return await parentRun.run(store, () => handler(request as never))
      } catch (error) {
        if (isGraphBubbleUp(error)) throw error
        return refusal(plain, thrownText(errorMessage(error)))
      }
    }
    let call = request.toolCall
    let tool = tools(call.name)
    let toolInput = tool.toInput(isRecord(call.args) ? call.args : {})
    const notes: Array<string> = []
    let halt: string | null = null
    /** The model's message with the human's edits, written with the first asked call's result. */
    let revision: AIMessage | undefined
    const noteContext = (event: string, contexts: ReadonlyArray<string>) => {
      for (const context of contexts) notes.push(reminder(`${event}:${tool.name} hook additional context`, context))
    }
    const stopIfAsked = (event: string, outcome: DispatchOutcome) => {
      if (!outcome.continue) halt ??= outcome.stopReason ?? `Stopped by a ${event} hook`
    }
    /** A hook said `continue: false`: the next model call of this run answers in its place. */
    const noteHalt = () => {
      if (halt !== null) remember(halts, promptId(messages) ?? "", halt)
    }
    const refuse = (text: string) => {
      const message = new ToolMessage({
        content: notes.length > 0 ? `${text}\n\n${notes.join("\n")}` : text,
        tool_call_id: call.id ?? "",
        name: call.name,
        status: "error"
      })
      noteHalt()
      return withRevision(message, revision)
    }

    // Decided when the model asked for the call: the hooks do not run again (also after an
    // interrupt and a resume). A call decided on other arguments, or never seen, is decided here.
    const turn = call.id === undefined ? undefined : turnOf(messages, call.id)
    const records = turnRecords(turn)
    const recorded = call.id === undefined ? undefined : records?.[call.id] ?? decidedCalls.get(call.id) ?? quietRecord(call.id)
    let pre = recorded !== undefined && recorded.input === JSON.stringify(toolInput) ? recorded : await decide(info, call, seen)
    // A call decided here (one its model turn did not show us: another middleware added it) keeps
    // its decision for a resume in this process, so an ask's hooks do not run again.
    if (pre !== recorded && call.id !== undefined && pre.quiet !== true) remember(decidedCalls, call.id, pre)
    if (pre.halt !== null) halt ??= pre.halt

    // One interrupt per model turn (humanInTheLoopMiddleware's convention): the turn's first asked
    // call asks about all of them, the turn's other calls wait for the answer (an interrupt that
    // shows nothing) and, on resume, each asked call takes its own answer from the same decisions.
    let answer: Review.Answer | undefined
    const asked = records === undefined || !hasCheckpointer()
      ? []
      : toolCallsOf(turn).filter((entry) => entry.id !== undefined && records[entry.id] !== undefined && asks(records[entry.id]!))
    if (asked.length > 0) {
      const first = asked[0]!.id === call.id
      // The other calls never ask: they read the answer given to the first one's question, and
      // wait (an interrupt that shows nothing) while there is none they can read.
      const given = first ? undefined : await Resume.answerToTurn(asked[0]!.id!)
      if (!first && given === undefined) throw new GraphInterrupt()
      const index = asked.findIndex((entry) => entry.id === call.id)
      if (index >= 0 && pre === recorded) {
        const question = () => Review.request(asked.map((entry) => ({
          id: entry.id!,
          name: entry.name,
          args: entry.args,
          hookToolName: toolName(entry.name),
          reason: records![entry.id!]!.reason
        })))
        const answers = first ? Review.ask(question(), interrupt) : Review.read(given!.value, asked.length)
        if (answers === undefined) throw new GraphInterrupt()
        answer = answers[index]
        if (first && answers.some((entry) => entry.type === "edit")) revision = revisedTurn(turn!, asked, answers)
      }
    }

    // A call no model turn recorded (another middleware added it) that is resumed in a process
    // which did not decide it: its hooks ran again just now and may not ask again (a hook that
    // asks once). The human was asked where it was decided, and the answer waiting for this call
    // is theirs, whatever the hooks say now (a deny still blocks).
    const answeredElsewhere = recorded === undefined && records === undefined && call.id !== undefined && !asks(pre) && hasCheckpointer() && Resume.resuming()

    noteContext("PreToolUse", pre.additionalContext)
    if (pre.blocked) return refuse(pre.reason ?? `The PreToolUse hook denied this ${tool.name} call.`)
    if (asks(pre) || answeredElsewhere) {
      if (answer === undefined) {
        if (!hasCheckpointer()) {
          return refuse(pre.reason ?? `A PreToolUse hook asked for confirmation of this ${tool.name} call, and this agent cannot ask (it has no checkpointer).`)
        }
        // A call the model node did not decide (added by another middleware): asked on its own.
        answer = Review.ask(Review.request([{ id: call.id ?? "", name: call.name, args: call.args, hookToolName: tool.name, reason: pre.reason }]), interrupt)[0]!
      }
      if (answer.type === "reject") return refuse(refusedText(tool.name, answer))
      if (answer.type === "edit") {
        // An edited call is decided again on its new arguments: the human answered the ask, but
        // a deny (or exit 2) of the hooks still blocks it.
        call = { ...call, name: answer.name, args: answer.args }
        tool = tools(call.name)
        toolInput = tool.toInput(answer.args)
        pre = await decide(info, call, seen)
        if (pre.halt !== null) halt ??= pre.halt
        noteContext("PreToolUse", pre.additionalContext)
        if (pre.blocked) return refuse(pre.reason ?? `The PreToolUse hook denied this ${tool.name} call.`)
      }
    }
    const base = () => ({ ...common(info()), tool_name: tool.name })

    const input = pre.updatedInput ?? toolInput
    const args = pre.updatedInput === null ? call.args : tool.fromInput(pre.updatedInput)
    const effective = call === request.toolCall && pre.updatedInput === null ? request : { ...request, toolCall: { ...call, args } }
    const subagentType = typeof input["subagent_type"] === "string" ? input["subagent_type"] : null
    /** PostToolUseFailure: the tool threw, or returned an error result. */
    const failed = async (error: string, durationMs: number) => {
      const failure = await dispatch("PostToolUseFailure", () => ({
        ...base(),
        tool_input: input,
        tool_use_id: call.id,
        error,
        is_interrupt: false,
        duration_ms: durationMs
      }), seen, { tool_name: tool.name })
      stopIfAsked("PostToolUseFailure", failure)
      noteContext("PostToolUseFailure", failure.additionalContext)
      if (failure.blocked && failure.reason !== null) notes.push(reminder(`PostToolUseFailure:${tool.name} hook feedback`, failure.reason))
    }
    const started = performance.now()
    let result: ToolMessage | Command
    try {
      // The run info is made only if a subagent asks for it.
      result = await parentRun.run({ get info() { return info() }, subagentType }, () => handler(effective as never))
    } catch (error) {
      if (isGraphBubbleUp(error)) throw error
      const message = errorMessage(error)
      await failed(message, Math.round(performance.now() - started))
      return refuse(thrownText(message))
    }
    // No PostToolUse or PostToolUseFailure hook can match this tool, and nothing to add: the result as it is.
    const probe = { tool_name: tool.name }
    if (notes.length === 0 && halt === null && quick("PostToolUse", probe) !== undefined && quick("PostToolUseFailure", probe) !== undefined) {
      return withRevision(result, revision)
    }
    const durationMs = Math.round(performance.now() - started)
    const original = toolMessageOf(result, call.id)
    const text = original === undefined ? "" : contentText(original.content)
    let replacementContent: string | Array<unknown> | undefined
    if (original !== undefined && original.status === "error") {
      await failed(text, durationMs)
    } else {
      const post = await dispatch("PostToolUse", () => ({
        ...base(),
        tool_input: input,
        tool_response: tool.toResponse({ text, artifact: original?.artifact, toolInput: input }),
        tool_use_id: call.id,
        duration_ms: durationMs
      }), seen, { tool_name: tool.name })
      stopIfAsked("PostToolUse", post)
      const updated = post.hookSpecificOutput?.["updatedToolOutput"]
      if (updated !== undefined && updated !== null) replacementContent = typeof updated === "string" ? updated : JSON.stringify(updated)
      if (post.blocked) notes.push(reminder(`PostToolUse:${tool.name} hook blocking error`, post.reason ?? "blocked"))
      noteContext("PostToolUse", post.additionalContext)
    }
    noteHalt()
    if (notes.length === 0 && replacementContent === undefined) return withRevision(result, revision)
    if (original === undefined) {
      // A Command without a tool message: say it next to it.
      warn(`${tool.name}: the tool returned no ToolMessage; hook feedback goes in a separate message`)
      const message = new ToolMessage({ content: notes.join("\n"), tool_call_id: call.id ?? "", name: call.name })
      return withRevision(replaceToolMessage(result, undefined, message), revision)
    }
    const content = replacementContent ?? original.content
    const replacement = withContent(original, notes.length > 0 ? appendText(content, notes.join("\n")) : content)
    return withRevision(replaceToolMessage(result, original, replacement), revision)
  }

  let closed = false
  const middleware = anyHooked
    ? createMiddleware({
      name: options.name ?? "AgentHooksMiddleware",
      ...(agentNodes
        ? {
          // beforeAgent finds its run info itself.
          beforeAgent: { canJumpTo: ["end"], hook: guarded(beforeAgent, () => undefined) as never },
          afterAgent: { canJumpTo: ["model"], hook: guarded(afterAgent, (state, runtime) => infoOf(state, runtime)) as never }
        }
        : {}),
      // Without agent nodes a throw has nothing to end (no per-run SessionEnd can match).
      // With agent nodes every model call has work to do (the transcript is kept up to date).
      wrapModelCall: (agentNodes ? guarded(modelCall, (request) => infoOf(request.state, request.runtime)) : wrapModelCall) as never,
      wrapToolCall: (agentNodes ? guarded(wrapToolCall, (request) => infoOf(request.state, request.runtime)) : wrapToolCall) as never
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
      stateSchema: undefined,
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
