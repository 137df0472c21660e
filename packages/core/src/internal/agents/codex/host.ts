/**
 * Codex as a host (`agent-hooks hook --host codex`), as its source reads a command hook
 * (`codex-rs/hooks/src/events/*.rs`):
 * - Claude Code's event names, plus `Interrupt` (a turn the user interrupted; it cannot block);
 * - the shell tool arrives as `Bash` with `tool_input.command` (the model's own `exec_command` `cmd`
 *   is mapped too, for payloads that carry it);
 * - a block is exit 2 with a non-empty reason on stderr (stdout is not read then); exit 2 with an
 *   empty stderr is a failed hook and the call runs;
 * - exit 0 JSON is read strictly: any key Codex does not know on that event fails the hook and the
 *   call runs, so only its own keys are written; `permissionDecision: "allow"` only with
 *   `updatedInput` (a bare allow fails the hook); no `ask` (rejected, the call runs), so `ask`
 *   becomes a deny.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { CODEX_OUTPUT } from "./output.ts"
import { CODEX_ACTIONS } from "./tools.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "StopFailure",
  "SessionEnd"
]

const render = (answer: Answer): HostReply => {
  if (answer.block !== undefined) return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) }
  const json = claudeJson(answer, {
    specificFields: CODEX_OUTPUT[answer.event] ?? [],
    // Interrupt takes only systemMessage
    universal: answer.event === "Interrupt" ? ["systemMessage"] : ["continue", "systemMessage"],
    allowWithoutRewrite: false
  })
  const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined
  // PermissionRequest: Codex reads behavior (allow / deny) and a deny's message, nothing else
  if (specific !== undefined && typeof specific["decision"] === "object" && specific["decision"] !== null) {
    const decision = specific["decision"] as Record<string, unknown>
    specific["decision"] = {
      behavior: decision["behavior"],
      ...(typeof decision["message"] === "string" ? { message: decision["message"] } : {})
    }
  }
  return { exitCode: 0, stdout: jsonLine(json), stderr: stderrOf(answer, false) }
}

/** @internal */
export const codex: Agent = {
  name: "codex",
  displayName: "Codex",
  // Codex sets no project variable: it starts hooks in the session's folder (the current directory)
  projectDirEnv: [],
  hookTimeout: 600,
  events: { ...Object.fromEntries(EVENTS.map((name) => [name, name])), Interrupt: "Interrupt" },
  ownEvents: ["Interrupt"],
  toolNames: ["Bash", "apply_patch", "shell", "local_shell", "exec_command", "container_exec", "update_plan", "view_image", "web_search"],
  tools: [{ host: "exec_command", claude: "Bash", fields: { cmd: "command" } }],
  actions: CODEX_ACTIONS,
  askDefault: "deny",
  canAsk: false,
  canRewrite: true,
  render
}
