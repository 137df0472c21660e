import * as HookEngine from "@agent-hooks/core/HookEngine"
import * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as Layer from "effect/Layer"
import { realpathSync } from "node:fs"
import * as NodeProcessSpawner from "../NodeProcessSpawner.ts"
import { cedarRuntime } from "./cedar.ts"
import type { NodeEngineOptions } from "../NodeHookEngine.ts"

/** Permission rules on paths judge the file a link leads to: the path with its links resolved, when it exists. */
const realpath = (path: string): string | undefined => {
  try {
    return realpathSync.native(path)
  } catch {
    return undefined
  }
}

/** @internal */
export const layer = (options: NodeEngineOptions = {}): Layer.Layer<HookEngine.HookEngine, HookError.HookError> =>
  HookEngine.layer({
    ...options,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    cedar: options.cedar ?? cedarRuntime,
    realpath: options.realpath ?? realpath
  }).pipe(Layer.provide(Layer.mergeAll(spawner(options.spawnHelper), NodeFileSystem.layer, NodePath.layer)))

// Suspended: a bad option fails the engine's creation (a rejected createHookEngine), not the call that builds the layer.
const spawner = (helper: NodeEngineOptions["spawnHelper"]) =>
  Layer.suspend(() => {
    if (helper === true) return NodeProcessSpawner.helperLayer
    if (helper === false) return NodeProcessSpawner.layer
    if (helper === undefined || helper === "auto") return NodeProcessSpawner.autoLayer()
    const { use, runtime, executable } = helper
    if (use !== undefined && use !== true && use !== "auto")
      throw new Error(`spawnHelper.use: expected true or "auto", got ${JSON.stringify(use)}`)
    return use === true
      ? NodeProcessSpawner.helperLayerWith({ runtime, executable })
      : NodeProcessSpawner.autoLayer(undefined, { runtime, executable })
  })

/** @internal */
export const createHookEngine = (options: NodeEngineOptions = {}): Promise<PromiseEngine.PromiseHookEngine> =>
  // A warning is never silent: the host's onWarning, else the console; the engine says so
  // (reportsWarnings), so that a host printing the outcomes' warnings does not say them twice.
  PromiseEngine.fromLayer(layer({ ...options, onWarning: options.onWarning ?? PromiseEngine.warnToConsole }), { reportsWarnings: true })
