import type { BaseMessage } from "@langchain/core/messages"

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
