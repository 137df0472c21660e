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
 * `agent-hooks run` in its plain forms (`internal/runArgs.ts`) is run without loading the full
 * command-line parser (`internal/runProgram.ts`): hosts call it once per event, and its start-up is
 * most of what they wait for. Every other command line goes to the full parser (`internal/cliProgram.ts`).
 *
 * @since 0.1.0
 */
import { parseRunArgs } from "./internal/runArgs.ts"

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

const argv = process.argv.slice(2)
const runArgs = parseRunArgs(argv)
// `agent-hooks hook` reads its own command line (a line it cannot read blocks), also without the full parser
// the per-user daemon of `agent-hooks hook`, started by its client (internal/hookClient.ts)
if (argv[0] === "__daemon") await (await import("./internal/hookDaemon.ts")).main(argv[1])
// one of its helpers, for calls at the same time (started by the daemon, answering through it)
else if (argv[0] === "__daemon-worker") (await import("./internal/hookDaemon.ts")).worker()
else if (argv[0] === "hook") await (await import("./internal/hookProgram.ts")).main(argv, engineLayer)
else if (runArgs !== undefined) (await import("./internal/runProgram.ts")).main(runArgs, engineLayer)
else (await import("./internal/cliProgram.ts")).main(engineLayer)
