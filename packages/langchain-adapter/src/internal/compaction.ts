/**
 * Compaction: LangChain's `summarizationMiddleware` with PreCompact and PostCompact around it.
 */
import type { BaseMessage } from "@langchain/core/messages"
import type { AgentMiddleware } from "langchain"
import { dispatch } from "./dispatch.ts"
import { messageText, messageType } from "./messages.ts"
import { common, infoOf, transcriptOf } from "./session.ts"
import type { State } from "./state.ts"
import { isRecord } from "./util.ts"

type BeforeModel = (state: Record<string, unknown>, runtime: unknown) => unknown

/** What the middleware gives the wrapper: PreCompact (may block) and PostCompact, for a state. */
export interface CompactHooks {
  readonly stateSchema: unknown
  readonly pre: (state: Record<string, unknown>, runtime: unknown) => Promise<{ readonly blocked: boolean }>
  readonly post: (state: Record<string, unknown>, runtime: unknown, summary: string) => Promise<void>
}

/** The summary message of a summarization update (`RemoveMessage(all)`, summary, kept messages). */
const summaryOf = (update: unknown): BaseMessage | undefined => {
  if (!isRecord(update) || !Array.isArray(update["messages"])) return undefined
  const [first, second] = update["messages"] as Array<BaseMessage>
  if (first === undefined || second === undefined || messageType(first) !== "remove") return undefined
  return second
}

/**
 * `summarizationMiddleware` with PreCompact / PostCompact around its compaction. It decides inside
 * its `beforeModel` whether to summarize, so the hooks run once the summary is made and before it
 * replaces the messages: a PreCompact block (exit 2, `decision: "block"`) discards it and the
 * messages stay as they are; PostCompact gets the summary as `compact_summary`.
 */
export const wrap = <M extends AgentMiddleware>(summarization: M, hooks: CompactHooks): M => {
  const original = summarization.beforeModel as BeforeModel | { hook: BeforeModel; canJumpTo?: ReadonlyArray<string> } | undefined
  if (original === undefined) return summarization
  const run = typeof original === "function" ? original : original.hook
  const beforeModel: BeforeModel = async (state, runtime) => {
    const update = await run(state, runtime)
    const summary = summaryOf(update)
    if (summary === undefined) return update
    const pre = await hooks.pre(state, runtime)
    if (pre.blocked) return undefined
    await hooks.post(state, runtime, messageText(summary))
    return update
  }
  return {
    ...summarization,
    // The adapter's private state (the session) is read here too.
    stateSchema: summarization.stateSchema ?? hooks.stateSchema,
    beforeModel: typeof original === "function" ? beforeModel : { ...original, hook: beforeModel }
  } as M
}

/** The compaction events of a middleware's sessions: PreCompact (`trigger: "auto"`), then PostCompact with the summary. */
export const hooksOf = (s: State): CompactHooks => ({
  stateSchema: undefined,
  pre: async (state, runtime) => {
    const info = infoOf(s, state, runtime)
    transcriptOf(s, info).sync(state["messages"] as Array<BaseMessage> | undefined)
    const outcome = await dispatch(s, "PreCompact", { ...common(s, info, false), trigger: "auto", custom_instructions: "" })
    return { blocked: outcome.blocked }
  },
  post: async (state, runtime, summary) => {
    if (!s.engine.hasHooks("PostCompact")) return
    await dispatch(s, "PostCompact", { ...common(s, infoOf(s, state, runtime), false), trigger: "auto", compact_summary: summary })
  }
})
