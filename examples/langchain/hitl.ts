/**
 * Human in the loop with agent-hooks in a LangChain agent, end to end and offline.
 *
 * A PreToolUse hook (`hooks/ask-deploy.sh`) answers `ask` for deploys. The agent has a checkpointer,
 * so the run stops with one interrupt for the model's turn, in `humanInTheLoopMiddleware`'s shape
 * (`actionRequests` / `reviewConfigs`); a reviewer approves one deploy and rejects the other, and the
 * thread resumes with `{ decisions }`. The hooks' decisions and the answers are recorded per tool call
 * in the checkpointed state: the hooks do not run again on resume, and the rejected deploy never runs.
 *
 * Run from the repository root (after a build): `node examples/langchain/hitl.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { Command, MemorySaver } from "@langchain/langgraph"
import { createAgent, fakeModel, tool } from "langchain"
import { z } from "zod"
import { createHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import type { HooksReviewRequest } from "@agent-hooks/langchain-adapter"

const here = dirname(fileURLToPath(import.meta.url))
const transcriptDir = mkdtempSync(join(tmpdir(), "agent-hooks-hitl-"))

const ran: Array<string> = []
const bash = tool(
  async ({ command }: { command: string }) => {
    ran.push(command)
    return `(pretend output of: ${command})`
  },
  { name: "bash", description: "Runs a shell command", schema: z.object({ command: z.string() }) }
)

// The scripted model: one turn with three calls (two deploys and a harmless one), then its answer,
// then (sent back once by the Stop hook of hooks.json) its confirmation.
const model = fakeModel()
  .respondWithTools([
    { name: "bash", args: { command: "deploy web --env prod" }, id: "call_web" },
    { name: "bash", args: { command: "deploy db --env prod" }, id: "call_db" },
    { name: "bash", args: { command: "git status" }, id: "call_status" }
  ])
  .respond(new AIMessage("Deployed web; the database deploy was refused."))
  .respond(new AIMessage("No files were changed, nothing to format."))

// The engine (the host's: closed at the end), and the middleware that runs its hooks around the agent.
const engine = await createHookEngine({ settings: [join(here, "hooks.json")], projectDir: here })
const hooks = hooksMiddleware({ engine, cwd: here, transcriptDir })
const agent = createAgent({ model, tools: [bash], checkpointer: new MemorySaver(), middleware: [hooks] })
const config = { configurable: { thread_id: "release-42" } }

const show = (message: BaseMessage) => {
  const type = (message as { type?: string }).type ?? "?"
  const calls = (message as { tool_calls?: Array<{ name: string; args: unknown }> }).tool_calls ?? []
  if (calls.length > 0) return `  ${type.padEnd(6)} ${calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(", ")}`
  const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content)
  return `  ${type.padEnd(6)} ${text.replace(/\s+/g, " ").slice(0, 110)}`
}

try {
  console.log("agent-hooks + LangChain: human in the loop with a checkpointer (offline, fakeModel)\n")
  const first = await agent.invoke({ messages: [new HumanMessage("Release version 42.")] }, config)
  const request = (first as { __interrupt__?: Array<{ value: HooksReviewRequest }> }).__interrupt__?.[0]?.value
  if (request === undefined) throw new Error("the run was not interrupted")
  console.log("interrupted; the reviewer sees:")
  for (const action of request.actionRequests) console.log(`  ${action.hookToolName} ${JSON.stringify(action.args)}: ${action.reason}`)
  console.log(`tools run so far: ${ran.length === 0 ? "none" : ran.join(", ")}\n`)

  // One decision per asked call, in order (a UI built for humanInTheLoopMiddleware sends the same).
  const decisions = request.actionRequests.map((action) =>
    String(action.args["command"]).includes("db")
      ? { type: "reject" as const, message: "No database deploys during business hours." }
      : { type: "approve" as const }
  )
  console.log(`reviewer answers: ${decisions.map((decision) => decision.type).join(", ")}\n`)
  const result = await agent.invoke(new Command({ resume: { decisions } }), config)

  console.log("conversation:")
  for (const message of result.messages) console.log(show(message))
  console.log(`\ntools that actually ran: ${ran.join(", ")}`)
  if (ran.some((command) => command.includes("deploy db"))) throw new Error("the rejected deploy ran")
  if (!ran.includes("deploy web --env prod")) throw new Error("the approved deploy did not run")
  console.log(`HITL example finished: ${request.actionRequests.length} asked, 1 approved, 1 rejected`)
} finally {
  await hooks.close()
  await engine.close()
  rmSync(transcriptDir, { recursive: true, force: true })
}
