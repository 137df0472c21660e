/**
 * Events that have a LangChain counterpart: PreCompact / PostCompact around
 * `summarizationMiddleware`, Notification where the adapter asks a human. Real hook processes.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { Command, MemorySaver } from "@langchain/langgraph"
import { createAgent, fakeModel, summarizationMiddleware } from "langchain"
import { describe, expect, it } from "vitest"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { bashTool, fakeEngine, fixtureCommand, realEngine, seen, tempDir } from "./helpers.ts"

const command = (cmd: string) => ({ type: "command", command: cmd })
const payloads = (log: string): Array<Record<string, unknown>> =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : []

/** An agent whose history is summarized before its second model call. */
const summarizing = async (preCompact: string) => {
  const dir = tempDir()
  const log = join(dir, "events.jsonl")
  const { engine } = await realEngine({
    PreCompact: [{ hooks: [command(fixtureCommand("log-event.sh", log)), command(preCompact)] }],
    PostCompact: [{ hooks: [command(fixtureCommand("log-event.sh", log))] }]
  })
  const hooks = hooksMiddleware({ engine, transcriptDir: dir })
  const summarizer = fakeModel().respond(new AIMessage("SUMMARY: the user wants the files listed"))
  const { bash } = bashTool()
  const model = fakeModel()
    .respondWithTools([{ name: "bash", args: { command: "ls" }, id: "s1" }])
    .respondWithTools([{ name: "bash", args: { command: "ls -la" }, id: "s2" }])
    .respond(new AIMessage("listed"))
  const summarization = summarizationMiddleware({ model: summarizer, trigger: { messages: 4 }, keep: { messages: 2 } })
  const agent = createAgent({ model, tools: [bash], middleware: [hooks, hooks.compaction(summarization)] })
  return { agent, model, log }
}

describe("PreCompact and PostCompact around summarizationMiddleware", () => {
  it("run once the summary is made: PreCompact with trigger auto, PostCompact with the summary; the model sees the summary", async () => {
    const { agent, model, log } = await summarizing("true")

    await agent.invoke({ messages: [new HumanMessage("list the files")] })

    const events = payloads(log)
    expect(events.map((p) => p["hook_event_name"])).toEqual(["PreCompact", "PostCompact"])
    expect(events[0]).toMatchObject({ trigger: "auto", custom_instructions: "" })
    expect(events[1]!["compact_summary"]).toContain("SUMMARY: the user wants the files listed")
    const afterCompaction = seen(model, model.callCount - 1)
    expect(afterCompaction.join("\n")).toContain("SUMMARY: the user wants the files listed")
    expect(afterCompaction).not.toContain("human: list the files")
  })

  it("a PreCompact block (exit 2) keeps the messages as they are", async () => {
    const { agent, model, log } = await summarizing("exit 2")

    await agent.invoke({ messages: [new HumanMessage("list the files")] })

    expect(
      payloads(log)
        .map((p) => p["hook_event_name"])
        .filter((e) => e === "PostCompact")
    ).toEqual([])
    expect(payloads(log).length).toBeGreaterThan(0)
    const last = seen(model, model.callCount - 1)
    expect(last).toContain("human: list the files")
    expect(last.join("\n")).not.toContain("SUMMARY")
  })
})

describe("Notification", () => {
  it("runs once when the adapter asks a human (not again on resume)", async () => {
    const dir = tempDir()
    const log = join(dir, "notifications.jsonl")
    const { engine } = await realEngine({
      PreToolUse: [{ matcher: "Bash", hooks: [command(fixtureCommand("ask.sh", join(dir, "asked.log"), "always"))] }],
      Notification: [{ hooks: [command(fixtureCommand("log-event.sh", log))] }]
    })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "deploy prod" }, id: "n1" }])
      .respond(new AIMessage("deployed"))
    const agent = createAgent({
      model,
      tools: [bash],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir: dir })]
    })
    const config = { configurable: { thread_id: "notify" } }

    await agent.invoke({ messages: [new HumanMessage("deploy")] }, config)
    expect(payloads(log)).toEqual([
      expect.objectContaining({
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "The agent needs your permission to use Bash",
        session_id: "notify"
      })
    ])
    await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config)
    expect(ran).toEqual(["deploy prod"])
    expect(payloads(log)).toHaveLength(1)
  })
})

describe("async hooks: what they say reaches the model at the next model call of their session", () => {
  it("an async PostToolUse hook's additionalContext and an asyncRewake hook's message, once, and not in another thread", async () => {
    const dir = tempDir()
    const { engine } = await realEngine({
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"tests pass"}}'`,
              async: true
            },
            { type: "command", command: "echo 'type check failed' >&2; exit 2", asyncRewake: true }
          ]
        }
      ]
    })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "npm test" }, id: "t1" }])
      .respond(new AIMessage("started the tests"))
      .respond(new AIMessage("hello from b"))
      .respond(new AIMessage("noted"))
      .respond(new AIMessage("nothing new"))
    const agent = createAgent({
      model,
      tools: [bash],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir: dir, onWarning: () => {} })]
    })
    const thread = (id: string) => ({ configurable: { thread_id: id } })

    await agent.invoke({ messages: [new HumanMessage("run the tests")] }, thread("async-a"))
    expect(ran).toEqual(["npm test"])
    // The hooks finish after the run; their words wait for thread a's next model call.
    await engine.awaitAsync()
    await agent.invoke({ messages: [new HumanMessage("hi")] }, thread("async-b"))
    await agent.invoke({ messages: [new HumanMessage("and?")] }, thread("async-a"))
    await agent.invoke({ messages: [new HumanMessage("more?")] }, thread("async-a"))

    expect(seen(model, 2).join("\n")).not.toContain("tests pass")
    const next = seen(model, 3).join("\n")
    expect(next).toContain("PostToolUse hook additional context (async): tests pass")
    expect(next).toContain("PostToolUse hook feedback (async): type check failed")
    expect(seen(model, 4).join("\n")).not.toContain("tests pass")
  })

  it("notes past the 100 a session keeps are dropped with a warning, never unseen", async () => {
    const engine = fakeEngine()
    const results = Array.from({ length: 103 }, (_, i) => ({
      event: "PostToolUse",
      sessionId: "many",
      toModel: [`note ${i}`],
      rewake: false,
      rewakeMessage: null
    }))
    let taken = false
    const host = {
      ...engine,
      settings: { hooks: { PostToolUse: [{ hooks: [{ type: "command", command: "true", async: true }] }] } },
      takeAsyncResults: async () => (taken ? [] : ((taken = true), results))
    }
    const warnings: Array<string> = []
    const model = fakeModel().respond(new AIMessage("ok"))
    const agent = createAgent({
      model,
      tools: [],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine: host, transcriptDir: tempDir(), onWarning: (w) => warnings.push(w) })]
    })
    await agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "many" } })
    const given = seen(model, 0).join("\n")
    expect(given).toContain("note 102")
    expect(given).toContain("note 3")
    expect(given).not.toContain("note 2\n")
    expect(warnings.filter((w) => w.includes('async hooks said more for session "many"'))).toEqual([
      'async hooks said more for session "many" than its next model call takes: its 3 oldest notes were dropped (the last 100 are kept)'
    ])
  })
})
