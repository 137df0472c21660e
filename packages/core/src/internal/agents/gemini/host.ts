/**
 * Gemini CLI as a host (`agent-hooks hook --host gemini`), as Gemini CLI 0.61 reads a command hook:
 * - its events: BeforeTool (PreToolUse), AfterTool (PostToolUse), BeforeAgent (UserPromptSubmit),
 *   AfterAgent (Stop), PreCompress (PreCompact), SessionStart, SessionEnd, Notification; BeforeModel,
 *   AfterModel and BeforeToolSelection have no Claude Code counterpart and cannot block here;
 * - its tools: `run_shell_command` (Bash), `read_file` `absolute_path` (Read `file_path`),
 *   `write_file` (Write), `replace` (Edit), `glob`, `search_file_content` (Grep), `list_directory`,
 *   `web_fetch`, `google_web_search` (WebSearch), `write_todos` (TodoWrite); an MCP tool is named
 *   `mcp__<server>__<tool>` from the payload's `mcp_context`;
 * - a block: Gemini CLI's own `{"decision": "deny", "reason"}` on stdout with exit 0 on BeforeTool,
 *   BeforeAgent and AfterAgent, where it blocks the tool, refuses the prompt, or sends the agent on
 *   with the reason (seen in the real agent); exit 2 would block too, but Gemini CLI then counts
 *   the hook as failed and prints "[WARNING] Hook(s) … failed" on every block. On its other events
 *   no decision is proven to hold: exit 2 with the reason on stderr, and the same JSON;
 * - exit 0 JSON otherwise: top-level `decision` (`allow`, `ask`) and `reason`, `systemMessage`,
 *   `continue: false` with `stopReason`, `hookSpecificOutput.tool_input` (replaces the tool's input;
 *   the model is told) and `hookSpecificOutput.additionalContext` (AfterTool, BeforeAgent,
 *   SessionStart). It ignores Claude Code's `permissionDecision`. Headless, `ask` hangs until the
 *   hook is killed, so `ask` becomes a deny unless `--ask host`.
 */
import type { Agent, Answer, HostReply } from "../../../HostModel.ts"
import { jsonLine, stderrOf } from "../common.ts"
import { GEMINI_ACTIONS } from "./tools.ts"

const EVENTS: Readonly<Record<string, string>> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  PreCompress: "PreCompact",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  Notification: "Notification",
  BeforeModel: "BeforeModel",
  AfterModel: "AfterModel",
  BeforeToolSelection: "BeforeToolSelection"
}

/**
 * Where Gemini CLI reads `hookSpecificOutput.additionalContext` (AfterTool, BeforeAgent, SessionStart),
 * by the Claude Code event each one behaves as: what the host writes, and what the preset delivers.
 * @internal
 */
export const GEMINI_CONTEXT: ReadonlySet<string> = new Set(["PostToolUse", "UserPromptSubmit", "SessionStart"])

/** The events on which Gemini CLI reads an exit-0 `decision: "deny"` as the block it is (a tool, a prompt, a stop). */
const DECIDES = new Set(["BeforeTool", "BeforeAgent", "AfterAgent"])

const render = (answer: Answer, hostEvent: string): HostReply => {
  if (answer.block !== undefined) {
    const known = hostEvent in EVENTS
    // Gemini CLI's own block, which it does not report as a failed hook
    if (DECIDES.has(hostEvent))
      return { exitCode: 0, stdout: jsonLine({ decision: "deny", reason: answer.block }), stderr: stderrOf(answer, true) }
    return {
      exitCode: 2,
      stdout: known ? jsonLine({ decision: "deny", reason: answer.block }) : "",
      stderr: stderrOf(answer, true)
    }
  }
  const out: Record<string, unknown> = {}
  const specific: Record<string, unknown> = {}
  if (answer.ask !== undefined) {
    out["decision"] = "ask"
    out["reason"] = answer.ask
  } else if (answer.allow !== undefined) {
    out["decision"] = "allow"
  }
  if (answer.stop !== undefined) {
    out["continue"] = false
    if (answer.stop.reason !== undefined) out["stopReason"] = answer.stop.reason
  }
  if (answer.systemMessage !== undefined) out["systemMessage"] = answer.systemMessage
  if (answer.updatedInput !== undefined) specific["tool_input"] = answer.updatedInput
  if (answer.additionalContext !== undefined && GEMINI_CONTEXT.has(answer.event)) specific["additionalContext"] = answer.additionalContext
  if (Object.keys(specific).length > 0) out["hookSpecificOutput"] = { hookEventName: hostEvent, ...specific }
  return { exitCode: 0, stdout: jsonLine(out), stderr: stderrOf(answer, false) }
}

const mcpName = (payload: Readonly<Record<string, unknown>>): string | undefined => {
  const context = payload["mcp_context"]
  if (typeof context !== "object" || context === null) return undefined
  const server = (context as Record<string, unknown>)["server_name"]
  const tool = (context as Record<string, unknown>)["tool_name"]
  return typeof server === "string" && typeof tool === "string" && server !== "" && tool !== "" ? `mcp__${server}__${tool}` : undefined
}

/** @internal */
export const gemini: Agent = {
  name: "gemini",
  displayName: "Gemini CLI",
  projectDirEnv: ["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
  hookTimeout: 60,
  events: EVENTS,
  ownEvents: ["BeforeModel", "AfterModel", "BeforeToolSelection"],
  toolNames: [
    "run_shell_command",
    "read_file",
    "read_many_files",
    "write_file",
    "replace",
    "glob",
    "search_file_content",
    "list_directory",
    "web_fetch",
    "google_web_search",
    "save_memory",
    "write_todos"
  ],
  tools: [
    { host: "run_shell_command", claude: "Bash" },
    { host: "read_file", claude: "Read", fields: { absolute_path: "file_path", file_path: "file_path" } },
    { host: "write_file", claude: "Write" },
    { host: "replace", claude: "Edit" },
    { host: "glob", claude: "Glob", fields: { dir_path: "path" } },
    { host: "search_file_content", claude: "Grep", fields: { dir_path: "path", include: "glob" } },
    { host: "grep_search", claude: "Grep", fields: { dir_path: "path", include: "glob" } },
    { host: "list_directory", claude: "LS", fields: { dir_path: "path" } },
    { host: "web_fetch", claude: "WebFetch" },
    { host: "google_web_search", claude: "WebSearch" },
    { host: "write_todos", claude: "TodoWrite" }
  ],
  actions: GEMINI_ACTIONS,
  readInput: (hostEvent, payload) => {
    const extra: Record<string, unknown> = {}
    const mcp = mcpName(payload)
    if (mcp !== undefined) extra["tool_name"] = mcp
    // AfterAgent is Stop: the model's last answer under Claude Code's name
    if (hostEvent === "AfterAgent" && typeof payload["prompt_response"] === "string") {
      extra["last_assistant_message"] = payload["prompt_response"]
    }
    return extra
  },
  askDefault: "deny",
  canAsk: true,
  canRewrite: true,
  render
}
