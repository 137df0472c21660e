/** The `mcp_tool` executor: a tool of an MCP server, called through the host. */
import type * as Effect from "effect/Effect"
import type { McpCaller } from "../../Capabilities.ts"
import * as Placeholder from "../../Placeholder.ts"
import type { McpToolHandler } from "../../SettingsModel.ts"
import type { ExecContext, Executed } from "./context.ts"
import { inProcess, notRun, placeholderValues } from "./context.ts"

/** @internal */
export const mcpTool = (handler: McpToolHandler, ctx: ExecContext, mcp: McpCaller | undefined): Effect.Effect<Executed> => {
  if (mcp === undefined) return notRun(`MCP server ${handler.server} is not connected (pass options.mcp to the engine)`)
  const values = placeholderValues(ctx)
  const input: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(handler.input ?? {})) {
    input[key] = typeof value === "string" ? Placeholder.expandText(value, values) : value
  }
  return inProcess(ctx.timeout, async (signal) => {
    const result = await mcp({ server: handler.server, tool: handler.tool, input, signal })
    const text = result.content
      .filter((part) => part.type === "text")
      .map((part) => part.text ?? "")
      .join("")
    return result.isError === true
      ? { exitCode: 1, stderr: text === "" ? "the MCP tool reported an error" : text }
      : { exitCode: 0, stdout: text }
  })
}
