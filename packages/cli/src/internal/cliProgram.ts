import * as NodeChildProcessSpawner from "@effect/platform-node-shared/NodeChildProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as NodeTerminal from "@effect/platform-node-shared/NodeTerminal"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Command from "effect/cli/Command"
import { cli } from "../Cli.ts"
import { presenter } from "./presenter.ts"
import { runProgram } from "./program.ts"
import type { EngineLayerOf } from "./program.ts"
import { version } from "./version.ts"

const MainLayer = Layer.mergeAll(
  Layer.provideMerge(
    NodeChildProcessSpawner.layer,
    Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeStdio.layer, NodeTerminal.layer)
  ),
  presenter
)

/**
 * The whole command line, parsed by effect/cli (`Cli.ts`): every command, help, version,
 * completions and the global flags.
 *
 * @internal
 */
export const main = (engineLayer: EngineLayerOf | undefined): void =>
  runProgram(Command.run(cli, { version }).pipe(Effect.provide(MainLayer)), engineLayer)
