import type { DispatchOutcome } from "../HookDispatcher.ts"
import type { HooksMiddlewareOptions } from "../HooksMiddleware.ts"
import * as Engine from "./engine.ts"
import { resolver } from "./toolNames.ts"
import type { ResolvedTool } from "./toolNames.ts"
import * as Transcript from "./transcript.ts"

/**
 * What the middleware knows of one run, made where it is needed: from the thread (or the run's
 * first message, or the tool call a subagent runs in). Nothing of it is kept in the graph state:
 * LangChain's `stream()` emits every state key, private ones too, in `values` and `updates` chunks.
 * What a run must remember is in its messages (a Stop hook's feedback, a hook's answer that ended
 * the run, the decisions of a turn that asked a human), so it is checkpointed with them.
 */
export interface RunInfo {
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
export interface CallRecord {
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

/** Whether no hook of the tool events can match a tool: `pre` for PreToolUse, `all` for PostToolUse and PostToolUseFailure too. */
export interface QuietTool {
  readonly pre: boolean
  readonly all: boolean
}

/**
 * One middleware's state: its settings (read once from the options) and what it remembers across
 * runs. Every hook point is a function of it.
 */
export interface State {
  readonly options: HooksMiddlewareOptions
  readonly engine: Engine.Engine
  /** Failures are heard: a guard that timed out, crashed or was skipped lets the tool run. */
  readonly warn: (warning: string) => void
  readonly cwd: string
  readonly permissionMode: string
  readonly transcriptDir: () => string
  readonly stopBlockCap: number
  readonly tools: (langchainName: string) => ResolvedTool
  readonly toolName: (langchainName: string) => string
  readonly beforeModelEvent: string | undefined
  readonly afterModelEvent: string | undefined
  /** The engine's hooked events when the middleware was built (`undefined`: not known, everything is registered). */
  readonly hooked: ReadonlySet<string> | undefined
  /** Some hook of the agent loop's events may run: without one the middleware registers no hook point. */
  readonly anyHooked: boolean
  /** The agent nodes (`beforeAgent`, `afterAgent`) are registered. */
  readonly agentNodes: boolean
  /** A reload that needs agent nodes was reported. */
  reloadHeard: boolean
  closed: boolean
  /** Sessions that had their SessionStart and no SessionEnd yet. */
  readonly openSessions: Map<string, { readonly transcriptPath: string; readonly perRun: boolean }>
  /**
   * Sessions seen (SessionStart done): a thread's id stays here, so a thread ended by `endSession()`
   * and run again is not started twice. A per-run session's id leaves with its SessionEnd.
   */
  readonly startedSessions: Set<string>
  /** Tool calls for which no PreToolUse hook ran when the model asked for them: id → input (JSON). */
  readonly quietCalls: Map<string, string>
  /** PreToolUse decisions of a turn that asks no one, per tool call id (the tool calls read them). */
  readonly decidedCalls: Map<string, CallRecord>
  /** The session of a run without thread, by the id of its first message. */
  readonly runSessions: Map<string, string>
  /**
   * A hook's `continue: false` in a tool call, by the id of the run's prompt (its last human
   * message): the next model call answers in its place.
   */
  readonly halts: Map<string, string>
  /**
   * What `async` hooks said for the model and it has not seen yet, by session ("": a result that
   * names none): given at the session's next model call.
   */
  readonly lateNotes: Map<string, Array<string>>
  /** Prompts that `submitPrompt` let through, by message id: their UserPromptSubmit outcome. */
  readonly submittedPrompts: Map<string, DispatchOutcome>
  /** Whether the tool events' hooks can match a tool, per tool, while `quietFor` is the engine's hooked events. */
  readonly quietTools: Map<string, QuietTool>
  quietFor: ReadonlySet<string> | undefined
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

/**
 * The agent nodes are needed only when a hook of the run's start or end may run (SessionStart on
 * "startup" or "resume", UserPromptSubmit, SubagentStart, Stop, SubagentStop, SessionEnd on
 * "other"). Else the run's session comes from the thread, or from its first message.
 */
const needsAgentNodes = (engine: Engine.Engine, cwd: string, events: ReadonlySet<string> | undefined): boolean => {
  /** Some hook of `event` may match a payload with `fields` (the matcher's field is what counts). */
  const mayMatch = (event: string, fields: Record<string, unknown>) =>
    engine.hasHooks(event) && engine.unmatched(event, { session_id: "", transcript_path: "", cwd, ...fields }) === undefined
  return (
    events === undefined ||
    ["UserPromptSubmit", "SubagentStart", "Stop", "SubagentStop"].some((event) => events.has(event)) ||
    mayMatch("SessionStart", { source: "startup" }) ||
    mayMatch("SessionStart", { source: "resume" }) ||
    mayMatch("SessionEnd", { reason: "other" })
  )
}

/** The state of a new middleware. */
export const make = (options: HooksMiddlewareOptions): State => {
  // Failures are heard: a guard that timed out, crashed or was skipped lets the tool run, so its
  // warning goes to the console unless the host takes it.
  const warn = options.onWarning ?? ((warning: string) => console.warn(`[agent-hooks] ${warning}`))
  const engine = Engine.fromOptions(options, warn)
  const cwd = options.cwd ?? process.cwd()
  let transcriptDir: string | undefined = options.transcriptDir
  // The built-in mapping applies where the preset uses the names it maps to, unless the host says (`defaultToolNames`).
  const tools = resolver(
    options.toolNames,
    options.defaultToolNames === undefined ? "preset" : options.defaultToolNames,
    engine.toolNames,
    engine.toolNamesKnown
  )
  const beforeModelEvent = options.turnEvents === false ? undefined : (options.turnEvents?.beforeModel ?? "BeforeModel")
  const afterModelEvent = options.turnEvents === false ? undefined : (options.turnEvents?.afterModel ?? "AfterModel")
  // What LangChain runs costs even when it does nothing (a state key about 8 % of a run with a
  // model that answers at once, a beforeAgent node 13 %, an afterModel node 35 %): only what the
  // engine's hooks can need is registered. Known from the engine now (a built engine); unknown (a
  // layer or engine options, built later; an engine that reloads its settings): everything.
  const hooked = engine.hooked()
  return {
    options,
    engine,
    warn,
    cwd,
    permissionMode: options.permissionMode ?? "default",
    transcriptDir: () => (transcriptDir ??= Transcript.defaultDir()),
    stopBlockCap: options.stopBlockCap ?? 8,
    tools,
    toolName: (name) => tools(name).name,
    beforeModelEvent,
    afterModelEvent,
    hooked,
    anyHooked: hooked === undefined || agentLoopEvents(beforeModelEvent, afterModelEvent).some((event) => hooked.has(event)),
    agentNodes: needsAgentNodes(engine, cwd, hooked),
    reloadHeard: false,
    closed: false,
    openSessions: new Map(),
    startedSessions: new Set(),
    quietCalls: new Map(),
    decidedCalls: new Map(),
    runSessions: new Map(),
    halts: new Map(),
    lateNotes: new Map(),
    submittedPrompts: new Map(),
    quietTools: new Map(),
    quietFor: undefined
  }
}

/**
 * An engine that reloaded its settings (and did not say it would, `watching`) may now have hooks
 * that need the agent nodes this middleware was built without: they cannot run in agents built
 * before, and that is said once.
 */
export const checkReload = (s: State): void => {
  if (s.agentNodes || s.reloadHeard) return
  const now = s.engine.hooked()
  if (now === s.hooked || !needsAgentNodes(s.engine, s.cwd, now)) return
  s.reloadHeard = true
  s.warn(
    "the engine's settings changed and now have hooks for the start or end of a run " +
      "(SessionStart, UserPromptSubmit, SubagentStart, Stop, SubagentStop or SessionEnd); " +
      "they do not run in agents built before the change: build the agent again, " +
      "or give the middleware an engine that says it reloads (watching: true)"
  )
}
