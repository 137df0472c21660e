/**
 * Qwen Code as a host (`agent-hooks hook --host qwen`), as Qwen Code 0.24 reads a command hook:
 * - Claude Code's event names, plus its own SessionDelete, TodoCreated, TodoCompleted and QueryEnd
 *   (they cannot block here);
 * - Gemini CLI's tool names with Claude Code's meaning: `run_shell_command` (Bash), `read_file`
 *   `absolute_path` (Read `file_path`), `write_file` (Write), `edit` (Edit), `glob`, `grep_search`
 *   (Grep), `list_directory`, `web_fetch` (WebFetch), `web_search`, `todo_write`;
 * - a block: exit 2 with the reason on stderr (stdout is ignored then; exit 2 with an empty stderr
 *   runs the tool);
 * - exit 0 JSON otherwise, Claude Code's fields: `permissionDecision` `ask` (also as a top-level
 *   `decision`), `additionalContext`, `systemMessage`, `continue: false`. It never applies
 *   `updatedInput`, so a rewrite becomes a deny unless `--rewrite original`.
 */
import type { Agent, Answer, HostReply } from "../../HostModel.ts"
import { catalog } from "../hookEvent.ts"
import { claudeJson, jsonLine, stderrOf } from "./common.ts"

const OWN = ["SessionDelete", "TodoCreated", "TodoCompleted", "QueryEnd"]

const CLAUDE_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Notification",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
  "Stop",
  "MessageDisplay",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionEnd",
  "PermissionRequest",
  "PermissionDenied",
  "StopFailure",
  "InstructionsLoaded"
]

/**
 * Where Qwen Code reads other `hookSpecificOutput` fields than Claude Code: its Stop and SubagentStop
 * read none (their additionalContext never reaches the model). What the host writes, and what the
 * preset delivers.
 * @internal
 */
export const QWEN_SPECIFIC: Readonly<Record<string, ReadonlyArray<string>>> = { Stop: [], SubagentStop: [] }

const specificOf = new Map(
  catalog.map((spec) => [spec.name, (QWEN_SPECIFIC[spec.name] ?? spec.specificOutput).filter((field) => field !== "updatedInput")])
)

const render = (answer: Answer): HostReply => {
  if (answer.block !== undefined) return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) }
  const json = claudeJson(answer, {
    specificFields: specificOf.get(answer.event) ?? [],
    universal: ["continue", "systemMessage"],
    allowWithoutRewrite: true,
    askAlsoTopLevel: true
  })
  return { exitCode: 0, stdout: jsonLine(json), stderr: stderrOf(answer, false) }
}

/**
 * The names a Qwen Code matcher may use for each of its tools (its `getToolMatcherTargets` in 0.24:
 * the wire name, the display name, `<Display>Tool`, legacy names and Claude Code's name). A matcher
 * that names any of them, alone or as one alternative of a `|` list, matches that tool.
 * @internal
 */
export const matcherAliases: Readonly<Record<string, ReadonlyArray<string>>> = {
  run_shell_command: ["Shell", "ShellTool", "Bash"],
  read_file: ["ReadFile", "ReadFileTool", "Read"],
  write_file: ["WriteFile", "WriteFileTool", "Write"],
  edit: ["Edit", "EditTool", "replace"],
  glob: ["Glob", "GlobTool", "FindFiles"],
  grep_search: ["Grep", "GrepTool", "search_file_content", "SearchFiles"],
  list_directory: ["ListFiles", "ListFilesTool", "ReadFolder"],
  web_fetch: ["WebFetch", "WebFetchTool"],
  web_search: ["WebSearch", "WebSearchTool"],
  todo_write: ["TodoList", "TodoListTool", "TodoWrite", "TodoWriteTool"],
  save_memory: ["SaveMemory", "SaveMemoryTool"],
  agent: ["Agent", "AgentTool", "task", "Task", "TaskTool"],
  skill: ["Skill", "SkillTool"],
  exit_plan_mode: ["ExitPlanMode", "ExitPlanModeTool"],
  notebook_edit: ["NotebookEdit", "NotebookEditTool"],
  monitor: ["Monitor", "MonitorTool"],
  ask_user_question: ["AskUserQuestion", "AskUserQuestionTool"]
}

/** @internal */
export const qwen: Agent = {
  name: "qwen",
  displayName: "Qwen Code",
  projectDirEnv: ["QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
  hookTimeout: 60,
  events: Object.fromEntries([...CLAUDE_EVENTS, ...OWN].map((name) => [name, name])),
  ownEvents: OWN,
  toolNames: [
    "run_shell_command",
    "read_file",
    "read_many_files",
    "write_file",
    "edit",
    "glob",
    "grep_search",
    "list_directory",
    "web_fetch",
    "web_search",
    "todo_write",
    "save_memory",
    "task",
    "skill",
    "exit_plan_mode"
  ],
  tools: [
    { host: "run_shell_command", claude: "Bash", fields: { is_background: "run_in_background" } },
    { host: "read_file", claude: "Read", fields: { absolute_path: "file_path", file_path: "file_path" } },
    { host: "write_file", claude: "Write" },
    { host: "edit", claude: "Edit" },
    { host: "glob", claude: "Glob" },
    { host: "grep_search", claude: "Grep" },
    { host: "list_directory", claude: "LS" },
    { host: "web_fetch", claude: "WebFetch" },
    { host: "web_search", claude: "WebSearch" },
    { host: "todo_write", claude: "TodoWrite" }
  ],
  askDefault: "host",
  canAsk: true,
  canRewrite: false,
  render
}
