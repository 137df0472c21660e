/**
 * Cline as a host (`agent-hooks hook --host cline`: the script in Cline's hooks folder, one per
 * event, runs it). Two Clines run those scripts, with two sets of names:
 * - the VS Code extension, as Cline's hook reference describes a hook: the payload
 *   `{clineVersion, hookName, timestamp, taskId, workspaceRoots, userId, <event>: {...}}` with
 *   `hookName` the file's name (`PreToolUse`), PreToolUse and PostToolUse reading
 *   `preToolUse.toolName` and `parameters` (PostToolUse's `result` as `tool_response`); its tools
 *   `execute_command` (Bash), `read_file` / `write_to_file` / `replace_in_file` `path` (Read /
 *   Write / Edit `file_path`), `search_files` (Grep), `list_files` (LS), `web_fetch` (WebFetch);
 *   `use_mcp_tool` is `mcp__<server>__<tool>`;
 * - the Cline CLI (3.x, `@cline/core`): the same files, but `hookName` is the runtime's own event
 *   (`tool_call` for PreToolUse, `tool_result`, `prompt_submit`, `agent_start`, `agent_resume`,
 *   `agent_end`, `agent_abort`, `agent_error`, `session_shutdown`) and the call is
 *   `tool_call: {id, name, input}` (`preToolUse.parameters` holds the input's values as strings);
 *   its tools `run_commands {commands: [...]}` (Bash: the commands one per line as `command`),
 *   `read_files` (Read: `file_path`, and `file_paths` when it reads several), `editor` (Edit:
 *   `path`, `old_text`, `new_text`), `search_codebase` (Grep), `fetch_web_content` (WebFetch).
 *   The CLI runs prompt_submit, agent_end, agent_abort, agent_error and session_shutdown detached:
 *   a block there cannot stop anything.
 *
 * The answer is always exit 0 with JSON on stdout: any non-zero exit is an error to Cline, never a
 * block, and a hook that fails, times out or prints no JSON lets the call run. A block:
 * - the CLI's tool_call: Cline's `cancel` stops the call but aborts the whole run (the model never
 *   learns why), so the call is replaced (`overrideInput`, which the CLI applies): a shell call by
 *   one that prints the reason and fails, the reason passed as data (quoted, never spliced into a
 *   command: a reason may quote `$(...)` from the model's own input); a built-in tool by an empty
 *   input its own check refuses (the call fails, nothing runs); and the reason is the
 *   `contextModification` the model reads next. A tool whose input cannot be made to fail safely
 *   (an MCP tool, a tool this module does not know) is cancelled, as the last resort;
 * - the extension's events: `cancel: true` with the reason as `errorMessage`.
 * additionalContext is `contextModification`; `continue: false` cancels. No ask (a deny here). A
 * rewrite is `overrideInput` on the CLI's tool_call (in the tool's own input shape), a deny naming
 * it on the extension's PreToolUse.
 */
import type { Agent, Answer, HostCall, HostReply } from "../../../HostModel.ts"
import { jsonLine, stderrOf } from "../common.ts"
import { CLINE_ACTIONS } from "./tools.ts"

const EVENTS: Readonly<Record<string, string>> = {
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  UserPromptSubmit: "UserPromptSubmit",
  TaskStart: "SessionStart",
  TaskResume: "SessionStart",
  PreCompact: "PreCompact",
  TaskCancel: "TaskCancel",
  TaskComplete: "TaskComplete",
  // the Cline CLI's own names for the same files (PreToolUse runs as tool_call, ...)
  tool_call: "PreToolUse",
  tool_result: "PostToolUse",
  prompt_submit: "UserPromptSubmit",
  agent_start: "SessionStart",
  agent_resume: "SessionStart",
  agent_end: "TaskComplete",
  agent_abort: "TaskCancel",
  agent_error: "TaskError",
  session_shutdown: "SessionEnd"
}

/** The Cline CLI's event names (the payload's `hookName`), which install never names a file after. @internal */
export const CLI_EVENTS: ReadonlyArray<string> = [
  "tool_call",
  "tool_result",
  "prompt_submit",
  "agent_start",
  "agent_resume",
  "agent_end",
  "agent_abort",
  "agent_error",
  "session_shutdown"
]

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * `text` as one shell word that every shell Cline may run a command in (bash, sh, dash, zsh, and
 * fish) reads back as exactly `text`: runs of other characters in single quotes, each `'` and `\`
 * escaped outside them (inside single quotes fish reads `\'` and `\\` as escapes, so neither ever
 * stands there). A NUL cannot be passed in a command line: it is dropped. @internal
 */
export const shellWord = (text: string): string => {
  const parts: Array<string> = []
  let run = ""
  for (const ch of text.replace(/\0/g, "")) {
    if (ch === "'" || ch === "\\") {
      if (run !== "") parts.push(`'${run}'`)
      run = ""
      parts.push(`\\${ch}`)
    } else run += ch
  }
  if (run !== "") parts.push(`'${run}'`)
  return parts.length === 0 ? "''" : parts.join("")
}

/** The shell command a blocked shell call is replaced with: it prints the reason on stderr and fails. @internal */
export const failingCommand = (reason: string): string => `printf '%s\\n' ${shellWord(reason)} >&2; exit 1`

/** The commands of a `run_commands` input, in the shapes the CLI accepts, each as shell text; `undefined` if none can be read. */
const commandsOf = (input: unknown): ReadonlyArray<string> | undefined => {
  const one = (entry: unknown): string | undefined => {
    if (typeof entry === "string") return entry
    // {command, args}: an executable run without a shell, written as the shell line that runs it
    if (isObject(entry) && typeof entry["command"] === "string") {
      const args = Array.isArray(entry["args"]) ? entry["args"] : []
      if (!args.every((arg) => typeof arg === "string")) return undefined
      return args.length === 0 && !("args" in entry) ? entry["command"] : [entry["command"], ...args].map(shellWord).join(" ")
    }
    return undefined
  }
  const list = (entries: ReadonlyArray<unknown>): ReadonlyArray<string> | undefined => {
    const out = entries.map(one)
    return out.every((entry): entry is string => entry !== undefined) ? out : undefined
  }
  if (Array.isArray(input)) return list(input)
  if (typeof input === "string") return [input]
  if (!isObject(input)) return undefined
  const commands = input["commands"]
  if (Array.isArray(commands)) return list(commands)
  if (commands !== undefined) return list([commands])
  if (typeof input["command"] === "string" && "args" in input) return list([input])
  const single = input["command"] ?? input["cmd"]
  return typeof single === "string" ? [single] : undefined
}

/** The paths of a `read_files` input, in the shapes the CLI accepts; `undefined` if none can be read. */
const pathsOf = (input: unknown): ReadonlyArray<string> | undefined => {
  const one = (entry: unknown): string | undefined => {
    if (typeof entry === "string") return entry
    if (!isObject(entry)) return undefined
    const path = entry["path"] ?? entry["file_path"] ?? entry["filePath"]
    return typeof path === "string" ? path : undefined
  }
  const list = (entries: ReadonlyArray<unknown>): ReadonlyArray<string> | undefined => {
    const out = entries.map(one)
    return out.length > 0 && out.every((entry): entry is string => entry !== undefined) ? out : undefined
  }
  if (Array.isArray(input)) return list(input)
  if (!isObject(input)) return typeof input === "string" ? [input] : undefined
  for (const key of ["files", "paths", "file_paths"]) {
    const value = input[key]
    if (value === undefined) continue
    return Array.isArray(value) ? list(value) : list([value])
  }
  const path = one(input)
  return path === undefined ? undefined : [path]
}

/**
 * The CLI's tool input as the policy reads it: `run_commands`' commands as one `command` (one per
 * line), `read_files`' paths as `file_path` (and `file_paths`, all of them, when it reads
 * several); other tools' input as given.
 */
const cliInput = (name: string, input: unknown): Record<string, unknown> => {
  if (name === "run_commands") {
    const commands = commandsOf(input)
    if (commands !== undefined) return { command: commands.join("\n") }
  }
  if (name === "read_files") {
    const paths = pathsOf(input)
    if (paths !== undefined) return paths.length === 1 ? { file_path: paths[0] } : { file_path: paths[0], file_paths: paths }
  }
  return isObject(input) ? { ...input } : { input }
}

const normalize = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const event = payload["hookName"]
  if (typeof event !== "string" || event === "") return { ...payload }
  const out: Record<string, unknown> = { ...payload, hook_event_name: event }
  if (typeof payload["taskId"] === "string") out["session_id"] = payload["taskId"]
  const roots = payload["workspaceRoots"]
  if (Array.isArray(roots) && typeof roots[0] === "string") out["cwd"] = roots[0]
  // the CLI's call: tool_call / tool_result {name, input} (its preToolUse.parameters are strings)
  const call = event === "tool_call" ? payload["tool_call"] : event === "tool_result" ? payload["tool_result"] : undefined
  if (isObject(call) && typeof call["name"] === "string") {
    out["tool_name"] = call["name"]
    out["tool_input"] = cliInput(call["name"], call["input"])
    if (event === "tool_result") out["tool_response"] = call["error"] ?? call["output"]
  }
  // the extension's (and the CLI's) event object: preToolUse, postToolUse, userPromptSubmit, taskStart...
  const ownName = { prompt_submit: "userPromptSubmit" }[event] ?? event.charAt(0).toLowerCase() + event.slice(1)
  const own = payload[ownName]
  const data = isObject(own) ? own : {}
  if ((event === "PreToolUse" || event === "PostToolUse") && typeof data["toolName"] === "string") {
    out["tool_name"] = data["toolName"]
    out["tool_input"] = isObject(data["parameters"]) ? data["parameters"] : {}
    if (event === "PostToolUse" && data["result"] !== undefined) out["tool_response"] = data["result"]
  }
  if ((event === "UserPromptSubmit" || event === "prompt_submit") && typeof data["prompt"] === "string") out["prompt"] = data["prompt"]
  if (event === "TaskStart" || event === "agent_start") out["source"] = "startup"
  if (event === "TaskResume" || event === "agent_resume") out["source"] = "resume"
  return out
}

/** The CLI's built-in tools whose own input check refuses an empty input: a blocked call of one is replaced by `{}` and fails. */
const REFUSES_EMPTY = new Set(["read_files", "search_codebase", "fetch_web_content", "apply_patch", "editor", "skills", "ask_question"])

/** A rewrite in Claude Code's shape of the CLI's tool (`{command}` of run_commands), in the input shape the tool takes. */
const cliOverride = (tool: string | undefined, updated: Readonly<Record<string, unknown>>): unknown => {
  if (tool === "run_commands" && typeof updated["command"] === "string") return { commands: [updated["command"]] }
  if (tool === "read_files" && (typeof updated["file_path"] === "string" || Array.isArray(updated["file_paths"]))) {
    const paths = Array.isArray(updated["file_paths"]) ? updated["file_paths"] : [updated["file_path"]]
    return { files: paths.map((path) => ({ path })) }
  }
  return updated
}

const render = (answer: Answer, hostEvent: string, call?: HostCall): HostReply => {
  const out: Record<string, unknown> = { cancel: false }
  const context = [answer.additionalContext, answer.systemMessage].filter((text): text is string => text !== undefined)
  const tool = call?.tool?.name
  let block = answer.block ?? (answer.stop === undefined ? undefined : (answer.stop.reason ?? "stopped by the agent-hooks policy"))
  if (block === undefined && answer.updatedInput !== undefined) {
    if (hostEvent === "tool_call") out["overrideInput"] = cliOverride(tool, answer.updatedInput)
    else
      block = `the agent-hooks policy rewrote this call's input to ${JSON.stringify(answer.updatedInput)}, which Cline's PreToolUse hook cannot apply; make that call instead`
  }
  if (
    block !== undefined &&
    hostEvent === "tool_call" &&
    answer.stop === undefined &&
    (tool === "run_commands" || REFUSES_EMPTY.has(tool ?? ""))
  ) {
    // the call is replaced by one that fails, and the model reads why: the run goes on
    out["overrideInput"] = tool === "run_commands" ? { commands: [failingCommand(block)] } : {}
    context.unshift(`agent-hooks blocked this ${tool} call: ${block}`)
  } else if (block !== undefined && hostEvent === "tool_result" && answer.stop === undefined) {
    // after the tool, a block tells the model (Claude Code's PostToolUse block); cancel would end the run
    context.unshift(block)
  } else if (block !== undefined) {
    out["cancel"] = true
    out["errorMessage"] = block
  }
  if (context.length > 0) out["contextModification"] = context.join("\n\n")
  // the reason on stderr too, where a person reading the hook's output finds it
  return { exitCode: 0, stdout: jsonLine(out), stderr: stderrOf({ ...answer, block }, true) }
}

/** @internal */
export const cline: Agent = {
  name: "cline",
  displayName: "Cline",
  projectDirEnv: [],
  hookTimeout: 30,
  events: EVENTS,
  ownEvents: ["TaskCancel", "TaskComplete", "TaskError"],
  toolNames: [
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "attempt_completion",
    "new_task",
    "plan_mode_respond",
    "load_mcp_documentation",
    "web_fetch",
    // the Cline CLI's
    "run_commands",
    "read_files",
    "editor",
    "apply_patch",
    "search_codebase",
    "fetch_web_content",
    "skills",
    "ask_question",
    "submit_and_exit"
  ],
  tools: [
    { host: "execute_command", claude: "Bash" },
    { host: "read_file", claude: "Read", fields: { path: "file_path" } },
    { host: "write_to_file", claude: "Write", fields: { path: "file_path" } },
    { host: "replace_in_file", claude: "Edit", fields: { path: "file_path" } },
    { host: "search_files", claude: "Grep", fields: { regex: "pattern", file_pattern: "glob" } },
    { host: "list_files", claude: "LS" },
    { host: "web_fetch", claude: "WebFetch" },
    { host: "run_commands", claude: "Bash" },
    { host: "read_files", claude: "Read" },
    { host: "editor", claude: "Edit", fields: { path: "file_path", old_text: "old_string", new_text: "new_string" } },
    { host: "search_codebase", claude: "Grep" },
    { host: "fetch_web_content", claude: "WebFetch" }
  ],
  actions: CLINE_ACTIONS,
  readInput: (_hostEvent, payload) => {
    const input = payload["tool_input"]
    if (payload["tool_name"] !== "use_mcp_tool" || !isObject(input)) return {}
    const server = input["server_name"]
    const tool = input["tool_name"]
    return typeof server === "string" && typeof tool === "string" && server !== "" && tool !== ""
      ? { tool_name: `mcp__${server}__${tool}` }
      : {}
  },
  normalize,
  askDefault: "deny",
  canAsk: false,
  // the CLI applies overrideInput; the extension's PreToolUse answers a rewrite with a deny naming it
  canRewrite: true,
  render
}
