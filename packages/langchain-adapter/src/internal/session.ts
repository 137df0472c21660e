import { AsyncLocalStorage } from "node:async_hooks"
import { randomUUID } from "node:crypto"
import { dirname, join } from "node:path"
import type { BaseMessage } from "@langchain/core/messages"
import { getConfig, isGraphBubbleUp } from "@langchain/langgraph"
import { dispatch } from "./dispatch.ts"
import type { RunInfo, State } from "./state.ts"
import * as Transcript from "./transcript.ts"
import { errorMessage, once, remember } from "./util.ts"

/** Set around every tool call: an agent started inside it (a subagent) belongs to this run's session. */
export const parentRun = new AsyncLocalStorage<{ readonly info: RunInfo; readonly subagentType: string | null; subagent?: RunInfo }>()

export const hasCheckpointer = (): boolean => {
  try {
    const configurable = getConfig()?.configurable as Record<string, unknown> | undefined
    return Boolean(configurable?.["__pregel_checkpointer"])
  } catch {
    return false
  }
}

export const threadId = (runtime: unknown): string | undefined => {
  const fromRuntime = (runtime as { configurable?: Record<string, unknown> } | undefined)?.configurable?.["thread_id"]
  if (typeof fromRuntime === "string" || typeof fromRuntime === "number") return String(fromRuntime)
  try {
    const fromConfig = (getConfig()?.configurable as Record<string, unknown> | undefined)?.["thread_id"]
    return typeof fromConfig === "string" || typeof fromConfig === "number" ? String(fromConfig) : undefined
  } catch {
    return undefined
  }
}

/** The transcript of a run. `fresh`: the path names an id made just now, so no file can be there yet. */
export const transcriptOf = (s: State, info: RunInfo, fresh = false) =>
  Transcript.open(
    info.agentTranscriptPath ?? info.transcriptPath,
    {
      sessionId: info.sessionId,
      cwd: s.cwd,
      agentId: info.agentId ?? undefined,
      toolName: s.toolName
    },
    fresh
  )

/** The fields every payload of a run has. */
export const common = (s: State, info: RunInfo, withPermissionMode = true): Record<string, unknown> => ({
  session_id: info.sessionId,
  transcript_path: info.transcriptPath,
  cwd: s.cwd,
  ...(withPermissionMode ? { permission_mode: s.permissionMode } : {}),
  ...(info.agentId === null ? {} : { agent_id: info.agentId, agent_type: info.agentType })
})

export const newMainInfo = (s: State, sessionId: string, perRun: boolean): RunInfo => ({
  sessionId,
  transcriptPath: join(s.transcriptDir(), `${sessionId}.jsonl`),
  agentId: null,
  agentType: null,
  agentTranscriptPath: null,
  perRun
})

/** A subagent's run: run inside a tool call of a hooked agent. */
export const subagentInfo = (s: State, parent: RunInfo, subagentType: string | null): RunInfo => {
  const agentId = randomUUID().replace(/-/g, "").slice(0, 17)
  return {
    ...parent,
    agentId,
    agentType: s.options.agentType ?? subagentType ?? "subagent",
    agentTranscriptPath: join(dirname(parent.transcriptPath), parent.sessionId, "subagents", `agent-${agentId}.jsonl`),
    perRun: false
  }
}

/** The tool call a run was started in (its parent), if any, and its thread: read from the async context. */
interface RunContext {
  readonly parent: ReturnType<typeof parentRun.getStore>
  readonly thread: string | undefined
}

/** The run context of a request, read where the request is handled. */
const contextOf = (runtime: unknown): RunContext => {
  const parent = parentRun.getStore()
  return { parent, thread: parent === undefined ? threadId(runtime) : undefined }
}

const infoIn = (s: State, state: Record<string, unknown> | undefined, { parent, thread }: RunContext): RunInfo => {
  if (parent !== undefined) return (parent.subagent ??= subagentInfo(s, parent.info, parent.subagentType))
  const sessionId = s.options.sessionId ?? thread
  if (sessionId !== undefined) {
    // Without agent nodes a thread's session is open once seen: endSession() / close() end it.
    if (!s.agentNodes && !s.openSessions.has(sessionId)) {
      s.openSessions.set(sessionId, { transcriptPath: join(s.transcriptDir(), `${sessionId}.jsonl`), perRun: false })
    }
    return newMainInfo(s, sessionId, false)
  }
  // A run without thread: one session per run, named once by its first message.
  const first = (state?.["messages"] as Array<BaseMessage> | undefined)?.[0]?.id
  if (first === undefined) return newMainInfo(s, randomUUID(), true)
  let id = s.runSessions.get(first)
  if (id === undefined) remember(s.runSessions, first, (id = randomUUID()))
  return newMainInfo(s, id, true)
}

/** The run's info: a subagent's (the tool call it runs in), a thread's, or a run's own (by its first message). */
export const infoOf = (s: State, state: Record<string, unknown> | undefined, runtime: unknown): RunInfo =>
  infoIn(s, state, contextOf(runtime))

/**
 * The run's info, made the first time it is asked for. The async context it depends on (the tool
 * call the run was started in, the thread of the config) is read now, where the request is handled:
 * the info is often first asked for later, from inside a subagent that a tool of this run started,
 * where that context is the subagent's. (Read there, a run's info named its own tool call as its
 * parent and asked that call for the run's info again: a subagent of a middleware without agent
 * nodes ended in "Maximum call stack size exceeded".)
 */
export const lazyInfoOf = (s: State, state: Record<string, unknown> | undefined, runtime: unknown): (() => RunInfo) => {
  const context = contextOf(runtime)
  return once(() => infoIn(s, state, context))
}

/** SessionEnd for an open session; nothing of it is kept after. */
export const endSession = async (s: State, sessionId: string, reason: string) => {
  const session = s.openSessions.get(sessionId)
  if (session === undefined) return
  s.openSessions.delete(sessionId)
  s.lateNotes.delete(sessionId)
  try {
    await dispatch(s, "SessionEnd", { session_id: sessionId, transcript_path: session.transcriptPath, cwd: s.cwd, reason })
  } finally {
    // Its id is never seen again: nothing of it is kept (also when the dispatch was skipped or failed).
    if (session.perRun) s.startedSessions.delete(sessionId)
    Transcript.release(sessionId)
  }
}

/** The end of a run whose session ends with it (a main agent's, `perRun`): SessionEnd. */
export const endRunSession = async (s: State, info: RunInfo) => {
  if (info.agentId !== null || !info.perRun) return
  try {
    await endSession(s, info.sessionId, "other")
  } finally {
    // Also when the host ended the session during the run.
    s.startedSessions.delete(info.sessionId)
  }
}

/**
 * A run that throws ends here: its transcript is written in full and, when its session ends with
 * the run, SessionEnd (`reason: "other"`) runs once. The error then goes on as it is; a failing
 * SessionEnd is only a warning. Interrupts and parent commands (`isGraphBubbleUp`) are not failures.
 */
export const onThrow = async (s: State, info: RunInfo | undefined, error: unknown): Promise<never> => {
  Transcript.closeAll()
  if (info !== undefined && !isGraphBubbleUp(error)) {
    try {
      await endRunSession(s, info)
    } catch (endError) {
      s.warn(`SessionEnd after a failed run: ${errorMessage(endError)}`)
    }
  }
  throw error
}

/** Runs a hook; if it throws, `onThrow` with the run info of its request. */
export const guarded =
  <A extends [unknown, ...Array<unknown>], R>(s: State, f: (...args: A) => Promise<R>, infoFrom: (...args: A) => RunInfo | undefined) =>
  async (...args: A): Promise<R> => {
    try {
      return await f(...args)
    } catch (error) {
      return onThrow(s, infoFrom(...args), error)
    }
  }
