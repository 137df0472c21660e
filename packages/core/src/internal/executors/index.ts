/**
 * Runs one planned hook with the executor of its handler type, each given only the capabilities it
 * needs: the spawner (command), fetch and the allowlists (http), the model (prompt, agent), the MCP
 * caller (mcp_tool). A hook that policy refuses never starts: its run says why.
 */
import * as Effect from "effect/Effect"
import type { CedarRuntime, McpCaller, ModelCaller } from "../../Capabilities.ts"
import type { PlannedHook } from "../../Plan.ts"
import type { Handler } from "../../SettingsModel.ts"
import type { HandlerTypeName } from "../handlerTypes.ts"
import type { ProcessSpawner } from "../../ProcessSpawner.ts"
import { makeRun } from "../runner.ts"
import { cedar } from "./cedar.ts"
import { command } from "./command.ts"
import type { ExecContext, Executed } from "./context.ts"
import { http } from "./http.ts"
import type { HttpCapabilities } from "./http.ts"
import { mcpTool } from "./mcpTool.ts"
import { callback, module } from "./module.ts"
import { prompt } from "./prompt.ts"

export type { ExecContext, Executed, ModelAnswer } from "./context.ts"
export { MAX_ENV_VALUE_CHARS, MAX_OUTPUT_BYTES } from "./command.ts"

/** What the host gives the executors. @internal */
export interface Capabilities extends HttpCapabilities {
  readonly model: ModelCaller | undefined
  readonly mcp: McpCaller | undefined
  readonly cedar: CedarRuntime | undefined
}

type Executor<H extends Handler> = (handler: H, ctx: ExecContext, caps: Capabilities) => Effect.Effect<Executed, never, ProcessSpawner>

/**
 * The executor of each handler type: every `type` of the settings registry (`handlerSchema.ts`) and
 * the programmatic `callback` (the compiler refuses a type left out).
 */
const executors: { readonly [T in HandlerTypeName | "callback"]: Executor<Extract<Handler, { readonly type: T }>> } = {
  command: (handler, ctx) => command(handler, ctx),
  http: (handler, ctx, caps) => http(handler, ctx, caps),
  prompt: (handler, ctx, caps) => prompt(handler, ctx, caps.model),
  agent: (handler, ctx, caps) => prompt(handler, ctx, caps.model),
  mcp_tool: (handler, ctx, caps) => mcpTool(handler, ctx, caps.mcp),
  module: (handler, ctx) => module(handler, ctx),
  cedar: (handler, ctx, caps) => cedar(handler, ctx, caps.cedar),
  callback: (handler, ctx) => callback(handler, ctx)
}

/** @internal */
export const execute = (hook: PlannedHook, ctx: ExecContext, caps: Capabilities): Effect.Effect<Executed, never, ProcessSpawner> => {
  if (hook.refusal !== undefined)
    return Effect.succeed({ run: makeRun({ exitCode: null, stderr: hook.refusal, spawnError: hook.refusal }) })
  // A trusted project hook runs the approved copies of the files it names, never the files as they are now.
  const handler = hook.entry.pinned ?? hook.entry.handler
  return (executors[handler.type] as Executor<Handler>)(handler, ctx, caps)
}
