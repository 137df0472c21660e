/**
 * pi (`@mariozechner/pi-coding-agent`) as a host (`agent-hooks hook --host pi`). pi has no
 * command hooks: agent-hooks' extension (`install --host pi` writes it into `.pi/extensions/` or
 * `~/.pi/agent/extensions/`) runs host mode on pi's `session_start` (SessionStart), `input`
 * (UserPromptSubmit), `tool_call` (PreToolUse: `{block, reason}`, its `input` changed in place for
 * a rewrite), `tool_result` (PostToolUse: context appended to the result), `agent_end` (Stop: the reason as the next message, interactive only) and
 * `session_shutdown` (SessionEnd), in the payload and answer of `pluginHost.ts`.
 * pi's tools: `bash` `{command, timeout}`, `read` `{path, offset, limit}`, `write` `{path, content}`,
 * `edit` `{path, oldText, newText}`, `ls`, `grep`, `find`.
 */
import type { Agent } from "../../../HostModel.ts"
import { pluginHost } from "../pluginHost.ts"

/** @internal */
export const pi: Agent = pluginHost({
  name: "pi",
  displayName: "pi",
  projectDirEnv: ["PI_PROJECT_DIR"],
  toolNames: ["bash", "read", "write", "edit", "ls", "grep", "find"],
  tools: [
    { host: "bash", claude: "Bash" },
    { host: "read", claude: "Read", fields: { path: "file_path" } },
    { host: "write", claude: "Write", fields: { path: "file_path" } },
    { host: "edit", claude: "Edit", fields: { path: "file_path", oldText: "old_string", newText: "new_string" } },
    { host: "ls", claude: "LS" },
    { host: "grep", claude: "Grep" },
    { host: "find", claude: "Glob" }
  ]
})
