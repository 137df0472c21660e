/**
 * An offline Vercel AI SDK agent guarded by agent-hooks (`@agent-hooks/ai-sdk`).
 *
 * The model is a scripted OpenAI-compatible server on 127.0.0.1 (`../scripted-model.ts`), the
 * `bash` tool only records what it is asked to run, and the policy is `hooks.json` next to this
 * file (Claude Code's hooks format, matcher `Bash`):
 * - `guard-bash.sh` refuses `rm -rf`: `toolApproval` answers `denied` with the reason, which the
 *   model gets as the call's result, and the model picks a safer command;
 * - `ask-deploy.sh` asks about deploys: `user-approval` with the reason; a human approves and the
 *   call runs.
 *
 * Run from the repository root: `node examples/ai-sdk/agent.ts`.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { generateText, stepCountIs, tool } from "ai"
import type { ModelMessage } from "ai"
import { z } from "zod"
import { createHookEngine } from "@agent-hooks/node"
import { agentHooks } from "@agent-hooks/ai-sdk"
import { scriptedModel } from "../scripted-model.ts"

const here = dirname(fileURLToPath(import.meta.url))

// The model tries a destructive command, then a safe one, then a deploy, then answers.
const server = await scriptedModel([
  { tool: "bash", args: { command: "rm -rf build/" } },
  { tool: "bash", args: { command: "git clean -n build/" } },
  { tool: "bash", args: { command: "deploy web --env prod" } },
  { text: "Cleaned up and deployed." }
])
const model = createOpenAICompatible({ name: "scripted", baseURL: server.baseURL, apiKey: "none" }).chatModel("scripted")

const ran: Array<string> = []
const bash = tool({
  description: "Runs a shell command",
  inputSchema: z.object({ command: z.string() }),
  execute: async ({ command }) => {
    ran.push(command)
    return `(pretend output of: ${command})`
  }
})

// The policy of this folder. Without `engine`, agentHooks() uses the agent-hooks settings of the
// working folder (every scope), once per process.
const engine = await createHookEngine({ settings: [join(here, "hooks.json")], projectDir: here })
const hooks = agentHooks({ engine })
const tools = hooks.tools({ bash })

const prompt = "Clean the build folder, then deploy web to prod."
const messages: Array<ModelMessage> = [{ role: "user", content: prompt }]
let result = await generateText({ model, tools, toolApproval: hooks.toolApproval, messages, stopWhen: stepCountIs(5) })
messages.push(...result.response.messages)

// The deploy waits for a human: here the human approves it.
// (A denied call has its request and the automatic answer in the steps; only open requests wait.)
const answered = new Set(result.content.flatMap((part) => (part.type === "tool-approval-response" ? [part.approvalId] : [])))
const approvals = result.content.flatMap((part) => (part.type === "tool-approval-request" && !answered.has(part.approvalId) ? [part] : []))
for (const request of approvals) {
  console.log(`approval asked: ${(request.toolCall.input as { command: string }).command} (${request.reason})`)
}
if (approvals.length > 0) {
  messages.push({
    role: "tool",
    content: approvals.map((request) => ({ type: "tool-approval-response" as const, approvalId: request.approvalId, approved: true }))
  })
  result = await generateText({ model, tools, toolApproval: hooks.toolApproval, messages, stopWhen: stepCountIs(5) })
}

const told = JSON.stringify(server.requests[1]?.messages.at(-1)?.content)
console.log(`the model was told: ${told}`)
console.log(`tools that actually ran: ${ran.join(", ")}`)
console.log(`the model's answer: ${result.text}`)
await engine.close()
await server.close()
