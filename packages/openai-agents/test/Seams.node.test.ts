/**
 * The tool-name mapping and the seams of a guarded tool, with a recording dispatcher (no model):
 * what the hooks see of the usual tools, and how a rewrite goes back into the tool's own fields.
 */
import { describe, expect, it } from "vitest"
import { Agent, RunContext, setTraceProcessors, setTracingDisabled, tool, withCustomSpan, withTrace } from "@openai/agents"
import type { FunctionTool } from "@openai/agents"
import { guardTools } from "@agent-hooks/openai-agents"
import type { Outcome } from "@agent-hooks/core/Outcome"

const outcome = (over: Partial<Outcome> = {}): Outcome =>
  ({
    event: "PreToolUse",
    blocked: false,
    decision: null,
    reason: null,
    continue: true,
    stopReason: null,
    updatedInput: null,
    additionalContext: [],
    systemMessages: [],
    warnings: [],
    hooks: [],
    asyncHooks: [],
    ...over
  }) as unknown as Outcome

/** A dispatcher that records each payload and answers `answer(event, payload)`. */
const recording = (answer: (event: string, payload: Record<string, unknown>) => Partial<Outcome> = () => ({})) => {
  const seen: Array<{ event: string; payload: Record<string, unknown>; context?: { traceparent?: string | undefined } }> = []
  return {
    seen,
    dispatch: async (event: string, payload: Record<string, unknown>, context?: { traceparent?: string | undefined }) => {
      seen.push({ event, payload, ...(context === undefined ? {} : { context }) })
      return outcome({ event, ...answer(event, payload) })
    }
  }
}

/** A tool that records the arguments it ran with; parameters as given (non-strict JSON schema). */
const toolNamed = (name: string, properties: Record<string, unknown>, ran: Array<unknown>) =>
  tool({
    name,
    description: name,
    strict: false,
    parameters: { type: "object", properties, required: [], additionalProperties: true },
    execute: async (args) => {
      ran.push(args)
      return "ok"
    }
  })

/** One call through the Runner's seams for a function tool: approval, input guardrails, invoke. */
const call = async (fn: FunctionTool<unknown>, args: Record<string, unknown>) => {
  const context = new RunContext()
  const toolCall = { type: "function_call" as const, callId: `call_${Math.random()}`, name: fn.name, arguments: JSON.stringify(args) }
  const asked = await fn.needsApproval(context, args as never, toolCall.callId)
  for (const guardrail of fn.inputGuardrails ?? []) {
    const out = await guardrail.run({ context, agent: new Agent({ name: "a" }), toolCall })
    if (out.behavior.type !== "allow") return { asked, rejected: out.behavior.type === "rejectContent" ? out.behavior.message : "throw" }
  }
  return { asked, result: await fn.invoke(context, toolCall.arguments, { toolCall }) }
}

describe("guardTools: names and inputs the hooks see", () => {
  it("shows the usual tools in Claude Code's names and fields, with the SDK's own in host", async () => {
    const engine = recording()
    const ran: Array<unknown> = []
    const tools = guardTools(
      [
        toolNamed("exec_command", { cmd: { type: "string" } }, ran),
        toolNamed("shell", { command: { type: "array" } }, ran),
        toolNamed("read_file", { path: { type: "string" } }, ran),
        toolNamed("deploy", { env: { type: "string" } }, ran)
      ],
      { engine }
    ) as unknown as Array<FunctionTool<unknown>>
    await call(tools[0]!, { cmd: "ls -la" })
    await call(tools[1]!, { command: ["bash", "-lc", "git status"] })
    await call(tools[2]!, { path: "/etc/hosts" })
    await call(tools[3]!, { env: "prod" })
    const pre = engine.seen.filter((s) => s.event === "PreToolUse").map((s) => [s.payload["tool_name"], s.payload["tool_input"]])
    expect(pre).toEqual([
      ["Bash", { command: "ls -la" }],
      ["Bash", { command: "git status" }],
      ["Read", { file_path: "/etc/hosts" }],
      ["deploy", { env: "prod" }]
    ])
    expect(engine.seen[0]!.payload["host"]).toEqual({
      name: "openai-agents",
      event: "PreToolUse",
      tool_name: "exec_command",
      tool_input: { cmd: "ls -la" }
    })
  })

  it("toolNames adds or overrides a mapping; defaultToolNames: false keeps the SDK's names", async () => {
    const engine = recording()
    const ran: Array<unknown> = []
    const [deploy, shell] = guardTools(
      [toolNamed("deploy", { env: { type: "string" } }, ran), toolNamed("shell", { command: { type: "string" } }, ran)],
      { engine, toolNames: { deploy: "Deploy" }, defaultToolNames: false }
    ) as unknown as Array<FunctionTool<unknown>>
    await call(deploy!, { env: "prod" })
    await call(shell!, { command: "ls" })
    expect(engine.seen.filter((s) => s.event === "PreToolUse").map((s) => s.payload["tool_name"])).toEqual(["Deploy", "shell"])
  })

  it("a rewrite goes back into the tool's own fields (cmd, an argv, path)", async () => {
    const engine = recording((event, payload) => {
      if (event !== "PreToolUse") return {}
      const input = payload["tool_input"] as Record<string, unknown>
      return input["command"] !== undefined
        ? { decision: "allow", updatedInput: { command: "echo safe" } }
        : { decision: "allow", updatedInput: { file_path: "/tmp/safe" } }
    })
    const ran: Array<unknown> = []
    const tools = guardTools(
      [
        toolNamed("exec_command", { cmd: { type: "string" } }, ran),
        toolNamed("shell", { command: { type: "array" } }, ran),
        toolNamed("read_file", { path: { type: "string" } }, ran)
      ],
      { engine }
    ) as unknown as Array<FunctionTool<unknown>>
    await call(tools[0]!, { cmd: "rm -rf /" })
    await call(tools[1]!, { command: ["bash", "-lc", "rm -rf /"] })
    await call(tools[2]!, { path: "/etc/shadow" })
    expect(ran).toEqual([{ cmd: "echo safe" }, { command: ["bash", "-lc", "echo safe"] }, { path: "/tmp/safe" }])
  })

  it("deny rejects with the reason; ask asks (needsApproval); a tool's own needsApproval still counts", async () => {
    const engine = recording((event, payload) => {
      if (event !== "PreToolUse") return {}
      const command = (payload["tool_input"] as Record<string, unknown>)["command"]
      return command === "rm"
        ? { blocked: true, decision: "deny", reason: "no rm" }
        : command === "deploy"
          ? { decision: "ask", reason: "a human decides" }
          : {}
    })
    const ran: Array<unknown> = []
    const [shell] = guardTools([toolNamed("shell", { command: { type: "string" } }, ran)], { engine }) as unknown as Array<
      FunctionTool<unknown>
    >
    expect(await call(shell!, { command: "rm" })).toEqual({ asked: false, rejected: "no rm" })
    expect(await call(shell!, { command: "deploy" })).toMatchObject({ asked: true })
    expect(await call(shell!, { command: "ls" })).toEqual({ asked: false, result: "ok" })
    const own = tool({
      name: "shell",
      description: "s",
      strict: false,
      parameters: { type: "object" as const, properties: {}, required: [], additionalProperties: true as const },
      needsApproval: true,
      execute: async () => "ok"
    })
    const [ownGuarded] = guardTools([own], { engine }) as unknown as Array<FunctionTool<unknown>>
    expect((await call(ownGuarded!, { command: "ls" })).asked).toBe(true)
  })

  it("a dispatch inside the SDK's trace carries its ids as the traceparent (the hooks' spans join it)", async () => {
    // The SDK's tracing on, with no processor: nothing is exported anywhere.
    setTraceProcessors([])
    setTracingDisabled(false)
    try {
      const engine = recording()
      const [shell] = guardTools([toolNamed("shell", { command: { type: "string" } }, [])], { engine }) as unknown as Array<
        FunctionTool<unknown>
      >
      const expected = await withTrace("agent-hooks test", () =>
        withCustomSpan(
          async (span) => {
            await call(shell!, { command: "ls" })
            return `00-${span.traceId.slice("trace_".length)}-${span.spanId.slice("span_".length, "span_".length + 16)}-01`
          },
          { data: { name: "tool call" } }
        )
      )
      expect(expected).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
      expect(engine.seen.map((s) => s.context?.traceparent)).toEqual([expected, expected])
      // Outside any trace: no parent.
      await call(shell!, { command: "ls" })
      expect(engine.seen.at(-1)!.context).toBeUndefined()
    } finally {
      setTracingDisabled(true)
    }
  })
})
