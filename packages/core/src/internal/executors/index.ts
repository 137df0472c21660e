/**
 * Runs one planned hook with the executor of its handler type, each given only the capabilities it
 * needs: the spawner (command), fetch and the allowlists (http), the model (prompt, agent), the MCP
 * caller (mcp_tool). A hook that policy refuses never starts: its run says why.
 */
import * as Effect from "effect/Effect"
import type { CedarRuntime, McpCaller, ModelCaller } from "../../Capabilities.ts"
import type { PlannedHook } from "../../Plan.ts"
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

/** @internal */
export const execute = (hook: PlannedHook, ctx: ExecContext, caps: Capabilities): Effect.Effect<Executed, never, ProcessSpawner> => {
  if (hook.refusal !== undefined)
    return Effect.succeed({ run: makeRun({ exitCode: null, stderr: hook.refusal, spawnError: hook.refusal }) })
  // A trusted project hook runs the approved copies of the files it names, never the files as they are now.
  const handler = hook.entry.pinned ?? hook.entry.handler
  switch (handler.type) {
    case "command":
      return command(handler, ctx)
    case "http":
      return http(handler, ctx, caps)
    case "prompt":
    case "agent":
      return prompt(handler, ctx, caps.model)
    case "mcp_tool":
      return mcpTool(handler, ctx, caps.mcp)
    case "module":
      return module(handler, ctx)
    case "cedar":
      return cedar(handler, ctx, caps.cedar)
    case "callback":
      return callback(handler, ctx)
  }
}
