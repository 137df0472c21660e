/**
 * The `agent-hooks` program (loaded by `bin.ts`): parses the command line, runs the command with the Node
 * services, and exits with the status `ExitCode` decides (0, 2 when blocked, 1 on failure).
 *
 * It runs on Node (`node dist/bin.js`), Bun (`bun dist/bin.js`) and Deno
 * (`deno run -A dist/bin.js`). Hooks are spawned with the runtime's own API: under Bun the
 * engine of `@agent-hooks/bun` (`Bun.spawn`, imported only there), elsewhere the engine of
 * `@agent-hooks/node` (`node:child_process`; under Deno that is as fast as `Deno.Command` once
 * the hook gets its own process group, see docs/runtimes.md).
 *
 * @since 0.1.0
 */
import * as NodeChildProcessSpawner from "@effect/platform-node-shared/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as NodeTerminal from "@effect/platform-node-shared/NodeTerminal"
import { Effect, Layer, Logger } from "effect"
import { Command } from "effect/cli"
import { cli } from "./Cli.ts"
import * as ExitCode from "./ExitCode.ts"
import { EngineLayer } from "./internal/engine.ts"
import { presenter } from "./internal/presenter.ts"
import { runMain } from "./internal/signals.ts"
import { version } from "./internal/version.ts"


const MainLayer = Layer.mergeAll(
  Layer.provideMerge(
    NodeChildProcessSpawner.layer,
    Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeStdio.layer, NodeTerminal.layer)
  ),
  presenter
)

// Under Bun, hooks are spawned with Bun.spawn (see docs/runtimes.md); the module is not loaded
// elsewhere. `@agent-hooks/bun` is an optional peer of the CLI: when it is not installed, Bun runs
// the Node engine (node:child_process, which Bun implements).
const loadBunEngine = async () => {
  try {
    return (await import("@agent-hooks/bun")).BunHookEngine.layer
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" || /Cannot find (module|package)/.test(String(error))) {
      return undefined
    }
    throw error
  }
}
const engineLayer = typeof process.versions.bun === "string" ? await loadBunEngine() : undefined

Command.run(cli, { version }).pipe(
  ExitCode.run,
  engineLayer === undefined ? (effect) => effect : Effect.provideService(EngineLayer, engineLayer),
  Effect.provide(MainLayer),
  // stdout holds the Outcome (run) or protocol lines (serve): Effect's own log lines go to stderr
  Effect.provideService(Logger.LogToStderr, true),
  (effect) => runMain(effect, { disableErrorReporting: true, teardown: ExitCode.teardown })
)
