/**
 * The Claude Agent SDK (the real `query()`, its bundled Claude Code) against a scripted Anthropic
 * endpoint on 127.0.0.1: the model asks for `Bash` `touch MARKER`, then answers `done` once the
 * conversation holds anything after its call. The policy is the project's `.agent-hooks/settings.json`.
 */
import { afterEach, describe, expect, it } from "vitest"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { query } from "@anthropic-ai/claude-agent-sdk"
import type { CanUseTool, Options } from "@anthropic-ai/claude-agent-sdk"
import { agentHooks } from "@agent-hooks/claude-agent-sdk"
import type { AgentHooksOptions } from "@agent-hooks/claude-agent-sdk"
import { closeProjectEngines, projectEngine } from "@agent-hooks/node"
// The scripted model server of the agents step (Anthropic /v1/messages, OpenAI /v1/responses, ...).
import { startModelServer } from "../../../agents/lib/server.mjs"

type Server = Awaited<ReturnType<typeof startModelServer>>

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

/** A project whose `.agent-hooks/settings.json` has `PreToolUse` `Bash` hooks running `script`, with the audit trail on. */
const project = (script: string | undefined, extra: Record<string, unknown> = {}) => {
  const dir = tempDir("agent-hooks-cas-")
  const home = tempDir("agent-hooks-cas-home-")
  mkdirSync(join(dir, ".agent-hooks"))
  const hooks = script === undefined ? {} : { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: script }] }] }
  writeFileSync(
    join(dir, ".agent-hooks", "settings.json"),
    JSON.stringify({ auditLog: "logs/audit.jsonl", ...extra, hooks: { ...hooks, ...(extra["hooks"] as object | undefined) } })
  )
  return { dir, home, audit: join(dir, ".agent-hooks", "logs", "audit.jsonl") }
}

const server = async (): Promise<Server> => {
  const started = await startModelServer()
  cleanups.push(() => started.close())
  return started
}

/** One `query()`: its messages, the result. */
const run = async (p: { dir: string; home: string }, model: Server, hookOptions: AgentHooksOptions = {}, more: Partial<Options> = {}) => {
  const env = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: p.home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "dummy",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1"
  }
  const messages: Array<Record<string, unknown>> = []
  const hooks = agentHooks({
    projectDir: p.dir,
    // The engine's environment: this test's HOME (the user scope), not the machine's.
    engineOptions: {
      env: { ...env, AGENT_HOOKS_HOME: join(p.home, ".agent-hooks") },
      managedDir: join(p.home, "managed"),
      onWarning: () => {}
    },
    ...hookOptions
  })
  for await (const message of query({
    prompt: "make the marker file",
    options: { cwd: p.dir, env, hooks, allowedTools: ["Bash"], settingSources: [], model: "claude-sonnet-4-5", ...more }
  })) {
    messages.push(message as unknown as Record<string, unknown>)
  }
  return { messages, result: messages.find((m) => m["type"] === "result") }
}

const auditRecords = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>)

const bashOutcome = (file: string) =>
  auditRecords(file).find((r) => r["kind"] === "outcome" && r["event"] === "PreToolUse" && r["tool"] === "Bash")

describe("agentHooks in the Claude Agent SDK", () => {
  it("a deny (exit 2) blocks the call; the model reads the reason; the audit trail records it", async () => {
    const p = project(`echo 'no marker files in this project' >&2; exit 2`)
    const model = await server()
    const { result } = await run(p, model)
    expect(result?.["subtype"]).toBe("success")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("no marker files in this project")
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: true, decision: "deny", input: { command: "touch MARKER" } })
  })

  it("a call the policy allows runs, and is recorded too", async () => {
    const p = project(`exit 0`)
    const model = await server()
    await run(p, model)
    expect(existsSync(join(p.dir, "MARKER"))).toBe(true)
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: false, hooks: 1 })
  })

  it("an ask goes to the SDK's permission flow (canUseTool), whose answer decides", async () => {
    const p = project(
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touching files needs a human"}}'`
    )
    const model = await server()
    const asked: Array<string> = []
    const canUseTool: CanUseTool = async (toolName, input) => {
      asked.push(`${toolName} ${JSON.stringify(input)}`)
      return { behavior: "deny", message: "the human said no to the marker" }
    }
    // `allowedTools` would allow the call without asking: the ask must reach canUseTool.
    await run(p, model, {}, { canUseTool, allowedTools: [] })
    expect(asked).toEqual([expect.stringContaining("touch MARKER")])
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("the human said no to the marker")
    expect(bashOutcome(p.audit)).toMatchObject({ decision: "ask" })
  })

  it("a rewrite (updatedInput) runs the call with the policy's input", async () => {
    const p = project(
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch REWRITTEN"}}}'`
    )
    const model = await server()
    await run(p, model)
    expect(existsSync(join(p.dir, "REWRITTEN"))).toBe(true)
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: false, decision: "allow" })
  })

  it("a guard that cannot start blocks the call, with a reason the model reads", async () => {
    const p = project(`/nonexistent/agent-hooks-guard.sh`)
    const model = await server()
    await run(p, model)
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toMatch(/agent-hooks-guard\.sh/)
    expect(bashOutcome(p.audit)).toMatchObject({ blocked: true })
  })

  it("an engine that cannot load its settings blocks the prompt, with the reason in the result", async () => {
    const p = project(undefined)
    writeFileSync(join(p.dir, ".agent-hooks", "settings.json"), "{ this is not json")
    const model = await server()
    const { result } = await run(p, model)
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.mainRequests()).toBe(0)
    expect(String(result?.["result"])).toMatch(
      /agent-hooks: the policy could not judge this UserPromptSubmit: .*settings\.json: not valid JSON/
    )
  })

  it("a policy that crashes on a tool call blocks that call; the model reads why and the run goes on", async () => {
    const p = project(undefined)
    const model = await server()
    const real = await projectEngine({ projectDir: p.dir, env: { PATH: process.env["PATH"] }, managedDir: join(p.home, "managed") })
    const crashing = {
      dispatch: async (event: string, payload: Record<string, unknown>) => {
        if (event === "PreToolUse") throw new Error("policy server crashed")
        return real.dispatch(event, payload)
      }
    }
    const { result } = await run(p, model, { engine: crashing })
    expect(result?.["subtype"]).toBe("success")
    expect(existsSync(join(p.dir, "MARKER"))).toBe(false)
    expect(model.sentAfterToolCall()).toContain("agent-hooks: the policy could not judge this PreToolUse: policy server crashed")
  })

  it("dispatches the SDK's other events: UserPromptSubmit context reaches the model, a Stop block sends the model back", async () => {
    const p = project(undefined, {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo 'project rule: say done'` }] }],
        Stop: [
          {
            hooks: [
              {
                type: "command",
                command: `if grep -q '"stop_hook_active":true'; then exit 0; fi; echo 'run the tests first' >&2; exit 2`
              }
            ]
          }
        ]
      }
    })
    const model = await server()
    await run(p, model)
    expect(model.sentToModel()).toContain("project rule: say done")
    expect(model.sentToModel()).toContain("run the tests first")
    const events = new Set(auditRecords(p.audit).map((r) => r["event"]))
    expect([...events]).toEqual(expect.arrayContaining(["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]))
  })
})
