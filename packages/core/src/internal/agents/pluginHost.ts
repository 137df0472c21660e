/**
 * The agents without command hooks that load an in-process plugin instead (pi's extensions,
 * opencode's and Kilo's plugins): `agent-hooks install --host <agent>` writes agent-hooks' plugin
 * into the folder the agent loads plugins from, and that plugin runs `agent-hooks hook --host
 * <agent>` for each event, the way a command hook runs. So host mode speaks a protocol of its own
 * making here, shared by the plugins it ships:
 * - the payload is Claude Code's (`hook_event_name` in Claude Code's names, `session_id`, `cwd`,
 *   `tool_name` and `tool_input` in the agent's own names, `tool_use_id`, `prompt`, `tool_response`);
 * - the answer is always exit 0 and one JSON object: `decision: "block"` with its `reason` (a tool
 *   call is refused and the reason is the tool's result, a prompt is refused), `updatedInput` (the
 *   plugin changes the call's arguments in place: both agents run the changed call), and
 *   `additionalContext`, `systemMessage`, `continue: false` with `stopReason`.
 * Nobody can answer an `ask` inside a plugin (the agents run headless, and neither gives a plugin
 * a prompt it can wait on): it is a deny that says approval is needed.
 */
import type { Agent, Answer, HostReply, ToolMapping } from "../../HostModel.ts"
import { jsonLine, stderrOf } from "./common.ts"

/** The Claude Code events the plugins send (each only where the agent has the moment). */
export const PLUGIN_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"] as const

/**
 * The plugin's answer: one JSON object on stdout, exit 0. A block carries its reason as data (the
 * plugin hands it to the agent as the refused call's result); notes go to stderr, which the plugin
 * shows as a warning.
 */
export const renderPluginAnswer = (answer: Answer): HostReply => {
  const json: Record<string, unknown> = {}
  if (answer.block !== undefined) {
    json["decision"] = "block"
    json["reason"] = answer.block
  }
  if (answer.block === undefined && answer.updatedInput !== undefined) json["updatedInput"] = answer.updatedInput
  if (answer.additionalContext !== undefined) json["additionalContext"] = answer.additionalContext
  if (answer.systemMessage !== undefined) json["systemMessage"] = answer.systemMessage
  if (answer.stop !== undefined) {
    json["continue"] = false
    if (answer.stop.reason !== undefined) json["stopReason"] = answer.stop.reason
  }
  return { exitCode: 0, stdout: jsonLine(json), stderr: stderrOf(answer, false) }
}

/** A plugin host: its names and tools; the events and the answer are the plugins' own. */
export const pluginHost = (options: {
  readonly name: Agent["name"]
  readonly displayName: string
  readonly projectDirEnv: ReadonlyArray<string>
  readonly toolNames: ReadonlyArray<string>
  readonly tools: ReadonlyArray<ToolMapping>
}): Agent => ({
  name: options.name,
  displayName: options.displayName,
  projectDirEnv: options.projectDirEnv,
  // the plugin stops agent-hooks at this many seconds (and blocks the call): nothing in the agent times it
  hookTimeout: 30,
  events: Object.fromEntries(PLUGIN_EVENTS.map((event) => [event, event])),
  ownEvents: [],
  toolNames: options.toolNames,
  tools: options.tools,
  askDefault: "deny",
  canAsk: false,
  canRewrite: true,
  render: renderPluginAnswer
})

/** How doctor reads the plugin's answer (exit 0 JSON; any other exit is a failure, which the plugin blocks on a guarding event). */
export const readPluginAnswer = (json: Readonly<Record<string, unknown>>) => ({ decision: json["decision"], reason: json["reason"] })

/** Doctor's test call: the payload the plugin sends for the agent's shell tool. */
export const pluginSample =
  (shellTool: string) =>
  (command: string, projectDir: string, common: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
    session_id: common["session_id"],
    cwd: projectDir,
    hook_event_name: "PreToolUse",
    tool_name: shellTool,
    tool_input: { command },
    tool_use_id: "call_agent_hooks_doctor"
  })
