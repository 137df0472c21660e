/**
 * GitHub Copilot CLI's names, shared by its preset (and, later, its host mode): its 14 camelCase
 * events (PascalCase accepted as aliases), the catalog event each behaves as, and its camelCase
 * input (`toolName`, `toolArgs`, `timestamp`, `cwd`).
 *
 * Copilot CLI as a host (`agent-hooks hook --host copilot --event <event>`), as its hooks reference
 * describes a command hook: the payload names no event, so the command line does; `toolName` and
 * `toolArgs` (a JSON string) are read as Claude Code's `tool_name` and `tool_input` (`bash` is Bash,
 * `view` Read, `edit` Edit, `create` Write); answers are flat: preToolUse
 * `{"permissionDecision": "allow" | "deny" | "ask", "permissionDecisionReason", "modifiedArgs"}`
 * (Copilot CLI applies `modifiedArgs`, the whole new input), permissionRequest
 * `{"behavior": "allow" | "deny", "message"}`, agentStop / subagentStop `{"decision": "block",
 * "reason"}`, postToolUse `{"additionalContext"}`; the other events only observe (a block there is
 * said on stderr, exit 1).
 *
 * Copilot CLI has a second dialect: a hook file with PascalCase events and matcher groups (and
 * Claude Code's `.claude/settings.json`, which it runs too) gets Claude Code's snake_case payload
 * (`hook_event_name`, `session_id`, `tool_name: "Bash"`, `tool_input`) and reads Claude Code's
 * `hookSpecificOutput`, ignoring the flat fields (a flat deny there lets the call run). Host mode
 * answers in the dialect of the payload that called it: preToolUse `hookSpecificOutput`
 * `{permissionDecision, permissionDecisionReason, updatedInput}` for the snake_case payload, and
 * always exit 0 with JSON (on exit 2 Copilot CLI tells the model only "hook exited with code 2").
 */
import type { Agent, Answer, HostCall, HostReply, ToolMapping } from "../../../HostModel.ts"
import { claudeJson, jsonLine, jsonObject, stderrOf } from "../common.ts"
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

/**
 * Whether the call came in Copilot CLI's Claude Code dialect (a PascalCase hook file, or Claude
 * Code's settings file): its payload is snake_case, with none of the camelCase dialect's keys
 * (Copilot CLI sets the keys; a model steers only their values). @internal
 */
export const claudeDialect = (payload: Readonly<Record<string, unknown>> | undefined): boolean =>
  payload !== undefined &&
  !["sessionId", "toolName", "toolArgs", "toolResult"].some((key) => Object.hasOwn(payload, key)) &&
  ["session_id", "tool_name", "tool_input"].some((key) => Object.hasOwn(payload, key))

const renderCopilot = (answer: Answer, hostEvent: string, call?: HostCall): HostReply => {
  if (hostEvent === "preToolUse" && claudeDialect(call?.payload)) {
    const stdout = jsonLine(
      claudeJson(answer, {
        specificFields: ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
        universal: ["systemMessage"],
        allowWithoutRewrite: true
      })
    )
    return { exitCode: 0, stdout, stderr: stderrOf(answer, false) }
  }
  if (hostEvent === "preToolUse") {
    const out: Record<string, unknown> = {}
    if (answer.block !== undefined) Object.assign(out, { permissionDecision: "deny", permissionDecisionReason: answer.block })
    else if (answer.ask !== undefined) Object.assign(out, { permissionDecision: "ask", permissionDecisionReason: answer.ask })
    else if (answer.updatedInput !== undefined) Object.assign(out, { permissionDecision: "allow", modifiedArgs: answer.updatedInput })
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
  // postToolUse's flat additionalContext reaches the model (measured, camelCase dialect; the Claude
  // dialect drops a PostToolUse hook's context, github/copilot-cli#2585)
  if (hostEvent === "postToolUse" && answer.block === undefined && answer.additionalContext !== undefined)
    return { exitCode: 0, stdout: jsonLine({ additionalContext: answer.additionalContext }), stderr: stderrOf(answer, false) }
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
  // The Claude dialect's payload names its event in Claude Code's name (PreToolUse, Stop): Copilot CLI's
  // own is read. The camelCase dialect's `toolName` and `toolArgs` (JSON text) are the agent's tool and
  // input: read through its tools table as any agent's are (the field the tool uses is judged, a decoy
  // `file_path` is not)
  normalize: (payload) => {
    const out: Record<string, unknown> = { ...payload }
    const name = payload["hook_event_name"]
    if (typeof name === "string") {
      const own =
        { Stop: "agentStop", SubagentStop: "subagentStop", UserPromptSubmit: "userPromptSubmitted" }[name] ?? copilotEventName(name)
      out["hook_event_name"] = own ?? name
    }
    if (typeof payload["toolName"] === "string") {
      out["tool_name"] = payload["toolName"]
      out["tool_input"] = jsonObject(payload["toolArgs"])
    }
    return out
  },
  readInput: (_hostEvent, payload) => (typeof payload["sessionId"] === "string" ? { session_id: payload["sessionId"] } : {}),
  askDefault: "host",
  canAsk: true,
  // modifiedArgs (camelCase dialect) and updatedInput (Claude Code's): applied since Copilot CLI 1.0.24
  canRewrite: true,
  render: renderCopilot
}
