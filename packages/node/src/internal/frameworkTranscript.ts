/**
 * The transcript hooks read at `transcript_path`: the framework's messages as JSONL in Claude
 * Code's line format (one object per message: `type` `user`, `assistant` or `system`, with
 * `message: { role, content }`; tool calls are `tool_use` blocks of an assistant line, tool results
 * `tool_result` blocks of a user line). Written before a dispatch that may run a hook, whole (the
 * framework hands the adapter the conversation so far), so a hook sees every message up to the
 * call it judges.
 */
import { randomUUID } from "node:crypto"
import { chmodSync, lstatSync, mkdirSync, writeFileSync } from "node:fs"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"

/**
 * The default folder: `<os tmpdir>/agent-hooks-<uid>/transcripts`, whose per-user root is made 0700
 * and must belong to this user (`/tmp` is shared: another user could have made it first, or put a
 * symbolic link there).
 */
export const defaultDir = (): string => {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined
  const root = join(tmpdir(), `agent-hooks-${uid ?? userInfo().username}`)
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const stat = lstatSync(root)
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new Error(
      `agent-hooks: the transcript folder ${root} is ${stat.isSymbolicLink() ? "a symbolic link" : !stat.isDirectory() ? "not a folder" : `owned by user ${stat.uid}, not ${uid}`}; remove it, or set the transcriptDir option to a folder of your own`
    )
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(root, 0o700)
  return join(root, "transcripts")
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value ?? null))

/** A part of a message (the AI SDK's `ModelMessage` parts, Mastra's `content.parts`) as Claude Code's content block(s). */
const blocks = (part: unknown, toolName: (name: string) => string): Array<Record<string, unknown>> => {
  if (typeof part === "string") return [{ type: "text", text: part }]
  if (!isRecord(part)) return []
  switch (part["type"]) {
    case "text":
      return [{ type: "text", text: text(part["text"]) }]
    case "reasoning":
      return [{ type: "thinking", thinking: text(part["text"]) }]
    case "tool-call":
      return [{ type: "tool_use", id: part["toolCallId"], name: toolName(String(part["toolName"])), input: part["input"] ?? part["args"] }]
    case "tool-result": {
      const output = part["output"] ?? part["result"]
      const value = isRecord(output) && "value" in output ? output["value"] : output
      return [{ type: "tool_result", tool_use_id: part["toolCallId"], content: text(value) }]
    }
    case "tool-invocation": {
      // Mastra: the call, and its result once there is one.
      const call = isRecord(part["toolInvocation"]) ? part["toolInvocation"] : {}
      return [
        { type: "tool_use", id: call["toolCallId"], name: toolName(String(call["toolName"])), input: call["args"] },
        ...("result" in call ? [{ type: "tool_result", tool_use_id: call["toolCallId"], content: text(call["result"]) }] : [])
      ]
    }
    default:
      return []
  }
}

/** The lines of one message (a Mastra message with a call and its result gives two). */
const linesOf = (message: unknown, toolName: (name: string) => string): Array<{ type: string; role: string; content: unknown }> => {
  if (!isRecord(message)) return []
  const role = String(message["role"] ?? "user")
  let content = message["content"]
  // Mastra's stored messages: `content: { parts, content }`.
  if (isRecord(content)) content = Array.isArray(content["parts"]) ? content["parts"] : content["content"]
  if (role === "system") return [{ type: "system", role, content: typeof content === "string" ? content : text(content) }]
  if (typeof content === "string")
    return [{ type: role === "assistant" ? "assistant" : "user", role: role === "assistant" ? "assistant" : "user", content }]
  const all = (Array.isArray(content) ? content : []).flatMap((part) => blocks(part, toolName))
  if (role === "assistant") {
    const own = all.filter((block) => block["type"] !== "tool_result")
    const results = all.filter((block) => block["type"] === "tool_result")
    return [
      ...(own.length > 0 ? [{ type: "assistant", role: "assistant", content: own }] : []),
      ...(results.length > 0 ? [{ type: "user", role: "user", content: results }] : [])
    ]
  }
  return all.length > 0 ? [{ type: "user", role: "user", content: all }] : []
}

/** Writes the messages to `path` (0600, its folder 0700), replacing what it held. */
export const write = (
  path: string,
  folder: string,
  messages: ReadonlyArray<unknown>,
  meta: { readonly sessionId: string; readonly cwd: string; readonly toolName: (name: string) => string }
): void => {
  let parent: string | null = null
  let out = ""
  for (const message of messages) {
    for (const line of linesOf(message, meta.toolName)) {
      const uuid = randomUUID()
      const base = { uuid, parentUuid: parent, sessionId: meta.sessionId, cwd: meta.cwd, timestamp: new Date().toISOString() }
      out += `${JSON.stringify(line.type === "system" ? { ...base, type: "system", content: line.content } : { ...base, type: line.type, message: { role: line.role, content: line.content } })}\n`
      parent = uuid
    }
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  writeFileSync(path, out, { mode: 0o600 })
}
