/**
 * Antigravity CLI (`agy`) as a host, with the same version switch as its preset:
 * `agent-hooks hook --host antigravity` (Google's documented contract, the default) and
 * `--host antigravity-1.0` (what agy 1.0 builds were observed to do).
 * - the payload is camelCase: `toolCall: {name, args}` is the tool and its input,
 *   `conversationId` the session, `transcriptPath`, the first of `workspacePaths` the cwd; the event
 *   is the payload's `hookEventName` (or `hook_event_name`) when it names one; agy 1.0 names none and
 *   runs only PreToolUse and PostToolUse, so a payload with a `toolCall` and no tool result is a
 *   PreToolUse (the side that blocks), one with a result (`toolResult`, `result`, `output`) a PostToolUse;
 * - its tools: `run_command` `CommandLine` (Bash `command`), `view_file` `AbsolutePath` (Read
 *   `file_path`), `write_to_file` / `edit_file` `TargetFile` (Write / Edit `file_path`),
 *   `grep_search` (Grep), `find_by_name` (Glob), `list_dir` (LS), `read_url_content` (WebFetch),
 *   `search_web` (WebSearch); the argument names are read in either case (`CommandLine`, `commandLine`);
 * - a block of a PreToolUse is exit 0 with `{"allowTool": false, "denyReason": "..."}` (documented)
 *   or `{"decision": "deny", "reason": "..."}` (1.0) on stdout, the reason on stderr too; agy's exit
 *   codes are not documented, so the answer does not depend on them. Nothing else is read: context,
 *   messages, an ask (a deny here) and a rewrite (a deny naming it) cannot be passed on.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { jsonLine, stderrOf } from "../common.ts"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const RESULT_KEYS = ["toolResult", "toolOutput", "result", "output"]

const normalize = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...payload }
  const named = [payload["hookEventName"], payload["hook_event_name"]].find((value) => typeof value === "string" && value !== "")
  const call = isObject(payload["toolCall"]) ? payload["toolCall"] : undefined
  if (named !== undefined) out["hook_event_name"] = named
  else if (call !== undefined) out["hook_event_name"] = RESULT_KEYS.some((key) => payload[key] !== undefined) ? "PostToolUse" : "PreToolUse"
  if (call !== undefined && typeof call["name"] === "string") {
    out["tool_name"] = call["name"]
    out["tool_input"] = isObject(call["args"]) ? call["args"] : {}
  }
  const result = RESULT_KEYS.map((key) => payload[key]).find((value) => value !== undefined)
  if (result !== undefined) out["tool_response"] = result
  if (typeof payload["conversationId"] === "string") out["session_id"] = payload["conversationId"]
  if (typeof payload["transcriptPath"] === "string") out["transcript_path"] = payload["transcriptPath"]
  const roots = payload["workspacePaths"]
  if (Array.isArray(roots) && typeof roots[0] === "string") out["cwd"] = roots[0]
  return out
}

const renderWith =
  (observed: boolean) =>
  (answer: Answer, hostEvent: string): HostReply => {
    const notes = [...answer.notes]
    if (answer.block !== undefined) {
      if (answer.event === "PreToolUse") {
        return {
          exitCode: 0,
          stdout: jsonLine(observed ? { decision: "deny", reason: answer.block } : { allowTool: false, denyReason: answer.block }),
          stderr: stderrOf(answer, true)
        }
      }
      notes.unshift(answer.block, `agent-hooks: Antigravity cannot block ${hostEvent}; only PreToolUse blocks`)
    }
    const lost = [
      ...(answer.additionalContext !== undefined ? ["additionalContext"] : []),
      ...(answer.systemMessage !== undefined ? ["systemMessage"] : []),
      ...(answer.stop !== undefined ? ["continue: false"] : [])
    ]
    if (lost.length > 0) notes.push(`agent-hooks: Antigravity reads no ${lost.join(", ")} from a hook; not passed on`)
    return { exitCode: 0, stdout: "", stderr: notes.map((line) => `${line}\n`).join("") }
  }

const TOOLS: Agent["tools"] = [
  { host: "run_command", claude: "Bash", fields: { CommandLine: "command", commandLine: "command", Cwd: "cwd" } },
  { host: "view_file", claude: "Read", fields: { AbsolutePath: "file_path", absolutePath: "file_path" } },
  {
    host: "write_to_file",
    claude: "Write",
    fields: { TargetFile: "file_path", targetFile: "file_path", CodeContent: "content", codeContent: "content" }
  },
  { host: "edit_file", claude: "Edit", fields: { TargetFile: "file_path", targetFile: "file_path" } },
  { host: "grep_search", claude: "Grep", fields: { Query: "pattern", query: "pattern", SearchPath: "path", searchPath: "path" } },
  { host: "find_by_name", claude: "Glob", fields: { Pattern: "pattern", SearchDirectory: "path", searchDirectory: "path" } },
  { host: "list_dir", claude: "LS", fields: { DirectoryPath: "path", directoryPath: "path" } },
  { host: "read_url_content", claude: "WebFetch", fields: { Url: "url" } },
  { host: "search_web", claude: "WebSearch", fields: { Query: "query" } }
]

const base = {
  projectDirEnv: [],
  hookTimeout: 60,
  toolNames: TOOLS.map((tool) => tool.host),
  tools: TOOLS,
  normalize,
  askDefault: "deny",
  canAsk: false,
  canRewrite: false
} as const

/** @internal */
export const antigravity: Agent = {
  ...base,
  name: "antigravity",
  displayName: "Antigravity CLI",
  events: {
    PreToolUse: "PreToolUse",
    PostToolUse: "PostToolUse",
    Stop: "Stop",
    PreInvocation: "PreInvocation",
    PostInvocation: "PostInvocation"
  },
  ownEvents: ["PreInvocation", "PostInvocation"],
  render: renderWith(false)
}

/** @internal */
export const antigravity10: Agent = {
  ...base,
  name: "antigravity-1.0",
  displayName: "Antigravity CLI 1.0",
  events: { PreToolUse: "PreToolUse", PostToolUse: "PostToolUse" },
  ownEvents: [],
  render: renderWith(true)
}
