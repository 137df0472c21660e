/**
 * VS Code agent hooks' names (Copilot Chat), shared by its preset (and, later, its host mode): its
 * eight PascalCase events, its 30 s default timeout, and its tool names (`runTerminalCommand`,
 * `editFiles`...), which differ from Claude Code's; a Copilot CLI event name is converted to its
 * PascalCase one.
 *
 * VS Code as a host (`agent-hooks hook --host vscode`), as VS Code's agent hooks docs describe a
 * command hook: the event in `hookEventName` (camelCase common fields, snake_case `tool_name` and
 * `tool_input`); its tools (`runTerminalCommand`, `create_file`, `replace_string_in_file`,
 * `read_file`, camelCase `filePath`) read as Claude Code's; answers in Claude Code's fields (exit 2
 * with the reason on stderr blocks, and `permissionDecision: "deny"` says the same), the most
 * restrictive of all hooks winning; Stop and SubagentStop block with
 * `hookSpecificOutput.decision: "block"` and its `reason`.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { catalog } from "../../hookEvent.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"
import { VSCODE_ACTIONS } from "./tools.ts"

/** @internal */
export const VSCODE_EVENTS: ReadonlyArray<string> = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PreCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop"
]

/** VS Code's default hook timeout: 30 s. */
export const VSCODE_TIMEOUT = 30

/** VS Code's tool names, as its hooks receive them. */
export const VSCODE_TOOLS: ReadonlyArray<string> = [
  "runTerminalCommand",
  "editFiles",
  "create_file",
  "replace_string_in_file",
  "read_file",
  "fetch_webpage",
  "run_in_terminal",
  "multi_replace_string_in_file",
  "create_and_run_task"
]

/** A Copilot CLI file's event (`preToolUse`, `agentStop`) as VS Code converts it, or the name when it already is VS Code's. */
export const vscodeEventName = (name: string): string | undefined => {
  if (VSCODE_EVENTS.includes(name)) return name
  if (name === "agentStop") return "Stop"
  if (name === "userPromptSubmitted") return "UserPromptSubmit"
  return VSCODE_EVENTS.find((event) => event.toLowerCase() === name.toLowerCase())
}

const specificOf = new Map(catalog.map((spec) => [spec.name, spec.specificOutput.filter((field) => field !== "updatedInput")]))

const renderVscode = (answer: Answer): HostReply => {
  const json = claudeJson(answer, {
    specificFields: specificOf.get(answer.event) ?? [],
    universal: ["continue", "systemMessage", "decision"],
    allowWithoutRewrite: true
  })
  // Stop and SubagentStop: VS Code reads the block inside hookSpecificOutput
  if ((answer.event === "Stop" || answer.event === "SubagentStop") && json["decision"] === "block") {
    const { decision, reason, ...rest } = json
    const specific =
      typeof rest["hookSpecificOutput"] === "object" && rest["hookSpecificOutput"] !== null
        ? (rest["hookSpecificOutput"] as Record<string, unknown>)
        : {}
    rest["hookSpecificOutput"] = { ...specific, hookEventName: answer.event, decision, reason }
    return { exitCode: 2, stdout: jsonLine(rest), stderr: stderrOf(answer, true) }
  }
  return answer.block !== undefined
    ? { exitCode: 2, stdout: jsonLine(json), stderr: stderrOf(answer, true) }
    : { exitCode: 0, stdout: jsonLine(json), stderr: stderrOf(answer, false) }
}

/** @internal */
export const vscodeHost: Agent = {
  name: "vscode",
  displayName: "VS Code",
  projectDirEnv: ["CLAUDE_PROJECT_DIR"],
  hookTimeout: VSCODE_TIMEOUT,
  events: Object.fromEntries(VSCODE_EVENTS.map((name) => [name, name])),
  ownEvents: [],
  eventField: "hookEventName",
  toolNames: VSCODE_TOOLS,
  tools: [
    { host: "runTerminalCommand", claude: "Bash" },
    { host: "run_in_terminal", claude: "Bash" },
    { host: "create_file", claude: "Write", fields: { filePath: "file_path" } },
    { host: "replace_string_in_file", claude: "Edit", fields: { filePath: "file_path", oldString: "old_string", newString: "new_string" } },
    { host: "read_file", claude: "Read", fields: { filePath: "file_path" } },
    { host: "fetch_webpage", claude: "WebFetch" }
  ],
  actions: VSCODE_ACTIONS,
  readInput: (_hostEvent, payload) => (typeof payload["sessionId"] === "string" ? { session_id: payload["sessionId"] } : {}),
  askDefault: "host",
  canAsk: true,
  canRewrite: false,
  render: renderVscode
}
