/**
 * The end of a run (`afterAgent`): Stop (SubagentStop for a subagent), whose block sends the agent
 * back to the model with the hook's feedback, at most `stopBlockCap` times in a row; then the
 * run's SessionEnd when its session ends with it.
 */
import { randomUUID } from "node:crypto"
import { HumanMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import * as StopGuard from "@agent-hooks/core/StopGuard"
import { dispatch } from "./dispatch.ts"
import { isHookAnswer, lastOfType, messageText, messageType, promptId } from "./messages.ts"
import { common, endRunSession, infoOf, transcriptOf } from "./session.ts"
import type { State } from "./state.ts"
import * as Transcript from "./transcript.ts"

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

export const afterAgent = async (s: State, state: Record<string, unknown>, runtime: unknown) => {
  const info = infoOf(s, state, runtime)
  const messages = state["messages"] as Array<BaseMessage> | undefined
  transcriptOf(s, info).sync(messages)
  // The end of the run: the transcript is written in full.
  const finish = async () => {
    await endRunSession(s, info)
    Transcript.closeAll()
  }
  // A run a hook ended (a blocked prompt, `continue: false`) does not ask the Stop hooks.
  if (isHookAnswer(messages?.at(-1)) || s.halts.has(promptId(messages) ?? "")) {
    await finish()
    return undefined
  }
  const stopBlocks = stopBlocksOf(messages)
  const last = lastOfType(messages, "ai")
  const event = info.agentId === null ? "Stop" : "SubagentStop"
  const outcome = await dispatch(s, event, {
    ...common(s, info),
    stop_hook_active: stopBlocks > 0,
    last_assistant_message: last === undefined ? "" : messageText(last),
    ...(info.agentTranscriptPath === null ? {} : { agent_transcript_path: info.agentTranscriptPath })
  })
  if (outcome.blocked && outcome.continue) {
    // The engine's Stop guard rule: after stopBlockCap blocks in a row the agent may stop.
    if (StopGuard.reached(stopBlocks, s.stopBlockCap)) {
      s.warn(`${event} hooks blocked ${stopBlocks} times in a row; the agent stops anyway (stopBlockCap ${s.stopBlockCap}, 0 = off)`)
    } else {
      const reason = outcome.reason ?? `${event} hook asked to continue`
      // The feedback message is also the count of this run's blocks (stopBlocksOf).
      const feedback = new HumanMessage({
        id: randomUUID(),
        content: `${event} hook feedback:\n${reason}`,
        additional_kwargs: { agent_hooks: { event } }
      })
      return { jumpTo: "model" as const, messages: [feedback] }
    }
  }
  await finish()
  return undefined
}
