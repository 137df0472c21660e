/**
 * A blocked prompt leaves no trace: not in the transcript, not in the state; `submitPrompt` keeps it
 * out of every checkpoint. Transcripts are private to their user. Real hook processes.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { MemorySaver } from "@langchain/langgraph"
import { createAgent, fakeModel } from "langchain"
import { describe, expect, it } from "vitest"
import { hooksMiddleware, submitPrompt } from "@agent-hooks/langchain-adapter"
import { fakeEngine, fixtureCommand, lastText, realEngine, seen, tempDir } from "./helpers.ts"

const command = (cmd: string) => ({ type: "command", command: cmd })
const everyFile = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? everyFile(join(dir, entry.name)) : [join(dir, entry.name)]
  )

describe("a blocked prompt leaves no trace", () => {
  it("is not written to the transcript and is removed from the state; the transcript is 0600 in a 0700 folder", async () => {
    const { engine, dir } = await realEngine({ UserPromptSubmit: [{ hooks: [command(fixtureCommand("prompt-guard.sh"))] }] })
    const transcriptDir = join(dir, "transcripts")
    const model = fakeModel().respond(new AIMessage("Sure."))
    const agent = createAgent({
      model,
      tools: [],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir })]
    })
    const config = { configurable: { thread_id: "secret-thread" } }

    const blocked = await agent.invoke({ messages: [new HumanMessage("my password is hunter2")] }, config)
    expect(model.callCount).toBe(0)
    expect(lastText(blocked.messages)).toContain("Prompts must not contain passwords.")
    await agent.invoke({ messages: [new HumanMessage("explain the code")] }, config)

    const files = everyFile(transcriptDir)
    expect(files).toEqual([join(transcriptDir, "secret-thread.jsonl")])
    const transcript = readFileSync(files[0]!, "utf8")
    expect(transcript).not.toContain("hunter2")
    expect(transcript).toContain("explain the code")
    expect(statSync(files[0]!).mode & 0o777).toBe(0o600)
    expect(statSync(transcriptDir).mode & 0o777).toBe(0o700)

    const state = await agent.graph.getState(config)
    expect(JSON.stringify(state.values)).not.toContain("hunter2")
    expect(JSON.stringify(blocked.messages)).not.toContain("hunter2")
    // LangGraph checkpoints a run's input before any middleware runs: that first checkpoint of the
    // run still holds the prompt. `submitPrompt` (next test) is how a host avoids it.
    const history: Array<string> = []
    for await (const snapshot of agent.graph.getStateHistory(config)) history.push(JSON.stringify(snapshot.values))
    expect(history.filter((values) => values.includes("hunter2"))).toHaveLength(1)
  })

  it("submitPrompt checks the prompt before the run: a blocked one never reaches a checkpoint; an allowed one is not checked twice", async () => {
    const dir = tempDir()
    const log = join(dir, "prompts.jsonl")
    const { engine } = await realEngine({
      UserPromptSubmit: [{ hooks: [command(fixtureCommand("prompt-guard.sh")), command(fixtureCommand("log-event.sh", log))] }]
    })
    const checkpointer = new MemorySaver()
    const model = fakeModel().respond(new AIMessage("One sentence."))
    const hooks = hooksMiddleware({ engine, transcriptDir: join(dir, "transcripts") })
    const agent = createAgent({ model, tools: [], checkpointer, middleware: [hooks] })
    const config = { configurable: { thread_id: "checked" } }

    const refused = await submitPrompt(hooks, "my password is hunter2", config)
    expect(refused).toEqual({ blocked: true, reason: "Prompts must not contain passwords." })

    const allowed = await hooks.submitPrompt("explain the code", config)
    if (allowed.blocked) throw new Error("the prompt should pass")
    expect(allowed.additionalContext).toEqual(["Project rule: answer in one sentence."])
    const result = await agent.invoke({ messages: [allowed.message] }, config)

    expect(lastText(result.messages)).toBe("One sentence.")
    expect(seen(model, 0).join("\n")).toContain("Project rule: answer in one sentence.")
    const prompts = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l).prompt)
    expect(prompts).toEqual(["my password is hunter2", "explain the code"])
    const history: Array<string> = []
    for await (const snapshot of agent.graph.getStateHistory(config)) history.push(JSON.stringify(snapshot.values))
    expect(history.length).toBeGreaterThan(0)
    expect(history.some((values) => values.includes("hunter2"))).toBe(false)
    await hooks.close()
  })

  it("by default, transcripts go to a per-user 0700 folder under the temporary directory", async () => {
    const engine = fakeEngine()
    const sessionId = `default-dir-${process.pid}-${Date.now()}`
    const hooks = hooksMiddleware({ engine, sessionId })
    const agent = createAgent({ model: fakeModel().respond(new AIMessage("ok")), tools: [], middleware: [hooks] })
    await agent.invoke({ messages: [new HumanMessage("hi")] })
    await hooks.close()

    const path = engine.dispatched[0]!.payload["transcript_path"] as string
    const root = join(tmpdir(), `agent-hooks-${process.getuid?.() ?? ""}`)
    try {
      expect(path).toBe(join(root, "transcripts", `${sessionId}.jsonl`))
      expect(existsSync(path)).toBe(true)
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(statSync(root).mode & 0o777).toBe(0o700)
      expect(statSync(join(root, "transcripts")).mode & 0o777).toBe(0o700)
    } finally {
      rmSync(path, { force: true })
    }
  })
})

describe("SessionStart context", () => {
  it("comes before the session's first prompt, as in Claude Code", async () => {
    const engine = fakeEngine((event) =>
      event === "SessionStart"
        ? { additionalContext: ["You are in the repo agent-hooks."] }
        : event === "UserPromptSubmit"
          ? { additionalContext: ["It is Monday."] }
          : undefined
    )
    const model = fakeModel().respond(new AIMessage("ok")).respond(new AIMessage("ok again"))
    const agent = createAgent({
      model,
      tools: [],
      checkpointer: new MemorySaver(),
      middleware: [hooksMiddleware({ engine, transcriptDir: tempDir() })]
    })
    const config = { configurable: { thread_id: "context-order" } }

    await agent.invoke({ messages: [new HumanMessage("what is this?")] }, config)
    await agent.invoke({ messages: [new HumanMessage("and now?")] }, config)

    const first = seen(model, 0)
    expect(first).toHaveLength(3)
    expect(first[0]).toContain("You are in the repo agent-hooks.")
    expect(first[1]).toBe("human: what is this?")
    expect(first[2]).toContain("It is Monday.")
    expect(seen(model, 1).filter((text) => text.includes("You are in the repo"))).toHaveLength(1)
  })
})
