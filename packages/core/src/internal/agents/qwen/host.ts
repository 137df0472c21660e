/**
 * Qwen Code as a host (`agent-hooks hook --host qwen`), as Qwen Code 0.24 reads a command hook:
 * - Claude Code's event names, plus its own SessionDelete, TodoCreated, TodoCompleted and QueryEnd
 *   (dispatched under their own names);
 * - Gemini CLI's tool names with Claude Code's meaning: `run_shell_command` (Bash), `read_file`
 *   `absolute_path` (Read `file_path`), `write_file` (Write), `edit` (Edit), `glob`, `grep_search`
 *   (Grep), `list_directory`, `web_fetch` (WebFetch), `web_search`, `todo_write`;
 * - a block: exit 2 with the reason on stderr (stdout is ignored then; exit 2 with an empty stderr
 *   runs the tool);
 * - exit 0 JSON otherwise, Claude Code's fields: `permissionDecision` `ask` (also as a top-level
 *   `decision`), `additionalContext`, `systemMessage`, `continue: false`. It never applies
 *   `updatedInput`, so a rewrite becomes a deny unless `--rewrite original`.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"
import { QWEN_ACTIONS } from "./tools.ts"

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
 * The `hookSpecificOutput` fields Qwen Code 0.24 reads, per event: what the code that fires each
 * event takes from the hooks' answer (its `firePreToolUseHook`, `firePostToolUseHook`..., the
 * compaction's PreCompact instructions, the subagent's SubagentStart context). Where it reads none
 * (Stop and SubagentStop, whose additionalContext never reaches the model; Notification, whose
 * context every caller drops; PermissionDenied, MessageDisplay, SessionEnd, PostCompact...), a field
 * is not delivered and is named. It never applies PreToolUse's `updatedInput`. What the host writes,
 * and what the preset delivers; `agents/lib/oracle-qwen.mjs` checks it against Qwen Code's engine.
 * @internal
 */
export const QWEN_SPECIFIC: Readonly<Record<string, ReadonlyArray<string>>> = {
  PreToolUse: ["permissionDecision", "permissionDecisionReason", "additionalContext"],
  PostToolUse: ["additionalContext"],
  PostToolUseFailure: ["additionalContext"],
  PostToolBatch: ["additionalContext"],
  Notification: [],
  UserPromptSubmit: ["additionalContext"],
  UserPromptExpansion: ["additionalContext"],
  SessionStart: ["additionalContext"],
  Stop: [],
  MessageDisplay: [],
  SubagentStart: ["additionalContext"],
  SubagentStop: [],
  // the compaction's extra instructions
  PreCompact: ["additionalContext"],
  PostCompact: [],
  SessionEnd: [],
  PermissionRequest: ["decision"],
  PermissionDenied: [],
  StopFailure: [],
  InstructionsLoaded: [],
  SessionDelete: [],
  TodoCreated: [],
  TodoCompleted: [],
  QueryEnd: []
}

/** Qwen Code's own events that a `decision: "block"` blocks: its todo_write refuses the change and tells the model why. @internal */
export const QWEN_BLOCKING_OWN: ReadonlyArray<string> = ["TodoCreated", "TodoCompleted"]

const render = (answer: Answer): HostReply => {
  if (answer.block !== undefined) {
    // todo_write blocks only on a "block" decision: exit 2 reads as "deny" there, and the todo is written
    if (QWEN_BLOCKING_OWN.includes(answer.event)) {
      return { exitCode: 0, stdout: jsonLine({ decision: "block", reason: answer.block }), stderr: stderrOf(answer, false) }
    }
    return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) }
  }
  const json = claudeJson(answer, {
    specificFields: (Object.hasOwn(QWEN_SPECIFIC, answer.event) ? QWEN_SPECIFIC[answer.event] : undefined) ?? [],
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
  ownBlocking: QWEN_BLOCKING_OWN,
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
  actions: QWEN_ACTIONS,
  askDefault: "host",
  canAsk: true,
  canRewrite: false,
  render
}
