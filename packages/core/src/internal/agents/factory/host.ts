/**
 * Factory Droid as a host (`agent-hooks hook --host factory`), as Droid 0.225 reads a command hook:
 * - Claude Code's event names, nine of them (PreToolUse, PostToolUse, Notification,
 *   UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionStart, SessionEnd), and its payload;
 * - its own tool names: `Execute` (Bash, `command`, with the `summary` and `riskLevel` it requires),
 *   `Create` (Write), `Edit` (`old_str`, `new_str`), `Read`, `LS`, `Glob`, `Grep`, `FetchUrl`
 *   (WebFetch), `WebSearch`, `TodoWrite`, `Task`, `ApplyPatch`;
 * - a block: exit 2 with the reason on stderr, which Droid gives the model; never the legacy
 *   top-level `decision: "block"`, which Droid ignores (the call runs);
 * - exit 0 JSON otherwise, Claude Code's fields: `permissionDecision` `allow` with `updatedInput`
 *   (applied), `additionalContext`, `systemMessage`, `continue: false`;
 * - `ask`: `droid exec` runs a call a hook answered `ask`, so it is a deny that says approval is
 *   needed, unless `--ask host` (an interactive session, where Droid asks).
 */
import type { Agent, Answer, HostReply, ToolMapping } from "../../../HostModel.ts"
import { claudeJson, jsonLine, stderrOf } from "../common.ts"

/** Droid's hook events: Claude Code's names. */
export const FACTORY_EVENTS: ReadonlyArray<string> = [
  "PreToolUse",
  "PostToolUse",
  "Notification",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd"
]

/** The `hookSpecificOutput` fields Droid reads, per event. */
const SPECIFIC: Readonly<Record<string, ReadonlyArray<string>>> = {
  PreToolUse: ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
  PostToolUse: ["additionalContext"],
  UserPromptSubmit: ["additionalContext"],
  SessionStart: ["additionalContext"]
}

/** Droid's tools and Claude Code's tool of each, with its fields. */
export const FACTORY_TOOLS: ReadonlyArray<ToolMapping> = [
  { host: "Execute", claude: "Bash" },
  { host: "Create", claude: "Write" },
  { host: "Edit", claude: "Edit", fields: { old_str: "old_string", new_str: "new_string", change_all: "replace_all" } },
  { host: "Read", claude: "Read" },
  { host: "LS", claude: "LS" },
  { host: "Glob", claude: "Glob" },
  { host: "Grep", claude: "Grep" },
  { host: "FetchUrl", claude: "WebFetch" },
  { host: "WebSearch", claude: "WebSearch" },
  { host: "TodoWrite", claude: "TodoWrite" },
  { host: "Task", claude: "Task" }
]

const render = (answer: Answer): HostReply => {
  // exit 2 blocks on every event Droid lets a hook block, with stderr as the reason
  if (answer.block !== undefined) return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) }
  const json = claudeJson(answer, {
    specificFields: SPECIFIC[answer.event] ?? [],
    // no "decision": Droid ignores the legacy decision: "block"
    universal: ["continue", "systemMessage"],
    allowWithoutRewrite: true
  })
  return { exitCode: 0, stdout: jsonLine(json), stderr: stderrOf(answer, false) }
}

/** @internal */
export const factory: Agent = {
  name: "factory",
  displayName: "Factory Droid",
  projectDirEnv: ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
  hookTimeout: 60,
  events: Object.fromEntries(FACTORY_EVENTS.map((name) => [name, name])),
  ownEvents: [],
  toolNames: [...FACTORY_TOOLS.map((tool) => tool.host), "MultiEdit", "ApplyPatch", "Script", "WaitForScript", "AskUser"],
  tools: FACTORY_TOOLS,
  askDefault: "deny",
  canAsk: true,
  canRewrite: true,
  rewriteWhole: true,
  render
}
