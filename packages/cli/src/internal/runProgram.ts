import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as Effect from "effect/Effect"
import * as References from "effect/References"
import { runProgram } from "./program.ts"
import type { EngineLayerOf } from "./program.ts"
import { run } from "./run.ts"
import type { RunArgs } from "./runArgs.ts"

/**
 * `agent-hooks run` read by `parseRunArgs`, run without loading the full command-line parser: the
 * same command (`internal/run.ts`), the same services it needs (stdio), the same exit status and
 * stderr lines; `--log-level` sets the minimum log level as the full parser's global flag does.
 *
 * @internal
 */
export const main = ({ logLevel, options }: RunArgs, engineLayer: EngineLayerOf | undefined): void =>
  runProgram(
    run(options).pipe(
      Effect.provide(NodeStdio.layer),
      logLevel === undefined ? (effect) => effect : Effect.provideService(References.MinimumLogLevel, logLevel)
    ),
    engineLayer
  )
