/**
 * Kiro as a host (`agent-hooks hook --host kiro`), for the IDE 1.0 and the CLI v3 (`.kiro/hooks/*.json`
 * v1, an `action` of type `command`):
 * - its triggers: PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, SessionEnd carry
 *   Claude Code's names (the older camelCase names too: `preToolUse`, `agentSpawn`...); PreTaskExec,
 *   PostTaskExec, PostFileCreate, PostFileSave, PostFileDelete and Manual have no Claude Code
 *   counterpart and cannot block here;
 * - its tools: `execute_bash` (Bash), `fs_read` `path` (Read `file_path`), `fs_write` `path`
 *   (Write `file_path`); an MCP tool `@server/tool` is named `mcp__server__tool`;
 * - the payload is snake_case (`hook_event_name`, `cwd`, `tool_name`, `tool_input`);
 * - a block: exit 2 with the reason on stderr (Kiro gives it to the agent; only pre hooks block);
 * - exit 0: stdout is added to the agent's context (no JSON is read), so additionalContext is
 *   written as plain text. No ask and no rewrite: an ask becomes a deny, a rewrite a deny naming the
 *   rewritten call.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { stderrOf } from "../common.ts"
import { KIRO_ACTIONS } from "./tools.ts"

const SAME = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd"]
const OWN = ["PreTaskExec", "PostTaskExec", "PostFileCreate", "PostFileSave", "PostFileDelete", "Manual"]

const EVENTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SAME.map((name) => [name, name])),
  ...Object.fromEntries(OWN.map((name) => [name, name])),
  // the names of the CLI before v3 and of the IDE before 1.0
  agentSpawn: "SessionStart",
  userPromptSubmit: "UserPromptSubmit",
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  stop: "Stop"
}

const render = (answer: Answer): HostReply => {
  if (answer.block !== undefined) return { exitCode: 2, stdout: "", stderr: stderrOf(answer, true) }
  const notes = [...answer.notes]
  if (answer.stop !== undefined)
    notes.push(
      `agent-hooks: the policy asked to ` +
        `stop${answer.stop.reason === undefined ? "" : ` (${answer.stop.reason})`}; Kiro's hooks ` +
        `cannot stop it`
    )
  if (answer.systemMessage !== undefined) notes.push(answer.systemMessage)
  return {
    exitCode: 0,
    stdout: answer.additionalContext === undefined ? "" : `${answer.additionalContext}\n`,
    stderr: notes.map((line) => `${line}\n`).join("")
  }
}

/** @internal */
export const kiro: Agent = {
  name: "kiro",
  displayName: "Kiro",
  projectDirEnv: [],
  hookTimeout: 60,
  events: EVENTS,
  ownEvents: OWN,
  toolNames: ["execute_bash", "fs_read", "fs_write", "use_aws", "knowledge", "introspect", "report_issue", "thinking", "todo_list"],
  tools: [
    { host: "execute_bash", claude: "Bash" },
    { host: "fs_read", claude: "Read", fields: { path: "file_path" } },
    { host: "fs_write", claude: "Write", fields: { path: "file_path", file_text: "content" } }
  ],
  actions: KIRO_ACTIONS,
  readInput: (_hostEvent, payload) => {
    const name = payload["tool_name"]
    const mcp = typeof name === "string" ? /^@([^/]+)\/(.+)$/.exec(name) : null
    return mcp === null ? {} : { tool_name: `mcp__${mcp[1]}__${mcp[2]}` }
  },
  askDefault: "deny",
  canAsk: false,
  canRewrite: false,
  render
}
