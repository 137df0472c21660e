/**
 * GitHub Copilot CLI's names, shared by its preset (and, later, its host mode): its 14 camelCase
 * events (PascalCase accepted as aliases), the catalog event each behaves as, and its camelCase
 * input (`toolName`, `toolArgs`, `timestamp`, `cwd`).
 *
 * Copilot CLI as a host (`agent-hooks hook --host copilot --event <event>`), as its hooks reference
 * describes a command hook: the payload names no event, so the command line does; `toolName` and
 * `toolArgs` (a JSON string) are read as Claude Code's `tool_name` and `tool_input` (`bash` is Bash,
 * `view` Read, `edit` Edit, `create` Write); answers are flat: preToolUse
 * `{"permissionDecision": "allow" | "deny" | "ask", "permissionDecisionReason"}`, permissionRequest
 * `{"behavior": "allow" | "deny", "message"}`, agentStop / subagentStop `{"decision": "block",
 * "reason"}`; the other events only observe (a block there is said on stderr, exit 1).
 */
import type { Agent, Answer, HostReply, ToolMapping } from "../../../HostModel.ts"
import { jsonLine, jsonObject, stderrOf } from "../common.ts"
import type { PeerEvent } from "../common.ts"

/** One Copilot CLI event. */
export type CopilotEvent = PeerEvent

/** @internal */
export const COPILOT_EVENTS: ReadonlyArray<CopilotEvent> = [
  { name: "sessionStart", behavesAs: "SessionStart", blocks: false },
  { name: "sessionEnd", behavesAs: "SessionEnd", blocks: false },
  { name: "userPromptSubmitted", behavesAs: "UserPromptSubmit", blocks: false },
  { name: "userPromptTransformed", blocks: false },
  { name: "preToolUse", behavesAs: "PreToolUse", blocks: true, matcherField: "toolName" },
  { name: "permissionRequest", behavesAs: "PermissionRequest", blocks: true, matcherField: "toolName" },
  { name: "postToolUse", behavesAs: "PostToolUse", blocks: false, matcherField: "toolName" },
  { name: "postToolUseFailure", behavesAs: "PostToolUseFailure", blocks: false, matcherField: "toolName" },
  { name: "preCompact", behavesAs: "PreCompact", blocks: false },
  { name: "agentStop", behavesAs: "Stop", blocks: true },
  { name: "subagentStart", behavesAs: "SubagentStart", blocks: false },
  { name: "subagentStop", behavesAs: "SubagentStop", blocks: true },
  { name: "errorOccurred", blocks: false },
  { name: "notification", blocks: false, matcherField: "notification_type" }
]

/** Copilot CLI's default hook timeout (`timeoutSec`): 30 s. */
export const COPILOT_TIMEOUT = 30

/** A PascalCase alias (`PreToolUse`) → the event's name (`preToolUse`). */
export const copilotEventName = (name: string): string | undefined =>
  COPILOT_EVENTS.find((event) => event.name === name || event.name.toLowerCase() === name.toLowerCase())?.name

/** Copilot CLI's tools and the Claude Code tool of each, with its fields. */
const TOOLS: ReadonlyArray<ToolMapping> = [
  { host: "bash", claude: "Bash" },
  { host: "powershell", claude: "Bash" },
  // the file tools read `path`: a `file_path` beside it is a decoy, never judged in its place
  { host: "view", claude: "Read", fields: { path: "file_path" }, ignoresOthers: true },
  { host: "edit", claude: "Edit", fields: { path: "file_path", old_str: "old_string", new_str: "new_string" }, ignoresOthers: true },
  { host: "create", claude: "Write", fields: { path: "file_path", file_text: "content" }, ignoresOthers: true },
  { host: "web_fetch", claude: "WebFetch" }
]

const renderCopilot = (answer: Answer, hostEvent: string): HostReply => {
  if (hostEvent === "preToolUse") {
    const out: Record<string, unknown> = {}
    if (answer.block !== undefined) Object.assign(out, { permissionDecision: "deny", permissionDecisionReason: answer.block })
    else if (answer.ask !== undefined) Object.assign(out, { permissionDecision: "ask", permissionDecisionReason: answer.ask })
    else if (answer.allow !== undefined) out["permissionDecision"] = "allow"
    return { exitCode: 0, stdout: jsonLine(out), stderr: stderrOf(answer, false) }
  }
  if (hostEvent === "permissionRequest") {
    // the policy's PermissionRequest decision ({behavior, message}), as Claude Code's hooks give it
    const decision = answer.specific?.["decision"]
    const given = typeof decision === "object" && decision !== null ? (decision as Record<string, unknown>) : {}
    const behavior =
      given["behavior"] === "deny" || answer.block !== undefined ? "deny" : given["behavior"] === "allow" ? "allow" : undefined
    const message = typeof given["message"] === "string" ? given["message"] : answer.block
    const out = behavior === undefined ? {} : { behavior, ...(behavior === "deny" && message !== undefined ? { message } : {}) }
    return { exitCode: 0, stdout: jsonLine(out), stderr: stderrOf(answer, false) }
  }
  if (hostEvent === "agentStop" || hostEvent === "subagentStop") {
    return {
      exitCode: 0,
      stdout: answer.block === undefined ? "" : jsonLine({ decision: "block", reason: answer.block }),
      stderr: stderrOf(answer, false)
    }
  }
  // an event Copilot CLI reads no answer on: a block is said, visibly, as a hook error
  if (answer.block !== undefined)
    return { exitCode: 1, stdout: "", stderr: `${hostEvent} cannot block in Copilot CLI: ${answer.block}\n${stderrOf(answer, false)}` }
  return { exitCode: 0, stdout: "", stderr: stderrOf(answer, false) }
}

/** @internal */
export const copilotHost: Agent = {
  name: "copilot",
  displayName: "Copilot CLI",
  projectDirEnv: ["CLAUDE_PROJECT_DIR"],
  hookTimeout: COPILOT_TIMEOUT,
  events: Object.fromEntries(COPILOT_EVENTS.map((event) => [event.name, event.behavesAs ?? event.name])),
  // the events with no Claude Code counterpart
  ownEvents: ["userPromptTransformed", "errorOccurred"],
  toolNames: TOOLS.map((tool) => tool.host),
  tools: TOOLS,
  // `toolName` and `toolArgs` (JSON text) are the agent's tool and input: read through its tools
  // table as any agent's are (the field the tool uses is judged, a decoy `file_path` is not)
  normalize: (payload) =>
    typeof payload["toolName"] === "string"
      ? { ...payload, tool_name: payload["toolName"], tool_input: jsonObject(payload["toolArgs"]) }
      : { ...payload },
  readInput: (_hostEvent, payload) => (typeof payload["sessionId"] === "string" ? { session_id: payload["sessionId"] } : {}),
  askDefault: "host",
  canAsk: true,
  canRewrite: false,
  render: renderCopilot
}
