import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { createAgent, fakeModel } from "langchain"
import { afterEach, describe, expect, it, vi } from "vitest"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { fakeEngine, tempDir } from "./helpers.ts"

// A per-run session's id is a random UUID; fixing it makes a forgotten id observable: the same id
// seen again is a new session (SessionStart again), while a remembered one is not.
const uuid = vi.hoisted(() => ({ fixed: undefined as string | undefined }))
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>()
  return { ...actual, randomUUID: () => (uuid.fixed ?? actual.randomUUID()) as ReturnType<typeof actual.randomUUID> }
})
afterEach(() => {
  uuid.fixed = undefined
})

const user = (content: string) => ({ messages: [new HumanMessage(content)] })

describe("per-run session bookkeeping", () => {
  it("a per-run session is forgotten once its SessionEnd ran (the run ended or failed), or was skipped", async () => {
    uuid.fixed = "00000000-0000-4000-8000-000000000001"
    const engine = fakeEngine()
    const model = fakeModel()
      .respond(new AIMessage("one"))
      .respond(new Error("model down"))
      .respond(new AIMessage("three"))
      .respond(new AIMessage("four"))
      .respond(new AIMessage("five"))
    const hooks = hooksMiddleware({ engine, transcriptDir: tempDir() })
    const agent = createAgent({ model, tools: [], middleware: [hooks] })

    await agent.invoke(user("one"))
    await expect(agent.invoke(user("two"))).rejects.toThrow("model down")
    await agent.invoke(user("three"))

    expect(engine.events()).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "Stop",
      "SessionEnd",
      "SessionStart",
      "UserPromptSubmit",
      "SessionEnd",
      "SessionStart",
      "UserPromptSubmit",
      "Stop",
      "SessionEnd"
    ])
    expect(new Set(engine.dispatched.map((d) => d.payload["session_id"]))).toEqual(new Set([uuid.fixed]))

    // SessionStart and SessionEnd not dispatched (no hook for them): forgotten all the same.
    const quiet = Object.assign(fakeEngine(), { settings: { hooks: { SessionStart: [{}] } } })
    const skipping = hooksMiddleware({ engine: quiet, callbackEvents: [], transcriptDir: tempDir() })
    const other = createAgent({ model, tools: [], middleware: [skipping] })
    await other.invoke(user("four"))
    await other.invoke(user("five"))
    expect(quiet.events()).toEqual(["SessionStart", "SessionStart"])
    await hooks.close()
    await skipping.close()
    expect(engine.events().filter((e) => e === "SessionEnd")).toHaveLength(3)
  })
})
