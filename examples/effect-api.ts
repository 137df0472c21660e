/**
 * The Effect API: the `HookEngine` service, provided by `NodeHookEngine.layer`.
 *
 *   node examples/effect-api.ts
 */
import { HookEngine } from "@agent-hooks/core"
import { NodeHookEngine } from "@agent-hooks/node"
import { Console, Effect } from "effect"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const project = dirname(fileURLToPath(import.meta.url))

const program = Effect.gen(function* () {
  const engine = yield* HookEngine.HookEngine
  const outcome = yield* engine.dispatch("PreToolUse", {
    cwd: project,
    tool_name: "Bash",
    tool_input: { command: "git push --force origin main" }
  })
  yield* Console.log(outcome.blocked ? `blocked (${outcome.decision}): ${outcome.reason?.trim()}` : "allowed")
})

Effect.runPromise(
  program.pipe(Effect.provide(NodeHookEngine.layer({ settings: [join(project, "hooks.json")], projectDir: project })))
).catch((error: unknown) => {
  // Engine failures (a settings file that cannot be read or decoded) reject with a readable message.
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
