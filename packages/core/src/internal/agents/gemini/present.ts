/** Gemini CLI's payload for a call in Claude Code's names (host mode's `--payload gemini`). */
import type { PresentPayload } from "../../../AgentProfile.ts"
import { mcpParts } from "../common.ts"

/** Claude Code's fields with Gemini CLI's event; an MCP tool by its own name, its server in `mcp_context`. @internal */
export const present: PresentPayload = (hostEvent, claude, tool) => {
  const mcp = tool === undefined ? null : mcpParts(tool.name)
  return {
    ...claude,
    hook_event_name: hostEvent,
    ...(tool === undefined ? {} : { tool_name: mcp === null ? tool.name : mcp[2], tool_input: tool.input }),
    ...(mcp === null ? {} : { mcp_context: { server_name: mcp[1], tool_name: mcp[2] } }),
    ...(hostEvent === "AfterAgent" && typeof claude["last_assistant_message"] === "string"
      ? { prompt_response: claude["last_assistant_message"] }
      : {})
  }
}
