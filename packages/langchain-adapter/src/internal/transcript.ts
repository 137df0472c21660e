import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { randomUUID } from "node:crypto"
import { dirname } from "node:path"
import type { BaseMessage } from "@langchain/core/messages"
import { messageText, messageType } from "./messages.ts"

/**
 * A JSONL transcript in Claude Code's line format: one object per message, `type` `user`,
 * `assistant` or `system`, with `message: { role, content }` where assistant tool calls are
 * `tool_use` blocks and tool results are `tool_result` blocks of a `user` line.
 *
 * Lines are appended synchronously before each dispatch, so a hook that reads
 * `transcript_path` sees every message up to the event that runs it.
 */
export interface Transcript {
  readonly path: string
  /** Appends the messages not written yet. */
  readonly sync: (messages: ReadonlyArray<BaseMessage> | undefined) => void
}

interface Meta {
  readonly sessionId: string
  readonly cwd: string
  readonly agentId: string | undefined
  readonly toolName: (name: string) => string
}

const transcripts = new Map<string, { readonly written: Set<string>; last: string | null }>()

const keyOf = (message: BaseMessage, index: number): string => {
  if (messageType(message) === "tool") {
    const id = (message as { tool_call_id?: unknown }).tool_call_id
    if (typeof id === "string") return `tool:${id}`
  }
  return typeof message.id === "string" && message.id !== "" ? message.id : `index:${index}`
}

const contentBlocks = (message: BaseMessage): Array<Record<string, unknown>> => {
  const content = message.content
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }]
  return (content as Array<unknown>).map((block) => typeof block === "string" ? { type: "text", text: block } : block as Record<string, unknown>)
}

const lineFor = (message: BaseMessage, uuid: string, parentUuid: string | null, meta: Meta): Record<string, unknown> | null => {
  const base = {
    uuid,
    parentUuid,
    sessionId: meta.sessionId,
    ...(meta.agentId === undefined ? {} : { agentId: meta.agentId, isSidechain: true }),
    cwd: meta.cwd,
    timestamp: new Date().toISOString()
  }
  switch (messageType(message)) {
    case "human":
      return { ...base, type: "user", message: { role: "user", content: typeof message.content === "string" ? message.content : contentBlocks(message) } }
    case "ai": {
      const calls = (message as { tool_calls?: Array<{ id?: string; name: string; args: unknown }> }).tool_calls ?? []
      const blocks = contentBlocks(message).filter((block) => block["type"] !== "tool_use" && block["type"] !== "tool_call")
      const toolUses = calls.map((call) => ({ type: "tool_use", id: call.id, name: meta.toolName(call.name), input: call.args }))
      return { ...base, type: "assistant", message: { role: "assistant", content: [...blocks, ...toolUses] } }
    }
    case "tool": {
      const tool = message as { tool_call_id?: string; status?: string }
      return {
        ...base,
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: tool.tool_call_id, content: messageText(message), is_error: tool.status === "error" }]
        }
      }
    }
    case "system":
      return { ...base, type: "system", content: messageText(message) }
    case "remove":
      return null
    default:
      return { ...base, type: "user", message: { role: "user", content: messageText(message) } }
  }
}

/** @internal */
export const open = (path: string, meta: Meta): Transcript => {
  let state = transcripts.get(path)
  if (state === undefined) {
    const written = new Set<string>()
    let last: string | null = null
    if (existsSync(path)) {
      // A thread resumed in a new process: do not write its history twice.
      for (const line of readFileSync(path, "utf8").split("\n")) {
        if (line.trim() === "") continue
        try {
          const parsed = JSON.parse(line) as { key?: unknown; uuid?: unknown }
          if (typeof parsed.key === "string") written.add(parsed.key)
          if (typeof parsed.uuid === "string") last = parsed.uuid
        } catch {
          // not ours; keep going
        }
      }
    } else {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, "")
    }
    state = { written, last }
    transcripts.set(path, state)
  }
  const entry = state
  return {
    path,
    sync: (messages) => {
      if (messages === undefined) return
      let out = ""
      messages.forEach((message, index) => {
        const key = keyOf(message, index)
        if (entry.written.has(key)) return
        entry.written.add(key)
        const uuid = randomUUID()
        const line = lineFor(message, uuid, entry.last, meta)
        if (line === null) return
        entry.last = uuid
        out += JSON.stringify({ ...line, key }) + "\n"
      })
      if (out !== "") appendFileSync(path, out)
    }
  }
}
