/**
 * Human-in-the-loop: a PreToolUse `ask` interrupts the run in humanInTheLoopMiddleware's shape, the
 * hooks' decision and the human's answer are recorded per tool call, and a decision stands.
 * Real hook processes (shell fixtures), LangChain's `fakeModel()` and `MemorySaver`.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import type { ToolMessage } from "@langchain/core/messages"
import { Command, MemorySaver } from "@langchain/langgraph"
import { createAgent, createMiddleware, fakeModel, tool } from "langchain"
import { z } from "zod"
import { describe, expect, it } from "vitest"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import type { HooksReviewRequest } from "@agent-hooks/langchain-adapter"
import { bashTool, fixtureCommand, lastText, realEngine, seen, tempDir } from "./helpers.ts"

const command = (cmd: string) => ({ type: "command", command: cmd })
const user = (content: string) => ({ messages: [new HumanMessage(content)] })
const interruptOf = (result: unknown): HooksReviewRequest | undefined =>
  (result as { __interrupt__?: Array<{ value: HooksReviewRequest }> }).__interrupt__?.[0]?.value
const hookRuns = (log: string) =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : []
const toolMessage = (messages: ReadonlyArray<unknown>, id: string) =>
  messages.find((m) => (m as ToolMessage).tool_call_id === id) as ToolMessage | undefined

/** An agent with the `ask.sh` hook (mode `once` or `always`) and `block-rm.sh` on Bash. */
const setup = async (mode: "once" | "always", model: ReturnType<typeof fakeModel>) => {
  const dir = tempDir()
  const log = join(dir, "pre-tool-use.log")
  const { engine } = await realEngine({
    PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, mode)), command(fixtureCommand("block-rm.sh"))] }]
  })
  const { bash, ran } = bashTool()
  const hooks = hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })
  const agent = createAgent({ model, tools: [bash], checkpointer: new MemorySaver(), middleware: [hooks] })
  return { agent, ran, log, hooks }
}

describe("a human's decision stands", () => {
  it("a reject stands on resume although the hook would not ask again; the hook ran once", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "deploy prod" }, id: "a1" }])
      .respond(new AIMessage("Not deployed."))
    const { agent, ran, log } = await setup("once", model)
    const config = { configurable: { thread_id: "reject-once" } }

    const first = await agent.invoke(user("deploy"), config)
    const request = interruptOf(first)
    expect(request).toEqual({
      actionRequests: [
        {
          name: "bash",
          args: { command: "deploy prod" },
          description: expect.stringContaining("confirm a1"),
          hookToolName: "Bash",
          reason: "confirm a1",
          toolCallId: "a1"
        }
      ],
      reviewConfigs: [{ actionName: "bash", allowedDecisions: ["approve", "edit", "reject"] }]
    })
    expect(ran).toEqual([])

    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "not on a Friday" }] } }), config)

    expect(ran).toEqual([])
    expect(hookRuns(log)).toEqual(["a1"])
    const refused = toolMessage(second.messages, "a1")!
    expect(refused.status).toBe("error")
    expect(refused.content).toBe("not on a Friday")
    expect(seen(model, 1).join("\n")).toContain("not on a Friday")
    expect(lastText(second.messages)).toBe("Not deployed.")
  })

  it("the adapter's own answers work where one call is asked: true runs it, { decision: deny } refuses it", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "deploy prod" }, id: "b1" }])
      .respondWithTools([{ name: "bash", args: { command: "deploy staging" }, id: "b2" }])
      .respond(new AIMessage("finished"))
    const { agent, ran, log } = await setup("always", model)
    const config = { configurable: { thread_id: "own-shapes" } }

    await agent.invoke(user("deploy"), config)
    const second = await agent.invoke(new Command({ resume: true }), config)
    expect(ran).toEqual(["deploy prod"])
    expect(interruptOf(second)?.actionRequests.map((a) => a.toolCallId)).toEqual(["b2"])

    const third = await agent.invoke(new Command({ resume: { decision: "deny", reason: "not today" } }), config)
    expect(ran).toEqual(["deploy prod"])
    expect(toolMessage(third.messages, "b2")!.content).toContain("not today")
    expect(lastText(third.messages)).toBe("finished")
    // Each call decided once, although the hook asks every time.
    expect(hookRuns(log)).toEqual(["b1", "b2"])
  })

  it("parallel calls: one interrupt for the turn, one decision each in order; an edit is decided again and a deny still blocks it", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "deploy prod" }, id: "p1" },
        { name: "bash", args: { command: "ls" }, id: "p2" },
        { name: "bash", args: { command: "deploy staging" }, id: "p3" },
        { name: "bash", args: { command: "deploy dev" }, id: "p4" }
      ])
      .respond(new AIMessage("done"))
    const { agent, ran, log } = await setup("always", model)
    const config = { configurable: { thread_id: "parallel" } }

    const first = await agent.invoke(user("deploy everything"), config)
    expect(interruptOf(first)?.actionRequests.map((a) => a.toolCallId)).toEqual(["p1", "p3", "p4"])
    // p2 was not asked about, and does not run before the human answered.
    expect(ran).toEqual([])

    const result = await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "approve" },
            // The hook asks about the edited call again: the human's edit answers it.
            { type: "edit", editedAction: { name: "bash", args: { command: "deploy staging --dry-run" } } },
            // exit 2 of block-rm.sh: a deny is not answered by the human.
            { type: "edit", editedAction: { name: "bash", args: { command: "rm -rf / && deploy dev" } } }
          ]
        }
      }),
      config
    )

    expect([...ran].sort()).toEqual(["deploy prod", "deploy staging --dry-run", "ls"])
    expect(toolMessage(result.messages, "p4")).toMatchObject({ status: "error" })
    expect(toolMessage(result.messages, "p4")!.content).toContain("rm -rf is not allowed here")
    // The first turn's four calls once, then the two edited calls once each.
    expect([...hookRuns(log)].sort()).toEqual(["p1", "p2", "p3", "p3", "p4", "p4"])
    expect(lastText(result.messages)).toBe("done")
  })

  it("an answer that cannot be read is never a refusal: the question comes back with an error naming the accepted shapes", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "deploy prod" }, id: "q1" },
        { name: "bash", args: { command: "deploy staging" }, id: "q2" }
      ])
      .respond(new AIMessage("done"))
    const { agent, ran, log } = await setup("always", model)
    const config = { configurable: { thread_id: "bad-answer" } }
    await agent.invoke(user("deploy"), config)

    // Two calls are asked: `true` alone does not say which.
    const again = interruptOf(await agent.invoke(new Command({ resume: true }), config))
    expect(again?.actionRequests.map((a) => a.toolCallId)).toEqual(["q1", "q2"])
    expect(again?.error).toMatch(/2 calls are asked.*got true.*decisions.*"approve".*"edit".*"reject"/s)
    const short = interruptOf(await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config))
    expect(short?.error).toContain("1 decisions for 2 asked calls")
    const unknown = interruptOf(await agent.invoke(new Command({ resume: { decisions: [{ type: "yes" }, { type: "approve" }] } }), config))
    expect(unknown?.error).toContain('decisions[0].type is not "approve", "edit" or "reject"')
    expect(ran).toEqual([])

    const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject" }, { type: "approve" }] } }), config)
    expect(ran).toEqual(["deploy staging"])
    expect(toolMessage(result.messages, "q1")!.content).toBe("The user refused this Bash call.")
    expect(lastText(result.messages)).toBe("done")
    expect([...hookRuns(log)].sort()).toEqual(["q1", "q2"])
  })

  it("resumed by interrupt id (Command({ resume: { [id]: { decisions } } })): every asked call takes its decision and the run goes on", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "deploy prod" }, id: "r1" },
        { name: "bash", args: { command: "ls" }, id: "r2" },
        { name: "bash", args: { command: "deploy staging" }, id: "r3" }
      ])
      .respond(new AIMessage("done"))
    const { agent, ran, log } = await setup("always", model)
    const config = { configurable: { thread_id: "resume-by-id" } }

    const first = await agent.invoke(user("deploy"), config)
    const interrupts = (first as { __interrupt__?: Array<{ id: string; value: HooksReviewRequest }> }).__interrupt__ ?? []
    // One question for the model turn, as humanInTheLoopMiddleware asks it.
    expect(interrupts.length).toBe(1)
    expect(interrupts[0]!.value.actionRequests.map((a) => a.toolCallId)).toEqual(["r1", "r3"])

    const result = await agent.invoke(
      new Command({
        resume: { [interrupts[0]!.id]: { decisions: [{ type: "reject", message: "not prod" }, { type: "approve" }] } }
      }),
      config
    )

    expect([...ran].sort()).toEqual(["deploy staging", "ls"])
    expect(toolMessage(result.messages, "r1")!.content).toBe("not prod")
    expect(lastText(result.messages)).toBe("done")
    expect((await agent.graph.getState(config)).next).toEqual([])
    expect([...hookRuns(log)].sort()).toEqual(["r1", "r2", "r3"])
  })

  it("an unreadable answer brings back one question, not one per asked call; by interrupt id as well", async () => {
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "deploy prod" }, id: "u1" },
        { name: "bash", args: { command: "deploy staging" }, id: "u2" }
      ])
      .respond(new AIMessage("done"))
    const { agent, ran } = await setup("always", model)
    const config = { configurable: { thread_id: "one-question" } }
    type Interrupts = { __interrupt__?: Array<{ id: string; value: HooksReviewRequest }> }
    const first = (await agent.invoke(user("deploy"), config)) as Interrupts

    const again = (await agent.invoke(new Command({ resume: true }), config)) as Interrupts
    expect(again.__interrupt__?.length).toBe(1)
    expect(again.__interrupt__![0]!.value.error).toContain("2 calls are asked")

    const byId = (await agent.invoke(new Command({ resume: { [again.__interrupt__![0]!.id]: "yes" } }), config)) as Interrupts
    expect(byId.__interrupt__?.length).toBe(1)
    expect(byId.__interrupt__![0]!.value.actionRequests.map((a) => a.toolCallId)).toEqual(["u1", "u2"])
    expect(first.__interrupt__?.length).toBe(1)

    const result = await agent.invoke(
      new Command({
        resume: { [byId.__interrupt__![0]!.id]: { decisions: [{ type: "approve" }, { type: "reject" }] } }
      }),
      config
    )
    expect(ran).toEqual(["deploy prod"])
    expect(lastText(result.messages)).toBe("done")
  })

  it("every asked call rejected: the model hears it and the run goes on", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "deploy prod" }, id: "r1" }])
      .respond(new AIMessage("ok, I will not deploy"))
    const { agent, ran } = await setup("always", model)
    const config = { configurable: { thread_id: "all-rejected" } }
    await agent.invoke(user("deploy"), config)
    const result = await agent.invoke(new Command({ resume: false }), config)
    expect(ran).toEqual([])
    expect(model.callCount).toBe(2)
    expect(lastText(result.messages)).toBe("ok, I will not deploy")
  })

  it("each PreToolUse hook runs once per call, also one that says nothing; hooks that match nothing leave the state alone", async () => {
    const dir = tempDir()
    // ask.sh logs each run's tool_use_id in one write (the two calls are decided in parallel) and
    // says nothing about commands without "deploy".
    const log = join(dir, "pre.log")
    const { engine } = await realEngine({
      PreToolUse: [
        { matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, "always"))] },
        { matcher: "Write|Edit", hooks: [command("exit 2")] }
      ]
    })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "ls" }, id: "l1" },
        { name: "bash", args: { command: "pwd" }, id: "l2" }
      ])
      .respond(new AIMessage("done"))
    const quiet = fakeModel()
      .respondWithTools([{ name: "lookup", args: { q: "x" }, id: "m1" }])
      .respond(new AIMessage("done"))
    const lookup = tool(async () => "found", { name: "lookup", description: "d", schema: z.object({ q: z.string() }) })
    const checkpointer = new MemorySaver()
    const hooks = hooksMiddleware({ engine, transcriptDir: dir })

    await createAgent({ model, tools: [bash], checkpointer, middleware: [hooks] }).invoke(user("look"), {
      configurable: { thread_id: "logged" }
    })
    expect([...ran].sort()).toEqual(["ls", "pwd"])
    expect([...hookRuns(log)].sort()).toEqual(["l1", "l2"])

    const agent = createAgent({ model: quiet, tools: [lookup], checkpointer, middleware: [hooks] })
    const config = { configurable: { thread_id: "unmatched" } }
    const result = await agent.invoke(user("find"), config)
    expect(lastText(result.messages)).toBe("done")
    const state = (await agent.graph.getState(config)).values as { _agentHooks?: { calls?: unknown } }
    expect(state._agentHooks?.calls ?? null).toBeNull()
  })
})

describe("a model turn the hooks cannot see into is passed on as it is; its tool calls are still decided", () => {
  it("a call to a tool the model was not offered is asked about, then denied, by the PreToolUse hooks", async () => {
    // Offered: lookup (no hook matches it). Called: bash, which the hooks guard.
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "deploy prod" }, id: "u1" }])
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /" }, id: "u2" }])
      .respond(new AIMessage("done"))
    const dir = tempDir()
    const log = join(dir, "pre-tool-use.log")
    const { engine } = await realEngine({
      PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, "always")), command(fixtureCommand("block-rm.sh"))] }]
    })
    const lookup = tool(async () => "found", { name: "lookup", description: "d", schema: z.object({ q: z.string() }) })
    const agent = createAgent({
      model,
      tools: [lookup],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })]
    })
    const config = { configurable: { thread_id: "not-offered" } }

    const first = await agent.invoke(user("go"), config)
    expect(interruptOf(first)?.actionRequests.map((request) => [request.name, request.toolCallId, request.reason])).toEqual([
      ["bash", "u1", "confirm u1"]
    ])

    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject" }] } }), config)
    expect(toolMessage(second.messages, "u1")?.status).toBe("error")
    const denied = toolMessage(second.messages, "u2")!
    expect(denied.status).toBe("error")
    expect(String(denied.content)).toContain("rm -rf")
    expect(lastText(second.messages)).toBe("done")
    expect(hookRuns(log)).toEqual(["u1", "u2"])
  })

  it("a call another middleware adds after the model turn is asked about on its own, and its hooks do not run again on resume", async () => {
    const model = fakeModel().respond(new AIMessage("thinking")).respond(new AIMessage("done"))
    const dir = tempDir()
    const log = join(dir, "pre-tool-use.log")
    const { engine } = await realEngine({ PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, "once"))] }] })
    const { bash, ran } = bashTool()
    // Listed first, so it wraps the hooks middleware: the call it adds is never seen by its model turn.
    let added = false
    const adder = createMiddleware({
      name: "Adder",
      wrapModelCall: async (request, handler) => {
        const response = await handler(request)
        if (added) return response
        added = true
        return new AIMessage({ content: "", tool_calls: [{ name: "bash", args: { command: "deploy prod" }, id: "x1" }] })
      }
    })
    const agent = createAgent({
      model,
      tools: [bash],
      checkpointer: new MemorySaver(),
      middleware: [adder, hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })]
    })
    const config = { configurable: { thread_id: "added-call" } }

    const first = await agent.invoke(user("go"), config)
    expect(interruptOf(first)?.actionRequests.map((request) => [request.name, request.toolCallId])).toEqual([["bash", "x1"]])
    // The hook asks only the first time: were it run again on resume, the reject would not stand.
    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "no" }] } }), config)
    expect(ran).toEqual([])
    expect(toolMessage(second.messages, "x1")?.content).toBe("no")
    expect(hookRuns(log)).toEqual(["x1"])
  })
})

describe("a call another middleware adds after the model turn, resumed by another middleware instance (as in another process)", () => {
  /** Adds a `bash` call to the model's answer to a human message (so the hooks middleware's model turn never sees it). */
  const adder = () =>
    createMiddleware({
      name: "Adder",
      wrapModelCall: async (request, handler) => {
        const response = await handler(request)
        const last = request.messages.at(-1)
        if (last === undefined || !HumanMessage.isInstance(last)) return response
        return new AIMessage({ content: "", tool_calls: [{ name: "bash", args: { command: "deploy prod" }, id: "y1" }] })
      }
    })
  const resumed = async (decision: Record<string, unknown>, mode: "once" | "always") => {
    const model = fakeModel().respond(new AIMessage("thinking")).respond(new AIMessage("done"))
    const dir = tempDir()
    const log = join(dir, "pre-tool-use.log")
    const { engine } = await realEngine({ PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, mode))] }] })
    const { bash, ran } = bashTool()
    const checkpointer = new MemorySaver()
    const agent = () =>
      createAgent({
        model,
        tools: [bash],
        checkpointer,
        middleware: [adder(), hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })]
      })
    const config = { configurable: { thread_id: `added-call-elsewhere-${mode}` } }
    const first = await agent().invoke(user("go"), config)
    expect(interruptOf(first)?.actionRequests.map((request) => [request.name, request.toolCallId])).toEqual([["bash", "y1"]])
    const second = await agent().invoke(new Command({ resume: { decisions: [decision] } }), config)
    return { second, ran, runs: hookRuns(log) }
  }

  it("a reject stands although the hook would not ask again", async () => {
    const { second, ran, runs } = await resumed({ type: "reject", message: "no" }, "once")
    expect(ran).toEqual([])
    expect(toolMessage(second.messages, "y1")?.content).toBe("no")
    // The decision of the first process is not in the checkpoint: the hooks run again, and the human's answer still decides.
    expect(runs).toEqual(["y1", "y1"])
  })

  it("an approve runs the call once, also where the hook asks again", async () => {
    for (const mode of ["once", "always"] as const) {
      const { second, ran } = await resumed({ type: "approve" }, mode)
      expect(ran).toEqual(["deploy prod"])
      expect(lastText(second.messages)).toBe("done")
    }
  })
})

describe("nothing of the adapter is in the graph state, also with hooks for the start and end of a run", () => {
  for (const streamMode of ["values", "updates"] as const) {
    it(`no "${streamMode}" chunk carries a key of its own; Stop blocks once, then stop_hook_active lets the agent stop`, async () => {
      const dir = tempDir()
      const log = join(dir, "events.log")
      const { engine } = await realEngine({
        SessionStart: [{ hooks: [command("echo 'session context'")] }],
        UserPromptSubmit: [{ hooks: [command(fixtureCommand("log-event.sh", log))] }],
        Stop: [{ hooks: [command(fixtureCommand("stop-once.sh", join(dir, "stopped")))] }]
      })
      const { bash, ran } = bashTool()
      const model = fakeModel()
        .respondWithTools([{ name: "bash", args: { command: "ls" }, id: "c1" }])
        .respond(new AIMessage("first answer"))
        .respond(new AIMessage("second answer"))
      const agent = createAgent({
        model,
        tools: [bash],
        checkpointer: new MemorySaver(),
        middleware: [hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })]
      })
      const chunks: Array<string> = []
      for await (const chunk of await agent.stream(user("list") as never, {
        configurable: { thread_id: `nodes-${streamMode}` },
        streamMode
      })) {
        chunks.push(JSON.stringify(chunk))
      }
      expect(ran).toEqual(["ls"])
      expect(chunks.length).toBeGreaterThan(3)
      for (const chunk of chunks) expect(chunk).not.toContain("_agentHooks")
      expect(chunks.some((chunk) => chunk.includes("session context"))).toBe(true)
      expect(chunks.some((chunk) => chunk.includes("Stop hook feedback"))).toBe(true)
      expect(chunks.some((chunk) => chunk.includes("second answer"))).toBe(true)
      const state = (await agent.graph.getState({ configurable: { thread_id: `nodes-${streamMode}` } })).values as Record<string, unknown>
      expect(Object.keys(state).filter((key) => key.startsWith("_"))).toEqual([])
    })
  }
})

describe("the adapter's private state stays out of stream chunks", () => {
  for (const streamMode of ["values", "updates"] as const) {
    it(`no "${streamMode}" chunk carries it; a parallel call waits for the human; a reject stands on resume by another middleware instance`, async () => {
      const dir = tempDir()
      const log = join(dir, "pre-tool-use.log")
      const { engine } = await realEngine({ PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, "once"))] }] })
      const { bash, ran } = bashTool()
      const model = fakeModel()
        .respondWithTools([
          { name: "bash", args: { command: "deploy prod" }, id: "s1" },
          { name: "bash", args: { command: "ls" }, id: "s2" }
        ])
        .respond(new AIMessage("Listed, not deployed."))
      const checkpointer = new MemorySaver()
      const config = { configurable: { thread_id: `stream-${streamMode}` }, streamMode }
      const chunks: Array<string> = []
      const run = async (middleware: ReturnType<typeof hooksMiddleware>, input: unknown) => {
        const agent = createAgent({ model, tools: [bash], checkpointer, middleware: [middleware] })
        for await (const chunk of await agent.stream(input as never, config)) chunks.push(JSON.stringify(chunk))
      }

      await run(hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} }), user("deploy and list"))
      const interrupts = chunks.filter((chunk) => chunk.includes("__interrupt__") && chunk.includes("actionRequests"))
      expect(interrupts).toHaveLength(1)
      expect(interrupts[0]).toContain("confirm s1")
      expect(ran).toEqual([])

      // A new middleware (as in another process): the decisions come from the checkpoint.
      await run(
        hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} }),
        new Command({ resume: { decisions: [{ type: "reject", message: "Not now." }] } })
      )
      expect(ran).toEqual(["ls"])
      expect(hookRuns(log).sort()).toEqual(["s1", "s2"])
      expect(chunks.length).toBeGreaterThan(3)
      for (const chunk of chunks) expect(chunk).not.toContain("_agentHooks")
      expect(chunks.some((chunk) => chunk.includes("Not now."))).toBe(true)
      expect(chunks.at(-1)).toContain("Listed, not deployed.")
    })
  }
})

describe("a tool call no hook can match", () => {
  it("waits with the rest of its model turn while a human is asked about another call, then runs once", async () => {
    const dir = tempDir()
    const log = join(dir, "pre-tool-use.log")
    const { engine } = await realEngine({ PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", log, "always"))] }] })
    const { bash, ran } = bashTool()
    const looked: Array<string> = []
    const lookup = tool(
      async ({ q }: { q: string }) => {
        looked.push(q)
        return `found ${q}`
      },
      { name: "lookup", description: "d", schema: z.object({ q: z.string() }) }
    )
    const model = fakeModel()
      .respondWithTools([
        { name: "bash", args: { command: "deploy prod" }, id: "w1" },
        { name: "lookup", args: { q: "docs" }, id: "w2" }
      ])
      .respond(new AIMessage("deployed and looked up"))
    const agent = createAgent({
      model,
      tools: [bash, lookup],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })]
    })
    const config = { configurable: { thread_id: "unmatched-waits" } }

    const first = await agent.invoke(user("deploy and look up"), config)
    expect(interruptOf(first)?.actionRequests.map((request) => request.name)).toEqual(["bash"])
    expect(ran).toEqual([])
    expect(looked).toEqual([])

    const done = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config)
    expect(ran).toEqual(["deploy prod"])
    expect(looked).toEqual(["docs"])
    expect(toolMessage(done.messages, "w2")?.content).toBe("found docs")
    expect(lastText(done.messages)).toBe("deployed and looked up")
  })

  it("that throws gives the model an error ToolMessage and the run goes on", async () => {
    const { engine } = await realEngine({
      PreToolUse: [{ matcher: "Bash", hooks: [command("exit 2")] }],
      PostToolUseFailure: [{ matcher: "Bash", hooks: [command("exit 2")] }]
    })
    const broken = tool(
      async () => {
        throw new Error("EROFS: read-only file system")
      },
      { name: "write_file", description: "d", schema: z.object({ file_path: z.string(), content: z.string() }) }
    )
    const model = fakeModel()
      .respondWithTools([{ name: "write_file", args: { file_path: "/a.txt", content: "x" }, id: "t1" }])
      .respond(new AIMessage("could not write"))
    const agent = createAgent({
      model,
      tools: [broken],
      middleware: [hooksMiddleware({ engine, transcriptDir: tempDir(), onWarning: () => {} })]
    })

    const result = await agent.invoke(user("write"))

    expect(lastText(result.messages)).toBe("could not write")
    const failed = toolMessage(result.messages, "t1") as ToolMessage | undefined
    expect(failed?.status).toBe("error")
    expect(failed?.content).toBe("Error: EROFS: read-only file system\n Please fix your mistakes.")
  })
})
