/** Auggie's payload for a call in Claude Code's names (host mode's `--payload auggie`). */
import type { PresentPayload } from "../../../AgentProfile.ts"

/**
 * Auggie's fields: `conversation_id` and `workspace_roots` for `session_id` and `cwd`,
 * `user_prompt`, `tool_output`, `is_mcp_tool`; its tool name and input. @internal
 */
export const present: PresentPayload = (hostEvent, claude, tool) => {
  const session = claude["session_id"]
  const cwd = claude["cwd"]
  return {
    hook_event_name: hostEvent,
    conversation_id: typeof session === "string" ? session : "",
    workspace_roots: typeof cwd === "string" ? [cwd] : [],
    ...(tool === undefined ? {} : { tool_name: tool.name, tool_input: tool.input, is_mcp_tool: tool.name.startsWith("mcp__") }),
    ...(claude["tool_response"] === undefined ? {} : { tool_output: claude["tool_response"] }),
    ...(typeof claude["prompt"] === "string" ? { user_prompt: claude["prompt"] } : {})
  }
}
