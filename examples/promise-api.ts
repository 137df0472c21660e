/**
 * The Promise facade: build the engine from a settings file, dispatch one event, read the Outcome.
 *
 *   node examples/promise-api.ts
 */
import { createHookEngine } from "@agent-hooks/node"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const project = dirname(fileURLToPath(import.meta.url))

const engine = await createHookEngine({ settings: [join(project, "hooks.json")], projectDir: project })
try {
  const outcome = await engine.dispatch("PreToolUse", {
    cwd: project,
    tool_name: "Bash",
    tool_input: { command: "rm -rf /" }
  })
  if (outcome.blocked) console.log(`blocked (${outcome.decision}): ${outcome.reason?.trim()}`)
  else console.log("allowed")
} finally {
  await engine.close()
}
