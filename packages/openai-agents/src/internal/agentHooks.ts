import { randomUUID } from "node:crypto"
import { defineToolInputGuardrail, ToolGuardrailFunctionOutputFactory } from "@openai/agents"
import type { FunctionTool, InputGuardrail, RunContext } from "@openai/agents"
import type * as Outcome from "@agent-hooks/core/Outcome"
import { activeTraceparent } from "@agent-hooks/core/Telemetry"
import { projectEngine } from "@agent-hooks/node/ProjectEngine"
import type { AgentHooksOptions, AnyAgent, AnyTool, HookDispatcher, ToolMapping } from "../AgentHooks.ts"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** A shell tool's command, whichever field and shape it has (`command`, `cmd`; a string or argv). */
const commandOf = (args: Record<string, unknown>): { readonly key: string; readonly command: unknown } => {
  for (const key of ["command", "cmd", "commands"]) {
    const value = args[key]
    if (typeof value === "string") return { key, command: value }
    if (Array.isArray(value) && value.every((part) => typeof part === "string")) {
      // `["bash", "-lc", "ls"]`: the script is what runs.
      const argv = value as Array<string>
      const script = argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!) ? argv[2] : argv.join(" ")
      return { key, command: script }
    }
  }
  return { key: "command", command: undefined }
}

const bash: ToolMapping = {
  name: "Bash",
  toInput: (args) => {
    const { key, command } = commandOf(args)
    const { [key]: _, ...rest } = args
    return command === undefined ? args : { ...rest, command }
  },
  fromInput: (input, args) => {
    const { key } = commandOf(args)
    const { command, ...rest } = input
    // An argv-shaped tool gets its command back as a shell script.
    const original = args[key]
    const value = Array.isArray(original) && typeof command === "string" ? ["bash", "-lc", command] : command
    return { ...args, ...rest, [key]: value }
  }
}

/** A file tool: its `path` is Claude Code's `file_path`. */
const fileTool = (name: string): ToolMapping => ({
  name,
  toInput: (args) => {
    if (args["file_path"] !== undefined || typeof args["path"] !== "string") return args
    const { path, ...rest } = args
    return { ...rest, file_path: path }
  },
  fromInput: (input, args) => {
    if (args["file_path"] !== undefined || typeof args["path"] !== "string") return input
    const { file_path, ...rest } = input
    return { ...rest, path: file_path }
  }
})

/** @internal */
export const defaultToolNames: Readonly<Record<string, string | ToolMapping>> = {
  bash,
  shell: bash,
  exec_command: bash,
  run_shell_command: bash,
  execute: bash,
  terminal: bash,
  run_command: bash,
  read_file: fileTool("Read"),
  write_file: fileTool("Write"),
  edit_file: fileTool("Edit"),
  glob: "Glob",
  grep: "Grep",
  ls: "LS",
  web_fetch: "WebFetch",
  fetch_url: "WebFetch",
  web_search: "WebSearch"
}

interface Resolved {
  readonly name: string
  readonly toInput: (args: Record<string, unknown>) => Record<string, unknown>
  readonly fromInput: (toolInput: Record<string, unknown>, args: Record<string, unknown>) => Record<string, unknown>
}

/** What the policy said about one call, kept by call id between the SDK's seams (approval, guardrail, invoke). */
type Decision =
  | { readonly kind: "allow"; readonly updatedInput: Record<string, unknown> | null; readonly context: ReadonlyArray<string> }
  | { readonly kind: "deny"; readonly reason: string }
  | {
      readonly kind: "ask"
      readonly reason: string
      readonly updatedInput: Record<string, unknown> | null
      readonly context: ReadonlyArray<string>
    }

/** Decisions kept at most (calls decided and never run: a run that stopped). */
const KEEP = 1024

/** Everything the guarded tools of one `guardTools` / `withAgentHooks` share. */
const makeShared = (options: AgentHooksOptions) => {
  let engine: Promise<HookDispatcher> | undefined
  let ready: HookDispatcher | undefined
  const engineOf = (): Promise<HookDispatcher> => {
    engine ??= Promise.resolve(
      options.engine ??
        projectEngine({ ...options.engineOptions, ...(options.projectDir === undefined ? {} : { projectDir: options.projectDir }) })
    ).then(
      (made) => (ready = made),
      (error: unknown) => {
        // Not kept: the next call tries again.
        engine = undefined
        throw error
      }
    )
    return engine
  }
  const custom = options.toolNames ?? {}
  const useDefaults = options.defaultToolNames ?? true
  const resolve = (sdkName: string): Resolved => {
    const entry = Object.hasOwn(custom, sdkName)
      ? custom[sdkName]
      : useDefaults && Object.hasOwn(defaultToolNames, sdkName)
        ? defaultToolNames[sdkName]
        : undefined
    const mapping: ToolMapping = entry === undefined ? { name: sdkName } : typeof entry === "string" ? { name: entry } : entry
    return {
      name: mapping.name,
      toInput: mapping.toInput ?? ((args) => args),
      fromInput: mapping.fromInput ?? ((input) => input)
    }
  }
  const sessions = new WeakMap<object, string>()
  const sessionOf = (context: RunContext<unknown> | undefined): string => {
    if (options.sessionId !== undefined) return options.sessionId
    if (context === undefined) return "openai-agents"
    let id = sessions.get(context)
    if (id === undefined) {
      id = randomUUID()
      sessions.set(context, id)
    }
    return id
  }
  const timeoutMs = options.timeoutMs ?? 600_000

  /** One dispatch, bounded by `timeoutMs`: a policy that hangs is a failure, as one that throws. */
  const dispatch = async (event: string, payload: Record<string, unknown>): Promise<Outcome.Outcome> => {
    const dispatcher = ready ?? (await engineOf())
    const quick = options.onOutcome === undefined ? dispatcher.unmatched?.(event, payload) : undefined
    if (quick !== undefined) return quick
    const traceparent = activeTraceparent()
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const outcome = await Promise.race([
        traceparent === undefined ? dispatcher.dispatch(event, payload) : dispatcher.dispatch(event, payload, { traceparent }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
          ;(timer as { unref?: () => void }).unref?.()
        })
      ])
      options.onOutcome?.(event, payload, outcome)
      return outcome
    } finally {
      clearTimeout(timer)
    }
  }

  const payloadOf = (
    event: string,
    context: RunContext<unknown> | undefined,
    sdkName: string,
    tool: Resolved,
    args: Record<string, unknown>,
    callId: string | undefined
  ): Record<string, unknown> => ({
    session_id: sessionOf(context),
    cwd: options.cwd ?? process.cwd(),
    permission_mode: "default",
    hook_event_name: event,
    tool_name: tool.name,
    tool_input: tool.toInput(args),
    ...(callId === undefined ? {} : { tool_use_id: callId }),
    // The SDK's own name and arguments: a matcher may name either this tool name or Claude Code's.
    host: { name: "openai-agents", event, tool_name: sdkName, tool_input: args }
  })

  const decisions = new Map<string, Decision>()
  const keep = (callId: string, decision: Decision) => {
    if (decisions.size >= KEEP) decisions.delete(decisions.keys().next().value!)
    decisions.set(callId, decision)
  }

  /** PreToolUse for one call: its decision, kept by call id so the other seams read the same one. */
  const decide = async (
    context: RunContext<unknown> | undefined,
    sdkName: string,
    args: Record<string, unknown>,
    callId: string
  ): Promise<Decision> => {
    const known = decisions.get(callId)
    if (known !== undefined) return known
    const tool = resolve(sdkName)
    let decision: Decision
    try {
      const outcome = await dispatch("PreToolUse", payloadOf("PreToolUse", context, sdkName, tool, args, callId))
      const updated = outcome.updatedInput === null ? null : tool.fromInput(outcome.updatedInput, args)
      if (outcome.blocked || outcome.decision === "deny" || !outcome.continue) {
        decision = {
          kind: "deny",
          reason: outcome.reason ?? outcome.stopReason ?? `The PreToolUse hook denied this ${tool.name} call.`
        }
      } else if (outcome.decision === "ask" || outcome.decision === "defer") {
        decision = {
          kind: "ask",
          reason: outcome.reason ?? `The policy asks a human about this ${tool.name} call.`,
          updatedInput: updated,
          context: outcome.additionalContext
        }
      } else decision = { kind: "allow", updatedInput: updated, context: outcome.additionalContext }
    } catch (error) {
      // A policy that crashed or hung blocks this call, with the reason for the model; the run goes on.
      decision = { kind: "deny", reason: `agent-hooks: the policy could not judge this ${tool.name} call: ${errorText(error)}` }
    }
    keep(callId, decision)
    return decision
  }

  return { decide, decisions, dispatch, payloadOf, resolve, sessionOf }
}

type Shared = ReturnType<typeof makeShared>

const parseArgs = (text: string): Record<string, unknown> => {
  try {
    const parsed = JSON.parse(text) as unknown
    return isRecord(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

const GUARDRAIL = "agent-hooks"

const guardTool = <T extends AnyTool>(tool: T, s: Shared): T => {
  if (tool.type !== "function") return tool
  const fn = tool as unknown as FunctionTool<unknown>
  const sdkName = fn.name
  // Asked to a human by this process: the guardrail that runs before the approval request lets it through.
  const asking = new Set<string>()

  const guardrail = defineToolInputGuardrail({
    name: GUARDRAIL,
    run: async ({ context, toolCall }) => {
      const decision = await s.decide(context as RunContext<unknown>, sdkName, parseArgs(toolCall.arguments), toolCall.callId)
      if (decision.kind === "deny") {
        s.decisions.delete(toolCall.callId)
        return ToolGuardrailFunctionOutputFactory.rejectContent(decision.reason, { decision: "deny" })
      }
      if (decision.kind === "ask") {
        // Before the approval request (this process asked), or after a human approved it: the call goes on.
        const approved = (context as RunContext<unknown>).isToolApproved({ toolName: sdkName, callId: toolCall.callId }) === true
        if (!asking.has(toolCall.callId) && !approved) {
          s.decisions.delete(toolCall.callId)
          return ToolGuardrailFunctionOutputFactory.rejectContent(
            `${decision.reason} (no human approved this call: the tool has no approval step)`,
            { decision: "ask" }
          )
        }
      }
      return ToolGuardrailFunctionOutputFactory.allow({ decision: decision.kind })
    }
  })

  const own = fn.needsApproval
  const needsApproval = async (context: RunContext<unknown>, input: unknown, callId?: string): Promise<boolean> => {
    if (await own(context as never, input as never, callId)) return true
    if (callId === undefined) return false
    const decision = await s.decide(context, sdkName, isRecord(input) ? input : {}, callId)
    if (decision.kind !== "ask") return false
    asking.add(callId)
    if (asking.size > KEEP) asking.delete(asking.values().next().value!)
    return true
  }

  const invoke: FunctionTool<unknown>["invoke"] = async (context, input, details) => {
    const callId = details?.toolCall?.callId
    const decision = callId === undefined ? undefined : s.decisions.get(callId)
    if (callId !== undefined) {
      s.decisions.delete(callId)
      asking.delete(callId)
    }
    const args = parseArgs(input)
    // The policy's rewrite: the tool runs with its input.
    const updated = decision !== undefined && decision.kind !== "deny" ? decision.updatedInput : null
    const runWith = updated === null ? input : JSON.stringify(updated)
    const result = await fn.invoke(context, runWith, details)
    const notes = decision !== undefined && decision.kind !== "deny" ? [...decision.context] : []
    const tool = s.resolve(sdkName)
    try {
      const payload = {
        ...s.payloadOf("PostToolUse", context as RunContext<unknown>, sdkName, tool, updated ?? args, callId),
        tool_response: typeof result === "string" ? result : result
      }
      const post = await s.dispatch("PostToolUse", payload)
      if (post.blocked && post.reason !== null) notes.push(post.reason)
      notes.push(...post.additionalContext)
    } catch (error) {
      notes.push(`agent-hooks: the PostToolUse policy failed: ${errorText(error)}`)
    }
    if (notes.length === 0 || typeof result !== "string") return result
    return `${result}\n\n${notes.map((note) => `<system-reminder>\n${note}\n</system-reminder>`).join("\n")}`
  }

  const guarded = Object.assign(Object.create(Object.getPrototypeOf(fn) as object) as object, fn, {
    inputGuardrails: [guardrail, ...(fn.inputGuardrails ?? []).filter((g) => g.name !== GUARDRAIL)],
    needsApproval,
    invoke
  })
  return guarded as unknown as T
}

/** @internal */
export const guardTools = <T extends AnyTool>(tools: ReadonlyArray<T>, options: AgentHooksOptions = {}): Array<T> => {
  const s = makeShared(options)
  return tools.map((tool) => guardTool(tool, s))
}

const promptText = (input: string | ReadonlyArray<unknown>): string => {
  if (typeof input === "string") return input
  // The last user message of the input items.
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i] as { role?: unknown; content?: unknown }
    if (item?.role !== "user") continue
    if (typeof item.content === "string") return item.content
    if (Array.isArray(item.content)) {
      return item.content
        .map((part: unknown) => (isRecord(part) && typeof part["text"] === "string" ? part["text"] : ""))
        .filter((text) => text !== "")
        .join("\n")
    }
  }
  return ""
}

/** @internal */
export const withAgentHooks = <A extends AnyAgent>(agent: A, options: AgentHooksOptions = {}): A => {
  const s = makeShared(options)
  const prompt: InputGuardrail = {
    name: GUARDRAIL,
    // The prompt is judged before the model sees it.
    runInParallel: false,
    execute: async ({ input, context }) => {
      try {
        const outcome = await s.dispatch("UserPromptSubmit", {
          session_id: s.sessionOf(context as RunContext<unknown>),
          cwd: options.cwd ?? process.cwd(),
          permission_mode: "default",
          hook_event_name: "UserPromptSubmit",
          prompt: promptText(input as string | ReadonlyArray<unknown>)
        })
        const blocked = outcome.blocked || !outcome.continue
        return {
          tripwireTriggered: blocked,
          outputInfo: { reason: outcome.reason ?? outcome.stopReason, additionalContext: outcome.additionalContext }
        }
      } catch (error) {
        // A policy that cannot judge the prompt stops it.
        return {
          tripwireTriggered: true,
          outputInfo: { reason: `agent-hooks: the policy could not judge the prompt: ${errorText(error)}` }
        }
      }
    }
  }
  return agent.clone({
    tools: agent.tools.map((tool) => guardTool(tool, s)),
    inputGuardrails: [...agent.inputGuardrails.filter((g) => g.name !== GUARDRAIL), prompt]
  }) as A
}
