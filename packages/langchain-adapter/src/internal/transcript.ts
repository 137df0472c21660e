import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs"
import { tmpdir, userInfo } from "node:os"
import { randomUUID } from "node:crypto"
import { dirname, join } from "node:path"
import type { BaseMessage } from "@langchain/core/messages"
import { messageText, messageType } from "./messages.ts"

/**
 * A JSONL transcript in Claude Code's line format: one object per message, `type` `user`,
 * `assistant` or `system`, with `message: { role, content }` where assistant tool calls are
 * `tool_use` blocks and tool results are `tool_result` blocks of a `user` line.
 *
 * Lines are made when a message is first seen and kept in memory; `flush()` writes them (and
 * creates the file) synchronously. The middleware flushes before every dispatch that runs hooks
 * and at the end of each run, so a hook that reads `transcript_path` sees every message up to the
 * event that runs it, and the file is complete once a run is over.
 */
export interface Transcript {
  readonly path: string
  /** Turns the messages not seen yet into lines, written by the next `flush()`. */
  readonly sync: (messages: ReadonlyArray<BaseMessage> | undefined) => void
}

interface Meta {
  readonly sessionId: string
  readonly cwd: string
  readonly agentId: string | undefined
  readonly toolName: (name: string) => string
}

interface State {
  readonly path: string
  readonly sessionId: string
  readonly written: Set<string>
  last: string | null
  /** Lines made and not written yet. */
  pending: string
  /** Open (append) while a run writes to it; closed at the end of the run. */
  fd: number | undefined
}

const transcripts = new Map<string, State>()
/** Transcripts with lines to write or a file to create. */
const dirty = new Set<State>()
/** Transcripts with an open file descriptor. */
const open_ = new Set<State>()
const madeDirs = new Set<string>()
let exitHook = false

// Transcripts hold the conversation: only their user may read them. Folders the adapter makes are
// 0700, files 0600 (whatever the umask).
const openAppend = (path: string): number => {
  const dir = dirname(path)
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    madeDirs.add(dir)
  }
  try {
    return openSync(path, "a", 0o600)
  } catch (error) {
    // The folder was removed since: make it again.
    if ((error as { code?: unknown }).code !== "ENOENT") throw error
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    return openSync(path, "a", 0o600)
  }
}

/**
 * The default folder of the transcripts: `<os tmpdir>/agent-hooks-<uid>/transcripts`, whose
 * per-user root is made 0700 and must belong to this user (`/tmp` is shared: another user could
 * have made it first, or put a symbolic link there).
 */
export const defaultDir = (): string => {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined
  const root = join(tmpdir(), `agent-hooks-${uid ?? userInfo().username}`)
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const stat = lstatSync(root)
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new Error(
      `agent-hooks: the transcript folder ${root} is ${stat.isSymbolicLink() ? "a symbolic link" : !stat.isDirectory() ? "not a folder" : `owned by user ${stat.uid}, not ${uid}`}; ` +
        "remove it, or set the transcriptDir option of hooksMiddleware to a folder of your own"
    )
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(root, 0o700)
  return join(root, "transcripts")
}

const write = (state: State) => {
  if (state.fd === undefined) {
    state.fd = openAppend(state.path)
    open_.add(state)
    if (!exitHook && typeof process?.once === "function") {
      // Lines of a run that never reached its end (a crash between two nodes) are not lost.
      exitHook = true
      process.once("exit", () => closeAll())
    }
  }
  const data = state.pending
  state.pending = ""
  if (data === "") return
  const buffer = Buffer.from(data, "utf8")
  let offset = 0
  while (offset < buffer.length) offset += writeSync(state.fd, buffer, offset)
}

/** Writes every pending line, and creates the files not created yet. */
export const flushAll = (): void => {
  if (dirty.size === 0) return
  const states = [...dirty]
  dirty.clear()
  for (const state of states) write(state)
}

/** Writes every pending line and closes the files: the end of a run. */
export const closeAll = (): void => {
  flushAll()
  for (const state of [...open_]) {
    open_.delete(state)
    const fd = state.fd
    state.fd = undefined
    if (fd !== undefined) {
      try {
        closeSync(fd)
      } catch {
        // already closed
      }
    }
  }
}

/** Transcripts kept in memory at most; the oldest written and closed ones are forgotten first. */
const KEEP = 256

/**
 * Runs whose session never ends in this process (no agent nodes: nothing marks the end of a run)
 * do not grow memory without bound: a forgotten transcript is read back if it is opened again.
 */
const forgetOldest = () => {
  if (transcripts.size <= KEEP) return
  for (const [path, state] of transcripts) {
    if (transcripts.size <= KEEP) return
    if (!dirty.has(state) && !open_.has(state)) transcripts.delete(path)
  }
}

/** A session ended: its transcripts are written and forgotten (reopening one reads it back). */
export const release = (sessionId: string): void => {
  closeAll()
  for (const [path, state] of transcripts) if (state.sessionId === sessionId) transcripts.delete(path)
}

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
  return (content as Array<unknown>).map((block) =>
    typeof block === "string" ? { type: "text", text: block } : (block as Record<string, unknown>)
  )
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
      return {
        ...base,
        type: "user",
        message: { role: "user", content: typeof message.content === "string" ? message.content : contentBlocks(message) }
      }
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
          content: [
            { type: "tool_result", tool_use_id: tool.tool_call_id, content: messageText(message), is_error: tool.status === "error" }
          ]
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
export const open = (path: string, meta: Meta, fresh = false): Transcript => {
  let state = transcripts.get(path)
  if (state === undefined) {
    const written = new Set<string>()
    let last: string | null = null
    const exists = !fresh && existsSync(path)
    if (exists) {
      // A thread resumed in a new process (or after its session ended): do not write its history twice.
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
    }
    state = { path, sessionId: meta.sessionId, written, last, pending: "", fd: undefined }
    transcripts.set(path, state)
    forgetOldest()
    // The file is created by the next flush, even with no line yet.
    if (!exists) dirty.add(state)
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
      if (out !== "") {
        entry.pending += out
        dirty.add(entry)
      }
    }
  }
}
