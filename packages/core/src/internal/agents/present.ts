/**
 * The Claude Code → agent direction of host mode: a call read into Claude Code's names (`translate`)
 * presented again in another agent's own names, so that a hook written for that agent's payload
 * (Gemini CLI's `BeforeTool` of `run_shell_command`, Windsurf's `pre_run_command` with `tool_info`)
 * runs under any host and sees what its own agent would have sent. Tool names and input fields come
 * from the agent's own `tools` table (read backwards); the payload's layout is the agent's.
 *
 * A presentation is kept only when the agent's own reading (`translate`) gives the same call back:
 * the same Claude Code event, tool and input. An event of the agent that would not fire for this
 * call (Cursor's `beforeReadFile` for a shell command) is left out.
 */
import type { Agent, ToolMapping } from "../../HostModel.ts"
import { translate } from "./common.ts"

/** One of the agent's events for a call, and the payload the agent sends its hooks there. */
export interface Presented {
  readonly hostEvent: string
  readonly payload: Record<string, unknown>
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The agent's own tool for a Claude Code tool: the first row of its table that stands for it. */
const toolOf = (agent: Agent, claudeTool: string): ToolMapping | undefined => agent.tools.find((tool) => tool.claude === claudeTool)

/** Claude Code's input fields in the agent's names: each field to the first of the agent's fields that means it. */
const fieldsOf = (mapping: ToolMapping | undefined, input: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const fields = mapping?.fields
  if (fields === undefined) return { ...input }
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [Object.keys(fields).find((host) => fields[host] === key) ?? key, value])
  )
}

/** An MCP tool (`mcp__server__tool`) as the agent names it. */
const mcpName = (agent: Agent, name: string): string => {
  const mcp = /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(name)
  if (mcp === null) return name
  if (agent.name === "kiro") return `@${mcp[1]}/${mcp[2]}`
  return name
}

/** The agent's layout of one event's payload, from Claude Code's fields and the agent's tool and input. */
const layout = (
  agent: Agent,
  hostEvent: string,
  claude: Readonly<Record<string, unknown>>,
  tool: { readonly name: string; readonly input: Record<string, unknown> } | undefined
): Record<string, unknown> => {
  const session = claude["session_id"]
  const cwd = claude["cwd"]
  const response = claude["tool_response"]
  switch (agent.name) {
    case "copilot":
      // camelCase, no event name (the hook's command gives it), the tool's arguments as a JSON string
      return {
        ...(typeof session === "string" ? { sessionId: session } : {}),
        ...(typeof cwd === "string" ? { cwd } : {}),
        timestamp: Date.now(),
        ...(tool === undefined ? {} : { toolName: tool.name, toolArgs: JSON.stringify(tool.input) }),
        ...(response === undefined ? {} : { toolResult: response }),
        ...(typeof claude["prompt"] === "string" ? { prompt: claude["prompt"] } : {})
      }
    case "windsurf": {
      const mcp = tool === undefined ? null : /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(tool.name)
      const info: Record<string, unknown> =
        mcp !== null ? { mcp_server_name: mcp[1], mcp_tool_name: mcp[2], mcp_tool_arguments: tool!.input } : { ...tool?.input }
      if (typeof cwd === "string") info["cwd"] = cwd
      if (response !== undefined) info[mcp !== null ? "mcp_result" : "response"] = response
      if (typeof claude["prompt"] === "string") info["user_prompt"] = claude["prompt"]
      if (typeof claude["last_assistant_message"] === "string") info["response"] = claude["last_assistant_message"]
      return {
        agent_action_name: hostEvent,
        ...(typeof session === "string" ? { trajectory_id: session } : {}),
        timestamp: new Date().toISOString(),
        tool_info: info
      }
    }
    case "antigravity":
      return {
        hookEventName: hostEvent,
        ...(typeof session === "string" ? { conversationId: session } : {}),
        ...(typeof claude["transcript_path"] === "string" ? { transcriptPath: claude["transcript_path"] } : {}),
        ...(typeof cwd === "string" ? { workspacePaths: [cwd] } : {}),
        ...(tool === undefined ? {} : { toolCall: { name: tool.name, args: tool.input } }),
        ...(response === undefined ? {} : { toolResult: response })
      }
    case "cline": {
      const own: Record<string, unknown> = {}
      // an MCP tool is Cline's use_mcp_tool, naming its server and tool, the arguments as a JSON string
      const mcp = tool === undefined ? null : /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(tool.name)
      const parameters =
        mcp === null || (tool!.input["server_name"] === mcp[1] && tool!.input["tool_name"] === mcp[2])
          ? tool?.input
          : { server_name: mcp[1], tool_name: mcp[2], arguments: JSON.stringify(tool!.input) }
      if (tool !== undefined)
        Object.assign(
          own,
          { toolName: mcp === null ? tool.name : "use_mcp_tool", parameters },
          response === undefined ? {} : { result: response }
        )
      if (typeof claude["prompt"] === "string") own["prompt"] = claude["prompt"]
      return {
        hookName: hostEvent,
        ...(typeof session === "string" ? { taskId: session } : {}),
        ...(typeof cwd === "string" ? { workspaceRoots: [cwd] } : {}),
        [hostEvent.charAt(0).toLowerCase() + hostEvent.slice(1)]: own
      }
    }
    case "cursor": {
      const base: Record<string, unknown> = { ...claude, hook_event_name: hostEvent }
      delete base["tool_name"]
      delete base["tool_input"]
      if (tool === undefined) return base
      if (hostEvent === "beforeShellExecution") return { ...base, command: tool.input["command"] }
      if (hostEvent === "beforeReadFile" || hostEvent === "beforeTabFileRead") return { ...base, file_path: tool.input["file_path"] }
      if (hostEvent === "beforeMCPExecution")
        return { ...base, tool_name: tool.name.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, ""), tool_input: JSON.stringify(tool.input) }
      return { ...base, tool_name: tool.name.startsWith("mcp__") ? tool.name : tool.name, tool_input: tool.input }
    }
    case "gemini": {
      // an MCP tool by its own name, its server in mcp_context
      const mcp = tool === undefined ? null : /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(tool.name)
      return {
        ...claude,
        hook_event_name: hostEvent,
        ...(tool === undefined ? {} : { tool_name: mcp === null ? tool.name : mcp[2], tool_input: tool.input }),
        ...(mcp === null ? {} : { mcp_context: { server_name: mcp[1], tool_name: mcp[2] } }),
        ...(hostEvent === "AfterAgent" && typeof claude["last_assistant_message"] === "string"
          ? { prompt_response: claude["last_assistant_message"] }
          : {})
      }
    }
    default:
      return {
        ...claude,
        hook_event_name: hostEvent,
        ...(agent.eventField === undefined ? {} : { [agent.eventField]: hostEvent }),
        ...(tool === undefined ? {} : { tool_name: tool.name, tool_input: tool.input })
      }
  }
}

/**
 * The call (Claude Code's `event` and `payload`) as `agent` sends it to its hooks: one presentation
 * per event of the agent that fires for it (Cursor's `preToolUse` and `beforeShellExecution` for a
 * shell command), each read back by the agent to the same event and tool. Empty when the agent has
 * no event for it (Windsurf fires nothing for a web fetch).
 *
 * @internal
 */
export const present = (agent: Agent, event: string, payload: Readonly<Record<string, unknown>>): ReadonlyArray<Presented> => {
  const claude: Record<string, unknown> = { ...payload }
  delete claude["host"]
  const claudeTool = typeof claude["tool_name"] === "string" ? claude["tool_name"] : undefined
  const claudeInput = isObject(claude["tool_input"]) ? claude["tool_input"] : {}
  // a tool the agent itself sends under Claude Code's name (Codex's Bash) keeps it
  const mapping = claudeTool === undefined || agent.toolNames.includes(claudeTool) ? undefined : toolOf(agent, claudeTool)
  const tool =
    claudeTool === undefined ? undefined : { name: mapping?.host ?? mcpName(agent, claudeTool), input: fieldsOf(mapping, claudeInput) }
  const out: Array<Presented> = []
  for (const [hostEvent, claudeEvent] of Object.entries(agent.events)) {
    if (claudeEvent !== event) continue
    const shaped = layout(agent, hostEvent, claude, tool)
    // the agent's own reading of what it would send must give this very call back
    const back = translate(agent, agent.name === "copilot" ? { ...shaped, hook_event_name: hostEvent } : shaped)
    if ("error" in back || back.event !== event) continue
    if (claudeTool !== undefined && back.payload["tool_name"] !== claudeTool) continue
    out.push({ hostEvent, payload: shaped })
  }
  return out
}

/**
 * A rewritten tool input a hook gave in the agent's own field names (`absolute_path`), in Claude
 * Code's (`file_path`), for the tool the agent calls `hostTool`.
 *
 * @internal
 */
export const claudeInput = (agent: Agent, hostTool: string, input: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const fields = agent.tools.find((tool) => tool.host === hostTool)?.fields
  if (fields === undefined) return { ...input }
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [Object.hasOwn(fields, key) ? fields[key]! : key, value]))
}
