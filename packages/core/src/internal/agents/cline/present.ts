/** Cline's payload for a call in Claude Code's names (host mode's `--payload cline`). */
import type { PresentPayload } from "../../../AgentProfile.ts"
import { mcpParts } from "../common.ts"

/** `hookName`, `taskId`, `workspaceRoots`, and the event's own object (`preToolUse: { toolName, parameters }`). @internal */
export const present: PresentPayload = (hostEvent, claude, tool) => {
  const session = claude["session_id"]
  const cwd = claude["cwd"]
  const response = claude["tool_response"]
  const own: Record<string, unknown> = {}
  // an MCP tool is Cline's use_mcp_tool, naming its server and tool, the arguments as a JSON string
  const mcp = tool === undefined ? null : mcpParts(tool.name)
  const parameters =
    mcp === null || (tool!.input["server_name"] === mcp[1] && tool!.input["tool_name"] === mcp[2])
      ? tool?.input
      : { server_name: mcp[1], tool_name: mcp[2], arguments: JSON.stringify(tool!.input) }
  if (tool !== undefined)
    Object.assign(
      own,
      { toolName: mcp === null ? tool.name : "use_mcp_tool", parameters },
      response === undefined ? {} : { result: response }
    )
  if (typeof claude["prompt"] === "string") own["prompt"] = claude["prompt"]
  return {
    hookName: hostEvent,
    ...(typeof session === "string" ? { taskId: session } : {}),
    ...(typeof cwd === "string" ? { workspaceRoots: [cwd] } : {}),
    [hostEvent.charAt(0).toLowerCase() + hostEvent.slice(1)]: own
  }
}
