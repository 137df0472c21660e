/**
 * VS Code agent hooks' names (Copilot Chat), shared by its preset (and, later, its host mode): its
 * eight PascalCase events, its 30 s default timeout, and its tool names (`runTerminalCommand`,
 * `editFiles`...), which differ from Claude Code's; a Copilot CLI event name is converted to its
 * PascalCase one.
 */

/** @internal */
export const VSCODE_EVENTS: ReadonlyArray<string> = [
  "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "SubagentStart", "SubagentStop", "Stop"
]

/** VS Code's default hook timeout: 30 s. */
export const VSCODE_TIMEOUT = 30

/** VS Code's tool names, as its hooks receive them. */
export const VSCODE_TOOLS: ReadonlyArray<string> = ["runTerminalCommand", "editFiles", "create_file", "replace_string_in_file", "read_file", "fetch_webpage"]

/** A Copilot CLI file's event (`preToolUse`, `agentStop`) as VS Code converts it, or the name when it already is VS Code's. */
export const vscodeEventName = (name: string): string | undefined => {
  if (VSCODE_EVENTS.includes(name)) return name
  if (name === "agentStop") return "Stop"
  if (name === "userPromptSubmitted") return "UserPromptSubmit"
  return VSCODE_EVENTS.find((event) => event.toLowerCase() === name.toLowerCase())
}
