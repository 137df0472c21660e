/**
 * An offline LangChain agent with agent-hooks as middleware.
 *
 * The model is LangChain's `fakeModel()` with a scripted conversation, the tools are in-memory
 * stubs, and the hooks are the shell scripts of `hooks.json` next to this file:
 * - PreToolUse (Bash) refuses `rm -rf`: the model gets the reason and picks a safer command;
 * - PostToolUse (Write) tells the model to run the formatter;
 * - Stop sends the agent back once to confirm the formatting;
 * - SessionStart adds a house rule to the model's context.
 *
 * Run from the repository root: `node examples/langchain/agent.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import type { BaseMessage } from "@langchain/core/messages"
import { createAgent, fakeModel, tool } from "langchain"
import { z } from "zod"
import { createHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"

const here = dirname(fileURLToPath(import.meta.url))
const transcriptDir = mkdtempSync(join(tmpdir(), "agent-hooks-example-"))

const ran: Array<string> = []
const bash = tool(
  async ({ command }: { command: string }) => {
    ran.push(`bash: ${command}`)
    return `(pretend output of: ${command})`
  },
  { name: "bash", description: "Runs a shell command", schema: z.object({ command: z.string() }) }
)
const files = new Map<string, string>()
const writeFile = tool(
  async ({ file_path, content }: { file_path: string; content: string }) => {
    ran.push(`write_file: ${file_path}`)
    files.set(file_path, content)
    return `wrote ${content.length} bytes to ${file_path}`
  },
  {
    name: "write_file",
    description: "Writes a file",
    schema: z.object({ file_path: z.string(), content: z.string() })
  }
)

// The scripted model: tries a destructive command, then a safe one, writes a file, answers,
// and (sent back by the Stop hook) confirms the formatting.
const model = fakeModel()
  .respondWithTools([{ name: "bash", args: { command: "rm -rf build/" } }])
  .respondWithTools([{ name: "bash", args: { command: "git clean -n build/" } }])
  .respondWithTools([{ name: "write_file", args: { file_path: "/project/NOTES.md", content: "# Notes\n" } }])
  .respond(new AIMessage("Cleaned up and wrote NOTES.md."))
  .respond(new AIMessage("Formatter run: NOTES.md is formatted. Done."))

const engine = await createHookEngine({ settings: [join(here, "hooks.json")], projectDir: here })
const hooks = hooksMiddleware({
  engine,
  transcriptDir,
  onOutcome: (event, payload, outcome) => {
    const what = typeof payload["tool_name"] === "string" ? `${event}(${payload["tool_name"]})` : event
    const verdict = outcome.blocked
      ? `blocked: ${outcome.reason ?? ""}`.trim()
      : outcome.additionalContext.length > 0
        ? `context: ${outcome.additionalContext.join(" | ")}`
        : "ok"
    console.log(`  hook ${what.padEnd(22)} ${verdict.replace(/\s+/g, " ")}`)
  }
})
const agent = createAgent({ model, tools: [bash, writeFile], middleware: [hooks] })

const show = (message: BaseMessage) => {
  const type = (message as { type?: string }).type ?? "?"
  const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content)
  const calls = (message as { tool_calls?: Array<{ name: string; args: unknown }> }).tool_calls ?? []
  // fakeModel gives tool-call messages placeholder text: show the calls instead.
  if (calls.length > 0) return `  ${type.padEnd(6)} ${calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(", ")}`
  return `  ${type.padEnd(6)} ${text.replace(/\s+/g, " ").slice(0, 110)}`
}

try {
  console.log("agent-hooks + LangChain createAgent (offline, fakeModel)\n\nhooks that ran:")
  const result = await agent.invoke({ messages: [new HumanMessage("Clean the build folder and leave a note.")] })
  await hooks.close()
  console.log("\nconversation:")
  for (const message of result.messages) console.log(show(message))
  console.log(`\ntools that actually ran: ${ran.join(", ")}`)
  const name = readdirSync(transcriptDir).find((entry) => entry.endsWith(".jsonl"))
  if (name === undefined) throw new Error("no transcript was written")
  const transcript = readFileSync(join(transcriptDir, name), "utf8").trim().split("\n")
  console.log(`transcript: ${transcript.length} JSONL lines`)
  if (ran.some((entry) => entry.includes("rm -rf"))) throw new Error("the guard hook did not stop rm -rf")
} finally {
  await engine.close()
  rmSync(transcriptDir, { recursive: true, force: true })
}
