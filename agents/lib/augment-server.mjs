// A loopback stand-in of Augment's service, enough for one Auggie turn (agents/README.md; read from
// @augmentcode/auggie 0.36.0's bundle). Auggie has no custom model setting: its model calls go to the
// service named by the login session's `tenantURL` (AUGMENT_SESSION_AUTH), which the model server
// answers here:
//   POST /get-models    the models, and the feature flag `enable_hooks` (hooks are off without it)
//   POST /chat-stream   newline-delimited JSON chunks {text, nodes, stop_reason}: first a tool-use
//                       node (type 5) for `launch-process` (or `view`, to read), its required input
//                       filled from the tool's input_schema_json; once the request carries a
//                       tool_result_node, the text `done` and END_TURN
//   anything else       {} (MCP configs, remote tools, events, error reports)

/** Auggie's stop reasons (its proto enum). */
const END_TURN = 1
const TOOL_USE_REQUESTED = 3

/** A path of Augment's API (no other agent's: those are /v1*, /v1beta*, /api/*). */
export const isAugmentPath = (path) => !/^\/(v1|v1beta|api)(\/|$)/.test(path)

/** A value of a JSON schema's type, for the required fields the script does not set. */
const fill = (schema) => {
  const type = String(schema?.type ?? "string").toLowerCase()
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0]
  if (type === "boolean") return true
  if (type === "integer" || type === "number") return 30
  if (type === "array") return []
  if (type === "object") return {}
  return "Create the marker file"
}

/** The input of `tool` for the script's `fields`, with every other required field filled. */
const inputFor = (definitions, tool, fields) => {
  const definition = definitions.find((d) => d?.name === tool)
  let schema = {}
  try {
    schema = JSON.parse(definition?.input_schema_json ?? "{}")
  } catch {}
  const input = {}
  for (const name of schema.required ?? []) input[name] = fill(schema.properties?.[name])
  return { ...input, ...fields }
}

/** Whether the request carries a tool's result (the model has called its tool already). */
const hasToolResult = (body) => {
  const nodes = [...(body?.nodes ?? []), ...(body?.chat_history ?? []).flatMap((h) => h?.request_nodes ?? [])]
  return nodes.some((n) => n?.tool_result_node !== undefined && n?.tool_result_node !== null)
}

/**
 * Answers one request of Augment's API.
 * @param {{ decide: (after: boolean) => "tool" | "text", record: Function, command: string, read: string | null }} ctx
 */
export function augment(req, res, body, path, ctx) {
  if (path === "/get-models") {
    ctx.record(req, "augment", false, "models", body)
    return send(res, {
      default_model: "scripted-model",
      models: [{ name: "scripted-model", suggested_prefix_char_count: 0, suggested_suffix_char_count: 0 }],
      feature_flags: { enable_hooks: true }
    })
  }
  if (path === "/chat-stream") {
    const definitions = Array.isArray(body?.tool_definitions) ? body.tool_definitions : []
    const main = definitions.some((d) => d?.name === "launch-process")
    const answer = main ? ctx.decide(hasToolResult(body)) : "text"
    ctx.record(req, "augment", main, answer, body)
    const chunks =
      answer === "tool"
        ? [
            {
              text: "",
              nodes: [
                {
                  id: 1,
                  type: 5,
                  content: "",
                  tool_use:
                    ctx.read === null
                      ? {
                          tool_use_id: `toolu_scripted_${Date.now()}`,
                          tool_name: "launch-process",
                          input_json: JSON.stringify(inputFor(definitions, "launch-process", { command: ctx.command, cwd: "." }))
                        }
                      : {
                          tool_use_id: `toolu_scripted_${Date.now()}`,
                          tool_name: "view",
                          input_json: JSON.stringify(inputFor(definitions, "view", { path: ctx.read, type: "file" }))
                        }
                }
              ],
              stop_reason: TOOL_USE_REQUESTED
            }
          ]
        : [
            { text: "done", nodes: [{ id: 1, type: 0, content: "done" }] },
            { text: "", nodes: [], stop_reason: END_TURN }
          ]
    res.writeHead(200, { "content-type": "application/json" })
    for (const chunk of chunks) res.write(`${JSON.stringify(chunk)}\n`)
    res.end()
    return
  }
  ctx.record(req, "augment", false, "empty", body)
  return send(res, {})
}

function send(res, value) {
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify(value))
}
