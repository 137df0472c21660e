/**
 * VS Code's tools as actions in Claude Code's names: `editFiles` is one `Edit` per file of
 * `files[]`, `multi_replace_string_in_file` one `Edit` per replacement, `create_and_run_task` the
 * task's command as `Bash`, `fetch_webpage` one `WebFetch` per URL of `urls[]`.
 */
import type { ToolActions } from "../../../HostModel.ts"
import { commandText, fetches, perFile, shellWord, table } from "../actions.ts"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** @internal */
export const VSCODE_ACTIONS: ReadonlyArray<ToolActions> = table({
  editFiles: [["Edit"], perFile("Edit", "files")],
  multi_replace_string_in_file: [
    ["Edit"],
    perFile("Edit", "replacements", { extra: (entry) => ({ old_string: entry["oldString"], new_string: entry["newString"] }) })
  ],
  // `{"task": {"label", "type": "shell" | "process", "command", "args": [...]}, "workspaceFolder"}`
  create_and_run_task: [
    ["Bash"],
    (input) => {
      const task = isObject(input["task"]) ? input["task"] : input
      const program = commandText(task["command"])
      const args = task["args"] === undefined ? [] : task["args"]
      if (program === undefined || !Array.isArray(args) || !args.every((arg) => typeof arg === "string"))
        return { refuse: "the task's command is not a command string with string args: it cannot be judged" }
      const command = [program, ...(args as ReadonlyArray<string>).map(shellWord)].join(" ")
      return [{ tool_name: "Bash", tool_input: { command, description: task["label"] ?? null } }]
    }
  ],
  fetch_webpage: [["WebFetch"], fetches]
})
