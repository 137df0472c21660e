/**
 * The Claude Agent SDK with agent-hooks as its hooks: the project's `.agent-hooks/settings.json`
 * (the same file `agent-hooks hook --host claude` reads for Claude Code) judges each tool call.
 *
 * The model is a scripted stand-in on 127.0.0.1 (the agents test step's server): it asks for
 * `Bash` `rm -rf build`, then answers `done`. The policy refuses `rm -rf`; the model reads the
 * reason, and the audit trail records the call. For the real Claude, drop the stand-in and its
 * environment (ANTHROPIC_BASE_URL) and keep your ANTHROPIC_API_KEY.
 *
 * Run from the repository root: `node examples/claude-agent-sdk/agent.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { query } from "@anthropic-ai/claude-agent-sdk"
import { agentHooks } from "@agent-hooks/claude-agent-sdk"
import { closeProjectEngines } from "@agent-hooks/node"
import { startModelServer } from "../../agents/lib/server.mjs"

const project = join(dirname(fileURLToPath(import.meta.url)), "project")
const home = mkdtempSync(join(tmpdir(), "agent-hooks-example-home-"))
const model = await startModelServer({ command: "rm -rf build" })

// A fresh HOME for the example (no user settings of yours in its output); your agent keeps its own.
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: "dummy" }
const hooks = agentHooks({ projectDir: project, engineOptions: { env } })

try {
  for await (const message of query({
    prompt: "clean the build folder",
    options: { cwd: project, env, hooks, allowedTools: ["Bash"], settingSources: [] }
  })) {
    if (message.type === "result") console.log(`result: ${message.subtype}`)
  }
  const sent = model.sentAfterToolCall()
  const reason = /rm -rf is not allowed in this project[^"\\]*/.exec(sent)?.[0]
  console.log(`the model read: ${reason ?? "(no reason)"}`)
  const audit = readFileSync(join(project, ".agent-hooks", "logs", "audit.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { kind: string; event: string; tool: string | null; decision: string | null })
  const call = audit.filter((r) => r.kind === "outcome" && r.event === "PreToolUse").at(-1)
  console.log(`audit: PreToolUse ${call?.tool} ${call?.decision}`)
} finally {
  await closeProjectEngines()
  await model.close()
  rmSync(home, { recursive: true, force: true })
}
