/**
 * CodeBuddy Code as a host (`agent-hooks hook --host codebuddy`), as CodeBuddy Code 2.117 reads a
 * command hook:
 * - Claude Code's event names (PreToolUse, PostToolUse, PostToolUseFailure, Notification,
 *   UserPromptSubmit, Stop, SubagentStart, SubagentStop, PreCompact, SessionStart, SessionEnd,
 *   PermissionRequest), tool names (`Bash`, `Read`...) and payload (plus its own `call_id`,
 *   `generation_id`, `client`, `version`, `model`);
 * - a block: exit 2, and on exit 2 CodeBuddy takes the message from stdout before stderr (stderr is
 *   only its fallback), so the reason is on stdout, and nothing else is;
 * - exit 0 JSON otherwise, Claude Code's fields: `permissionDecision` `allow` with `updatedInput`
 *   (applied; sent whole), `additionalContext`, `systemMessage`; `continue: false` except on Stop
 *   and SubagentStop, where CodeBuddy reads it as "keep working";
 * - `ask`: `codebuddy -p -y` runs a call a hook answered `ask`, so it is a deny that says approval
 *   is needed, unless `--ask host` (an interactive session, where CodeBuddy asks).
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"

/** CodeBuddy Code's hook events: Claude Code's names. */
export const CODEBUDDY_EVENTS: ReadonlyArray<string> = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
  "PermissionRequest"
]

/** The `hookSpecificOutput` fields CodeBuddy Code reads, per event. */
const SPECIFIC: Readonly<Record<string, ReadonlyArray<string>>> = {
  PreToolUse: ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
  PostToolUse: ["additionalContext"],
  PostToolUseFailure: ["additionalContext"],
  UserPromptSubmit: ["additionalContext"],
  SessionStart: ["additionalContext"],
  SubagentStart: ["additionalContext"],
  PermissionRequest: ["decision"]
}

/** Where CodeBuddy reads `continue: false` as "do not stop": a policy's stop is not written there. */
const KEEPS_GOING = new Set(["Stop", "SubagentStop"])

const render = (answer: Answer): HostReply => {
  if (answer.block !== undefined) {
    // exit 2: CodeBuddy reads stdout before stderr, so the reason is stdout's one line (stderr keeps it, for its fallback, and the notes)
    return { exitCode: 2, stdout: `${answer.block}\n`, stderr: stderrOf(answer, true) }
  }
  const stopped = KEEPS_GOING.has(answer.event) && answer.stop !== undefined
  const json = claudeJson(stopped ? { ...answer, stop: undefined } : answer, {
    specificFields: SPECIFIC[answer.event] ?? [],
    universal: ["continue", "systemMessage"],
    allowWithoutRewrite: true
  })
  const notes = stopped
    ? `agent-hooks: the policy's continue: false on ${answer.event} is not written (CodeBuddy Code reads it there as "keep working"); the agent stops anyway\n`
    : ""
  return { exitCode: 0, stdout: jsonLine(json), stderr: stderrOf(answer, false) + notes }
}

/** @internal */
export const codebuddy: Agent = {
  name: "codebuddy",
  displayName: "CodeBuddy Code",
  projectDirEnv: ["CODEBUDDY_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
  hookTimeout: 60,
  events: Object.fromEntries(CODEBUDDY_EVENTS.map((name) => [name, name])),
  ownEvents: [],
  toolNames: [],
  tools: [],
  askDefault: "deny",
  canAsk: true,
  canRewrite: true,
  rewriteWhole: true,
  render
}
