import * as HookEngine from "@agent-hooks/core/HookEngine"
import * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as Layer from "effect/Layer"
import * as BunProcessSpawner from "../BunProcessSpawner.ts"
import type { BunEngineOptions } from "../BunHookEngine.ts"

/** @internal */
export const layer = (options: BunEngineOptions = {}): Layer.Layer<HookEngine.HookEngine, HookError.HookError> =>
  HookEngine.layer({ ...options, cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env }).pipe(
    Layer.provide(Layer.mergeAll(BunProcessSpawner.layer, NodeFileSystem.layer, NodePath.layer))
  )

/** @internal */
export const createHookEngine = (options: BunEngineOptions = {}): Promise<PromiseEngine.PromiseHookEngine> =>
  PromiseEngine.fromLayer(layer({ ...options, onWarning: options.onWarning ?? PromiseEngine.warnToConsole }))
