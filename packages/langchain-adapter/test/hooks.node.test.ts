import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { AIMessage, HumanMessage, type ToolMessage } from "@langchain/core/messages"
import { createAgent, fakeModel } from "langchain"
import { afterEach, describe, expect, it } from "vitest"
import { createHookEngine, NodeHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { bashTool, lastText, seen, tempDir } from "./helpers.ts"

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const sh = (name: string, ...args: Array<string>) => ["sh", JSON.stringify(fixture(name)), ...args.map((a) => JSON.stringify(a))].join(" ")
const command = (cmd: string) => ({ type: "command", command: cmd })

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const settingsFile = (hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>) => {
  const dir = tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ hooks }))
  return { dir, file }
}

const realEngine = async (hooks: Parameters<typeof settingsFile>[0]) => {
  const { dir, file } = settingsFile(hooks)
  const engine = await createHookEngine({ settings: [file], projectDir: dir })
  closers.push(() => engine.close())
  return { engine, dir }
}

describe("with real hook processes", () => {
  it("a PreToolUse hook that exits 2 blocks the tool; the model reads its stderr and the run goes on", async () => {
    const { engine, dir } = await realEngine({ PreToolUse: [{ matcher: "Bash", hooks: [command(sh("block-rm.sh"))] }] })
    const { bash, ran } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "rm -rf /" } }])
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("listed instead"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: dir })] })

    const result = await agent.invoke({ messages: [new HumanMessage("clean up")] })

    expect(ran).toEqual(["ls"])
    const denied = model.calls[1]!.messages.find((m) => (m as ToolMessage).type === "tool") as ToolMessage
    expect(denied.status).toBe("error")
    expect(denied.content).toContain("rm -rf is not allowed here")
    expect(lastText(result.messages)).toBe("listed instead")
  })

  it("runs without agent nodes and without thread leave no transcript file open, and each hook sees its run's messages", async () => {
    const { engine, dir } = await realEngine({ PostToolUse: [{ matcher: "Bash", hooks: [command(sh("transcript-lines.sh"))] }] })
    const { bash } = bashTool()
    const hooks = hooksMiddleware({ engine, transcriptDir: dir })
    const openFds = () => readdirSync("/proc/self/fd").length
    const run = async () => {
      const model = fakeModel()
        .respondWithTools([{ name: "bash", args: { command: "ls" } }])
        .respond(new AIMessage("ok"))
      await createAgent({ model, tools: [bash], middleware: [hooks] }).invoke({ messages: [new HumanMessage("list")] })
      return seen(model, 1).join("\n")
    }
    expect(await run()).toContain("transcript lines: 2")
    const before = openFds()
    for (let i = 0; i < 8; i++) expect(await run()).toContain("transcript lines: 2")
    expect(openFds()).toBeLessThan(before + 4)
    // One transcript per run (a session each), 0600.
    expect(readdirSync(dir).filter((name) => name.endsWith(".jsonl"))).toHaveLength(9)
  })

  it("a PostToolUse hook reads the transcript file and its additionalContext reaches the model", async () => {
    const { engine, dir } = await realEngine({ PostToolUse: [{ matcher: "Bash", hooks: [command(sh("transcript-lines.sh"))] }] })
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" } }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooksMiddleware({ engine, transcriptDir: dir })] })

    await agent.invoke({ messages: [new HumanMessage("list")] })

    // user prompt, assistant tool_use, tool_result: written before PostToolUse ran.
    expect(seen(model, 1).join("\n")).toContain("transcript lines: 2")
  })

  it("a Stop hook keeps the agent going once, then stop_hook_active lets it stop", async () => {
    const { engine, dir } = await realEngine({ Stop: [{ hooks: [command(sh("stop-once.sh"))] }] })
    const model = fakeModel().respond(new AIMessage("done")).respond(new AIMessage("tests pass, done"))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: dir })] })

    const result = await agent.invoke({ messages: [new HumanMessage("fix the bug")] })

    expect(model.callCount).toBe(2)
    expect(seen(model, 1).join("\n")).toContain("Run the tests before you stop.")
    expect(lastText(result.messages)).toBe("tests pass, done")
  })

  it("UserPromptSubmit: a blocked prompt ends the run with the reason; plain stdout becomes context", async () => {
    const { engine, dir } = await realEngine({ UserPromptSubmit: [{ hooks: [command(sh("prompt-guard.sh"))] }] })
    const model = fakeModel().respond(new AIMessage("One sentence."))
    const agent = createAgent({ model, tools: [], middleware: [hooksMiddleware({ engine, transcriptDir: dir })] })

    const blocked = await agent.invoke({ messages: [new HumanMessage("my password is hunter2")] })
    expect(model.callCount).toBe(0)
    expect(lastText(blocked.messages)).toContain("Prompts must not contain passwords.")

    await agent.invoke({ messages: [new HumanMessage("explain the code")] })
    expect(seen(model, 0).join("\n")).toContain("Project rule: answer in one sentence.")
  })

  it("accepts an Effect layer as the engine, and hooks get the payload fields of the spec", async () => {
    const { dir, file } = settingsFile({})
    const log = join(dir, "events.jsonl")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: Object.fromEntries(
          ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"].map((event) => [
            event,
            [{ hooks: [command(sh("log-event.sh", log))] }]
          ])
        )
      })
    )
    const hooks = hooksMiddleware({ engine: NodeHookEngine.layer({ settings: [file], projectDir: dir }), transcriptDir: dir, cwd: dir })
    closers.push(() => hooks.close())
    const { bash } = bashTool()
    const model = fakeModel()
      .respondWithTools([{ name: "bash", args: { command: "ls" }, id: "call_9" }])
      .respond(new AIMessage("ok"))
    const agent = createAgent({ model, tools: [bash], middleware: [hooks] })

    await agent.invoke({ messages: [new HumanMessage("list")] })

    const payloads = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(payloads.map((p) => p["hook_event_name"])).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "Stop",
      "SessionEnd"
    ])
    for (const p of payloads) {
      expect(p).toMatchObject({ cwd: dir })
      expect(existsSync(p["transcript_path"] as string)).toBe(true)
    }
    expect(payloads[2]).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "call_9",
      permission_mode: "default"
    })
    expect(payloads[3]).toMatchObject({ tool_response: { stdout: "ran: ls", stderr: "", interrupted: false, isImage: false } })
    expect(payloads[4]).toMatchObject({ stop_hook_active: false, last_assistant_message: "ok" })
  })
})
