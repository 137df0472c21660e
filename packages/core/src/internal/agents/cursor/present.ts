/** Cursor's payload for a call in Claude Code's names (host mode's `--payload cursor`). */
import type { PresentPayload } from "../../../AgentProfile.ts"

/** Claude Code's fields with Cursor's event; each before* event carries its own field (`command`, `file_path`, the MCP call). @internal */
export const present: PresentPayload = (hostEvent, claude, tool) => {
  const base: Record<string, unknown> = { ...claude, hook_event_name: hostEvent }
  delete base["tool_name"]
  delete base["tool_input"]
  if (tool === undefined) return base
  if (hostEvent === "beforeShellExecution") return { ...base, command: tool.input["command"] }
  if (hostEvent === "beforeReadFile" || hostEvent === "beforeTabFileRead") return { ...base, file_path: tool.input["file_path"] }
  if (hostEvent === "beforeMCPExecution")
    return { ...base, tool_name: tool.name.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, ""), tool_input: JSON.stringify(tool.input) }
  return { ...base, tool_name: tool.name, tool_input: tool.input }
}
