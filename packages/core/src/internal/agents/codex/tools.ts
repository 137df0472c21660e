/**
 * Codex's tools as actions in Claude Code's names: its shell tools take the command as an argv array
 * (`shell`, `local_shell`'s exec action: `["bash", "-lc", "rm -rf /"]`) or a string (`exec_command`
 * `cmd`, the `Bash` its hooks see), each one `Bash` with the command as one string; `apply_patch`
 * is one action per file of the patch, and a shell command that runs `apply_patch` adds them too.
 */
import type { ToolActions } from "../../../HostModel.ts"
import { applyPatch, PATCH, SHELL, shell, table } from "../actions.ts"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** @internal */
export const CODEX_ACTIONS: ReadonlyArray<ToolActions> = table({
  Bash: [SHELL, shell("Bash")],
  shell: [SHELL, shell("shell")],
  container_exec: [SHELL, shell("container_exec")],
  // `{"action": {"type": "exec", "command": [...], "working_directory": ...}}`
  local_shell: [SHELL, (input) => (isObject(input["action"]) ? shell("local_shell")(input["action"]) : shell("local_shell")(input))],
  exec_command: [SHELL, shell("exec_command", "cmd")],
  apply_patch: [PATCH, applyPatch]
})
