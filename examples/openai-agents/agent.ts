/**
 * The OpenAI Agents SDK with agent-hooks: `withAgentHooks(agent)` guards the agent's tools with the
 * project's `.agent-hooks/settings.json`, the same file that guards Claude Code and Codex. The
 * policy is written against Claude Code's `Bash`: the SDK tool `run_shell_command` is shown to it
 * as `Bash` with its `command`.
 *
 * The model is a scripted stand-in on 127.0.0.1 (the agents test step's server, Chat Completions):
 * it asks for `run_shell_command` `rm -rf build`, then answers `done`. The policy refuses `rm -rf`:
 * the tool input guardrail rejects the call, the model reads the reason, the run goes on. For the
 * real model, drop the stand-in and use your OpenAI client.
 *
 * Run from the repository root: `node examples/openai-agents/agent.ts`.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents"
import OpenAI from "openai"
import { z } from "zod"
import { withAgentHooks } from "@agent-hooks/openai-agents"
import { closeProjectEngines } from "@agent-hooks/node"
import { startModelServer } from "../../agents/lib/server.mjs"

setTracingDisabled(true)
const project = join(dirname(fileURLToPath(import.meta.url)), "project")
const model = await startModelServer({ command: "rm -rf build" })

const ran: Array<string> = []
const shell = tool({
  name: "run_shell_command",
  description: "Run a shell command in the project",
  parameters: z.object({ command: z.string(), is_background: z.boolean(), description: z.string() }),
  execute: async ({ command }) => {
    ran.push(command)
    return `(pretend output of: ${command})`
  }
})
const client = new OpenAI({ baseURL: `${model.url}/v1`, apiKey: "dummy", maxRetries: 0 })
const agent = new Agent({ name: "builder", tools: [shell], model: new OpenAIChatCompletionsModel(client, "gpt-scripted") })

try {
  // A fresh HOME for the engine (no user settings of yours in the example's output).
  const guarded = withAgentHooks(agent, { projectDir: project, engineOptions: { env: { PATH: process.env["PATH"], HOME: project } } })
  const result = await run(guarded, "clean the build folder")
  console.log(`final output: ${result.finalOutput}`)
  console.log(`tools that actually ran: ${ran.length === 0 ? "none" : ran.join(", ")}`)
  const reason = /rm -rf is not allowed in this project[^"\\]*/.exec(model.sentAfterToolCall())?.[0]
  console.log(`the model read: ${reason ?? "(no reason)"}`)
} finally {
  await closeProjectEngines()
  await model.close()
}
