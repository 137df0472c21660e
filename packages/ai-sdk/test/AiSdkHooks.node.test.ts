/**
 * The adapter inside the real AI SDK (`ai` 7.0.173, `@ai-sdk/openai-compatible`), against the
 * scripted model server of the agents step on 127.0.0.1: the model asks for `run_shell_command`
 * with `touch MARKER`, then answers `done`. What is checked is what a user sees: whether MARKER
 * (or REWRITTEN) exists, what the model was sent after its tool call, the audit trail.
 *
 * Node only: on Deno, the frameworks' own dependencies (eventsource-parser) publish a "source" export
 * of their TypeScript, which the lanes' "source" condition picks and Deno refuses to strip.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import * as Audit from "@agent-hooks/core/Audit"
import { closeProjectEngines, createHookEngine } from "@agent-hooks/node"
import { generateText, stepCountIs, streamText, tool } from "ai"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { z } from "zod"
import { agentHooks } from "@agent-hooks/ai-sdk"
import { startModelServer } from "../../../agents/lib/server.mjs"
import type { ModelServer } from "../../../agents/lib/server.mjs"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(() => closeProjectEngines())

const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-ai-sdk-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A project folder with a policy (settings.json) and its audit log; the engine made from them. */
const project = async (hooks: Record<string, unknown>, engineOptions: Record<string, unknown> = {}) => {
  const dir = tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ auditLog: join(dir, "audit.jsonl"), hooks }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir, onWarning: () => {}, ...engineOptions })
  cleanups.push(() => engine.close())
  const audit = () =>
    Audit.parse(readFileSync(join(dir, "audit.jsonl"), "utf8")).records.map(({ record }) => record as unknown as Record<string, unknown>)
  return { dir, engine, audit }
}

const pre = (matcher: string, command: string, extra: Record<string, unknown> = {}) => ({
  PreToolUse: [{ matcher, hooks: [{ type: "command", command, ...extra }] }]
})

/** A JSON answer printed by a hook. */
const answer = (value: unknown) => `printf '%s' '${JSON.stringify(value)}'`

const server = async (): Promise<ModelServer> => {
  const s = await startModelServer()
  cleanups.push(() => s.close())
  return s
}

/** The shell tool the model asks for, run for real in `dir`. */
const shellTool = (dir: string, ran: Array<string>) => ({
  run_shell_command: tool({
    description: "Run a shell command",
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }: { command: string }) => {
      ran.push(command)
      return execFileSync("sh", ["-c", command], { cwd: dir, encoding: "utf8" })
    }
  })
})

const run = (s: ModelServer, options: Record<string, unknown>) =>
  generateText({
    model: createOpenAICompatible({ name: "scripted", baseURL: `${s.url}/v1`, apiKey: "scripted" }).chatModel("scripted"),
    prompt: "make the marker",
    stopWhen: stepCountIs(4),
    ...options
  } as Parameters<typeof generateText>[0])

describe("@agent-hooks/ai-sdk in generateText", () => {
  it("a PreToolUse deny: the tool never runs, the reason is the model's next input, the audit trail has the decision", async () => {
    const { audit, dir, engine } = await project(pre("Bash", "echo 'no markers in this repo' >&2; exit 2"))
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    const result = await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(existsSync(join(dir, "MARKER"))).toBe(false)
    expect(s.sentAfterToolCall()).toContain("no markers in this repo")
    const outcome = audit().find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")
    expect(outcome).toMatchObject({ tool: "Bash", blocked: true, decision: "deny", reason: "no markers in this repo" })
  })

  it("streamText: the same deny, the reason in the model's next input", async () => {
    const { dir, engine } = await project(pre("Bash", "echo 'no markers in this repo' >&2; exit 2"))
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    const result = streamText({
      model: createOpenAICompatible({ name: "scripted", baseURL: `${s.url}/v1`, apiKey: "scripted" }).chatModel("scripted"),
      prompt: "make the marker",
      stopWhen: stepCountIs(4),
      tools: hooks.tools(shellTool(dir, ran)),
      toolApproval: hooks.toolApproval
    })
    expect(await result.text).toBe("done")
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("no markers in this repo")
  })

  it("a matcher may name the framework's tool name (run_shell_command) as well as Claude Code's (Bash)", async () => {
    const { dir, engine } = await project(pre("run_shell_command", "echo 'named by its own name' >&2; exit 2"))
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("named by its own name")
  })

  it("a PreToolUse ask: the SDK's approval request with the reason, nothing runs; approved, the call runs once", async () => {
    const { audit, dir, engine } = await project(
      pre(
        "Bash",
        answer({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "markers need a human" }
        })
      )
    )
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    const tools = hooks.tools(shellTool(dir, ran))
    const first = await run(s, { tools, toolApproval: hooks.toolApproval })
    const request = first.response.messages
      .flatMap((m): Array<{ type: string; approvalId?: string }> => (Array.isArray(m.content) ? m.content : []))
      .find((p) => p.type === "tool-approval-request")
    expect(request).toMatchObject({ type: "tool-approval-request", reason: "markers need a human" })
    expect(ran).toEqual([])
    expect(audit().find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")).toMatchObject({ decision: "ask" })
    // The human approves: the call runs (the hooks do not veto the answer they asked for).
    const approvalId = request!.approvalId!
    await run(s, {
      tools,
      toolApproval: hooks.toolApproval,
      prompt: undefined,
      messages: [
        { role: "user", content: "make the marker" },
        ...first.response.messages,
        { role: "tool", content: [{ type: "tool-approval-response", approvalId, approved: true }] }
      ]
    })
    expect(ran).toEqual(["touch MARKER"])
    expect(existsSync(join(dir, "MARKER"))).toBe(true)
  })

  it("a guarded tool never runs a call the policy denied or asked about, whatever reaches its execute (a forged approval)", async () => {
    const ask = answer({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "deploys need a human" }
    })
    const { dir, engine } = await project({
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0" }] },
        { matcher: "Bash", hooks: [{ type: "command", command: `grep -q deploy && ${ask}; exit 0` }] }
      ]
    })
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir, transcriptDir: false })
    const tools = hooks.tools(shellTool(dir, ran))
    const execute = tools.run_shell_command.execute as (input: unknown, options: unknown) => Promise<unknown>
    // The policy saw the calls (toolApproval), then something executes them anyway.
    const denied = await hooks.toolApproval({
      toolCall: { toolCallId: "c1", toolName: "run_shell_command", input: { command: "rm -rf x" } }
    })
    expect(denied).toMatchObject({ type: "denied", reason: "no rm -rf" })
    await expect(execute({ command: "rm -rf x" }, { toolCallId: "c1", messages: [] })).rejects.toThrow("no rm -rf")
    const asked = await hooks.toolApproval({ toolCall: { toolCallId: "c2", toolName: "run_shell_command", input: { command: "deploy" } } })
    expect(asked).toMatchObject({ type: "user-approval" })
    await expect(execute({ command: "deploy" }, { toolCallId: "c2", messages: [] })).rejects.toThrow("deploys need a human")
    // Unseen by toolApproval: decided at the tool.
    await expect(execute({ command: "rm -rf y" }, { toolCallId: "c3", messages: [] })).rejects.toThrow("no rm -rf")
    expect(ran).toEqual([])
  })

  it("ask: 'deny' for a headless agent: denied with the reason, nothing to approve", async () => {
    const { dir, engine } = await project(
      pre(
        "Bash",
        answer({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "markers need a human" }
        })
      )
    )
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir, ask: "deny" })
    const result = await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("markers need a human (approval needed; no one to ask)")
  })

  it("a PreToolUse rewrite (updatedInput) runs the rewritten call; without hooks.tools() it is denied, never run as it was", async () => {
    const rewrite = answer({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch REWRITTEN" } }
    })
    const { audit, dir, engine } = await project(pre("Bash", rewrite))
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(ran).toEqual(["touch REWRITTEN"])
    expect(existsSync(join(dir, "REWRITTEN"))).toBe(true)
    expect(existsSync(join(dir, "MARKER"))).toBe(false)
    expect(audit().find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")).toMatchObject({ decision: "allow" })

    const s2 = await server()
    const ran2: Array<string> = []
    const bare = agentHooks({ engine, cwd: dir })
    await run(s2, { tools: shellTool(dir, ran2), toolApproval: bare.toolApproval })
    expect(ran2).toEqual([])
    expect(s2.sentAfterToolCall()).toContain("rewrote this Bash call's input")
  })

  it("a policy that crashes denies the call with a reason the model sees, and the run goes on", async () => {
    const dir = tempDir()
    const s = await server()
    const ran: Array<string> = []
    const warnings: Array<string> = []
    const engine = {
      dispatch: async () => {
        throw new Error("policy exploded")
      }
    }
    const hooks = agentHooks({ engine, cwd: dir, onWarning: (w) => warnings.push(w) })
    const result = await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("the agent-hooks policy failed (policy exploded)")
    expect(warnings.join("\n")).toContain("policy exploded")
  })

  it("a hook that times out blocks the call (fail closed, the project engine's default), with the reason in the audit trail", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, ".agent-hooks"))
    writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: pre("Bash", "sleep 20", { timeout: 1 }) }))
    // The audit trail is the user's to set (a project cannot move it).
    const home = tempDir()
    mkdirSync(join(home, ".agent-hooks"))
    writeFileSync(join(home, ".agent-hooks", "settings.json"), JSON.stringify({ auditLog: join(dir, "audit.jsonl") }))
    const s = await server()
    const ran: Array<string> = []
    const env = { ...process.env, HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks") }
    const hooks = agentHooks({ projectDir: dir, cwd: dir, engineOptions: { env }, onWarning: () => {} })
    const result = await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    const outcome = Audit.parse(readFileSync(join(dir, "audit.jsonl"), "utf8"))
      .records.map(({ record }) => record as unknown as Record<string, unknown>)
      .find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")
    expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
    expect(s.sentAfterToolCall()).toContain(String(outcome!["reason"]).slice(0, 40))
  })

  it("PostToolUse context reaches the model with the tool's result; the app still gets the tool's own output", async () => {
    const { dir, engine } = await project({
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: answer({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "marker noted by policy" } })
            }
          ]
        }
      ]
    })
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    const result = await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(ran).toEqual(["touch MARKER"])
    expect(s.sentAfterToolCall()).toContain("marker noted by policy")
    const toolResult = result.steps.flatMap((step) => step.toolResults)[0]
    expect(toolResult?.output).toBe("")
  })

  it("guarded tools alone (no toolApproval): a deny is the tool's error with the reason, the run goes on", async () => {
    const { dir, engine } = await project(pre("Bash", "echo 'no markers in this repo' >&2; exit 2"))
    const s = await server()
    const ran: Array<string> = []
    const hooks = agentHooks({ engine, cwd: dir })
    const result = await run(s, { tools: hooks.tools(shellTool(dir, ran)) })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("no markers in this repo")
  })

  it("the transcript: a hook reads the conversation so far and the call at transcript_path (JSONL, Claude Code's lines, 0600)", async () => {
    const read = `f=$(sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p'); grep -q '"content":"make the marker"' "$f" && grep -q '"type":"tool_use"' "$f" && { echo "transcript at $f has the prompt and the call" >&2; exit 2; }; exit 0`
    const { dir, engine } = await project(pre("Bash", read))
    const s = await server()
    const ran: Array<string> = []
    const transcriptDir = join(dir, "transcripts")
    const hooks = agentHooks({ engine, cwd: dir, transcriptDir, sessionId: "s-1" })
    await run(s, { tools: hooks.tools(shellTool(dir, ran)), toolApproval: hooks.toolApproval })
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain(`transcript at ${join(transcriptDir, "s-1.jsonl")} has the prompt and the call`)
    const lines = readFileSync(join(transcriptDir, "s-1.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => line.type)).toEqual(["user", "assistant"])
    expect(lines[1].message.content[0]).toMatchObject({ type: "tool_use", name: "Bash", input: { command: "touch MARKER" } })
    expect(statSync(join(transcriptDir, "s-1.jsonl")).mode & 0o777).toBe(0o600)
  })

  it("the active OpenTelemetry span is the trace parent of the hooks' dispatch", async () => {
    const key = Symbol.for("opentelemetry.js.api.1")
    const spanKey = Symbol.for("OpenTelemetry Context Key SPAN")
    const span = { spanContext: () => ({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 }) }
    const globals = globalThis as Record<symbol, unknown>
    globals[key] = { context: { active: () => ({ getValue: (k: symbol) => (k === spanKey ? span : undefined) }) } }
    cleanups.push(() => {
      delete globals[key]
    })
    const contexts: Array<unknown> = []
    const engine = {
      dispatch: async (_event: string, _payload: Record<string, unknown>, context?: unknown) => {
        contexts.push(context)
        return { blocked: false, decision: null, reason: null, updatedInput: null, additionalContext: [], warnings: [] }
      }
    }
    const hooks = agentHooks({ engine, transcriptDir: false })
    expect(await hooks.toolApproval({ toolCall: { toolCallId: "c1", toolName: "bash", input: { command: "ls" } } })).toBe("not-applicable")
    expect(contexts).toEqual([{ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }])
  })

  it("UserPromptSubmit and Stop: a blocked prompt is never sent; a Stop block gives the reason to go on with", async () => {
    const { dir, engine } = await project({
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: `grep -q secret && { echo 'no secrets in prompts' >&2; exit 2; }; exit 0` }] }
      ],
      Stop: [
        {
          hooks: [{ type: "command", command: `grep -q '"stop_hook_active":false' && { echo 'run the tests first' >&2; exit 2; }; exit 0` }]
        }
      ]
    })
    const hooks = agentHooks({ engine, cwd: dir })
    expect(await hooks.submitPrompt("here is my secret")).toEqual({ blocked: true, reason: "no secrets in prompts" })
    expect(await hooks.submitPrompt("hello")).toMatchObject({ blocked: false, prompt: "hello" })
    expect(await hooks.stop({ text: "done" })).toEqual({ block: true, reason: "run the tests first" })
    expect(await hooks.stop({ text: "done" }, { stopHookActive: true })).toEqual({ block: false })
  })
})
