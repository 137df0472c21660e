import type * as Outcome from "@agent-hooks/core/Outcome"
import type { MastraHooks, MastraHooksOptions, StopCheck } from "../MastraHooks.ts"
import * as Adapter from "@agent-hooks/node/FrameworkAdapter"

const NAME = "@agent-hooks/mastra"

/** At most this many decisions and contexts are kept (calls that never ran are dropped first). */
const KEEP = 1000
const remember = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key)
  map.set(key, value)
  if (map.size > KEEP) map.delete(map.keys().next().value!)
}

const reasonOf = (outcome: Outcome.Outcome, fallback: string): string =>
  typeof outcome.reason === "string" && outcome.reason.trim() !== "" ? outcome.reason : fallback

const denies = (outcome: Outcome.Outcome) => outcome.blocked || outcome.decision === "deny"
const asks = (outcome: Outcome.Outcome) => outcome.decision === "ask" || outcome.decision === "defer"

/** `requireToolApproval` is not given the call's id: a decision waits for its call under the tool and its arguments. */
const keyOf = (toolName: string, args: unknown) => `${toolName}\u0000${JSON.stringify(args ?? null)}`

/** The text of a Mastra message (`content.parts` of type text, else `content.content`, else a string). */
const textOf = (message: unknown): string => {
  const content = (message as { content?: unknown }).content
  if (typeof content === "string") return content
  if (!Adapter.isRecord(content)) return ""
  const parts = Array.isArray(content["parts"]) ? (content["parts"] as Array<Record<string, unknown>>) : []
  const texts = parts.filter((part) => part["type"] === "text" && typeof part["text"] === "string").map((part) => part["text"] as string)
  if (texts.length > 0) return texts.join("\n")
  return typeof content["content"] === "string" ? content["content"] : ""
}

export const make = (options: MastraHooksOptions = {}): MastraHooks => {
  const a = Adapter.make(options, NAME)
  /** PreToolUse decisions made by `requireToolApproval`, waiting for their call. */
  const pending = new Map<string, { readonly outcome: Outcome.Outcome; readonly asked: boolean }>()
  /**
   * Whether the processor sees the runs start (it clears the asks of earlier runs). Without it an
   * approved ask cannot be told from a declined one of an earlier run: every ask is a deny.
   */
  let runsSeen = false
  /** What the hooks said for the model since its last step. */
  const forModel: Array<string> = []

  /** The conversation of the last step (the processor sees it), for a dispatch Mastra gives no messages. */
  let lastMessages: ReadonlyArray<unknown> | undefined
  const withCall = (messages: ReadonlyArray<unknown> | undefined, name: string, input: unknown, toolCallId: string | undefined) => {
    const base = messages ?? lastMessages
    return base === undefined
      ? undefined
      : [...base, { role: "assistant", content: [{ type: "tool-call", toolCallId: toolCallId ?? "", toolName: name, input }] }]
  }
  const messagesOf = (context: unknown): ReadonlyArray<unknown> | undefined => {
    const messages = (context as { messages?: unknown } | undefined)?.messages
    return Array.isArray(messages) ? messages : undefined
  }

  const preToolUse = (name: string, input: unknown, toolCallId: string | undefined, messages?: ReadonlyArray<unknown>) =>
    a.dispatch(
      "PreToolUse",
      () => {
        const tool = a.tool(name)
        return {
          ...a.common(),
          hook_event_name: "PreToolUse",
          tool_name: tool.name,
          tool_input: tool.toInput(Adapter.isRecord(input) ? input : {}),
          ...(toolCallId === undefined ? {} : { tool_use_id: toolCallId })
        }
      },
      true,
      () => withCall(messages, name, input, toolCallId)
    )

  const requireToolApproval: MastraHooks["requireToolApproval"] = async ({ args, toolName }) => {
    const outcome = await preToolUse(toolName, args, undefined)
    const asked = !denies(outcome) && asks(outcome)
    remember(pending, keyOf(toolName, args), { outcome, asked })
    return asked
  }

  const beforeToolCall: MastraHooks["toolHooks"]["beforeToolCall"] = async (context) => {
    const { input, toolName } = context
    const toolCallId = (context.context as { toolCallId?: unknown } | undefined)?.toolCallId
    const key = keyOf(toolName, input)
    const decided = pending.get(key)
    pending.delete(key)
    const outcome =
      decided?.outcome ??
      (await preToolUse(toolName, input, typeof toolCallId === "string" ? toolCallId : undefined, messagesOf(context.context)))
    const label = a.tool(toolName).name
    forModel.push(...(outcome.additionalContext ?? []))
    if (denies(outcome)) return { proceed: false, output: reasonOf(outcome, `Blocked by a PreToolUse hook (${label})`) }
    // Asked through requireToolApproval: the run only gets here once a human approved the call.
    if (asks(outcome) && !(decided?.asked === true && runsSeen)) {
      return {
        proceed: false,
        output: `${reasonOf(outcome, `A PreToolUse hook asks for approval of this ${label} call`)} (approval needed; no one to ask: pass requireToolApproval: hooks.requireToolApproval to generate/stream to ask a human)`
      }
    }
    const updated = outcome.updatedInput
    if (updated !== null && updated !== undefined) {
      // The tool runs with the object the hook is given: the rewrite replaces its fields.
      if (!Adapter.isRecord(input) || !Adapter.isRecord(updated)) {
        return { proceed: false, output: `A PreToolUse hook rewrote this ${label} call's input, which cannot be applied to it` }
      }
      const next = a.tool(toolName).fromInput(updated)
      for (const field of Object.keys(input)) delete input[field]
      Object.assign(input, next)
    }
    return undefined
  }

  const afterToolCall: MastraHooks["toolHooks"]["afterToolCall"] = async (context) => {
    const { error, input, output, toolName } = context
    const tool = a.tool(toolName)
    const toolCallId = (context.context as { toolCallId?: unknown } | undefined)?.toolCallId
    const common = {
      ...a.common(),
      tool_name: tool.name,
      tool_input: tool.toInput(Adapter.isRecord(input) ? input : {}),
      ...(typeof toolCallId === "string" ? { tool_use_id: toolCallId } : {})
    }
    if (error !== undefined) {
      const failure = await a.dispatch(
        "PostToolUseFailure",
        () => ({ ...common, hook_event_name: "PostToolUseFailure", error: error instanceof Error ? error.message : String(error) }),
        false
      )
      forModel.push(...(failure.additionalContext ?? []))
      return
    }
    const post = await a.dispatch("PostToolUse", () => ({ ...common, hook_event_name: "PostToolUse", tool_response: output }), false)
    // Claude Code gives the model a PostToolUse block's reason and the hooks' context after the result.
    forModel.push(...(post.blocked && post.reason ? [post.reason] : []), ...(post.additionalContext ?? []))
  }

  const processor: MastraHooks["processor"] = {
    id: "agent-hooks",
    name: "agent-hooks",
    processInput: async ({ abort, messages, systemMessages }) => {
      // A new run: an ask still waiting from an earlier one (declined, or never answered) is not
      // an approval here. A run resumed after it then finds no decision, and the hooks decide again.
      for (const [key, entry] of pending) if (entry.asked) pending.delete(key)
      runsSeen = true
      const last = [...messages].reverse().find((message) => (message as { role?: unknown }).role === "user")
      if (last === undefined) return messages
      const prompt = textOf(last)
      const outcome = await a.dispatch("UserPromptSubmit", () => ({ ...a.common(), hook_event_name: "UserPromptSubmit", prompt }), true)
      if (outcome.blocked) abort(reasonOf(outcome, "Blocked by a UserPromptSubmit hook"))
      const context = outcome.additionalContext ?? []
      if (context.length === 0) return messages
      return { messages, systemMessages: [...systemMessages, ...context.map((content) => ({ role: "system" as const, content }))] }
    },
    processInputStep: async ({ messages, systemMessages }) => {
      lastMessages = messages
      if (forModel.length === 0) return undefined
      const said = forModel.splice(0)
      return { systemMessages: [...systemMessages, ...said.map((content) => ({ role: "system" as const, content }))] }
    }
  }

  const stop = async (
    result: { readonly text: string },
    stopOptions?: { readonly stopHookActive?: boolean | undefined }
  ): Promise<StopCheck> => {
    const outcome = await a.dispatch(
      "Stop",
      () => ({
        ...a.common(),
        hook_event_name: "Stop",
        stop_hook_active: stopOptions?.stopHookActive === true,
        last_assistant_message: result.text
      }),
      false
    )
    return outcome.blocked ? { block: true, reason: reasonOf(outcome, "A Stop hook asks the agent to go on") } : { block: false }
  }

  return {
    toolHooks: { beforeToolCall, afterToolCall },
    requireToolApproval,
    processor,
    stop,
    toolName: (name) => a.tool(name).name,
    close: a.close
  }
}
