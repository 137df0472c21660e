import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as Effect from "effect/Effect"
import * as References from "effect/References"
import { hook } from "./hook.ts"
import { parseHookArgs } from "./hookArgs.ts"
import { runProgram } from "./program.ts"
import type { EngineLayerOf } from "./program.ts"

/**
 * `agent-hooks hook`, run without loading the full command-line parser (an agent calls it once per
 * event). A command line it cannot read blocks: exit 2 with the reason on stderr. `--help` goes to
 * the full parser.
 *
 * @internal
 */
export const main = async (argv: ReadonlyArray<string>, engineLayer: EngineLayerOf | undefined): Promise<void> => {
  const parsed = parseHookArgs(argv)
  if (parsed === "help") return (await import("./cliProgram.ts")).main(engineLayer)
  if ("error" in parsed) {
    process.stderr.write(`agent-hooks hook: ${parsed.error}; the call is blocked until the hook command in the agent's config is fixed (agent-hooks hook --help)\n`)
    process.exitCode = 2
    return
  }
  const { logLevel, options } = parsed
  runProgram(
    hook(options).pipe(
      Effect.provide(NodeStdio.layer),
      // --log-level, as the full parser's global flag sets it
      logLevel === undefined ? (effect) => effect : Effect.provideService(References.MinimumLogLevel, logLevel)
    ),
    engineLayer
  )
}
