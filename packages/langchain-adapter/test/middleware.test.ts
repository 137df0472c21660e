import { existsSync, readdirSync, readFileSync } from "node:fs"
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages"
import { Command, MemorySaver } from "@langchain/langgraph"
import { createAgent, fakeModel, tool } from "langchain"
import { describe, expect, it } from "vitest"
import { z } from "zod"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { bashTool, fakeEngine, lastText, outcome, realEngine, seen, tempDir } from "./helpers.ts"

const user = (content: string) => ({ messages: [new HumanMessage(content)] })

describe("PreToolUse on wrapToolCall", () => {
  it("a deny gives the model an error ToolMessage with the reason, the tool does not run, and the run goes on", async () => {
    const engine = fakeEngine((event, payload) =>
      event === "PreToolUse" && JSON.stringify(payload["tool_input"]).includes("rm -rf")
        ? { blocked: true, decision: "deny", reason: "rm -rf is not allowed here" }
        : undefined
    )
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /" }, id: "call_1" }])
      .respond(new AIMessage("I will not delete anything."))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("clean up"))

    expect(ran).toEqual([])
    const toolMessage = model.calls[1]!.messages.find((m) => (m as ToolMessage).type === "tool") as ToolMessage
    expect(toolMessage.status).toBe("error")
    expect(toolMessage.tool_call_id).toBe("call_1")
    expect(toolMessage.content).toContain("rm -rf is not allowed here")
    expect(lastText(result.messages)).toBe("I will not delete anything.")
  })

  it("maps tool names and passes tool_input and tool_use_id as the spec says", async () => {
    const engine = fakeEngine()
    const { bash } = bashTool()
    const lookup = tool(async ({ q }: { q: string }) => `found ${q}`, {
      name: "lookup",
      description: "d",
      schema: z.object({ q: z.string() })
    })
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" }, id: "c1" }])
      .respondWithTools([{ name: "lookup", args: { q: "x" }, id: "c2" }])
      .respond(new AIMessage("done"))
    const hooks = hooksMiddleware({ engine, toolNames: { lookup: "mcp__kb__lookup" }, transcriptDir: tempDir() })
    const agent = createAgent({ model, tools: [bash, lookup], middleware: [hooks] })

    await agent.invoke(user("go"))

    const pre = engine.dispatched.filter((d) => d.event === "PreToolUse").map((d) => d.payload)
    expect(pre.map((p) => [p["tool_name"], p["tool_input"], p["tool_use_id"]])).toEqual([
      ["Bash", { command: "ls" }, "c1"],
      ["mcp__kb__lookup", { q: "x" }, "c2"]
    ])
    const post = engine.dispatched.filter((d) => d.event === "PostToolUse").map((d) => d.payload)
    expect(post[0]!["tool_response"]).toEqual({ stdout: "ran: ls", stderr: "", interrupted: false, isImage: false })
    expect(post[1]!["tool_response"]).toBe("found x")
    expect(hooks.toolName("bash")).toBe("Bash")
  })

  it("updatedInput makes the tool run with the new input", async () => {
    const engine = fakeEngine((event) => (event === "PreToolUse" ? { decision: "allow", updatedInput: { command: "ls -la" } } : undefined))
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("list"))

    expect(ran).toEqual(["ls -la"])
    const post = engine.dispatched.find((d) => d.event === "PostToolUse")!
    expect(post.payload["tool_input"]).toEqual({ command: "ls -la" })
  })

  it("ask without a checkpointer is a deny with the reason", async () => {
    const engine = fakeEngine((event) => (event === "PreToolUse" ? { decision: "ask", reason: "deploys need a human" } : undefined))
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "deploy" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("deploy"))

    expect(ran).toEqual([])
    expect(seen(model, 1).join("\n")).toContain("deploys need a human")
  })

  it("parallel tool calls are each decided on their own", async () => {
    const engine = fakeEngine((event, payload) =>
      event === "PreToolUse" && (payload["tool_input"] as { command: string }).command === "rm -rf /"
        ? { blocked: true, decision: "deny", reason: "no" }
        : undefined
    )
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "rm -rf /" }, id: "p1" },
        { name: "bash", args: { command: "echo hi" }, id: "p2" }
      ])
      .respond(new AIMessage("done"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("go"))

    expect(ran).toEqual(["echo hi"])
    const byId = Object.fromEntries(
      result.messages
        .filter((m) => (m as ToolMessage).type === "tool")
        .map((m) => [(m as ToolMessage).tool_call_id, (m as ToolMessage).status])
    )
    expect(byId).toEqual({ p1: "error", p2: "success" })
  })
})

describe("PostToolUse and PostToolUseFailure", () => {
  it("additionalContext and a block reason reach the model beside the tool result", async () => {
    const engine = fakeEngine((event) =>
      event === "PostToolUse"
        ? { blocked: true, decision: "block", reason: "lint failed: 3 errors", additionalContext: ["run the formatter next"] }
        : undefined
    )
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "make" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("build"))

    const toolMessage = model.calls[1]!.messages.find((m) => (m as ToolMessage).type === "tool") as ToolMessage
    expect(toolMessage.content).toContain("ran: make")
    expect(toolMessage.content).toContain("lint failed: 3 errors")
    expect(toolMessage.content).toContain("run the formatter next")
  })

  it("a tool that throws does not abort the run: PostToolUseFailure gets the error and its context reaches the model", async () => {
    const engine = fakeEngine((event) => (event === "PostToolUseFailure" ? { additionalContext: ["the disk is read-only"] } : undefined))
    const broken = tool(
      async () => {
        throw new Error("EROFS: read-only file system")
      },
      { name: "write_file", description: "d", schema: z.object({ file_path: z.string(), content: z.string() }) }
    )
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { file_path: "/a.txt", content: "x" } }])
      .respond(new AIMessage("could not write"))
    const agent = createAgent({ model, tools: [broken], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("write"))

    expect(lastText(result.messages)).toBe("could not write")
    const failure = engine.dispatched.find((d) => d.event === "PostToolUseFailure")!
    expect(failure.payload).toMatchObject({
      tool_name: "Write",
      tool_input: { file_path: "/a.txt", content: "x" },
      error: "EROFS: read-only file system"
    })
    expect(engine.events()).not.toContain("PostToolUse")
    const toolMessage = model.calls[1]!.messages.find((m) => (m as ToolMessage).type === "tool") as ToolMessage
    expect(toolMessage.status).toBe("error")
    expect(toolMessage.content).toContain("EROFS")
    expect(toolMessage.content).toContain("the disk is read-only")
  })

  it("handles tools that return a Command: the context goes into its ToolMessage and its state update is kept", async () => {
    const engine = fakeEngine((event) => (event === "PostToolUse" ? { additionalContext: ["file saved, remember the tests"] } : undefined))
    const saver = tool(
      async (_args: { path: string }, config: { toolCall?: { id?: string } }) =>
        new Command({
          update: {
            messages: [new ToolMessage({ content: "saved", tool_call_id: config.toolCall?.id ?? "" })],
            notes: "written"
          }
        }),
      { name: "save", description: "d", schema: z.object({ path: z.string() }) }
    )
    const model = fakeModel()
      .respondWithTools([{ name: "save", args: { path: "/n.md" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({
      model,
      tools: [saver],
      stateSchema: z.object({ notes: z.string().optional() }),
      middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })]
    })

    const result = await agent.invoke(user("save"))

    expect((result as { notes?: string }).notes).toBe("written")
    const post = engine.dispatched.find((d) => d.event === "PostToolUse")!
    expect(post.payload["tool_response"]).toBe("saved")
    const toolMessage = model.calls[1]!.messages.find((m) => (m as ToolMessage).type === "tool") as ToolMessage
    expect(toolMessage.content).toContain("saved")
    expect(toolMessage.content).toContain("file saved, remember the tests")
  })

  it("continue: false after a tool ends the run before the next model call", async () => {
    const engine = fakeEngine((event) => (event === "PostToolUse" ? { continue: false, stopReason: "budget exhausted" } : undefined))
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "step 1" } }])
      .respondWithTools([{ name: "bash", args: { command: "step 2" } }])
      .respond(new AIMessage("never"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("go"))

    expect(ran).toEqual(["step 1"])
    expect(model.callCount).toBe(1)
    expect(lastText(result.messages)).toBe("budget exhausted")
    expect(engine.events()).not.toContain("Stop")
  })
})

describe("UserPromptSubmit on beforeAgent", () => {
  it("a block ends the run with the reason, without calling the model, and erases the prompt", async () => {
    const engine = fakeEngine((event) =>
      event === "UserPromptSubmit" ? { blocked: true, decision: "block", reason: "no secrets in prompts" } : undefined
    )
    const model = fakeModel().respond(new AIMessage("never"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("my password is hunter2"))

    expect(model.callCount).toBe(0)
    expect(lastText(result.messages)).toContain("no secrets in prompts")
    expect(JSON.stringify(result.messages.map((m) => m.content))).not.toContain("hunter2")
    expect(engine.events()).not.toContain("Stop")
    const prompt = engine.dispatched.find((d) => d.event === "UserPromptSubmit")!
    expect(prompt.payload["prompt"]).toBe("my password is hunter2")
  })

  it("additionalContext is injected for the model", async () => {
    const engine = fakeEngine((event) =>
      event === "UserPromptSubmit" ? { additionalContext: ["The current branch is main."] } : undefined
    )
    const model = fakeModel().respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("which branch?"))

    const text = seen(model, 0).join("\n")
    expect(text).toContain("which branch?")
    expect(text).toContain("The current branch is main.")
  })
})

describe("Stop on afterAgent", () => {
  it("a block sends the agent back to the model with the reason; stop_hook_active is set on the next Stop", async () => {
    let stops = 0
    const engine = fakeEngine((event) => {
      if (event !== "Stop") return undefined
      stops++
      return stops === 1 ? { blocked: true, decision: "block", reason: "run the tests before stopping" } : undefined
    })
    const model = fakeModel().respond(new AIMessage("done?")).respond(new AIMessage("tests pass, done"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("fix it"))

    expect(model.callCount).toBe(2)
    expect(seen(model, 1).join("\n")).toContain("run the tests before stopping")
    expect(lastText(result.messages)).toBe("tests pass, done")
    const payloads = engine.dispatched.filter((d) => d.event === "Stop").map((d) => d.payload)
    expect(payloads.map((p) => p["stop_hook_active"])).toEqual([false, true])
    expect(payloads.map((p) => p["last_assistant_message"])).toEqual(["done?", "tests pass, done"])
  })

  it("the loop guard lets the agent stop after stopBlockCap consecutive blocks", async () => {
    const engine = fakeEngine((event) => (event === "Stop" ? { blocked: true, decision: "block", reason: "keep going" } : undefined))
    const model = fakeModel().respond(new AIMessage("1")).respond(new AIMessage("2")).respond(new AIMessage("3"))
    const warnings: Array<string> = []
    const agent = createAgent({
      model,
      tools: [],
      middleware: [hooksMiddleware({ engine, stopBlockCap: 2, onWarning: (w) => warnings.push(w), transcriptDir: tempDir() })]
    })

    const result = await agent.invoke(user("go"))

    expect(model.callCount).toBe(3)
    expect(lastText(result.messages)).toBe("3")
    expect(engine.events().filter((e) => e === "Stop")).toHaveLength(3)
    expect(warnings.join("\n")).toContain("stopBlockCap 2")
  })
})

describe("sessions and the transcript", () => {
  it("a run without a thread is a session: SessionStart, prompt, tools, Stop, SessionEnd, all with one session_id", async () => {
    const engine = fakeEngine()
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const dir = tempDir()
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: dir, cwd: "/work/project" })] })

    await agent.invoke(user("go"))

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"])
    const ids = new Set(engine.dispatched.map((d) => d.payload["session_id"]))
    expect(ids.size).toBe(1)
    expect(engine.dispatched[0]!.payload).toMatchObject({ source: "startup", cwd: "/work/project" })
    expect(engine.dispatched.at(-1)!.payload).toMatchObject({ reason: "other" })
    const path = engine.dispatched[0]!.payload["transcript_path"] as string
    expect(path.startsWith(dir)).toBe(true)
  })

  it("a run without a thread whose SessionStart adds context (the prompt moves after it) is still one session", async () => {
    const engine = fakeEngine((event) => (event === "SessionStart" ? { additionalContext: ["repo is clean"] } : undefined))
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("go"))

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"])
    expect(new Set(engine.dispatched.map((d) => d.payload["session_id"])).size).toBe(1)
    expect(String(result.messages[0]!.content)).toContain("repo is clean")
  })

  it("a run without a thread whose prompt is blocked ends its session once, without Stop", async () => {
    const engine = fakeEngine((event) => (event === "UserPromptSubmit" ? { blocked: true, reason: "holds a secret" } : undefined))
    const model = fakeModel().respond(new AIMessage("never"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("my key is sk-123"))

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "SessionEnd"])
    expect(new Set(engine.dispatched.map((d) => d.payload["session_id"])).size).toBe(1)
  })

  it("transcript_path names a JSONL file that exists and grows, with the tool call before PreToolUse runs", async () => {
    const sizes: Array<[string, number]> = []
    let preToolSawToolUse = false
    const engine = fakeEngine((event, payload) => {
      const path = payload["transcript_path"] as string | undefined
      if (path !== undefined) {
        const lines = existsSync(path)
          ? readFileSync(path, "utf8")
              .split("\n")
              .filter((l) => l !== "")
          : []
        sizes.push([event, lines.length])
        if (event === "PreToolUse")
          preToolSawToolUse = lines.some((l) =>
            JSON.parse(l).message?.content?.some?.((b: { type: string; name?: string }) => b.type === "tool_use" && b.name === "Bash")
          )
      }
      return undefined
    })
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("all done"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("go"))

    expect(preToolSawToolUse).toBe(true)
    const counts = sizes.map(([, n]) => n)
    expect(counts.at(-1)!).toBeGreaterThan(counts[1]!)
    const path = engine.dispatched[0]!.payload["transcript_path"] as string
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    expect(lines.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"])
    expect(lines[2].message.content[0]).toMatchObject({ type: "tool_result", content: "ran: ls", is_error: false })
    expect(lines[3].message.content).toEqual([{ type: "text", text: "all done" }])
  })

  it("with a checkpointer and a thread, the session spans runs: one SessionStart, SessionEnd on close()", async () => {
    const engine = fakeEngine()
    const model = fakeModel().respond(new AIMessage("one")).respond(new AIMessage("two"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const agent = createAgent({ model, tools: [], checkpointer: new MemorySaver(), middleware: [hooks] })
    const config = { configurable: { thread_id: "thread-7" } }

    await agent.invoke(user("first"), config)
    await agent.invoke(user("second"), config)
    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "Stop", "UserPromptSubmit", "Stop"])
    await hooks.close()
    expect(engine.events().at(-1)).toBe("SessionEnd")
    expect(engine.dispatched.every((d) => d.payload["session_id"] === "thread-7")).toBe(true)
    const transcript = readFileSync(engine.dispatched[0]!.payload["transcript_path"] as string, "utf8")
      .trim()
      .split("\n")
    expect(transcript).toHaveLength(4)
  })

  it("turn events run on beforeModel and afterModel when hooks are configured for them", async () => {
    const engine = Object.assign(
      fakeEngine((event) => (event === "BeforeModel" ? { additionalContext: ["it is Tuesday"] } : undefined)),
      {
        settings: { hooks: { BeforeModel: [{}], AfterModel: [{}] } }
      }
    )
    const model = fakeModel().respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    await agent.invoke(user("what day?"))

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "BeforeModel", "AfterModel", "Stop", "SessionEnd"])
    expect(seen(model, 0).join("\n")).toContain("it is Tuesday")
    expect(engine.dispatched.find((d) => d.event === "AfterModel")!.payload).toMatchObject({ last_assistant_message: "ok", tool_calls: [] })
  })

  it("continue: false from a BeforeModel hook ends the run without calling the model, and without Stop", async () => {
    const engine = Object.assign(
      fakeEngine((event) => (event === "BeforeModel" ? { continue: false, stopReason: "model budget exhausted" } : undefined)),
      {
        settings: { hooks: { BeforeModel: [{}] } }
      }
    )
    const model = fakeModel().respond(new AIMessage("never"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })

    const result = await agent.invoke(user("go"))

    expect(model.callCount).toBe(0)
    expect(lastText(result.messages)).toBe("model budget exhausted")
    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "BeforeModel", "SessionEnd"])
  })

  it("skips turn events that no hook is configured for", async () => {
    const engine = Object.assign(fakeEngine(), { settings: { hooks: {} } })
    const model = fakeModel().respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })
    await agent.invoke(user("hi"))
    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"])
  })
})

describe("the middleware is built from the engine's plan", () => {
  const never = (matcher: string) => [{ matcher, hooks: [{ type: "command", command: "exit 2" }] }]
  const nodesOf = (agent: { graph: { nodes: Record<string, unknown> } }) =>
    Object.keys(agent.graph.nodes).filter((name) => name.includes("."))

  it("hooks that can match only tool calls: no agent node, no state key; each event that can match the run's start or end adds the nodes and the key", async () => {
    const { engine } = await realEngine({
      PreToolUse: never("Write|Edit"),
      PostToolUse: never("Write|Edit"),
      SessionStart: never("compact"),
      SessionEnd: never("logout")
    })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const lean = createAgent({
      model,
      tools: [bash],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })]
    })
    const config = { configurable: { thread_id: "lean" } }
    await lean.invoke(user("go"), config)
    expect(ran).toEqual(["ls"])
    expect(nodesOf(lean)).toEqual([])
    expect(Object.keys((await lean.graph.getState(config)).values)).toEqual(["messages"])

    for (const [event, matcher] of [
      ["SessionStart", "startup"],
      ["SessionEnd", "other"],
      ["Stop", ""],
      ["UserPromptSubmit", ""]
    ] as const) {
      const { engine } = await realEngine({ [event]: never(matcher) })
      const agent = createAgent({ model: fakeModel(), tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })
      expect(nodesOf(agent)).toEqual(["AgentHooksMiddleware.before_agent", "AgentHooksMiddleware.after_agent"])
    }
  })
})

describe("callbackEvents: events without a hook are not dispatched", () => {
  const transcriptLines = (path: string) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { type: string; message?: { content: unknown } })

  it("only the events with a hook (in the settings or declared) are dispatched; onOutcome reports those", async () => {
    const engine = Object.assign(fakeEngine(), { settings: { hooks: { PreToolUse: [{}] } } })
    const reported: Array<string> = []
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const hooks = hooksMiddleware({
      engine,
      callbackEvents: ["Stop"],
      onOutcome: (event) => reported.push(event),
      transcriptDir: tempDir()
    })
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

    const result = await agent.invoke(user("go"))

    expect(engine.events()).toEqual(["PreToolUse", "Stop"])
    expect(reported).toEqual(["PreToolUse", "Stop"])
    expect(ran).toEqual(["ls"])
    expect(lastText(result.messages)).toBe("ok")
  })

  it("an engine that names its hooked events (createHookEngine does) is believed: only those are dispatched", async () => {
    const engine = Object.assign(fakeEngine(), { hookedEvents: new Set(["UserPromptSubmit"]) })
    const model = fakeModel().respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })
    await agent.invoke(user("hi"))
    expect(engine.events()).toEqual(["UserPromptSubmit"])
  })

  it("without callbackEvents every lifecycle event is dispatched, whatever the settings say (callbacks are not in them)", async () => {
    const engine = Object.assign(fakeEngine(), { settings: { hooks: { PreToolUse: [{}] } } })
    const model = fakeModel().respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })] })
    await agent.invoke(user("hi"))
    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"])
  })

  it("the Stop loop guard counts the same when the dispatches between two Stops are skipped", async () => {
    const engine = Object.assign(
      fakeEngine((event) => (event === "Stop" ? { blocked: true, decision: "block", reason: "keep going" } : undefined)),
      { settings: { hooks: { Stop: [{}] } } }
    )
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "one" } }])
      .respond(new AIMessage("1"))
      .respondWithTools([{ name: "bash", args: { command: "two" } }])
      .respond(new AIMessage("2"))
      .respond(new AIMessage("3"))
      .respond(new AIMessage("next run"))
      .respond(new AIMessage("next run, 2"))
      .respond(new AIMessage("next run, 3"))
    const warnings: Array<string> = []
    const agent = createAgent({
      model,
      tools: [bash],
      middleware: [
        hooksMiddleware({ engine, callbackEvents: [], stopBlockCap: 2, onWarning: (w) => warnings.push(w), transcriptDir: tempDir() })
      ]
    })

    const result = await agent.invoke(user("go"))

    expect(ran).toEqual(["one", "two"])
    expect(lastText(result.messages)).toBe("3")
    expect(engine.events()).toEqual(["Stop", "Stop", "Stop"])
    expect(engine.dispatched.map((d) => d.payload["stop_hook_active"])).toEqual([false, true, true])
    expect(warnings.join("\n")).toContain("stopBlockCap 2")

    // The next run starts with a fresh count.
    engine.dispatched.length = 0
    await agent.invoke(user("again"))
    expect(engine.dispatched.map((d) => d.payload["stop_hook_active"])).toEqual([false, true, true])
  })

  it("a skipped SessionStart still opens the session: SessionEnd runs once on close(), and its transcript names every message", async () => {
    let endTranscript: Array<{ type: string }> = []
    const engine = Object.assign(
      fakeEngine((event, payload) => {
        if (event === "SessionEnd") endTranscript = transcriptLines(payload["transcript_path"] as string)
        return undefined
      }),
      { settings: { hooks: { SessionEnd: [{}] } } }
    )
    const model = fakeModel().respond(new AIMessage("one")).respond(new AIMessage("two"))
    const hooks = hooksMiddleware({ engine, callbackEvents: [], transcriptDir: tempDir() })
    const agent = createAgent({ model, tools: [], checkpointer: new MemorySaver(), middleware: [hooks] })
    const config = { configurable: { thread_id: "thread-skip" } }

    await agent.invoke(user("first"), config)
    await agent.invoke(user("second"), config)
    expect(engine.events()).toEqual([])
    await hooks.close()

    expect(engine.events()).toEqual(["SessionEnd"])
    expect(endTranscript.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"])
  })

  it("the transcript exists when the first hook runs, names every message so far whenever a hook reads it, and is complete after the run", async () => {
    const seenAt: Array<[string, Array<string>]> = []
    const engine = Object.assign(
      fakeEngine((event, payload) => {
        const path = payload["transcript_path"] as string
        expect(existsSync(path)).toBe(true)
        seenAt.push([event, transcriptLines(path).map((l) => l.type)])
        return undefined
      }),
      { settings: { hooks: { SessionStart: [{}], PostToolUse: [{}] } } }
    )
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respondWithTools([{ name: "bash", args: { command: "pwd" } }])
      .respond(new AIMessage("all done"))
    const agent = createAgent({
      model,
      tools: [bash],
      middleware: [hooksMiddleware({ engine, callbackEvents: [], transcriptDir: tempDir() })]
    })

    await agent.invoke(user("go"))

    expect(seenAt).toEqual([
      ["SessionStart", []],
      ["PostToolUse", ["user", "assistant"]],
      ["PostToolUse", ["user", "assistant", "user", "assistant"]]
    ])
    const path = engine.dispatched[0]!.payload["transcript_path"] as string
    const lines = transcriptLines(path)
    expect(lines.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"])
    expect(lines[5]!.message!.content).toEqual([{ type: "text", text: "all done" }])
  })

  it("an event the engine says no hook matches (unmatched) is not dispatched and writes nothing before it; onOutcome still hears it", async () => {
    const dir = tempDir()
    const engine = Object.assign(fakeEngine(), {
      settings: { hooks: { PreToolUse: [{}], Stop: [{}] } },
      unmatched: (event: string) => (event === "PreToolUse" ? outcome("PreToolUse", { hooks: [] }) : undefined)
    })
    const reported: Array<string> = []
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const hooks = hooksMiddleware({
      engine,
      callbackEvents: [],
      sessionId: "unmatched",
      transcriptDir: dir,
      onOutcome: (event) => reported.push(event)
    })
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

    await agent.invoke(user("go"))

    expect(ran).toEqual(["ls"])
    expect(engine.events()).toEqual(["Stop"])
    expect(reported).toEqual(["PreToolUse", "Stop"])
    expect(transcriptLines(`${dir}/unmatched.jsonl`).map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"])
    await hooks.close()
  })

  it("an engine with no hook for any event of the agent loop costs nothing: no dispatch, no transcript, no state", async () => {
    const dir = tempDir()
    const engine = Object.assign(fakeEngine(), { settings: { hooks: { ConfigChange: [{}] } } })
    const model = fakeModel().respond(new AIMessage("ok"))
    const hooks = hooksMiddleware({ engine, callbackEvents: [], transcriptDir: dir })
    const agent = createAgent({ model, tools: [], checkpointer: new MemorySaver(), middleware: [hooks] })
    const config = { configurable: { thread_id: "nothing-hooked" } }

    const result = await agent.invoke(user("hi"), config)
    await hooks.close()

    expect(lastText(result.messages)).toBe("ok")
    expect(engine.events()).toEqual([])
    expect(readdirSync(dir)).toEqual([])
    expect(Object.keys((await agent.graph.getState(config)).values)).toEqual(["messages"])
  })

  it("with hooks only for tool events and none dispatched in a run, nothing is written and no state is kept; with Stop hooks the transcript is complete by the end of the run, also when it fails", async () => {
    const dir = tempDir()
    const toolsOnly = Object.assign(fakeEngine(), { settings: { hooks: { PostToolUse: [{}] } } })
    const quiet = hooksMiddleware({ engine: toolsOnly, callbackEvents: [], sessionId: "tools-only", transcriptDir: dir })
    const config = { configurable: { thread_id: "tools-only" } }
    const first = createAgent({
      model: fakeModel().respond(new AIMessage("ok")),
      tools: [],
      checkpointer: new MemorySaver(),
      middleware: [quiet]
    })
    await first.invoke(user("hi"), config)
    expect(toolsOnly.events()).toEqual([])
    expect(readdirSync(dir)).toEqual([])
    expect(Object.keys((await first.graph.getState(config)).values)).toEqual(["messages"])
    await quiet.close()

    const engine = Object.assign(fakeEngine(), { settings: { hooks: { PostToolUse: [{}], Stop: [{}] } } })
    const model = fakeModel().respond(new AIMessage("ok")).respond(new Error("model down"))
    const hooks = hooksMiddleware({ engine, callbackEvents: [], sessionId: "quiet", transcriptDir: dir })
    const agent = createAgent({ model, tools: [], middleware: [hooks] })

    await agent.invoke(user("hi"))
    expect(engine.events()).toEqual(["Stop"])
    expect(transcriptLines(`${dir}/quiet.jsonl`).map((l) => l.type)).toEqual(["user", "assistant"])

    await expect(agent.invoke(user("again"))).rejects.toThrow("model down")
    expect(transcriptLines(`${dir}/quiet.jsonl`).map((l) => l.type)).toEqual(["user", "assistant", "user"])
    await hooks.close()
  })
})

describe("a run that throws", () => {
  // LangChain wraps what a wrapModelCall / wrapToolCall middleware throws in a MiddlewareError (with
  // the error as its `cause`), whatever the middleware; the adapter rethrows the error itself.
  const rejectsWith = async (run: Promise<unknown>, original: Error) => {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error === original || (error as Error | undefined)?.cause === original).toBe(true)
  }
  const lineTypes = (path: string) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { type: string }).type)

  it("a model error ends a per-run session: SessionEnd once, reason other, transcript written first; the error propagates unchanged", async () => {
    const down = new Error("model down")
    let endTranscript: Array<string> = []
    const engine = fakeEngine((event, payload) => {
      if (event === "SessionEnd") endTranscript = lineTypes(payload["transcript_path"] as string)
      return undefined
    })
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(down)
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })
    await rejectsWith(agent.invoke(user("go")), down)

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SessionEnd"])
    const end = engine.dispatched.at(-1)!.payload
    expect(end).toMatchObject({ reason: "other", session_id: engine.dispatched[0]!.payload["session_id"] })
    expect(endTranscript).toEqual(["user", "assistant", "user"])
    // Ended already: close() does not end it again.
    await hooks.close()
    expect(engine.events().filter((e) => e === "SessionEnd")).toHaveLength(1)
  })

  it("an engine failure ends a per-run session too (in beforeAgent and in a tool call), and the engine's error propagates", async () => {
    for (const failing of ["UserPromptSubmit", "PreToolUse"]) {
      const boom = new Error(`${failing} settings unreadable`)
      const engine = fakeEngine((event) => {
        if (event === failing) throw boom
        return undefined
      })
      const { bash, ran } = bashTool()
      const model = fakeModel()
        .respondWithTools([{ name: "bash", args: { command: "ls" } }])
        .respond(new AIMessage("never"))
      const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
      const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

      await rejectsWith(agent.invoke(user("go")), boom)

      expect(ran).toEqual([])
      expect(engine.events().filter((e) => e === "SessionEnd")).toHaveLength(1)
      expect(engine.dispatched.at(-1)).toMatchObject({ event: "SessionEnd", payload: { reason: "other" } })
      await hooks.close()
      expect(engine.events().filter((e) => e === "SessionEnd")).toHaveLength(1)
    }
  })

  it("a SessionEnd that fails too does not hide the run's error; it is reported as a warning", async () => {
    const boom = new Error("prompt hook engine down")
    const engine = fakeEngine((event) => {
      if (event === "UserPromptSubmit") throw boom
      if (event === "SessionEnd") throw new Error("still down")
      return undefined
    })
    const warnings: Array<string> = []
    const model = fakeModel().respond(new AIMessage("never"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir(), onWarning: (w) => warnings.push(w) })
    const agent = createAgent({ model, tools: [], middleware: [hooks] })

    await expect(agent.invoke(user("go"))).rejects.toBe(boom)

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "SessionEnd"])
    expect(warnings.join("\n")).toContain("still down")
    await hooks.close()
    expect(engine.events().filter((e) => e === "SessionEnd")).toHaveLength(1)
  })

  it("sessions that outlive the run (a thread, a sessionId) are not ended by a failure", async () => {
    const engine = fakeEngine()
    const model = fakeModel().respond(new Error("model down")).respond(new Error("model down"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const agent = createAgent({ model, tools: [], checkpointer: new MemorySaver(), middleware: [hooks] })
    await expect(agent.invoke(user("first"), { configurable: { thread_id: "thread-fail" } })).rejects.toThrow("model down")

    const fixed = hooksMiddleware({ engine, sessionId: "fixed", transcriptDir: tempDir() })
    const plain = createAgent({ model, tools: [], middleware: [fixed] })
    await expect(plain.invoke(user("second"))).rejects.toThrow("model down")

    expect(engine.events()).toEqual(["SessionStart", "UserPromptSubmit", "SessionStart", "UserPromptSubmit"])
    await hooks.close()
    await fixed.close()
    expect(engine.dispatched.filter((d) => d.event === "SessionEnd").map((d) => d.payload["session_id"])).toEqual(["thread-fail", "fixed"])
  })
})
