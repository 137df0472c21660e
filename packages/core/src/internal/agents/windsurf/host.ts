/**
 * Windsurf (Devin Desktop) as a host (`agent-hooks hook --host windsurf`), as its Cascade hooks
 * docs describe a hook:
 * - the payload `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}` is read
 *   into Claude Code's names: `pre_run_command` is a PreToolUse of Bash (`tool_info.command_line` as
 *   `command`), `pre_read_code` of Read, `pre_write_code` of Edit (`file_path`, `edits`),
 *   `pre_mcp_tool_use` of `mcp__<server>__<tool>`; the `post_*` ones are PostToolUse;
 *   `pre_user_prompt` is UserPromptSubmit (`tool_info.user_prompt` as `prompt`);
 *   `post_cascade_response` is Stop (`tool_info.response` as `last_assistant_message`); the
 *   transcript and worktree events have no Claude Code counterpart; `trajectory_id` is the session;
 * - exit code only: exit 2 on a `pre_*` hook blocks with the reason on stderr; no JSON is read, so
 *   context, messages, an ask (a deny here) and a rewrite (a deny naming it) cannot be passed on.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { stderrOf } from "../common.ts"

const EVENTS: Readonly<Record<string, string>> = {
  pre_read_code: "PreToolUse",
  pre_write_code: "PreToolUse",
  pre_run_command: "PreToolUse",
  pre_mcp_tool_use: "PreToolUse",
  post_read_code: "PostToolUse",
  post_write_code: "PostToolUse",
  post_run_command: "PostToolUse",
  post_mcp_tool_use: "PostToolUse",
  pre_user_prompt: "UserPromptSubmit",
  post_cascade_response: "Stop",
  post_cascade_response_with_transcript: "post_cascade_response_with_transcript",
  post_setup_worktree: "post_setup_worktree"
}

/** The action of each tool event, as a tool name of its own (Windsurf names no tools). */
const TOOL: Readonly<Record<string, string>> = { read_code: "read_code", write_code: "write_code", run_command: "run_command" }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const normalize = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const action = payload["agent_action_name"]
  if (typeof action !== "string") return { ...payload }
  const info = isObject(payload["tool_info"]) ? payload["tool_info"] : {}
  const out: Record<string, unknown> = { ...payload, hook_event_name: action }
  if (typeof payload["trajectory_id"] === "string") out["session_id"] = payload["trajectory_id"]
  if (typeof info["cwd"] === "string") out["cwd"] = info["cwd"]
  const tool = /^(?:pre|post)_(read_code|write_code|run_command|mcp_tool_use)$/.exec(action)?.[1]
  if (tool === "mcp_tool_use") {
    const server = info["mcp_server_name"]
    const name = info["mcp_tool_name"]
    out["tool_name"] = typeof server === "string" && typeof name === "string" ? `mcp__${server}__${name}` : "mcp_tool_use"
    out["tool_input"] = isObject(info["mcp_tool_arguments"]) ? info["mcp_tool_arguments"] : {}
  } else if (tool !== undefined) {
    out["tool_name"] = TOOL[tool]
    out["tool_input"] = Object.fromEntries(Object.entries(info).filter(([key]) => key !== "response" && key !== "mcp_result"))
  }
  if (action.startsWith("post_") && tool !== undefined && info["response"] !== undefined) out["tool_response"] = info["response"]
  if (action === "pre_user_prompt" && typeof info["user_prompt"] === "string") out["prompt"] = info["user_prompt"]
  if (action === "post_cascade_response" && typeof info["response"] === "string") out["last_assistant_message"] = info["response"]
  return out
}

const render = (answer: Answer, hostEvent: string): HostReply => {
  if (answer.block !== undefined) {
    const notes = hostEvent.startsWith("pre_") ? [] : [`agent-hooks: Windsurf does not block on ${hostEvent}; only pre_* hooks block`]
    return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) + notes.map((line) => `${line}\n`).join("") }
  }
  const lost = [
    ...(answer.additionalContext !== undefined ? ["additionalContext"] : []),
    ...(answer.systemMessage !== undefined ? ["systemMessage"] : []),
    ...(answer.stop !== undefined ? ["continue: false"] : [])
  ]
  const notes = [
    ...answer.notes,
    ...(lost.length === 0 ? [] : [`agent-hooks: Windsurf reads no hook output, so ${lost.join(", ")} of the policy is not passed on`])
  ]
  return { exitCode: 0, stdout: "", stderr: notes.map((line) => `${line}\n`).join("") }
}

/** @internal */
export const windsurf: Agent = {
  name: "windsurf",
  displayName: "Windsurf",
  projectDirEnv: [],
  hookTimeout: 30,
  events: EVENTS,
  ownEvents: ["post_cascade_response_with_transcript", "post_setup_worktree"],
  toolNames: ["read_code", "write_code", "run_command", "mcp_tool_use"],
  tools: [
    { host: "run_command", claude: "Bash", fields: { command_line: "command" } },
    { host: "read_code", claude: "Read" },
    { host: "write_code", claude: "Edit" }
  ],
  normalize,
  askDefault: "deny",
  canAsk: false,
  canRewrite: false,
  render
}
