/**
 * `hooksMiddleware`: the middleware's state (`state.ts`) and one module per hook point, put
 * together as LangChain agent middleware. Only what the engine's hooks can need is registered.
 *
 * | hook point | module |
 * | --- | --- |
 * | `beforeAgent` (SessionStart, UserPromptSubmit, SubagentStart), `submitPrompt` | `agentStart.ts` |
 * | `wrapModelCall` (BeforeModel, AfterModel, async hooks' notes, PreToolUse decisions) | `modelCall.ts`, `preToolUse.ts` |
 * | `wrapToolCall` (PreToolUse applied, PostToolUse, PostToolUseFailure) | `toolCall.ts` |
 * | `afterAgent` (Stop, SubagentStop) | `stop.ts` |
 * | PreCompact, PostCompact around `summarizationMiddleware` | `compaction.ts` |
 * | SessionEnd (end of a run, `endSession`, `close`) | `session.ts` |
 */
import { createMiddleware } from "langchain"
import type { AgentMiddleware } from "langchain"
import type { HooksMiddleware, HooksMiddlewareOptions } from "../HooksMiddleware.ts"
import { beforeAgent, submitPrompt } from "./agentStart.ts"
import * as Compaction from "./compaction.ts"
import { modelCall, wrapModelCall } from "./modelCall.ts"
import type { ModelHandler, ModelRequest } from "./modelCall.ts"
import { endSession, guarded, infoOf } from "./session.ts"
import * as State from "./state.ts"
import { afterAgent } from "./stop.ts"
import { wrapToolCall } from "./toolCall.ts"
import type { ToolHandler, ToolRequest } from "./toolCall.ts"
import * as Transcript from "./transcript.ts"

/** The LangChain middleware of a state: only the hook points its engine's hooks can need. */
type AgentState = Record<string, unknown>

const agentMiddleware = (s: State.State) => {
  const name = s.options.name ?? "AgentHooksMiddleware"
  if (!s.anyHooked) return createMiddleware({ name })
  if (!s.agentNodes) {
    // Without agent nodes a throw has nothing to end (no per-run SessionEnd can match).
    return createMiddleware({
      name,
      wrapModelCall: ((request: ModelRequest, handler: ModelHandler) => wrapModelCall(s, request, handler)) as never,
      wrapToolCall: ((request: ToolRequest, handler: ToolHandler) => wrapToolCall(s, request, handler)) as never
    })
  }
  const requestInfo = (request: { state: AgentState; runtime: unknown }) => infoOf(s, request.state, request.runtime)
  const start = (state: AgentState, runtime: unknown) => beforeAgent(s, state, runtime)
  const end = (state: AgentState, runtime: unknown) => afterAgent(s, state, runtime)
  return createMiddleware({
    name,
    // beforeAgent finds its run info itself.
    beforeAgent: { canJumpTo: ["end"], hook: guarded(s, start, () => undefined) as never },
    afterAgent: { canJumpTo: ["model"], hook: guarded(s, end, (state, runtime) => infoOf(s, state, runtime)) as never },
    // With agent nodes every model call has work to do (the transcript is kept up to date).
    wrapModelCall: guarded(s, (request: ModelRequest, handler: ModelHandler) => modelCall(s, request, handler), requestInfo) as never,
    wrapToolCall: guarded(s, (request: ToolRequest, handler: ToolHandler) => wrapToolCall(s, request, handler), requestInfo) as never
  })
}

/** Ends the open sessions, and releases the engine if the middleware built it. Safe to call twice. */
const close = async (s: State.State) => {
  if (s.closed) return
  s.closed = true
  for (const id of [...s.openSessions.keys()]) await endSession(s, id, "other")
  Transcript.closeAll()
  await s.engine.close()
}

/** @internal */
export const make = (options: HooksMiddlewareOptions): HooksMiddleware => {
  const s = State.make(options)
  return Object.assign(agentMiddleware(s), {
    compaction: <M extends AgentMiddleware>(summarization: M): M => Compaction.wrap(summarization, Compaction.hooksOf(s)),
    submitPrompt: (prompt: string, config?: { readonly configurable?: Record<string, unknown> | undefined }) =>
      submitPrompt(s, prompt, config),
    endSession: async (end?: { readonly sessionId?: string | undefined; readonly reason?: string | undefined }) => {
      const ids = end?.sessionId === undefined ? [...s.openSessions.keys()] : [end.sessionId]
      for (const id of ids) await endSession(s, id, end?.reason ?? "other")
    },
    close: () => close(s),
    toolName: s.toolName,
    [Symbol.asyncDispose]: () => close(s)
  }) as unknown as HooksMiddleware
}
