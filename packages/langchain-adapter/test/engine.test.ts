/**
 * The engine as `hooksMiddleware` takes it: settings paths and engine options (an engine the
 * middleware builds and owns), and failures that are heard (warnings on the console by default).
 */
import { join } from "node:path"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import type { ToolMessage } from "@langchain/core/messages"
import { createAgent, fakeModel } from "langchain"
import { afterEach, describe, expect, it, vi } from "vitest"
import { createHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { bashTool, fakeEngine, fixtureCommand, settingsFile, tempDir } from "./helpers.ts"

const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: cmd, ...extra })
const user = (content: string) => ({ messages: [new HumanMessage(content)] })

afterEach(() => {
  vi.restoreAllMocks()
})

describe("failures are heard", () => {
  it("by default a hook that timed out is reported on the console, and the tool call goes on", async () => {
    const warned: Array<string> = []
    vi.spyOn(console, "warn").mockImplementation((...args: Array<unknown>) => {
      warned.push(args.map(String).join(" "))
    })
    const { dir, file } = settingsFile({ PreToolUse: [{ matcher: "Bash", hooks: [command("sleep 5", { timeout: 1 })] }] })
    const hooks = hooksMiddleware({ settings: [file], cwd: dir, transcriptDir: join(dir, "t") })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

    await agent.invoke(user("list"))
    await hooks.close()

    expect(ran).toEqual(["ls"])
    expect(warned.some((line) => line.startsWith("[agent-hooks]") && line.includes("timed out"))).toBe(true)
  })

  it("a host's onWarning takes the warnings instead of the console", async () => {
    const console_ = vi.spyOn(console, "warn").mockImplementation(() => {})
    const engine = fakeEngine((event) => (event === "Stop" ? { warnings: ["a Stop hook crashed"] } : undefined))
    const warnings: Array<string> = []
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("ok")),
      tools: [],
      middleware: [hooksMiddleware({ engine, transcriptDir: tempDir(), onWarning: (w) => warnings.push(w) })]
    })
    await agent.invoke(user("hi"))
    expect(warnings).toEqual(["a Stop hook crashed"])
    expect(console_).not.toHaveBeenCalled()
  })

  it("a failed hook is one line, also when the middleware builds the engine (which reports failures itself)", async () => {
    const { dir, file } = settingsFile({
      PreToolUse: [{ matcher: "Bash", hooks: [command("echo 'guard crashed' >&2; exit 1")] }],
      Stop: [{ hooks: [command("echo 'first'  >&2; echo 'second' >&2; exit 3")] }]
    })
    const warnings: Array<string> = []
    const hooks = hooksMiddleware({ settings: [file], cwd: dir, transcriptDir: join(dir, "t"), onWarning: (w) => warnings.push(w) })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respondWithTools([{ name: "bash", args: { command: "pwd" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

    await agent.invoke(user("list"))
    await hooks.close()

    expect(ran).toEqual(["ls", "pwd"])
    // Two tool calls, each with a failed PreToolUse hook; one failed Stop hook.
    const guard = warnings.filter((line) => line.includes("guard crashed"))
    expect(guard).toHaveLength(2)
    expect(guard[0]).toMatch(/^hook "echo 'guard crashed' >&2; exit 1" \(.*\): .*guard crashed/)
    const stop = warnings.filter((line) => line.includes("first") || line.includes("second"))
    expect(stop).toHaveLength(1)
    expect(stop[0]).toContain("second")
  })
})

describe("the engine is the host's", () => {
  it("an engine from createHookEngine runs real hooks; close() ends the sessions and leaves the engine open for its owner", async () => {
    const { dir, file } = settingsFile({ PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("block-rm.sh"))] }] })
    const engine = await createHookEngine({ settings: [file], projectDir: dir })
    try {
      const hooks = hooksMiddleware({ engine, transcriptDir: join(dir, "t") })
      const { bash, ran } = bashTool()
      const model = fakeModel()
        .respondWithTools([{ name: "bash", args: { command: "rm -rf /" }, id: "x1" }])
        .respond(new AIMessage("I will not."))
      const result = await createAgent({ model, tools: [bash], middleware: [hooks] }).invoke(user("clean up"))
      await hooks.close()
      expect(ran).toEqual([])
      expect((result.messages.find((m) => (m as ToolMessage).tool_call_id === "x1") as ToolMessage).content).toContain(
        "rm -rf is not allowed here"
      )
      // Still open: the host closes it.
      const after = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" }, cwd: dir })
      expect(after.blocked).toBe(true)
    } finally {
      await engine.close()
    }
  })
})

describe("a failed hook is heard once", () => {
  const failing = () =>
    settingsFile({
      PreToolUse: [{ matcher: "Bash", hooks: [command("cat >/dev/null; echo 'guard crashed' >&2; exit 1")] }],
      Stop: [{ hooks: [command("cat >/dev/null; echo 'stop hook crashed' >&2; exit 3")] }]
    })
  /** Two tool calls, each with a failed PreToolUse hook, then the end of the run with a failed Stop hook. */
  const runAgent = async (hooks: ReturnType<typeof hooksMiddleware>) => {
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respondWithTools([{ name: "bash", args: { command: "pwd" } }])
      .respond(new AIMessage("ok"))
    await createAgent({ model, tools: [bash], middleware: [hooks] }).invoke(user("list"))
    await hooks.close()
    expect(ran).toEqual(["ls", "pwd"])
  }
  const consoleLines = () => {
    const lines: Array<string> = []
    vi.spyOn(console, "warn").mockImplementation((...args: Array<unknown>) => void lines.push(args.map(String).join(" ")))
    return lines
  }

  it("with the documented engine (createHookEngine) and the defaults: one console line per failed hook", async () => {
    const lines = consoleLines()
    const { dir, file } = failing()
    const engine = await createHookEngine({ settings: [file], projectDir: dir })
    try {
      await runAgent(hooksMiddleware({ engine, transcriptDir: join(dir, "t") }))
    } finally {
      await engine.close()
    }
    expect(lines.filter((line) => line.includes("guard crashed"))).toEqual([
      expect.stringMatching(/^agent-hooks: hook ".*" \(.*settings\.json\): .*guard crashed/),
      expect.stringMatching(/^agent-hooks: hook ".*" \(.*settings\.json\): .*guard crashed/)
    ])
    expect(lines.filter((line) => line.includes("stop hook crashed"))).toHaveLength(1)
  })

  it("the engine's onWarning hears each failure once; the middleware's onWarning does not repeat them", async () => {
    const lines = consoleLines()
    const { dir, file } = failing()
    const fromEngine: Array<string> = []
    const fromMiddleware: Array<string> = []
    const engine = await createHookEngine({ settings: [file], projectDir: dir, onWarning: (w) => fromEngine.push(w) })
    try {
      await runAgent(hooksMiddleware({ engine, transcriptDir: join(dir, "t"), onWarning: (w) => fromMiddleware.push(w) }))
    } finally {
      await engine.close()
    }
    expect(fromEngine.filter((line) => line.includes("guard crashed"))).toHaveLength(2)
    expect(fromEngine.filter((line) => line.includes("stop hook crashed"))).toHaveLength(1)
    expect(fromMiddleware).toEqual([])
    expect(lines).toEqual([])
  })

  it("a gap in the audit trail, said only in the outcome before, is one console line per record with the documented engine", async () => {
    const lines = consoleLines()
    // /dev/full takes the open and refuses every write: each audit record is a gap.
    const { dir, file } = settingsFile({ PreToolUse: [{ matcher: "Bash", hooks: [command("cat >/dev/null")] }] }, { auditLog: "/dev/full" })
    const engine = await createHookEngine({ settings: [file], projectDir: dir })
    const inOutcomes: Array<string> = []
    try {
      await runAgent(
        hooksMiddleware({
          engine,
          transcriptDir: join(dir, "t"),
          onOutcome: (_event, _payload, outcome) => inOutcomes.push(...outcome.warnings)
        })
      )
    } finally {
      await engine.close()
    }
    const gaps = inOutcomes.filter((warning) => warning.startsWith("audit record not written"))
    expect(gaps.length).toBeGreaterThan(0)
    expect(lines.filter((line) => line.includes("audit record not written"))).toEqual(gaps.map((gap) => `agent-hooks: ${gap}`))
  })

  it("an engine that says it reports its warnings (reportsWarnings) is not echoed; one that does not say is", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {})
    const run = async (reportsWarnings: boolean | undefined) => {
      const warnings: Array<string> = []
      const engine = { ...fakeEngine((event) => (event === "Stop" ? { warnings: ["a Stop hook crashed"] } : undefined)), reportsWarnings }
      await createAgent({
        model: fakeModel().respond(new AIMessage("ok")),
        tools: [],
        middleware: [hooksMiddleware({ engine, transcriptDir: tempDir(), onWarning: (w) => warnings.push(w) })]
      }).invoke(user("hi"))
      return warnings
    }
    expect(await run(true)).toEqual([])
    expect(await run(false)).toEqual(["a Stop hook crashed"])
    expect(await run(undefined)).toEqual(["a Stop hook crashed"])
  })
})

describe("engine options", () => {
  it("settings paths: the middleware builds the engine, runs real hooks with it, and close() releases it", async () => {
    const { dir, file } = settingsFile({ PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("block-rm.sh"))] }] })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /" }, id: "x1" }])
      .respond(new AIMessage("I will not."))
    const hooks = hooksMiddleware({ engine: { settings: [file], projectDir: dir }, transcriptDir: join(dir, "t") })
    expect(hooks.name).toBe("AgentHooksMiddleware")
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

    const result = await agent.invoke(user("clean up"))

    expect(ran).toEqual([])
    const denied = result.messages.find((m) => (m as ToolMessage).tool_call_id === "x1") as ToolMessage
    expect(denied.content).toContain("rm -rf is not allowed here")
    await hooks[Symbol.asyncDispose]()
    await hooks.close()
  })

  it("a bad engine is a clear error at construction", () => {
    expect(() => hooksMiddleware({ engine: "hooks.json" as never })).toThrow(/engine.*dispatch.*layer.*engine options.*got string/)
  })
})

describe("the audit trail", () => {
  it("records a tool call that no hook matches, with its tool name and arguments, and verifies", async () => {
    const { Audit } = await import("@agent-hooks/core")
    const { Effect } = await import("effect")
    const { readFileSync } = await import("node:fs")
    const { dir, file } = settingsFile({ PreToolUse: [{ matcher: "Write", hooks: [command("exit 0")] }] })
    const log = join(dir, "audit.jsonl")
    const hooks = hooksMiddleware({ engine: { settings: [file], projectDir: dir, auditLog: log }, cwd: dir, transcriptDir: join(dir, "t") })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "git push origin main" } }])
      .respond(new AIMessage("pushed"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })
    await agent.invoke(user("push"))
    await hooks.close()
    expect(ran).toEqual(["git push origin main"])
    const text = readFileSync(log, "utf8")
    const records = Audit.parse(text).records.map(({ record }) => record)
    expect(records).toContainEqual(
      expect.objectContaining({
        kind: "outcome",
        event: "PreToolUse",
        tool: "Bash",
        input: { command: "git push origin main" },
        hooks: 0,
        blocked: false
      })
    )
    expect(records).toContainEqual(expect.objectContaining({ kind: "outcome", event: "UserPromptSubmit", input: "push" }))
    expect((await Effect.runPromise(Audit.verify(text))).ok).toBe(true)
  })
})
