import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { Command, MemorySaver } from "@langchain/langgraph"
import { createDeepAgent } from "deepagents"
import { fakeModel } from "langchain"
import { describe, expect, it } from "vitest"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { withHooks } from "@agent-hooks/langchain-adapter/DeepAgents"
import { bashTool, fakeEngine, fixtureCommand, lastText, realEngine, tempDir } from "./helpers.ts"

const denyRm = (event: string, payload: Record<string, unknown>) =>
  event === "PreToolUse" && JSON.stringify(payload["tool_input"]).includes("rm -rf")
    ? { blocked: true, decision: "deny" as const, reason: "rm -rf is not allowed here" }
    : undefined

describe("deepagents", () => {
  // The recipe's shape: a real engine whose settings have tool-event hooks only (no Stop, no
  // UserPromptSubmit), so the middleware registers no agent nodes and makes the run's info only
  // when a hook runs, which for the subagent's call is inside the subagent.
  it("with tool-event hooks only, a subagent's tool call is checked and the run ends (no stack overflow)", async () => {
    const { engine } = await realEngine({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: fixtureCommand("block-rm.sh") }] }],
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }]
    })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "task", args: { description: "clean the disk", subagent_type: "researcher" }, id: "t1" }])
      .respondWithTools([
        { name: "bash", args: { command: "rm -rf /" }, id: "b1" },
        { name: "bash", args: { command: "ls" }, id: "b2" }
      ])
      .respond(new AIMessage("researcher: rm was refused, ls ran"))
      .respond(new AIMessage("main: done"))
    const dispatched: Array<{ event: string; payload: Record<string, unknown> }> = []
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir(), onOutcome: (event, payload) => dispatched.push({ event, payload }) })
    const researcher = { name: "researcher", description: "looks things up", systemPrompt: "You research." }
    const agent = createDeepAgent(withHooks({ model, tools: [bash], subagents: [researcher] }, hooks))

    const result = await agent.invoke({ messages: [new HumanMessage("clean up")] }, { configurable: { thread_id: "recipe" } })

    expect(ran).toEqual(["ls"])
    expect(lastText(result.messages)).toBe("main: done")
    const researcherTurn = model.calls[2]!.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    expect(researcherTurn).toContain("rm -rf is not allowed here")
    // The subagent's calls are the researcher's, in the main agent's session (its thread).
    const checked = dispatched.filter((d) => d.event === "PreToolUse" && d.payload["tool_name"] === "Bash")
    expect(checked).toHaveLength(2)
    for (const { payload } of checked) expect(payload).toMatchObject({ session_id: "recipe", agent_type: "researcher" })
  })

  it("withHooks installs the hooks on the default general-purpose subagent: its tool calls are checked too", async () => {
    const engine = fakeEngine(denyRm)
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "task", args: { description: "clean the disk", subagent_type: "general-purpose" }, id: "t1" }])
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /" }, id: "b1" }])
      .respond(new AIMessage("subagent: I was not allowed to"))
      .respond(new AIMessage("main: the subagent could not clean"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const agent = createDeepAgent(withHooks({ model, tools: [bash] }, hooks))

    const result = await agent.invoke({ messages: [new HumanMessage("clean up")] })

    expect(ran).toEqual([])
    expect(lastText(result.messages)).toBe("main: the subagent could not clean")
    const pre = engine.dispatched.filter((d) => d.event === "PreToolUse").map((d) => d.payload)
    expect(pre.map((p) => p["tool_name"])).toEqual(["Agent", "Bash"])
    expect(pre[0]!["tool_input"]).toMatchObject({ prompt: "clean the disk", subagent_type: "general-purpose" })
    expect(pre[1]).toMatchObject({ agent_type: "general-purpose" })
    expect(typeof pre[1]!["agent_id"]).toBe("string")
    const events = engine.events()
    expect(events).toContain("SubagentStart")
    expect(events).toContain("SubagentStop")
    expect(events.indexOf("SubagentStop")).toBeLessThan(events.lastIndexOf("Stop"))
    expect(new Set(engine.dispatched.map((d) => d.payload["session_id"])).size).toBe(1)
    const subStop = engine.dispatched.find((d) => d.event === "SubagentStop")!.payload
    expect(subStop["last_assistant_message"]).toBe("subagent: I was not allowed to")
    expect(subStop["agent_transcript_path"]).toMatch(/subagents\/agent-.*\.jsonl$/)
  })

  it("installs the hooks on custom subagents and keeps their own middleware", async () => {
    const engine = fakeEngine(denyRm)
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "task", args: { description: "tidy", subagent_type: "janitor" } }])
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /tmp/x" } }])
      .respond(new AIMessage("janitor: refused"))
      .respond(new AIMessage("main: ok"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const params = withHooks(
      { model, tools: [bash], subagents: [{ name: "janitor", description: "cleans", systemPrompt: "You clean." }] },
      hooks
    )

    expect(params.subagents.map((s) => (s as { name: string }).name)).toEqual(["general-purpose", "janitor"])
    const agent = createDeepAgent(params)
    await agent.invoke({ messages: [new HumanMessage("tidy up")] })

    expect(ran).toEqual([])
    const bashCall = engine.dispatched.find((d) => d.event === "PreToolUse" && d.payload["tool_name"] === "Bash")!
    expect(bashCall.payload["agent_type"]).toBe("janitor")
  })

  it("a PreToolUse ask inside a subagent interrupts the run; the answer resumes it and the hooks do not run again", async () => {
    const engine = fakeEngine((event, payload) =>
      event === "PreToolUse" && JSON.stringify(payload["tool_input"]).includes("deploy")
        ? { decision: "ask" as const, reason: "deploys need a human" }
        : undefined
    )
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "task", args: { description: "ship it", subagent_type: "general-purpose" }, id: "t1" }])
      .respondWithTools([{ name: "bash", args: { command: "deploy prod" }, id: "b1" }])
      .respond(new AIMessage("subagent: deployed"))
      .respond(new AIMessage("main: shipped"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const agent = createDeepAgent(withHooks({ model, tools: [bash], checkpointer: new MemorySaver() }, hooks))
    const config = { configurable: { thread_id: "deep-ask" } }

    const first = await agent.invoke({ messages: [new HumanMessage("ship")] }, config)
    const request = (first as { __interrupt__?: Array<{ value: { actionRequests: Array<{ name: string; args: unknown }> } }> })
      .__interrupt__?.[0]?.value
    expect(request?.actionRequests).toEqual([expect.objectContaining({ name: "bash", args: { command: "deploy prod" } })])
    expect(ran).toEqual([])

    const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config)

    expect(ran).toEqual(["deploy prod"])
    expect(lastText(result.messages)).toBe("main: shipped")
    const asked = engine.dispatched.filter((d) => d.event === "PreToolUse" && d.payload["tool_name"] === "Bash")
    expect(asked).toHaveLength(1)
  })
})
