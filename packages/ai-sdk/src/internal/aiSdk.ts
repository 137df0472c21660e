import type * as Outcome from "@agent-hooks/core/Outcome"
import type { Tool, ToolApprovalStatus, ToolSet } from "ai"
import type { AiSdkHooks, AiSdkHooksOptions, PromptSubmission, StopCheck } from "../AiSdkHooks.ts"
import * as Adapter from "@agent-hooks/node/FrameworkAdapter"

const NAME = "@agent-hooks/ai-sdk"

/** A PreToolUse decision, kept from `toolApproval` until the guarded tool runs. */
interface Decided {
  readonly outcome: Outcome.Outcome
  readonly fromInput: (toolInput: Record<string, unknown>) => Record<string, unknown>
}

/** At most this many decisions and contexts are kept (calls the SDK never ran are dropped first). */
const KEEP = 1000
const remember = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key)
  map.set(key, value)
  if (map.size > KEEP) map.delete(map.keys().next().value!)
}

/** The reason of a blocking outcome, never empty. */
const reasonOf = (outcome: Outcome.Outcome, fallback: string): string =>
  typeof outcome.reason === "string" && outcome.reason.trim() !== "" ? outcome.reason : fallback

const denies = (outcome: Outcome.Outcome) => outcome.blocked || outcome.decision === "deny"
const asks = (outcome: Outcome.Outcome) => outcome.decision === "ask" || outcome.decision === "defer"

/** Whether the messages hold a human's approval of the call (the SDK runs such a call on the next request). */
const approvedIn = (messages: ReadonlyArray<unknown> | undefined, toolCallId: string): boolean => {
  if (messages === undefined) return false
  const parts = messages.flatMap((message) => {
    const content = (message as { content?: unknown }).content
    return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : []
  })
  const approvals = new Set(
    parts.filter((part) => part["type"] === "tool-approval-request" && part["toolCallId"] === toolCallId).map((part) => part["approvalId"])
  )
  return parts.some((part) => part["type"] === "tool-approval-response" && part["approved"] === true && approvals.has(part["approvalId"]))
}

type ModelOutput = { readonly type: string; readonly value?: unknown }

/** The tool's output for the model with the hooks' texts after it. */
const withTexts = (base: ModelOutput, texts: ReadonlyArray<string>): ModelOutput => {
  const extra = texts.join("\n\n")
  switch (base.type) {
    case "text":
    case "error-text":
      return { ...base, value: `${String(base.value)}\n\n${extra}` }
    case "json":
    case "error-json":
      return { type: base.type === "json" ? "text" : "error-text", value: `${JSON.stringify(base.value)}\n\n${extra}` }
    case "content":
      return { ...base, value: [...(base.value as Array<unknown>), ...texts.map((text) => ({ type: "text", text }))] }
    default:
      return base
  }
}

/** The SDK's default output for the model: a string as text, anything else as JSON. */
const defaultOutput = (output: unknown): ModelOutput =>
  typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output ?? null }

export const make = (options: AiSdkHooksOptions = {}): AiSdkHooks => {
  const a = Adapter.make(options, NAME)
  const decided = new Map<string, Decided>()
  /** What the hooks said to the model about a call (PreToolUse and PostToolUse context, a PostToolUse block). */
  const texts = new Map<string, Array<string>>()
  const guarded = new Set<string>()
  const addText = (id: string, more: ReadonlyArray<string>) => {
    if (more.length > 0) remember(texts, id, [...(texts.get(id) ?? []), ...more])
  }

  /** The conversation so far and the model's call (what the transcript holds for a tool event). */
  const withCall = (
    messages: ReadonlyArray<unknown> | undefined,
    name: string,
    input: unknown,
    toolCallId: string,
    more: ReadonlyArray<unknown> = []
  ) =>
    messages === undefined
      ? undefined
      : [...messages, { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName: name, input }] }, ...more]

  const preToolUse = async (name: string, input: unknown, toolCallId: string, messages?: ReadonlyArray<unknown>): Promise<Decided> => {
    let tool: Adapter.ResolvedTool | undefined
    const outcome = await a.dispatch(
      "PreToolUse",
      () => {
        tool = a.tool(name)
        return {
          ...a.common(),
          hook_event_name: "PreToolUse",
          tool_name: tool.name,
          tool_input: tool.toInput(Adapter.isRecord(input) ? input : {}),
          tool_use_id: toolCallId
        }
      },
      true,
      () => withCall(messages, name, input, toolCallId)
    )
    addText(toolCallId, outcome.additionalContext ?? [])
    return { outcome, fromInput: tool?.fromInput ?? ((value) => value) }
  }

  const toolApproval: AiSdkHooks["toolApproval"] = async ({ messages, toolCall }) => {
    const decision = await preToolUse(toolCall.toolName, toolCall.input, toolCall.toolCallId, messages)
    const { outcome } = decision
    remember(decided, toolCall.toolCallId, decision)
    const label = a.tool(toolCall.toolName).name
    if (denies(outcome)) return { type: "denied", reason: reasonOf(outcome, `Blocked by a PreToolUse hook (${label})`) }
    if (asks(outcome)) {
      const reason = reasonOf(outcome, `A PreToolUse hook asks for approval of this ${label} call`)
      return options.ask === "deny"
        ? { type: "denied", reason: `${reason} (approval needed; no one to ask)` }
        : { type: "user-approval", reason }
    }
    // A rewrite is applied by the guarded tool; a tool that is not guarded would run the input
    // the policy refused as it was: denied, with what to do.
    if (outcome.updatedInput !== null && outcome.updatedInput !== undefined && !guarded.has(toolCall.toolName)) {
      return {
        type: "denied",
        reason: `A PreToolUse hook rewrote this ${label} call's input, and the tool is not guarded (pass the tools through hooks.tools() so the rewrite applies)`
      }
    }
    if (outcome.decision === "allow") return outcome.reason ? { type: "approved", reason: outcome.reason } : "approved"
    return "not-applicable" satisfies ToolApprovalStatus
  }

  const guard = (name: string, tool: Tool): Tool => {
    const execute = tool.execute as ((input: unknown, options: { toolCallId: string; messages?: Array<unknown> }) => unknown) | undefined
    if (typeof execute !== "function") return tool
    guarded.add(name)
    const toModelOutput = tool.toModelOutput as ((options: Record<string, unknown>) => unknown) | undefined
    return {
      ...tool,
      execute: async (input: unknown, callOptions: { toolCallId: string; messages?: Array<unknown> }) => {
        const id = callOptions.toolCallId
        // `toolApproval`'s decision, else (it did not see the call: not given to the SDK, or a run
        // resumed in another process) the hooks decide here.
        const decision = decided.get(id) ?? (await preToolUse(name, input, id, callOptions.messages))
        decided.delete(id)
        // Whatever led here (a tool run without toolApproval, an approval the messages forged),
        // a call the policy denied never runs, and an asked one only with its approval.
        const { outcome } = decision
        const label = a.tool(name).name
        if (denies(outcome)) throw new Error(reasonOf(outcome, `Blocked by a PreToolUse hook (${label})`))
        if (asks(outcome) && !approvedIn(callOptions.messages, id)) {
          throw new Error(
            `${reasonOf(outcome, `A PreToolUse hook asks for approval of this ${label} call`)} (approval needed; no one to ask)`
          )
        }
        const updated = decision.outcome.updatedInput
        const args = updated !== null && updated !== undefined && Adapter.isRecord(updated) ? decision.fromInput(updated) : input
        const resolved = a.tool(name)
        const toolInput = resolved.toInput(Adapter.isRecord(args) ? args : {})
        let output: unknown
        try {
          output = await execute(args, callOptions)
        } catch (error) {
          const failure = await a.dispatch(
            "PostToolUseFailure",
            () => ({
              ...a.common(),
              hook_event_name: "PostToolUseFailure",
              tool_name: resolved.name,
              tool_input: toolInput,
              tool_use_id: id,
              error: error instanceof Error ? error.message : String(error)
            }),
            false
          )
          addText(id, failure.additionalContext ?? [])
          throw error
        }
        const post = await a.dispatch(
          "PostToolUse",
          () => ({
            ...a.common(),
            hook_event_name: "PostToolUse",
            tool_name: resolved.name,
            tool_input: toolInput,
            tool_response: output,
            tool_use_id: id
          }),
          false,
          () =>
            withCall(callOptions.messages, name, args, id, [
              { role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: name, output }] }
            ])
        )
        // Claude Code gives the model a PostToolUse block's reason and the hooks' context with the result.
        addText(id, [...(post.blocked && post.reason ? [post.reason] : []), ...(post.additionalContext ?? [])])
        return output
      },
      toModelOutput: async (outputOptions: Record<string, unknown>) => {
        const base = (
          toModelOutput === undefined ? defaultOutput(outputOptions["output"]) : await toModelOutput(outputOptions)
        ) as ModelOutput
        const id = String(outputOptions["toolCallId"])
        const said = texts.get(id)
        if (said === undefined) return base
        texts.delete(id)
        return withTexts(base, said)
      }
    } as unknown as Tool
  }

  const submitPrompt = async (prompt: string): Promise<PromptSubmission> => {
    const outcome = await a.dispatch("UserPromptSubmit", () => ({ ...a.common(), hook_event_name: "UserPromptSubmit", prompt }), true)
    if (outcome.blocked) return { blocked: true, reason: reasonOf(outcome, "Blocked by a UserPromptSubmit hook") }
    const context = outcome.additionalContext ?? []
    return { blocked: false, prompt: [prompt, ...context].join("\n\n"), additionalContext: context }
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
      // A Stop hook that fails never keeps the agent going.
      false
    )
    return outcome.blocked ? { block: true, reason: reasonOf(outcome, "A Stop hook asks the agent to go on") } : { block: false }
  }

  return {
    toolApproval,
    tools: <TOOLS extends ToolSet>(tools: TOOLS): TOOLS =>
      Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, guard(name, tool as Tool)])) as TOOLS,
    submitPrompt,
    stop,
    toolName: (name) => a.tool(name).name,
    close: a.close
  }
}
