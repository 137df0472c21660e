/**
 * opencode (`opencode-ai`) as a host (`agent-hooks hook --host opencode`). opencode has no command
 * hooks: agent-hooks' plugin (`install --host opencode` writes it into `.opencode/plugin/` or
 * `~/.config/opencode/plugin/`) runs host mode on `session.created` (SessionStart), `chat.message`
 * (UserPromptSubmit), `tool.execute.before` (PreToolUse: the plugin throws the reason, or changes
 * `output.args` in place for a rewrite; each call inside a `batch` is judged on its own, since the
 * batch tool runs them without `tool.execute.before`), `tool.execute.after` (PostToolUse: context
 * appended to the output) and `session.idle` (Stop), in the payload and answer of `pluginHost.ts`.
 * opencode's tools: `bash` `{command, description, timeout}`, `read`, `write`, `edit` (`filePath`,
 * `oldString`, `newString`, `replaceAll`), `glob`, `grep`, `list`, `webfetch`, `todowrite`, `task`,
 * `patch`, `batch`.
 */
import type { Agent, ToolMapping } from "../../../HostModel.ts"
import { pluginHost } from "../pluginHost.ts"

/** opencode's tools in Claude Code's names (Kilo, its fork, has the same). @internal */
export const OPENCODE_TOOLS: ReadonlyArray<ToolMapping> = [
  { host: "bash", claude: "Bash" },
  { host: "read", claude: "Read", fields: { filePath: "file_path" } },
  { host: "write", claude: "Write", fields: { filePath: "file_path" } },
  {
    host: "edit",
    claude: "Edit",
    fields: { filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" }
  },
  { host: "glob", claude: "Glob" },
  { host: "grep", claude: "Grep" },
  { host: "list", claude: "LS" },
  { host: "webfetch", claude: "WebFetch" },
  { host: "todowrite", claude: "TodoWrite" },
  { host: "task", claude: "Task" }
]

/** @internal */
export const OPENCODE_TOOL_NAMES: ReadonlyArray<string> = [
  "bash",
  "read",
  "write",
  "edit",
  "glob",
  "grep",
  "list",
  "webfetch",
  "websearch",
  "todowrite",
  "todoread",
  "task",
  "patch",
  "apply_patch",
  "skill",
  "batch",
  "invalid"
]

/** @internal */
export const opencode: Agent = pluginHost({
  name: "opencode",
  displayName: "opencode",
  projectDirEnv: ["OPENCODE_PROJECT_DIR"],
  toolNames: OPENCODE_TOOL_NAMES,
  tools: OPENCODE_TOOLS
})
