import * as HookEngine from "@agent-hooks/core/HookEngine"
import * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import type * as HookError from "@agent-hooks/core/HookError"
// Cedar's Node build runs on Bun: the Node package's runtime, written once
import { cedarRuntime as cedar } from "@agent-hooks/node/NodeCedar"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as Layer from "effect/Layer"
import * as BunProcessSpawner from "../BunProcessSpawner.ts"
import type { BunEngineOptions } from "../BunHookEngine.ts"

/** @internal */
export const layer = (options: BunEngineOptions = {}): Layer.Layer<HookEngine.HookEngine, HookError.HookError> =>
  HookEngine.layer({ ...options, cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env, cedar: options.cedar ?? cedar }).pipe(
    Layer.provide(Layer.mergeAll(BunProcessSpawner.layer, NodeFileSystem.layer, NodePath.layer))
  )

/** @internal */
export const createHookEngine = (options: BunEngineOptions = {}): Promise<PromiseEngine.PromiseHookEngine> =>
  // A warning is never silent: the host's onWarning, else the console; the engine says so
  // (reportsWarnings), so that a host printing the outcomes' warnings does not say them twice.
  PromiseEngine.fromLayer(layer({ ...options, onWarning: options.onWarning ?? PromiseEngine.warnToConsole }), { reportsWarnings: true })
