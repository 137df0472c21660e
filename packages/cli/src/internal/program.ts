import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import type * as Layer from "effect/Layer"
import * as ExitCode from "../ExitCode.ts"
import { EngineLayer } from "./engine.ts"
import { runMain } from "./signals.ts"

/** How the engine is built: the Node engine unless the runtime brings its own (Bun). */
export type EngineLayerOf = (options: HookEngine.EngineOptions) => Layer.Layer<HookEngine.HookEngine, HookError.HookError>

/**
 * Runs a command as the process: its failures become the exit status (`ExitCode`: 0, 2 when
 * blocked, 1), Effect's own log lines go to stderr (stdout holds only the Outcome or protocol
 * lines), hooks are spawned by `engineLayer` when given, and a shutdown signal interrupts it.
 *
 * @internal
 */
export const runProgram = (program: Effect.Effect<void, unknown>, engineLayer: EngineLayerOf | undefined): void =>
  program.pipe(
    ExitCode.run,
    engineLayer === undefined ? (effect) => effect : Effect.provideService(EngineLayer, engineLayer),
    Effect.provideService(Logger.LogToStderr, true),
    (effect) => runMain(effect, { disableErrorReporting: true, teardown: ExitCode.teardown })
  )
