/**
 * The OpenAI Agents SDK (the real Runner) against a scripted Chat Completions endpoint on
 * 127.0.0.1: the model calls `run_shell_command` with `touch MARKER`, then answers `done` once the
 * conversation holds the tool's result. The policy is the project's `.agent-hooks/settings.json`,
 * written against Claude Code's `Bash`.
 */
import { afterEach, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent, InputGuardrailTripwireTriggered, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents"
import OpenAI from "openai"
import { z } from "zod"
import { guardTools, withAgentHooks } from "@agent-hooks/openai-agents"
import type { AgentHooksOptions } from "@agent-hooks/openai-agents"
import { closeProjectEngines, projectEngine } from "@agent-hooks/node"
import { startModelServer } from "../../../agents/lib/server.mjs"
import type { ModelServer } from "../../../agents/lib/server.mjs"

// The SDK's own traces go to OpenAI by default: never from a test.
setTracingDisabled(true)

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  await closeProjectEngines()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const tempDir = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A project whose `.agent-hooks/settings.json` has `hooks`, with the audit trail on. */
const project = (hooks: Record<string, unknown>) => {
  const dir = tempDir("agent-hooks-oai-")
  const home = tempDir("agent-hooks-oai-home-")
  mkdirSync(join(dir, ".agent-hooks"))
  writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ auditLog: "logs/audit.jsonl", hooks }))
  return { dir, home, audit: join(dir, ".agent-hooks", "logs", "audit.jsonl") }
}
const preBash = (command: string, matcher = "Bash") => ({ PreToolUse: [{ matcher, hooks: [{ type: "command", command }] }] })

const server = async (): Promise<ModelServer> => {
  const started = await startModelServer()
  cleanups.push(() => started.close())
  return started
}

/** The agent of the scripted model: one shell tool that really runs its command in the project. */
const agentFor = (dir: string, model: ModelServer) => {
  const shell = tool({
    name: "run_shell_command",
    description: "Run a shell command in the project",
    parameters: z.object({ command: z.string(), is_background: z.boolean(), description: z.string() }),
    execute: async ({ command }) => {
      execFileSync("sh", ["-c", command], { cwd: dir })
      return `ran: ${command}`
    }
  })
  const client = new OpenAI({ baseURL: `${model.url}/v1`, apiKey: "dummy", maxRetries: 0 })
  return new Agent({
    name: "builder",
    instructions: "Do what the user asks.",
    tools: [shell],
    model: new OpenAIChatCompletionsModel(client, "gpt-scripted")
  })
}

const hooked = (p: { dir: string; home: string }, options: AgentHooksOptions = {}) => ({
  projectDir: p.dir,
  cwd: p.dir,
  engineOptions: {
    env: { PATH: process.env["PATH"], HOME: p.home, AGENT_HOOKS_HOME: join(p.home, ".agent-hooks") },
    managedDir: join(p.home, "managed"),
    onWarning: () => {}
  },
  ...options
})

const auditRecords = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
const bashOutcome = (file: string) =>
  auditRecords(file).find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse" && r["tool"] === "Bash")

describe("the OpenAI Agents SDK with agent-hooks", () => {
  it("a deny rejects the call with the reason as the tool's result; the run goes on; the audit trail has it", async () => {
    const p = project(preBash(`echo 'no marker files in this project' >&2; exit 2`))
    const model = await server()
    const agent = withAgentHooks(agentFor(p.dir, model), hooked(p))
    const result = await run(agent, "make the marker file")
    expect(result.finalOutput).toBe("done")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("no marker files in this project")
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: true, decision: "deny", input: { command: "touch MARKER" } })
  })

  it("a matcher may name the SDK's tool name as well as Claude Code's", async () => {
    const p = project(preBash(`echo 'not with this tool' >&2; exit 2`, "run_shell_command"))
    const model = await server()
    await run(withAgentHooks(agentFor(p.dir, model), hooked(p)), "make the marker file")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("not with this tool")
  })

  it("a call the policy allows runs; PostToolUse context reaches the model with the result", async () => {
    const p = project({
      ...preBash(`exit 0`),
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"marker noted by the policy"}}'`
            }
          ]
        }
      ]
    })
    const model = await server()
    const result = await run(withAgentHooks(agentFor(p.dir, model), hooked(p)), "make the marker file")
    expect(result.finalOutput).toBe("done")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(true)
    expect(model.sentAfterToolCall()).toContain("marker noted by the policy")
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: false, hooks: 1 })
  })

  it("an ask interrupts the run for approval; approved, the tool runs; rejected, the model reads why", async () => {
    const ask = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touching files needs a human"}}'`
    const p = project(preBash(ask))
    const model = await server()
    const agent = withAgentHooks(agentFor(p.dir, model), hooked(p))
    const first = await run(agent, "make the marker file")
    expect(first.interruptions).toHaveLength(1)
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    first.state.approve(first.interruptions[0]!)
    const resumed = await run(agent, first.state)
    expect(resumed.finalOutput).toBe("done")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(true)
    expect(bashOutcome(p.audit)).toMatchObject({ decision: "ask" })

    const q = project(preBash(ask))
    const model2 = await server()
    const agent2 = withAgentHooks(agentFor(q.dir, model2), hooked(q))
    const second = await run(agent2, "make the marker file")
    second.state.reject(second.interruptions[0]!, { message: "the human said no to the marker" })
    const refused = await run(agent2, second.state)
    expect(refused.finalOutput).toBe("done")
    expect(existsSync(join(q.dir, "MARKER"))).toBe(false)
    expect(model2.sentAfterToolCall()).toContain("the human said no to the marker")
  })

  it("a rewrite (updatedInput) runs the tool with the policy's input", async () => {
    const p = project(
      preBash(
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch REWRITTEN"}}}'`
      )
    )
    const model = await server()
    await run(withAgentHooks(agentFor(p.dir, model), hooked(p)), "make the marker file")
    expect(existsSync(join(p.dir, "REWRITTEN"))).toBe(true)
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("ran: touch REWRITTEN")
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: false, decision: "allow", input: { command: "touch MARKER" } })
  })

  it("a policy that crashes or hangs rejects that call with a reason; the run goes on (no thrown run error)", async () => {
    const p = project({})
    const model = await server()
    // The policy fails on tool calls only (the prompt goes through).
    const real = await projectEngine({ projectDir: p.dir, env: { PATH: process.env["PATH"] }, managedDir: join(p.home, "managed") })
    const crashing = {
      dispatch: async (event: string, payload: Record<string, unknown>) => {
        if (event === "PreToolUse") throw new Error("policy server crashed")
        return real.dispatch(event, payload)
      }
    }
    const crashed = await run(withAgentHooks(agentFor(p.dir, model), { ...hooked(p), engine: crashing }), "make the marker file")
    expect(crashed.finalOutput).toBe("done")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("agent-hooks: the policy could not judge this Bash call: policy server crashed")

    const q = project({})
    const model2 = await server()
    const hanging = {
      dispatch: (event: string, payload: Record<string, unknown>) =>
        event === "PreToolUse" ? new Promise<never>(() => {}) : real.dispatch(event, payload)
    }
    const hung = await run(
      withAgentHooks(agentFor(q.dir, model2), { ...hooked(q), engine: hanging, timeoutMs: 200 }),
      "make the marker file"
    )
    expect(hung.finalOutput).toBe("done")
    expect(existsSync(join(q.dir, "MARKER"))).toBe(false)
    expect(model2.sentAfterToolCall()).toContain("no answer within 200 ms")
  })

  it("a guard that cannot start blocks the call", async () => {
    const p = project(preBash(`/nonexistent/agent-hooks-guard.sh`))
    const model = await server()
    await run(agent2Tools(p, model), "make the marker file")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toMatch(/agent-hooks-guard\.sh/)
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: true })
  })

  it("a blocked prompt trips the agent's input guardrail before the model is asked", async () => {
    const p = project({ UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo 'no secrets in prompts' >&2; exit 2` }] }] })
    const model = await server()
    const error = await run(withAgentHooks(agentFor(p.dir, model), hooked(p)), "here is my password").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered)
    expect((error as InputGuardrailTripwireTriggered).result.output.outputInfo).toMatchObject({ reason: "no secrets in prompts" })
    expect(model.mainRequests()).toBe(0)
  })
})

/** The same agent with its tools guarded by `guardTools` (no prompt guardrail). */
const agent2Tools = (p: { dir: string; home: string }, model: ModelServer) => {
  const agent = agentFor(p.dir, model)
  return agent.clone({ tools: guardTools(agent.tools, hooked(p)) })
}
