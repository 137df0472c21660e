/**
 * Auggie (Augment's CLI) as a host (`agent-hooks hook --host auggie`), as Auggie 0.36 reads a
 * command hook:
 * - seven events: PreToolUse, PostToolUse, Stop, SessionStart, SessionEnd, Notification and
 *   PromptSubmit (Claude Code's UserPromptSubmit, which it fires without waiting: it cannot block);
 * - its payload has no `session_id` or `cwd`: `conversation_id` and `workspace_roots` instead (read
 *   as the session and its first root as the folder), `user_prompt` (the prompt), `tool_output`
 *   (the tool's response);
 * - its tool names: `launch-process` (Bash, `command`), `view` (Read, `path`), `save-file` (Write,
 *   `path`, `file_content`), `str-replace-editor` (Edit, `path`), `remove-files`, `web-fetch`
 *   (WebFetch), `web-search` (WebSearch), `grep-search` (Grep), `codebase-retrieval`...;
 * - a block: exit 2 with the reason on stderr blocks a PreToolUse (on any other event exit 2 does
 *   not block), `hookSpecificOutput.decision: "block"` with its reason on PostToolUse and Stop;
 * - `hookSpecificOutput` only on the events it has one for (PreToolUse, PostToolUse, Stop,
 *   SessionStart): one naming another event makes Auggie drop the whole answer;
 * - `updatedInput` replaces the tool's input, so it is sent whole;
 * - `ask`: `auggie --print` runs a call a hook answered `ask`, so it is a deny that says approval is
 *   needed, unless `--ask host`;
 * - a hook's `timeout` is in milliseconds (install writes it so).
 */
import type { Agent, Answer, HostReply, ToolMapping } from "../../../HostModel.ts"
import { jsonLine, stderrOf } from "../common.ts"

/** Auggie's events and Claude Code's event of each. */
export const AUGGIE_EVENTS: Readonly<Record<string, string>> = {
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  Stop: "Stop",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  Notification: "Notification",
  PromptSubmit: "UserPromptSubmit"
}

/** Auggie's tools and Claude Code's tool of each, with its fields. */
export const AUGGIE_TOOLS: ReadonlyArray<ToolMapping> = [
  { host: "launch-process", claude: "Bash" },
  { host: "view", claude: "Read", fields: { path: "file_path" } },
  { host: "save-file", claude: "Write", fields: { path: "file_path", file_content: "content" } },
  { host: "str-replace-editor", claude: "Edit", fields: { path: "file_path" } },
  { host: "web-fetch", claude: "WebFetch" },
  { host: "web-search", claude: "WebSearch" },
  { host: "grep-search", claude: "Grep" }
]

const render = (answer: Answer, hostEvent: string): HostReply => {
  const out: Record<string, unknown> = {}
  const specific: Record<string, unknown> = {}
  if (answer.stop !== undefined) {
    out["continue"] = false
    if (answer.stop.reason !== undefined) out["stopReason"] = answer.stop.reason
  }
  if (answer.systemMessage !== undefined) out["systemMessage"] = answer.systemMessage
  switch (hostEvent) {
    case "PreToolUse": {
      // exit 2 blocks here, with stderr as the reason Auggie gives the model
      if (answer.block !== undefined) return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) }
      if (answer.ask !== undefined) Object.assign(specific, { permissionDecision: "ask", permissionDecisionReason: answer.ask })
      else if (answer.updatedInput !== undefined)
        Object.assign(specific, { permissionDecision: "allow", updatedInput: answer.updatedInput })
      else if (answer.allow !== undefined) specific["permissionDecision"] = "allow"
      if (answer.additionalContext !== undefined) out["additionalContext"] = answer.additionalContext
      break
    }
    case "PostToolUse":
      if (answer.block !== undefined) Object.assign(specific, { decision: "block", reason: answer.block })
      if (answer.additionalContext !== undefined) specific["additionalContext"] = answer.additionalContext
      break
    case "Stop":
      if (answer.block !== undefined) Object.assign(specific, { decision: "block", reason: answer.block })
      break
    case "SessionStart":
      if (answer.additionalContext !== undefined) specific["additionalContext"] = answer.additionalContext
      break
    default:
      // PromptSubmit, SessionEnd, Notification: Auggie does not wait for them; a block is said, visibly, as a hook error
      if (answer.block !== undefined) {
        return {
          exitCode: 1,
          stdout: "",
          stderr: `${hostEvent} cannot block in Auggie: ${answer.block}\n${stderrOf(answer, false)}`
        }
      }
      if (answer.additionalContext !== undefined) out["additionalContext"] = answer.additionalContext
  }
  if (Object.keys(specific).length > 0) out["hookSpecificOutput"] = { hookEventName: hostEvent, ...specific }
  return { exitCode: 0, stdout: jsonLine(out), stderr: stderrOf(answer, false) }
}

const first = (value: unknown): string | undefined =>
  Array.isArray(value) && typeof value[0] === "string" && value[0] !== "" ? value[0] : undefined

/** @internal */
export const auggie: Agent = {
  name: "auggie",
  displayName: "Auggie",
  projectDirEnv: ["AUGMENT_PROJECT_DIR"],
  hookTimeout: 60,
  events: AUGGIE_EVENTS,
  ownEvents: [],
  toolNames: [
    ...AUGGIE_TOOLS.map((tool) => tool.host),
    "remove-files",
    "read-process",
    "write-process",
    "kill-process",
    "list-processes",
    "codebase-retrieval",
    "view-range-untruncated",
    "apply_patch"
  ],
  tools: AUGGIE_TOOLS,
  // Claude Code's fields where Auggie names them otherwise (the payload's own stay)
  readInput: (hostEvent, payload) => {
    const extra: Record<string, unknown> = {}
    if (typeof payload["conversation_id"] === "string") extra["session_id"] = payload["conversation_id"]
    const root = first(payload["workspace_roots"])
    if (root !== undefined) extra["cwd"] = root
    if (typeof payload["user_prompt"] === "string") extra["prompt"] = payload["user_prompt"]
    // its PreToolUse payload carries a tool_output too ("[undefined]"): only a PostToolUse one is the response
    if (hostEvent === "PostToolUse" && payload["tool_output"] !== undefined) extra["tool_response"] = payload["tool_output"]
    return extra
  },
  askDefault: "deny",
  canAsk: true,
  canRewrite: true,
  rewriteWhole: true,
  render
}
