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
import type { AgentProfile } from "../../AgentProfile.ts"
import type { Agent, ToolMapping } from "../../HostModel.ts"
import { mcpParts, translate } from "./common.ts"
import { profiles } from "./profiles.ts"

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

/** The agent's record, by name (an agent of the registry; another has Claude Code's layout). */
const profileOf = (agent: Agent): AgentProfile | undefined => profiles.find((profile) => profile.name === agent.name)

/** An MCP tool (`mcp__server__tool`) as the agent names it (its profile's `mcpToolName`). */
const mcpName = (agent: Agent, name: string): string => {
  const mcp = mcpParts(name)
  const rename = profileOf(agent)?.mcpToolName
  return mcp === null || rename === undefined ? name : rename(mcp[1]!, mcp[2]!)
}

/**
 * The agent's layout of one event's payload, from Claude Code's fields and the agent's tool and
 * input: its profile's `present`, else Claude Code's layout with the agent's event (and event field).
 */
const layout = (
  agent: Agent,
  hostEvent: string,
  claude: Readonly<Record<string, unknown>>,
  tool: { readonly name: string; readonly input: Record<string, unknown> } | undefined
): Record<string, unknown> =>
  profileOf(agent)?.present?.(hostEvent, claude, tool) ?? {
    ...claude,
    hook_event_name: hostEvent,
    ...(agent.eventField === undefined ? {} : { [agent.eventField]: hostEvent }),
    ...(tool === undefined ? {} : { tool_name: tool.name, tool_input: tool.input })
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
  // the agent's own call (its original tool and input, `host`), as it sent it: a call read into
  // several actions (a patch, a list of files) is presented whole, never as its first action
  const original = isObject(payload["host"]) ? payload["host"] : undefined
  const own =
    original !== undefined &&
    original["name"] === agent.name &&
    typeof original["tool_name"] === "string" &&
    isObject(original["tool_input"])
      ? { name: original["tool_name"], input: { ...original["tool_input"] } }
      : undefined
  const tool =
    claudeTool === undefined
      ? undefined
      : (own ?? { name: mapping?.host ?? mcpName(agent, claudeTool), input: fieldsOf(mapping, claudeInput) })
  const out: Array<Presented> = []
  for (const [hostEvent, claudeEvent] of Object.entries(agent.events)) {
    if (claudeEvent !== event) continue
    const shaped = layout(agent, hostEvent, claude, tool)
    // the agent's own reading of what it would send must give this very call back
    // (an agent whose payload names no event reads it from the command: given here)
    const back = translate(agent, profileOf(agent)?.payloadNamesNoEvent === true ? { ...shaped, hook_event_name: hostEvent } : shaped)
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
