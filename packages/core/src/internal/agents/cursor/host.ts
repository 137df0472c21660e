/**
 * Cursor's names, shared by its preset (and, later, its host mode): its 21 camelCase events, the
 * catalog events whose semantics each one has, and the payload field a matcher is tested against.
 * Cursor's own input is snake_case (`conversation_id`, `generation_id`, `workspace_roots`).
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { jsonLine, jsonObject, stderrOf } from "../common.ts"
import type { PeerEvent } from "../common.ts"
import { CURSOR_ACTIONS } from "./tools.ts"

/** One Cursor event. */
export type CursorEvent = PeerEvent

/** @internal */
export const CURSOR_EVENTS: ReadonlyArray<CursorEvent> = [
  { name: "sessionStart", behavesAs: "SessionStart", blocks: false },
  { name: "sessionEnd", behavesAs: "SessionEnd", blocks: false },
  { name: "preToolUse", behavesAs: "PreToolUse", blocks: true, matcherField: "tool_name" },
  { name: "postToolUse", behavesAs: "PostToolUse", blocks: false, matcherField: "tool_name" },
  { name: "postToolUseFailure", behavesAs: "PostToolUseFailure", blocks: false, matcherField: "tool_name" },
  { name: "subagentStart", behavesAs: "SubagentStart", blocks: false },
  { name: "subagentStop", behavesAs: "SubagentStop", blocks: true },
  { name: "beforeShellExecution", behavesAs: "PreToolUse", blocks: true, matcherField: "command" },
  { name: "afterShellExecution", blocks: false },
  { name: "beforeMCPExecution", behavesAs: "PreToolUse", blocks: true, matcherField: "tool_name" },
  { name: "afterMCPExecution", blocks: false },
  { name: "beforeReadFile", behavesAs: "PreToolUse", blocks: true },
  { name: "afterFileEdit", blocks: false },
  { name: "beforeSubmitPrompt", behavesAs: "UserPromptSubmit", blocks: true },
  { name: "preCompact", behavesAs: "PreCompact", blocks: false },
  { name: "stop", behavesAs: "Stop", blocks: true },
  { name: "afterAgentResponse", blocks: false },
  { name: "afterAgentThought", blocks: false },
  { name: "beforeTabFileRead", behavesAs: "PreToolUse", blocks: true },
  { name: "afterTabFileEdit", blocks: false },
  { name: "workspaceOpen", blocks: false }
]

/** The events whose `additional_context` Cursor adds to the agent's context: sessionStart only. @internal */
export const CURSOR_CONTEXT: ReadonlySet<string> = new Set(["sessionStart"])

/** Cursor's tool types, as a preToolUse matcher names them (`MCP:<tool>` for MCP tools). */
export const CURSOR_TOOLS: ReadonlyArray<string> = ["Shell", "Read", "Write", "Grep", "Delete", "Task"]

/** The hook keys of a hooks.json v1 entry. */
export const CURSOR_HANDLER_KEYS: ReadonlyArray<string> = ["command", "type", "prompt", "matcher", "timeout", "failClosed", "loop_limit"]

// ---------------------------------------------------------------------------------------------
// Cursor as a host (`agent-hooks hook --host cursor`), as Cursor's hooks docs describe a command
// hook's input and answer:
// - its camelCase events; beforeShellExecution (`command`), beforeReadFile / beforeTabFileRead
//   (`file_path`) and beforeMCPExecution (`tool_name`, `tool_input` as a JSON string) are read as
//   PreToolUse of Bash, Read and the MCP tool; preToolUse's tool types (`Shell`, `Read`, `Write`...)
//   map to Claude Code's tools;
// - a before* answer is `{"permission": "allow" | "deny" | "ask", "user_message", "agent_message"}`
//   (the file reads take a permission only, so an ask there is a deny); a deny is also exit 2;
// - beforeSubmitPrompt blocks with `{"continue": false, "user_message"}`;
// - stop / subagentStop keep the agent going with `{"followup_message"}`;
// - sessionStart takes `{"additional_context"}`;
// - the after* events, workspaceOpen and the rest only observe: nothing is written.
// ---------------------------------------------------------------------------------------------

const HOST_EVENTS: Readonly<Record<string, string>> = Object.fromEntries(
  CURSOR_EVENTS.map((event) => [event.name, event.behavesAs ?? event.name])
)
const OWN = CURSOR_EVENTS.filter((event) => event.behavesAs === undefined).map((event) => event.name)
/** The events whose answer is a permission (Cursor's before* tool events). */
const PERMISSION = new Set(["preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeTabFileRead"])
/** The file reads take `permission` only: no ask, no messages. */
const PERMISSION_ONLY = new Set(["beforeReadFile", "beforeTabFileRead"])

const renderCursor = (answer: Answer, hostEvent: string): HostReply => {
  const out: Record<string, unknown> = {}
  let exitCode: 0 | 2 = 0
  if (PERMISSION.has(hostEvent)) {
    const only = PERMISSION_ONLY.has(hostEvent)
    const block =
      answer.block ?? (only && answer.ask !== undefined ? `approval needed: ${answer.ask} (Cursor cannot ask on ${hostEvent})` : undefined)
    if (block !== undefined) {
      out["permission"] = "deny"
      if (!only) {
        out["user_message"] = block
        out["agent_message"] = block
      }
      exitCode = 2
    } else if (answer.ask !== undefined) {
      out["permission"] = "ask"
      out["user_message"] = answer.ask
      out["agent_message"] = answer.ask
    } else if (answer.allow !== undefined) out["permission"] = "allow"
    if (!only && answer.systemMessage !== undefined && out["user_message"] === undefined) out["user_message"] = answer.systemMessage
    const reply = { ...answer, block }
    return { exitCode, stdout: jsonLine(out), stderr: stderrOf(reply, exitCode === 2) }
  }
  if (hostEvent === "beforeSubmitPrompt") {
    const reason = answer.block ?? (answer.stop !== undefined ? (answer.stop.reason ?? "stopped by the agent-hooks policy") : undefined)
    if (reason !== undefined) {
      return {
        exitCode: 2,
        stdout: jsonLine({ continue: false, user_message: reason }),
        stderr: stderrOf({ ...answer, block: reason }, true)
      }
    }
    return { exitCode: 0, stdout: "", stderr: stderrOf(answer, false) }
  }
  if (hostEvent === "stop" || hostEvent === "subagentStop") {
    // a block keeps the agent going: its reason is the follow-up prompt
    return {
      exitCode: 0,
      stdout: answer.block === undefined ? "" : jsonLine({ followup_message: answer.block }),
      stderr: stderrOf(answer, false)
    }
  }
  if (CURSOR_CONTEXT.has(hostEvent) && answer.additionalContext !== undefined) {
    return { exitCode: 0, stdout: jsonLine({ additional_context: answer.additionalContext }), stderr: stderrOf(answer, false) }
  }
  return { exitCode: 0, stdout: "", stderr: stderrOf(answer, false) }
}

/** @internal */
export const cursorHost: Agent = {
  name: "cursor",
  displayName: "Cursor",
  projectDirEnv: ["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
  hookTimeout: 30,
  events: HOST_EVENTS,
  ownEvents: OWN,
  toolNames: CURSOR_TOOLS,
  tools: [
    { host: "Shell", claude: "Bash" },
    { host: "Read", claude: "Read" },
    { host: "Write", claude: "Write" },
    { host: "Grep", claude: "Grep" }
  ],
  actions: CURSOR_ACTIONS,
  readInput: (hostEvent, payload) => {
    switch (hostEvent) {
      case "beforeShellExecution":
        return { tool_name: "Bash", tool_input: { command: payload["command"] } }
      case "beforeReadFile":
      case "beforeTabFileRead":
        return { tool_name: "Read", tool_input: { file_path: payload["file_path"] } }
      case "beforeMCPExecution": {
        const name = typeof payload["tool_name"] === "string" ? payload["tool_name"] : "unknown"
        return { tool_name: name.startsWith("mcp__") ? name : `mcp__cursor__${name}`, tool_input: jsonObject(payload["tool_input"]) }
      }
      default:
        return {}
    }
  },
  askDefault: "host",
  canAsk: true,
  canRewrite: false,
  render: renderCursor
}
