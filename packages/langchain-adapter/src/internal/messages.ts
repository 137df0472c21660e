import { randomUUID } from "node:crypto"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { isRecord } from "./util.ts"

/** `human`, `ai`, `tool`, `system`, `remove`...: read without `instanceof`, so that two copies of `@langchain/core` agree. */
export const messageType = (message: BaseMessage): string => {
  const type = (message as { type?: unknown }).type
  if (typeof type === "string") return type
  const getType = (message as { _getType?: () => string })._getType
  return typeof getType === "function" ? getType.call(message) : "unknown"
}

/** The text of a message: its string content, or its text blocks joined. */
export const messageText = (message: BaseMessage): string => contentText(message.content)

/** @internal */
export const contentText = (content: unknown): string => {
  if (typeof content === "string") return content
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content)
  return content
    .map((block: unknown) =>
      typeof block === "string"
        ? block
        : typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text"
          ? String((block as { text?: unknown }).text ?? "")
          : ""
    )
    .filter((text) => text !== "")
    .join("\n")
}

/** Appends text to a message content (a string, or content blocks). */
export const appendText = (content: unknown, text: string): string | Array<unknown> => {
  if (typeof content === "string") return content === "" ? text : `${content}\n\n${text}`
  if (Array.isArray(content)) return [...content, { type: "text", text }]
  return text
}

/** A tool call of a model's message. */
export interface ToolCallLike {
  readonly id?: string | undefined
  readonly name: string
  readonly args: Record<string, unknown>
}

export const toolCallsOf = (message: unknown): ReadonlyArray<ToolCallLike> =>
  (message as { tool_calls?: ReadonlyArray<ToolCallLike> } | undefined)?.tool_calls ?? []

export const lastOfType = (messages: ReadonlyArray<BaseMessage> | undefined, type: string): BaseMessage | undefined => {
  if (messages === undefined) return undefined
  for (let i = messages.length - 1; i >= 0; i--) if (messageType(messages[i]!) === type) return messages[i]
  return undefined
}

/** The id of the run's prompt (its last human message). */
export const promptId = (messages: ReadonlyArray<BaseMessage> | undefined) => lastOfType(messages, "human")?.id

export const reminder = (label: string, text: string) => `<system-reminder>\n${label}: ${text}\n</system-reminder>`

// The messages the middleware adds have their id from the start: a run without thread is known by its first message's id.
export const contextMessage = (event: string, contexts: ReadonlyArray<string>) =>
  new HumanMessage({
    id: randomUUID(),
    content: contexts.map((context) => reminder(`${event} hook additional context`, context)).join("\n"),
    additional_kwargs: { agent_hooks: { event } }
  })

export const hookAIMessage = (text: string, event: string) =>
  new AIMessage({ id: randomUUID(), content: text, name: "agent-hooks", additional_kwargs: { agent_hooks: { event } } })

/** A message a hook's answer put in place of the model's or of the prompt (`hookAIMessage`). */
export const isHookAnswer = (message: BaseMessage | undefined): boolean =>
  message !== undefined && messageType(message) === "ai" && isRecord(message.additional_kwargs?.["agent_hooks"])
