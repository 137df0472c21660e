import { AIMessage, ToolMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { Command, isCommand } from "@langchain/langgraph"
import { messageType, toolCallsOf } from "./messages.ts"
import type { ToolCallLike } from "./messages.ts"
import type * as Review from "./review.ts"
import { isRecord } from "./util.ts"

/** What the middleware reads of a tool's `ToolMessage`. */
export interface ToolMessageLike extends BaseMessage {
  readonly tool_call_id: string
  readonly status?: "success" | "error" | undefined
  readonly artifact?: unknown
}

/** What the model reads for a tool that threw. */
export const thrownText = (message: string): string => `Error: ${message}\n Please fix your mistakes.`

/** A tool call's result in place of the tool's: an error the model reads. */
export const refusal = (call: ToolCallLike, text: string) =>
  new ToolMessage({ content: text, tool_call_id: call.id ?? "", name: call.name, status: "error" })

export const withContent = (message: ToolMessageLike, content: string | Array<unknown>, status?: "success" | "error") =>
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

/** The messages of a `Command`'s update (a record or a list of pairs), as a list. */
const updateMessages = (update: Command["update"]): Array<unknown> => {
  const messages = isRecord(update)
    ? update["messages"]
    : Array.isArray(update)
      ? update.find((entry) => entry[0] === "messages")?.[1]
      : undefined
  return Array.isArray(messages) ? messages : messages === undefined ? [] : [messages]
}

/** A copy of `command` with another update (its `goto`, `graph` and `resume` kept). */
const withUpdate = (command: Command, update: Record<string, unknown> | Array<[string, unknown]>): Command =>
  new Command({
    update,
    ...(command.goto === undefined ? {} : { goto: command.goto }),
    ...(command.graph === undefined ? {} : { graph: command.graph }),
    ...(command.resume === undefined ? {} : { resume: command.resume })
  })

/** The `ToolMessage` of a tool call's result: the result itself, or the one a `Command` adds. */
export const toolMessageOf = (result: unknown, toolCallId: string | undefined): ToolMessageLike | undefined => {
  if (isCommand(result)) {
    const tools = updateMessages((result as Command).update).filter(
      (message): message is ToolMessageLike => isRecord(message) && messageType(message as unknown as BaseMessage) === "tool"
    )
    return tools.find((message) => message.tool_call_id === toolCallId) ?? tools[0]
  }
  return isRecord(result) && messageType(result as unknown as BaseMessage) === "tool" ? (result as unknown as ToolMessageLike) : undefined
}

/** Replaces the tool message in a result (a `ToolMessage` or a `Command`). */
export const replaceToolMessage = (
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
  if (Array.isArray(command.update)) {
    const update = command.update.map(([key, value]): [string, unknown] => [key, key === "messages" ? swap(value) : value])
    if (original === undefined) update.push(["messages", [replacement]])
    return withUpdate(command, update)
  }
  const current = command.update ?? {}
  const messages = original === undefined ? [...updateMessages(current), replacement] : swap(current["messages"])
  return withUpdate(command, { ...current, messages })
}

/** The model's message of a turn with the human's edits in its tool calls. */
export const revisedTurn = (turn: BaseMessage, asked: ReadonlyArray<ToolCallLike>, answers: ReadonlyArray<Review.Answer>): AIMessage => {
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

/** A tool call's result, with the model's message revised (same id: it replaces the original) first. */
export const withRevision = (result: ToolMessage | Command, revision: AIMessage | undefined): ToolMessage | Command => {
  if (revision === undefined) return result
  if (!isCommand(result)) return new Command({ update: { messages: [revision, result] } })
  const command = result as Command
  return withUpdate(
    command,
    Array.isArray(command.update)
      ? [["messages", [revision]], ...command.update]
      : { ...command.update, messages: [revision, ...updateMessages(command.update ?? {})] }
  )
}
