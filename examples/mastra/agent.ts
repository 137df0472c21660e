/**
 * An offline Mastra agent guarded by agent-hooks (`@agent-hooks/mastra`).
 *
 * The model is a scripted OpenAI-compatible server on 127.0.0.1 (`../scripted-model.ts`), the
 * `bash` tool only records what it is asked to run, and the policy is `hooks.json` next to this
 * file (Claude Code's hooks format, matcher `Bash`):
 * - `guard-bash.sh` refuses `rm -rf`: `beforeToolCall` stops the call with the reason as its
 *   output, which the model gets, and the model picks a safer command;
 * - `ask-deploy.sh` asks about deploys: `requireToolApproval` suspends the run; a human approves
 *   (`approveToolCallGenerate`) and the call runs.
 *
 * Run from the repository root: `node examples/mastra/agent.ts`.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Agent } from "@mastra/core/agent"
import { Mastra } from "@mastra/core/mastra"
import { InMemoryStore } from "@mastra/core/storage"
import { createTool } from "@mastra/core/tools"
import { z } from "zod"
import { createHookEngine } from "@agent-hooks/node"
import { agentHooks } from "@agent-hooks/mastra"
import { scriptedModel } from "../scripted-model.ts"

const here = dirname(fileURLToPath(import.meta.url))

// The model tries a destructive command, then a safe one, then a deploy, then answers.
const server = await scriptedModel([
  { tool: "bash", args: { command: "rm -rf build/" } },
  { tool: "bash", args: { command: "git clean -n build/" } },
  { tool: "bash", args: { command: "deploy web --env prod" } },
  { text: "Cleaned up and deployed." }
])

const ran: Array<string> = []
const bash = createTool({
  id: "bash",
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
const agent = new Agent({
  id: "ops",
  name: "ops",
  instructions: "You keep the repository tidy.",
  // Any OpenAI-compatible endpoint (or a model of an AI SDK provider).
  model: { providerId: "scripted", modelId: "scripted", url: server.baseURL, apiKey: "none", api: "chat" },
  tools: { bash },
  hooks: hooks.toolHooks,
  inputProcessors: [hooks.processor]
})
// Storage keeps a suspended run (an asked call) until a human answers.
const mastra = new Mastra({ agents: { ops: agent }, storage: new InMemoryStore(), logger: false })
const ops = mastra.getAgent("ops")

let result = await ops.generate("Clean the build folder, then deploy web to prod.", {
  maxSteps: 6,
  requireToolApproval: hooks.requireToolApproval
})
// The deploy waits for a human: here the human approves it.
while (result.finishReason === "suspended") {
  const asked = result.suspendPayload as { toolCallId: string; args: { command: string } }
  console.log(`approval asked: ${asked.args.command}`)
  result = await ops.approveToolCallGenerate({ runId: result.runId!, toolCallId: asked.toolCallId })
}

const told = server.requests[1]?.messages.find((message) => message.role === "tool")?.content
console.log(`the model was told: ${JSON.stringify(told)}`)
console.log(`tools that actually ran: ${ran.join(", ")}`)
console.log(`the model's answer: ${result.text}`)
await engine.close()
await server.close()
