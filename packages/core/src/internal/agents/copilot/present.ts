/** Copilot CLI's payload for a call in Claude Code's names (host mode's `--payload copilot`). */
import type { PresentPayload } from "../../../AgentProfile.ts"

/** camelCase, no event name (the hook's command gives it), the tool's arguments as a JSON string. @internal */
export const present: PresentPayload = (_hostEvent, claude, tool) => {
  const session = claude["session_id"]
  const cwd = claude["cwd"]
  const response = claude["tool_response"]
  return {
    ...(typeof session === "string" ? { sessionId: session } : {}),
    ...(typeof cwd === "string" ? { cwd } : {}),
    timestamp: Date.now(),
    ...(tool === undefined ? {} : { toolName: tool.name, toolArgs: JSON.stringify(tool.input) }),
    ...(response === undefined ? {} : { toolResult: response }),
    ...(typeof claude["prompt"] === "string" ? { prompt: claude["prompt"] } : {})
  }
}
