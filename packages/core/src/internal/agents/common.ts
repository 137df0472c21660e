import * as Equal from "effect/Equal"
import type { Action, Agent, Answer, AnswerOptions, HostCall, HostReply, ToolMapping } from "../../HostModel.ts"
import type { Decision, Outcome } from "../../Verdict.ts"
import { FAIL_OPEN_EVENTS, get as eventSpec } from "../hookEvent.ts"
import { TOOL_NAMES } from "../scriptCheck.ts"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const text = (u: unknown): string | undefined => (typeof u === "string" && u.trim() !== "" ? u : undefined)

/** The tool events: their payload names a tool (`tool_name`, `tool_input`). */
const mappingOf = (agent: Agent, hostToolName: string): ToolMapping | undefined => agent.tools.find((tool) => tool.host === hostToolName)

/** @internal */
export const claudeToolName = (agent: Agent, hostToolName: string): string => mappingOf(agent, hostToolName)?.claude ?? hostToolName

/**
 * The agent's tool input in Claude Code's field names, or the names of two fields that would give
 * one Claude Code field two different values (`absolute_path` and `file_path` of Gemini CLI's
 * `read_file`): the policy cannot know which one the agent will use, so such a call is not judged
 * on one of them.
 */
const toClaude = (
  mapping: ToolMapping | undefined,
  input: Readonly<Record<string, unknown>>
): { readonly input: Record<string, unknown> } | { readonly conflict: readonly [string, string] } => {
  const fields = mapping?.fields
  if (fields === undefined) return { input: { ...input } }
  // entries, not assignments: a key named "__proto__" stays a field (an assignment would set the prototype)
  const out = new Map<string, unknown>()
  const from = new Map<string, string>()
  // A field named as Claude Code names it, where the agent's tool reads another (Copilot CLI's `view`
  // reads `path`): a decoy the tool never uses, not judged in place of the field it does use
  const targets = new Set(
    mapping?.ignoresOthers === true
      ? Object.entries(fields)
          .filter(([host, claude]) => host !== claude)
          .map(([, claude]) => claude)
      : []
  )
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(fields, key) && targets.has(key)) continue
    const name = Object.hasOwn(fields, key) ? fields[key]! : key
    if (out.has(name) && JSON.stringify(out.get(name)) !== JSON.stringify(value)) return { conflict: [from.get(name)!, key] }
    out.set(name, value)
    from.set(name, key)
  }
  return { input: Object.fromEntries(out) }
}

/**
 * A rewrite in Claude Code's field names, back in the agent's: each field goes to the agent's field
 * of that meaning the original call used (Gemini CLI's `read_file` takes `absolute_path` or
 * `file_path`), else the first one named.
 */
const toHost = (
  mapping: ToolMapping | undefined,
  updated: Readonly<Record<string, unknown>>,
  original: Readonly<Record<string, unknown>>
): Record<string, unknown> => {
  const fields = mapping?.fields
  if (fields === undefined) return { ...updated }
  const out = new Map<string, unknown>()
  for (const [key, value] of Object.entries(updated)) {
    const candidates = Object.keys(fields).filter((host) => fields[host] === key)
    const name = candidates.find((host) => Object.hasOwn(original, host)) ?? candidates[0] ?? key
    out.set(name, value)
  }
  return Object.fromEntries(out)
}

/** @internal */
export const hostEvent = (agent: Agent, received: Readonly<Record<string, unknown>>): string | undefined => {
  const payload = agent.normalize?.(received) ?? received
  const name = payload[agent.eventField ?? "hook_event_name"] ?? payload["hook_event_name"]
  return typeof name === "string" && name !== "" ? name : undefined
}

/** @internal */
export const translate = (agent: Agent, received: Readonly<Record<string, unknown>>): HostCall | { readonly error: string } => {
  // An agent with its own payload shape: its event, tool and input where Claude Code has them
  const payload = agent.normalize?.(received) ?? received
  const field = agent.eventField ?? "hook_event_name"
  const hostEvent = payload[field] ?? payload["hook_event_name"]
  if (typeof hostEvent !== "string" || hostEvent === "") {
    return {
      error:
        agent.name === "copilot"
          ? `the payload on stdin names no event (Copilot CLI sends none): give it with --event, as in ` +
            `"agent-hooks hook --host copilot --event preToolUse"`
          : `the payload on stdin has no ${field} (${agent.displayName} always sends one): is this ` +
            `command wired as a ${agent.displayName} hook?`
    }
  }
  const event = Object.hasOwn(agent.events, hostEvent) ? agent.events[hostEvent] : undefined
  if (event === undefined) {
    return {
      error: `${agent.displayName} sent the event "${hostEvent}", which host mode does not know (it knows ${Object.keys(agent.events).join(
        ", "
      )}): update agent-hooks, or remove this hook from ${agent.displayName}'s config for that event`
    }
  }
  const out: Record<string, unknown> = { ...payload, hook_event_name: event }
  let tool: HostCall["tool"]
  const toolName = payload["tool_name"]
  const ambiguous = (name: string, conflict: readonly [string, string]) => ({
    error:
      `${agent.displayName}'s ${name} call gives both ${conflict[0]} and ${conflict[1]}, which ` +
      `mean the same field of the policy, with different values: the call cannot be judged`
  })
  if (typeof toolName === "string") {
    const input = isObject(payload["tool_input"]) ? payload["tool_input"] : {}
    const mapping = mappingOf(agent, toolName)
    out["tool_name"] = mapping?.claude ?? toolName
    if (isObject(payload["tool_input"])) {
      const mapped = toClaude(mapping, input)
      if ("conflict" in mapped) return ambiguous(toolName, mapped.conflict)
      out["tool_input"] = mapped.input
    }
    tool = { name: toolName, input, mapping }
  }
  // A batch of calls (PostToolBatch): each call's tool in Claude Code's names too
  if (Array.isArray(payload["tool_calls"]) && agent.tools.length > 0) {
    const calls: Array<unknown> = []
    for (const entry of payload["tool_calls"] as ReadonlyArray<unknown>) {
      const mapping = isObject(entry) && typeof entry["tool_name"] === "string" ? mappingOf(agent, entry["tool_name"]) : undefined
      if (mapping === undefined || !isObject(entry)) {
        calls.push(entry)
        continue
      }
      const mapped = isObject(entry["tool_input"]) ? toClaude(mapping, entry["tool_input"]) : undefined
      if (mapped !== undefined && "conflict" in mapped) return ambiguous(mapping.host, mapped.conflict)
      calls.push({ ...entry, tool_name: mapping.claude, ...(mapped === undefined ? {} : { tool_input: mapped.input }) })
    }
    out["tool_calls"] = calls
  }
  if (agent.readInput !== undefined) {
    for (const [key, value] of Object.entries(agent.readInput(hostEvent, payload))) {
      // the agent's tool name wins; so does its tool input where the payload's is not an object (Cursor's MCP input is a JSON string)
      if (key === "tool_name" || !(key in payload) || (key === "tool_input" && !isObject(payload["tool_input"]))) out[key] = value
    }
  }
  // Hooks also see the agent and its own names (a payload's own `host` is replaced: the agent sends none).
  out["host"] = {
    name: agent.name,
    event: hostEvent,
    ...(tool === undefined ? {} : { tool_name: tool.name, tool_input: tool.input })
  }
  // Every tool call as what it does: its actions in Claude Code's names, the first one in the payload
  let actions: ReadonlyArray<Action> = []
  let reshaped = false
  let refusal = duplicateIn(agent, payload)
  if (typeof out["tool_name"] === "string") {
    const own = tool === undefined ? undefined : agent.actions?.find((reader) => reader.host === tool!.name)
    const read = own === undefined ? undefined : own.actions(tool!.input)
    if (read !== undefined && "refuse" in read) refusal ??= `${agent.displayName}'s ${tool!.name} call: ${read.refuse}`
    const plain: Action = { tool_name: out["tool_name"], tool_input: isObject(out["tool_input"]) ? out["tool_input"] : {} }
    actions = read !== undefined && !("refuse" in read) && read.length > 0 ? read : [plain]
    // a rewrite maps back to the agent's input only where the one action is the input as given
    reshaped = actions.length !== 1 || !Equal.equals(actions[0]!, plain)
    out["tool_name"] = actions[0]!.tool_name
    out["tool_input"] = actions[0]!.tool_input
  }
  return { agent, hostEvent, event, payload: out, tool, actions, reshaped, ...(refusal === undefined ? {} : { refusal }) }
}

/**
 * A duplicate key in a tool input the agent gives as JSON text (Copilot CLI's `toolArgs`, Cursor's
 * MCP `tool_input`): a JSON parser keeps one of the two values, the agent's tool may use the other.
 */
const duplicateIn = (agent: Agent, payload: Readonly<Record<string, unknown>>): string | undefined => {
  for (const field of ["toolArgs", "tool_input"]) {
    const value = payload[field]
    if (typeof value !== "string") continue
    const key = duplicateKey(value)
    if (key !== undefined)
      return `${agent.displayName}'s ${field} gives the duplicate key ${JSON.stringify(key)} twice: the tool may use the value the policy would not judge, so the call is blocked`
  }
  return undefined
}

/**
 * The first key an object of JSON `text` gives twice (`{"path": "a", "path": "b"}`), or `undefined`;
 * `JSON.parse` keeps the last value silently. `text` is read as JSON already parsed (a scanner of
 * strings and brackets, no recursion).
 *
 * @internal
 */
export const duplicateKey = (text: string): string | undefined => {
  // one key set per open object; `null` for an open array
  const stack: Array<Set<string> | null> = []
  let expectKey = false
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      let j = i + 1
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 /* \ */ ? 2 : 1
      const keys = stack.at(-1)
      if (expectKey && keys !== undefined && keys !== null) {
        let key: string
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string
        } catch {
          return undefined
        }
        if (keys.has(key)) return key
        keys.add(key)
        expectKey = false
      }
      i = j + 1
      continue
    }
    if (c === 123 /* { */) {
      stack.push(new Set())
      expectKey = true
    } else if (c === 91 /* [ */) stack.push(null)
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop()
      expectKey = false
    } else if (c === 44 /* , */) expectKey = stack.at(-1) instanceof Set
    i++
  }
  return undefined
}

/** @internal */
export const unknownTool = (call: HostCall): string | undefined => {
  const tool = call.tool
  const agent = call.agent
  if (
    tool === undefined ||
    agent.toolNames.length === 0 ||
    agent.toolNames.includes(tool.name) ||
    tool.mapping !== undefined ||
    agent.actions?.some((reader) => reader.host === tool.name) === true ||
    TOOL_NAMES.includes(tool.name)
  )
    return undefined
  const name = call.payload["tool_name"]
  if (typeof name === "string" && name.startsWith("mcp__")) return undefined
  return (
    `${agent.displayName}'s tool "${tool.name}" is not one host mode knows: a policy written ` +
    `against Claude Code's names may not match it (match "${tool.name}" by name, or "*"; ` +
    `"unknownTools": "ask" or "deny" in the settings stops such calls)`
  )
}

/** @internal */
export const projectDir = (agent: Agent, env: Readonly<Record<string, string | undefined>>): string | undefined => {
  for (const name of agent.projectDirEnv) {
    const value = env[name]
    if (value !== undefined && value !== "") return value
  }
  return undefined
}

/** An answer that says nothing. */
export const emptyAnswer = (event: string): Answer => ({
  event,
  block: undefined,
  ask: undefined,
  defer: false,
  allow: undefined,
  updatedInput: undefined,
  additionalContext: undefined,
  systemMessage: undefined,
  stop: undefined,
  specific: undefined,
  notes: []
})

/** `hookSpecificOutput` fields `answer` reads itself; the others pass through as `specific`. */
const HANDLED = new Set(["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"])

/** @internal */
export const decide = (call: HostCall, outcome: Outcome, options: AnswerOptions = {}): Answer => {
  const agent = call.agent
  const spec = eventSpec(call.event)
  const notes: Array<string> = []
  const reasonOr = (fallback: string): string => text(outcome.reason) ?? fallback
  let block: string | undefined
  let ask: string | undefined
  let defer = false
  let allow: Answer["allow"]
  let updatedInput: Record<string, unknown> | undefined
  if (outcome.blocked && spec?.blocking !== "permission-request") {
    block = reasonOr(`blocked by the agent-hooks policy (${call.event})`)
  } else if (spec?.blocking === "permission") {
    const decision = outcome.decision
    if (decision === "defer" && agent.name === "claude") {
      defer = true
    } else if (decision === "ask" || decision === "defer") {
      const why = reasonOr("a hook of the agent-hooks policy asks for approval")
      if ((options.ask ?? agent.askDefault) === "host" && agent.canAsk) ask = why
      else {
        block =
          `approval needed: ${why} (${agent.displayName} cannot ask the user here, so agent-hooks ` +
          `denies the call; see docs/hosts/${agent.name}.md)`
      }
    }
    if (block === undefined && outcome.updatedInput !== null) {
      const mode = options.rewrite ?? "host"
      const rewritten = JSON.stringify(outcome.updatedInput)
      if (mode === "deny") {
        block = `the agent-hooks policy rewrote this call's input to ${rewritten}; rewrites are denied (--rewrite deny)`
      } else if (mode === "original") {
        notes.push(
          `agent-hooks: the policy rewrote this call's input to ${rewritten}; left out (--rewrite original), the original call goes ahead`
        )
      } else if (call.reshaped === true) {
        block =
          `the agent-hooks policy rewrote this call's input to ${rewritten}, but the call is judged as ` +
          `${call.actions?.length ?? 0} action(s) read from ${agent.displayName}'s ${call.tool?.name ?? "tool"} input, ` +
          `which a rewrite cannot be mapped back to; make that call instead`
      } else if (!agent.canRewrite) {
        block =
          `the agent-hooks policy rewrote this call's input to ${rewritten}, which ` +
          `${agent.displayName} cannot apply; make that call instead`
      } else {
        const mapped = toHost(call.tool?.mapping, outcome.updatedInput, call.tool?.input ?? {})
        // an agent that replaces the input with the rewrite gets the whole input (Auggie)
        updatedInput = agent.rewriteWhole === true ? { ...(call.tool?.input ?? {}), ...mapped } : mapped
      }
    }
    if (block === undefined && ask === undefined && !defer && decision === "allow") allow = { reason: undefined }
  }
  const specific =
    outcome.hookSpecificOutput === null
      ? undefined
      : Object.fromEntries(Object.entries(outcome.hookSpecificOutput).filter(([key]) => !HANDLED.has(key)))
  const systemMessage = outcome.systemMessages.length === 0 ? undefined : outcome.systemMessages.join("\n")
  const additionalContext = outcome.additionalContext.length === 0 ? undefined : outcome.additionalContext.join("\n\n")
  return {
    event: call.event,
    block,
    ask,
    defer,
    allow,
    updatedInput,
    additionalContext,
    systemMessage,
    stop: outcome.continue ? undefined : { reason: text(outcome.stopReason) },
    specific: specific === undefined || Object.keys(specific).length === 0 ? undefined : specific,
    notes
  }
}

/** @internal */
export const answer = (call: HostCall, outcome: Outcome, options?: AnswerOptions): HostReply =>
  call.agent.render(decide(call, outcome, options), call.hostEvent, call)

/** @internal */
export const failureBlocks = (agent: Agent, hostEvent: string | undefined): boolean => {
  // An event host mode cannot read (none named, or one it does not know) may be one that guards:
  // it is blocked.
  const event = hostEvent === undefined || !Object.hasOwn(agent.events, hostEvent) ? undefined : agent.events[hostEvent]
  if (event === undefined) return true
  const spec = eventSpec(event)
  if (spec === undefined || agent.ownEvents.includes(event)) return false
  return spec.blocking !== "none" && spec.blocking !== "permission-request" && !FAIL_OPEN_EVENTS.has(spec.behavesAs)
}

/** @internal */
export const failure = (
  agent: Agent,
  hostEvent: string | undefined,
  message: string,
  payload?: Readonly<Record<string, unknown>>
): HostReply => {
  const event = hostEvent !== undefined && Object.hasOwn(agent.events, hostEvent) ? agent.events[hostEvent]! : "(unknown)"
  if (failureBlocks(agent, hostEvent)) {
    // the call, where its payload was read: an agent whose block names the call (Cline replaces
    // it) or depends on who called (Copilot CLI's dialects) blocks it as it blocks a policy's deny
    const read = payload === undefined ? undefined : translate(agent, payload)
    const call = read !== undefined && !("error" in read) && read.event === event ? read : undefined
    return agent.render({ ...emptyAnswer(event), block: `agent-hooks: ${message}` }, hostEvent ?? "(unknown)", call)
  }
  return { exitCode: 1, stdout: "", stderr: `agent-hooks: ${message}\n` }
}

/** One JSON line, or nothing for an empty object. */
export const jsonLine = (value: Record<string, unknown>): string => (Object.keys(value).length === 0 ? "" : `${JSON.stringify(value)}\n`)

/** stderr: the block reason (when blocking), then the notes. */
export const stderrOf = (answer: Answer, withBlock: boolean): string =>
  [...(withBlock && answer.block !== undefined ? [answer.block] : []), ...answer.notes].map((line) => `${line}\n`).join("")

/** The events on which Claude Code reads a top-level `decision: "block"` with its `reason`. */
export const TOP_LEVEL_DECISION = new Set([
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PostToolUse",
  "PostToolBatch",
  "Stop",
  "SubagentStop",
  "TaskCreated",
  "ConfigChange",
  "PreCompact"
])

/**
 * Claude Code's JSON answer, for Claude Code and the agents that read its fields (Codex, Qwen Code):
 * `specificFields` limits `hookSpecificOutput` to what the agent accepts on the event, `universal`
 * the top-level fields; `allowWithoutRewrite` says whether a bare `allow` may be written.
 */
export const claudeJson = (
  answer: Answer,
  options: {
    readonly specificFields: ReadonlyArray<string>
    readonly universal: ReadonlyArray<"continue" | "systemMessage" | "decision">
    readonly allowWithoutRewrite: boolean
    readonly askAlsoTopLevel?: boolean | undefined
  }
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  const specific: Record<string, unknown> = {}
  const can = (field: string) => options.specificFields.includes(field)
  if (answer.stop !== undefined && options.universal.includes("continue")) {
    out["continue"] = false
    if (answer.stop.reason !== undefined) out["stopReason"] = answer.stop.reason
  }
  if (answer.systemMessage !== undefined && options.universal.includes("systemMessage")) out["systemMessage"] = answer.systemMessage
  if (can("permissionDecision")) {
    if (answer.block !== undefined) {
      specific["permissionDecision"] = "deny"
      specific["permissionDecisionReason"] = answer.block
    } else if (answer.ask !== undefined) {
      specific["permissionDecision"] = "ask"
      specific["permissionDecisionReason"] = answer.ask
      if (options.askAlsoTopLevel === true) {
        out["decision"] = "ask"
        out["reason"] = answer.ask
      }
    } else if (answer.defer) {
      specific["permissionDecision"] = "defer"
    } else if (answer.updatedInput !== undefined || (answer.allow !== undefined && options.allowWithoutRewrite)) {
      specific["permissionDecision"] = "allow"
    }
    if (answer.block === undefined && answer.updatedInput !== undefined && can("updatedInput"))
      specific["updatedInput"] = answer.updatedInput
  } else if (answer.block !== undefined && options.universal.includes("decision") && TOP_LEVEL_DECISION.has(answer.event)) {
    out["decision"] = "block"
    out["reason"] = answer.block
  }
  if (answer.additionalContext !== undefined && can("additionalContext")) specific["additionalContext"] = answer.additionalContext
  for (const [key, value] of Object.entries(answer.specific ?? {})) {
    if (can(key) && value !== null && value !== undefined) specific[key] = value
  }
  if (Object.keys(specific).length > 0) out["hookSpecificOutput"] = { hookEventName: answer.event, ...specific }
  return out
}

/**
 * A tool input the agent sends as a JSON string (Cursor's MCP `tool_input`, Copilot CLI's
 * `toolArgs`) as an object; an object as it is; text that is no JSON object as `{"raw": text}`, so
 * the policy still sees it.
 */
export const jsonObject = (value: unknown): Record<string, unknown> => {
  if (isObject(value)) return value
  if (typeof value !== "string") return {}
  try {
    const parsed: unknown = JSON.parse(value)
    return isObject(parsed) ? parsed : { raw: value }
  } catch {
    return { raw: value }
  }
}

/**
 * One event of an agent whose events have names of their own (Cursor, Copilot CLI): the catalog event it behaves as,
 * whether it decides, what a matcher tests.
 */
export interface PeerEvent {
  readonly name: string
  readonly behavesAs?: string | undefined
  readonly blocks: boolean
  readonly matcherField?: string | undefined
}

/** An MCP tool's server and tool (`mcp__server__tool`), or `null` for another tool. @internal */
export const mcpParts = (name: string): RegExpExecArray | null => /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(name)

/** An action in a few words, for a reason: `Bash rm -rf /`, `Read /work/.env`. */
export const describeAction = (action: Action): string => {
  const input = action.tool_input
  const what = [input["command"], input["file_path"], input["url"]].find((value) => typeof value === "string") as string | undefined
  const operation = typeof input["agent_hooks_operation"] === "string" ? ` (${input["agent_hooks_operation"]})` : ""
  return what === undefined ? action.tool_name : `${action.tool_name} ${what.length > 200 ? `${what.slice(0, 200)}…` : what}${operation}`
}

const RESTRICTIVE: ReadonlyArray<Decision> = ["block", "deny", "ask", "defer", "allow"]

/**
 * The Outcomes of one call's actions (in order, up to the first block) as the call's: blocked when
 * one is, with that one's reason naming its action (when the call has more than one); the most
 * restrictive decision; context, messages, hooks and warnings of all; the first rewrite.
 *
 * @internal
 */
export const combineOutcomes = (
  outcomes: ReadonlyArray<{ readonly action: Action; readonly outcome: Outcome }>,
  total: number
): Outcome => {
  const first = outcomes[0]!.outcome
  if (outcomes.length === 1 && total === 1) return first
  const blocked = outcomes.find((one) => one.outcome.blocked)
  const decided = [...outcomes]
    .filter((one) => one.outcome.decision !== null)
    .sort((a, b) => RESTRICTIVE.indexOf(a.outcome.decision!) - RESTRICTIVE.indexOf(b.outcome.decision!))[0]
  const chosen = blocked ?? decided
  const where = (one: { readonly action: Action }) =>
    `${describeAction(one.action)}, action ${outcomes.indexOf(one as never) + 1} of ${total}`
  const all = outcomes.map((one) => one.outcome)
  const stopped = all.find((one) => !one.continue)
  const specific = all.filter((one) => one.hookSpecificOutput !== null)
  return {
    ...first,
    blocked: blocked !== undefined,
    decision: chosen?.outcome.decision ?? null,
    reason:
      chosen === undefined || chosen.outcome.reason === null
        ? (chosen?.outcome.reason ?? null)
        : `${chosen.outcome.reason} [${where(chosen)}]`,
    continue: stopped === undefined,
    stopReason: stopped?.stopReason ?? null,
    updatedInput: all.find((one) => one.updatedInput !== null)?.updatedInput ?? null,
    additionalContext: all.flatMap((one) => one.additionalContext),
    systemMessages: all.flatMap((one) => one.systemMessages),
    hooks: all.flatMap((one) => one.hooks),
    hookSpecificOutput: specific.length === 0 ? null : Object.assign({}, ...specific.map((one) => one.hookSpecificOutput)),
    toModel: all.flatMap((one) => one.toModel),
    toUser: all.flatMap((one) => one.toUser),
    terminalSequences: all.flatMap((one) => one.terminalSequences),
    asyncHooks: all.flatMap((one) => one.asyncHooks),
    warnings: [...new Set(all.flatMap((one) => one.warnings))]
  }
}

/**
 * A call host mode does not judge as sent (`HostCall.refusal`) as the agent's block, with the reason.
 *
 * @internal
 */
export const refuse = (call: HostCall, reason: string): HostReply =>
  call.agent.render({ ...emptyAnswer(call.event), block: `agent-hooks: ${reason}` }, call.hostEvent)
