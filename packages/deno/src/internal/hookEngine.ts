import * as HookEngine from "@agent-hooks/core/HookEngine"
import * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import type * as HookError from "@agent-hooks/core/HookError"
// Cedar's Node build runs on Deno (node:fs): the Node package's runtime, written once
import { cedarRuntime as cedar } from "@agent-hooks/node/NodeCedar"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as Layer from "effect/Layer"
import type { DenoEngineOptions } from "../DenoHookEngine.ts"
import { denoOrDie } from "./denoApi.ts"
import * as DenoProcessSpawner from "./processSpawner.ts"

/** @internal */
export const layer = (options: DenoEngineOptions = {}): Layer.Layer<HookEngine.HookEngine, HookError.HookError> => {
  const api = denoOrDie()
  return HookEngine.layer({
    ...options,
    cwd: options.cwd ?? api.cwd(),
    env: options.env ?? api.env.toObject(),
    cedar: options.cedar ?? cedar
  }).pipe(
    // The file system of @effect/platform-node-shared runs on Deno's node:fs.
    Layer.provide(Layer.mergeAll(DenoProcessSpawner.layer, NodeFileSystem.layer, NodePath.layer))
  )
}

/** @internal */
export const createHookEngine = (options: DenoEngineOptions = {}): Promise<PromiseEngine.PromiseHookEngine> =>
  // A warning is never silent: the host's onWarning, else the console; the engine says so
  // (reportsWarnings), so that a host printing the outcomes' warnings does not say them twice.
  PromiseEngine.fromLayer(layer({ ...options, onWarning: options.onWarning ?? PromiseEngine.warnToConsole }), { reportsWarnings: true })
