/** Antigravity CLI's payload for a call in Claude Code's names (host mode's `--payload antigravity`). */
import type { PresentPayload } from "../../../AgentProfile.ts"

/** `hookEventName`, `conversationId`, `workspacePaths`, the tool as `toolCall`. @internal */
export const present: PresentPayload = (hostEvent, claude, tool) => {
  const session = claude["session_id"]
  const cwd = claude["cwd"]
  const response = claude["tool_response"]
  return {
    hookEventName: hostEvent,
    ...(typeof session === "string" ? { conversationId: session } : {}),
    ...(typeof claude["transcript_path"] === "string" ? { transcriptPath: claude["transcript_path"] } : {}),
    ...(typeof cwd === "string" ? { workspacePaths: [cwd] } : {}),
    ...(tool === undefined ? {} : { toolCall: { name: tool.name, args: tool.input } }),
    ...(response === undefined ? {} : { toolResult: response })
  }
}
