/**
 * The adapter inside a real Mastra agent (`@mastra/core` 1.71.0, its OpenAI-compatible model
 * config), against the scripted model server of the agents step on 127.0.0.1: the model asks for `run_shell_command` with `touch MARKER`, then answers `done`.
 * What is checked is what a user sees: whether MARKER (or REWRITTEN) exists, what the model was
 * sent after its tool call, the audit trail.
 *
 * Node only: on Deno, the frameworks' own dependencies (eventsource-parser) publish a "source" export
 * of their TypeScript, which the lanes' "source" condition picks and Deno refuses to strip.
 */
import * as Audit from "@agent-hooks/core/Audit"
import { closeProjectEngines, createHookEngine } from "@agent-hooks/node"
import { Agent } from "@mastra/core/agent"
import { Mastra } from "@mastra/core/mastra"
import { InMemoryStore } from "@mastra/core/storage"
import { createTool } from "@mastra/core/tools"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { z } from "zod"
import { agentHooks } from "@agent-hooks/mastra"
import type { MastraHooksOptions } from "@agent-hooks/mastra"
import { startModelServer } from "../../../agents/lib/server.mjs"
import type { ModelServer } from "../../../agents/lib/server.mjs"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(() => closeProjectEngines())

const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-mastra-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const records = (file: string) =>
  Audit.parse(readFileSync(file, "utf8")).records.map(({ record }) => record as unknown as Record<string, unknown>)

/** A project folder with a policy (settings.json) and its audit log; the engine made from them. */
const project = async (hooks: Record<string, unknown>) => {
  const dir = tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ auditLog: join(dir, "audit.jsonl"), hooks }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir, onWarning: () => {} })
  cleanups.push(() => engine.close())
  return { dir, engine, audit: () => records(join(dir, "audit.jsonl")) }
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

/** An agent whose shell tool runs for real in `dir`, guarded by the adapter. */
const agentWith = (s: ModelServer, dir: string, options: MastraHooksOptions) => {
  const ran: Array<string> = []
  const hooks = agentHooks({ cwd: dir, ...options })
  const run_shell_command = createTool({
    id: "run_shell_command",
    description: "Run a shell command",
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      ran.push(command)
      return execFileSync("sh", ["-c", command], { cwd: dir, encoding: "utf8" })
    }
  })
  const agent = new Agent({
    id: "ops",
    name: "ops",
    instructions: "You run shell commands.",
    model: { providerId: "scripted", modelId: "scripted", url: `${s.url}/v1`, apiKey: "scripted", api: "chat" },
    tools: { run_shell_command },
    hooks: hooks.toolHooks,
    inputProcessors: [hooks.processor]
  })
  const mastra = new Mastra({ agents: { ops: agent }, storage: new InMemoryStore(), logger: false })
  return { agent: mastra.getAgent("ops"), hooks, ran }
}

describe("@agent-hooks/mastra in a Mastra agent", () => {
  it("a PreToolUse deny: the tool never runs, the reason is the call's output the model gets, the audit trail has the decision", async () => {
    const { audit, dir, engine } = await project(pre("Bash", "echo 'no markers in this repo' >&2; exit 2"))
    const s = await server()
    const { agent, ran } = agentWith(s, dir, { engine })
    const result = await agent.generate("make the marker", { maxSteps: 4 })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(existsSync(join(dir, "MARKER"))).toBe(false)
    expect(s.sentAfterToolCall()).toContain("no markers in this repo")
    expect(audit().find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")).toMatchObject({
      tool: "Bash",
      blocked: true,
      decision: "deny",
      reason: "no markers in this repo"
    })
  })

  it("a matcher may name the Mastra tool's own name as well as Claude Code's", async () => {
    const { dir, engine } = await project(pre("run_shell_command", "echo 'named by its own name' >&2; exit 2"))
    const s = await server()
    const { agent, ran } = agentWith(s, dir, { engine })
    await agent.generate("make the marker", { maxSteps: 4 })
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("named by its own name")
  })

  it("a PreToolUse rewrite (updatedInput) runs the rewritten call, never the original", async () => {
    const { audit, dir, engine } = await project(
      pre(
        "Bash",
        answer({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch REWRITTEN" } }
        })
      )
    )
    const s = await server()
    const { agent, ran } = agentWith(s, dir, { engine })
    await agent.generate("make the marker", { maxSteps: 4 })
    expect(ran).toEqual(["touch REWRITTEN"])
    expect(existsSync(join(dir, "REWRITTEN"))).toBe(true)
    expect(existsSync(join(dir, "MARKER"))).toBe(false)
    expect(audit().find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")).toMatchObject({ decision: "allow" })
  })

  it("a PreToolUse ask suspends the run for a human through requireToolApproval; approved, the call runs", async () => {
    const ask = answer({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "markers need a human" }
    })
    const { audit, dir, engine } = await project(pre("Bash", ask))
    const s = await server()
    const { agent, hooks, ran } = agentWith(s, dir, { engine })
    const first = await agent.generate("make the marker", { maxSteps: 4, requireToolApproval: hooks.requireToolApproval })
    expect(first.finishReason).toBe("suspended")
    expect(ran).toEqual([])
    expect(audit().find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")).toMatchObject({ decision: "ask" })
    const second = await agent.approveToolCallGenerate({
      runId: first.runId!,
      toolCallId: (first.suspendPayload as { toolCallId: string }).toolCallId
    })
    expect(second.text).toBe("done")
    expect(ran).toEqual(["touch MARKER"])
    expect(existsSync(join(dir, "MARKER"))).toBe(true)
  })

  it("an ask a human declined is no approval for the same call in a later run", async () => {
    const ask = answer({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "markers need a human" }
    })
    const { dir, engine } = await project(pre("Bash", ask))
    const s = await server()
    const { agent, hooks, ran } = agentWith(s, dir, { engine })
    const first = await agent.generate("make the marker", { maxSteps: 4, requireToolApproval: hooks.requireToolApproval })
    expect(first.finishReason).toBe("suspended")
    await agent.declineToolCallGenerate({ runId: first.runId!, toolCallId: (first.suspendPayload as { toolCallId: string }).toolCallId })
    expect(ran).toEqual([])
    // A later run of the same agent, headless: the model asks for the same call.
    await agent.generate("make the marker", { maxSteps: 4 })
    expect(ran).toEqual([])
    expect(existsSync(join(dir, "MARKER"))).toBe(false)
  })

  it("a PreToolUse ask without requireToolApproval (headless) is a deny with the reason", async () => {
    const ask = answer({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "markers need a human" }
    })
    const { dir, engine } = await project(pre("Bash", ask))
    const s = await server()
    const { agent, ran } = agentWith(s, dir, { engine })
    const result = await agent.generate("make the marker", { maxSteps: 4 })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("markers need a human (approval needed")
  })

  it("a policy that crashes blocks the call with a reason the model sees, and the run goes on", async () => {
    const dir = tempDir()
    const s = await server()
    const warnings: Array<string> = []
    // The policy crashes on the tool call (a policy that cannot judge the prompt blocks it: a tripwire).
    const engine = {
      dispatch: async (event: string) => {
        if (event === "PreToolUse") throw new Error("policy exploded")
        return { blocked: false, decision: null, reason: null, updatedInput: null, additionalContext: [], warnings: [] }
      }
    }
    const { agent, ran } = agentWith(s, dir, { engine, onWarning: (w) => warnings.push(w) })
    const result = await agent.generate("make the marker", { maxSteps: 4 })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain("the agent-hooks policy failed (policy exploded)")
    expect(warnings.join("\n")).toContain("policy exploded")
  })

  it("a hook that times out blocks the call (fail closed by default), with the decision in the audit trail", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, ".agent-hooks"))
    writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: pre("Bash", "sleep 20", { timeout: 1 }) }))
    // The audit trail is the user's to set.
    const home = tempDir()
    mkdirSync(join(home, ".agent-hooks"))
    writeFileSync(join(home, ".agent-hooks", "settings.json"), JSON.stringify({ auditLog: join(dir, "audit.jsonl") }))
    const s = await server()
    const env = { ...process.env, HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks") }
    const { agent, ran } = agentWith(s, dir, { projectDir: dir, engineOptions: { env }, onWarning: () => {} })
    const result = await agent.generate("make the marker", { maxSteps: 4 })
    expect(result.text).toBe("done")
    expect(ran).toEqual([])
    const outcome = records(join(dir, "audit.jsonl")).find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse")
    expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
    expect(s.sentAfterToolCall()).toContain(String(outcome!["reason"]).slice(0, 40))
  })

  it("PostToolUse context reaches the model at its next step", async () => {
    const post = answer({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "marker noted by policy" } })
    const { dir, engine } = await project({ PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: post }] }] })
    const s = await server()
    const { agent, ran } = agentWith(s, dir, { engine })
    await agent.generate("make the marker", { maxSteps: 4 })
    expect(ran).toEqual(["touch MARKER"])
    expect(s.sentAfterToolCall()).toContain("marker noted by policy")
  })

  it("the transcript: a hook reads the conversation so far and the call at transcript_path (JSONL, Claude Code's lines, 0600)", async () => {
    const read = `f=$(sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p'); grep -q 'make the marker' "$f" && grep -q '"type":"tool_use"' "$f" && { echo "transcript at $f has the prompt and the call" >&2; exit 2; }; exit 0`
    const { dir, engine } = await project(pre("Bash", read))
    const s = await server()
    const transcriptDir = join(dir, "transcripts")
    const { agent, ran } = agentWith(s, dir, { engine, transcriptDir, sessionId: "s-1" })
    await agent.generate("make the marker", { maxSteps: 4 })
    expect(ran).toEqual([])
    expect(s.sentAfterToolCall()).toContain(`transcript at ${join(transcriptDir, "s-1.jsonl")} has the prompt and the call`)
    const lines = readFileSync(join(transcriptDir, "s-1.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(lines.at(-1).message.content.at(-1)).toMatchObject({ type: "tool_use", name: "Bash", input: { command: "touch MARKER" } })
    expect(statSync(join(transcriptDir, "s-1.jsonl")).mode & 0o777).toBe(0o600)
  })

  it("UserPromptSubmit: a blocked prompt never reaches the model; Stop: a block gives the reason to go on with", async () => {
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
    const s = await server()
    const { agent, hooks, ran } = agentWith(s, dir, { engine })
    const result = await agent.generate("here is my secret", { maxSteps: 4 })
    expect(result.tripwire).toMatchObject({ reason: "no secrets in prompts" })
    expect(s.sentToModel()).not.toContain("my secret")
    expect(ran).toEqual([])
    expect(await hooks.stop({ text: "done" })).toEqual({ block: true, reason: "run the tests first" })
    expect(await hooks.stop({ text: "done" }, { stopHookActive: true })).toEqual({ block: false })
  })
})
