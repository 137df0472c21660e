/**
 * `permissions` rules in a LangChain agent: the same rules as every host, judged in-process by the
 * engine the middleware is given, before any hook (a permissions-only policy runs no process).
 */
import type { ToolMessage } from "@langchain/core/messages"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { createAgent, fakeModel } from "langchain"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { bashTool, settingsFile } from "./helpers.ts"

const user = (content: string) => ({ messages: [new HumanMessage(content)] })

describe("permissions in the LangChain middleware", () => {
  it("a deny rule keeps the tool from running and tells the model which rule; another call runs", async () => {
    const { dir, file } = settingsFile({}, { permissions: { deny: ["Bash(rm -rf:*)"] } })
    const engine = await createHookEngine({ settings: [file], projectDir: dir })
    try {
      const hooks = hooksMiddleware({ engine, transcriptDir: join(dir, "t") })
      const { bash, ran } = bashTool()
      const model = fakeModel()
        .respondWithTools([
          { name: "bash", args: { command: "sudo rm -rf /" }, id: "x1" },
          { name: "bash", args: { command: "ls" }, id: "x2" }
        ])
        .respond(new AIMessage("done"))
      const result = await createAgent({ model, tools: [bash], middleware: [hooks] }).invoke(user("clean up"))
      await hooks.close()
      expect(ran).toEqual(["ls"])
      const denied = result.messages.find((m) => (m as ToolMessage).tool_call_id === "x1") as ToolMessage
      expect(String(denied.content)).toContain('denied by permissions rule "Bash(rm -rf:*)"')
    } finally {
      await engine.close()
    }
  })

  it("the engine's dispatch answers a permissions-only policy with the rule that decided", async () => {
    const { dir, file } = settingsFile({}, { permissions: { deny: ["Read(./.env)"], ask: ["Bash(git push:*)"] } })
    const engine = await createHookEngine({ settings: [file], projectDir: dir })
    try {
      const read = await engine.dispatch("PreToolUse", { tool_name: "Read", tool_input: { file_path: join(dir, ".env") }, cwd: dir })
      expect(read).toMatchObject({ blocked: true, decision: "deny", hooks: [], permission: { rule: "Read(./.env)", list: "deny" } })
      const push = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "git push" }, cwd: dir })
      expect(push).toMatchObject({ blocked: false, decision: "ask", permission: { list: "ask" } })
    } finally {
      await engine.close()
    }
  })
})
