/** Windsurf's payload for a call in Claude Code's names (host mode's `--payload windsurf`). */
import type { PresentPayload } from "../../../AgentProfile.ts"
import { mcpParts } from "../common.ts"

/** `agent_action_name`, `trajectory_id`, and the tool's input (or the MCP call) in `tool_info`. @internal */
export const present: PresentPayload = (hostEvent, claude, tool) => {
  const session = claude["session_id"]
  const cwd = claude["cwd"]
  const response = claude["tool_response"]
  const mcp = tool === undefined ? null : mcpParts(tool.name)
  const info: Record<string, unknown> =
    mcp !== null ? { mcp_server_name: mcp[1], mcp_tool_name: mcp[2], mcp_tool_arguments: tool!.input } : { ...tool?.input }
  // the call's own working folder (Auggie's launch-process `cwd`) is the one the tool runs in: kept
  if (typeof cwd === "string" && !Object.hasOwn(info, "cwd")) info["cwd"] = cwd
  if (response !== undefined) info[mcp !== null ? "mcp_result" : "response"] = response
  if (typeof claude["prompt"] === "string") info["user_prompt"] = claude["prompt"]
  if (typeof claude["last_assistant_message"] === "string") info["response"] = claude["last_assistant_message"]
  return {
    agent_action_name: hostEvent,
    ...(typeof session === "string" ? { trajectory_id: session } : {}),
    timestamp: new Date().toISOString(),
    tool_info: info
  }
}
