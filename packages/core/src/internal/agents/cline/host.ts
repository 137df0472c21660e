/**
 * Cline as a host (`agent-hooks hook --host cline`: the script in Cline's hooks folder, one per
 * event, runs it), as Cline's hook reference describes a hook:
 * - the payload `{clineVersion, hookName, timestamp, taskId, workspaceRoots, userId, <event>: {...}}`
 *   is read into Claude Code's names: `hookName` is the event, `taskId` the session, the first
 *   workspace root the cwd; PreToolUse and PostToolUse read `preToolUse.toolName` and `parameters`
 *   (PostToolUse's `result` as `tool_response`), UserPromptSubmit its `prompt`; TaskStart and
 *   TaskResume are SessionStart; TaskCancel and TaskComplete have no Claude Code counterpart;
 * - its tools: `execute_command` (Bash), `read_file` / `write_to_file` / `replace_in_file` `path`
 *   (Read / Write / Edit `file_path`), `search_files` (Grep), `list_files` (LS), `web_fetch`
 *   (WebFetch); `use_mcp_tool` is `mcp__<server>__<tool>`;
 * - the answer is always exit 0 with `{cancel, contextModification, errorMessage}` on stdout: any
 *   non-zero exit is an error to Cline, never a block, so a block is `cancel: true` with the reason
 *   as `errorMessage`; additionalContext is `contextModification`; `continue: false` cancels too.
 *   No ask (a deny here) and no rewrite (a deny naming it).
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { jsonLine, stderrOf } from "../common.ts"
import { CLINE_ACTIONS } from "./tools.ts"

const EVENTS: Readonly<Record<string, string>> = {
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  UserPromptSubmit: "UserPromptSubmit",
  TaskStart: "SessionStart",
  TaskResume: "SessionStart",
  PreCompact: "PreCompact",
  TaskCancel: "TaskCancel",
  TaskComplete: "TaskComplete"
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const normalize = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const event = payload["hookName"]
  if (typeof event !== "string" || event === "") return { ...payload }
  const out: Record<string, unknown> = { ...payload, hook_event_name: event }
  if (typeof payload["taskId"] === "string") out["session_id"] = payload["taskId"]
  const roots = payload["workspaceRoots"]
  if (Array.isArray(roots) && typeof roots[0] === "string") out["cwd"] = roots[0]
  // the event's own fields: preToolUse, postToolUse, userPromptSubmit, taskStart...
  const own = payload[event.charAt(0).toLowerCase() + event.slice(1)]
  const data = isObject(own) ? own : {}
  if ((event === "PreToolUse" || event === "PostToolUse") && typeof data["toolName"] === "string") {
    out["tool_name"] = data["toolName"]
    out["tool_input"] = isObject(data["parameters"]) ? data["parameters"] : {}
    if (event === "PostToolUse" && data["result"] !== undefined) out["tool_response"] = data["result"]
  }
  if (event === "UserPromptSubmit" && typeof data["prompt"] === "string") out["prompt"] = data["prompt"]
  if (event === "TaskStart") out["source"] = "startup"
  if (event === "TaskResume") out["source"] = "resume"
  return out
}

const render = (answer: Answer): HostReply => {
  const out: Record<string, unknown> = { cancel: false }
  if (answer.block !== undefined) {
    out["cancel"] = true
    out["errorMessage"] = answer.block
  } else if (answer.stop !== undefined) {
    out["cancel"] = true
    out["errorMessage"] = answer.stop.reason ?? "stopped by the agent-hooks policy"
  }
  const context = [answer.additionalContext, answer.systemMessage].filter((text): text is string => text !== undefined)
  if (context.length > 0) out["contextModification"] = context.join("\n\n")
  // the reason on stderr too, where a person reading the hook's output finds it
  return { exitCode: 0, stdout: jsonLine(out), stderr: stderrOf(answer, true) }
}

/** @internal */
export const cline: Agent = {
  name: "cline",
  displayName: "Cline",
  projectDirEnv: [],
  hookTimeout: 30,
  events: EVENTS,
  ownEvents: ["TaskCancel", "TaskComplete"],
  toolNames: [
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "attempt_completion",
    "new_task",
    "plan_mode_respond",
    "load_mcp_documentation",
    "web_fetch",
    "run_commands"
  ],
  tools: [
    { host: "execute_command", claude: "Bash" },
    { host: "read_file", claude: "Read", fields: { path: "file_path" } },
    { host: "write_to_file", claude: "Write", fields: { path: "file_path" } },
    { host: "replace_in_file", claude: "Edit", fields: { path: "file_path" } },
    { host: "search_files", claude: "Grep", fields: { regex: "pattern", file_pattern: "glob" } },
    { host: "list_files", claude: "LS" },
    { host: "web_fetch", claude: "WebFetch" }
  ],
  actions: CLINE_ACTIONS,
  readInput: (_hostEvent, payload) => {
    const input = payload["tool_input"]
    if (payload["tool_name"] !== "use_mcp_tool" || !isObject(input)) return {}
    const server = input["server_name"]
    const tool = input["tool_name"]
    return typeof server === "string" && typeof tool === "string" && server !== "" && tool !== ""
      ? { tool_name: `mcp__${server}__${tool}` }
      : {}
  },
  normalize,
  askDefault: "deny",
  canAsk: false,
  canRewrite: false,
  render
}
