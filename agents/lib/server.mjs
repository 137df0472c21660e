// A scripted model server on 127.0.0.1 that speaks what each agent needs:
//   - Anthropic Messages API (Claude Code): POST /v1/messages (SSE or JSON), /v1/messages/count_tokens
//   - OpenAI Chat Completions (Qwen Code): POST /v1/chat/completions (SSE or JSON)
//   - OpenAI Responses API (Codex): POST /v1/responses (SSE)
//   - Gemini API (Gemini CLI): POST /v1beta/models/M:streamGenerateContent?alt=sse, :generateContent,
//     :countTokens; JSON answers for Gemini's router and next-speaker side requests.
//
// The script, the same for every agent: the first time the model sees only the user's prompt, it
// calls the agent's shell tool with `touch MARKER`; once the conversation holds anything after the
// prompt (a tool result, a hook's reason, a Stop hook's continuation), it answers `done`.
// Every request is recorded, so a test can read what the model was sent after its tool call.
//
// The server is also the agents' HTTP(S) proxy: a request for any other host is refused and
// recorded as a stray network attempt (the harness never lets an agent reach the network).
import { createServer } from "node:http"
import { augment, isAugmentPath } from "./augment-server.mjs"

const MARKER_COMMAND = "touch MARKER"

/**
 * The Chat Completions agents' shell tools, the first one a request offers wins: its name, its
 * arguments for a command, and the agent's file-reading tool. Append an agent's here.
 */
const CHAT_SHELL_TOOLS = [
  // Qwen Code
  {
    name: "run_shell_command",
    args: (command) => ({ command, is_background: false, description: "Create the marker file" })
  },
  // Copilot CLI
  { name: "bash", args: (command) => ({ command, description: "Create the marker file" }), read: "view", readArgs: (path) => ({ path }) },
  // Cline CLI
  {
    name: "run_commands",
    args: (command) => ({ commands: [command] }),
    read: "read_files",
    readArgs: (path) => ({ files: [{ path }] })
  },
  // Factory Droid: Execute requires a summary and a risk level
  {
    name: "Execute",
    args: (command) => ({ command, summary: "Create the marker file", riskLevel: "low", riskLevelReason: "creates one empty file" }),
    read: "Read"
  },
  // CodeBuddy Code: Claude Code's names
  { name: "Bash", args: (command) => ({ command, description: "Create the marker file" }), read: "Read" }
]

/**
 * @param {{ command?: string, call?: "shell" | "read", readPath?: string }} [options]
 *   call "read": the model reads `readPath` with the agent's file-reading tool instead (Claude Code
 *   `Read`, Gemini CLI and Qwen Code `read_file`, all with `file_path`).
 */
export async function startModelServer(options = {}) {
  const command = options.command ?? MARKER_COMMAND
  const read = options.call === "read" ? (options.readPath ?? "/dev/null") : null
  /** @type {{ at: number, method: string, url: string, protocol: string, main: boolean, answer: string, body: any }[]} */
  const requests = []
  /** @type {string[]} */
  const stray = []
  let toolCalls = 0

  const server = createServer((req, res) => {
    const chunks = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      let body = null
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        body = raw
      }
      try {
        handle(req, res, body)
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" })
        res.end(JSON.stringify({ error: { message: String(e?.stack ?? e) } }))
      }
    })
  })
  // A proxied HTTPS request (CONNECT host:443): refused and recorded.
  server.on("connect", (req, socket) => {
    // an agent that resets the refused tunnel (Factory Droid, opencode's Bun) must not crash the server
    socket.on("error", () => {})
    stray.push(`CONNECT ${req.url}`)
    // the agent may drop the connection first (Cline CLI does)
    socket.on("error", () => {})
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n")
  })

  const record = (req, protocol, main, answer, body) => {
    requests.push({ at: Date.now(), method: req.method ?? "", url: req.url ?? "", protocol, main, answer, body })
  }

  function handle(req, res, body) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    // A proxied plain-HTTP request carries an absolute URL for another host.
    if (/^https?:\/\//.test(req.url ?? "") && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(req.url ?? "")) {
      stray.push(`${req.method} ${req.url}`)
      res.writeHead(403).end()
      return
    }
    const path = url.pathname
    if (req.method === "GET" || req.method === "HEAD") {
      // Model lists and health checks: an empty, valid answer.
      record(req, "get", false, "empty", null)
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ data: [], models: [], object: "list" }))
      return
    }
    if (path.endsWith("/messages/count_tokens")) {
      record(req, "anthropic", false, "count", body)
      return json(res, { input_tokens: 100 })
    }
    if (path.endsWith("/messages")) return anthropic(req, res, body)
    if (path.endsWith("/chat/completions")) return chat(req, res, body)
    if (path.endsWith("/responses")) return responses(req, res, body)
    const gem = /:(streamGenerateContent|generateContent|countTokens)$/.exec(path)
    if (gem) return gemini(req, res, body, gem[1])
    // Auggie: its service's API, stood in (augment-server.mjs)
    if (isAugmentPath(path)) return augment(req, res, body, path, { decide, record, command, read })
    record(req, "unknown", false, "404", body)
    res.writeHead(404, { "content-type": "application/json" })
    res.end(JSON.stringify({ error: { message: `scripted model server: no route for ${req.method} ${path}` } }))
  }

  /** The script: a tool call the first time, `done` once anything follows the prompt. */
  const decide = (after) => {
    if (after) return "text"
    toolCalls++
    return "tool"
  }

  // ---- Anthropic Messages API ----------------------------------------------------------------
  function anthropic(req, res, body) {
    const tools = Array.isArray(body?.tools) ? body.tools.map((t) => t?.name) : []
    const main = tools.includes("Bash")
    const messages = Array.isArray(body?.messages) ? body.messages : []
    const answer = main ? decide(messages.some((m) => m?.role === "assistant")) : "text"
    record(req, "anthropic", main, answer, body)
    const id = `msg_${requests.length}`
    const model = body?.model ?? "claude-scripted"
    const content =
      answer === "tool"
        ? [
            read === null
              ? {
                  type: "tool_use",
                  id: `toolu_scripted_${requests.length}`,
                  name: "Bash",
                  input: { command, description: "Create the marker file" }
                }
              : { type: "tool_use", id: `toolu_scripted_${requests.length}`, name: "Read", input: { file_path: read } }
          ]
        : [{ type: "text", text: "done" }]
    const stopReason = answer === "tool" ? "tool_use" : "end_turn"
    const usage = { input_tokens: 100, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
    if (!body?.stream) {
      return json(res, { id, type: "message", role: "assistant", model, content, stop_reason: stopReason, stop_sequence: null, usage })
    }
    const events = [
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id,
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...usage, output_tokens: 1 }
          }
        }
      ]
    ]
    const block = content[0]
    if (block.type === "tool_use") {
      events.push(
        [
          "content_block_start",
          { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }
        ],
        [
          "content_block_delta",
          { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }
        ]
      )
    } else {
      events.push(
        ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
        ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: block.text } }]
      )
    }
    events.push(
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }],
      ["message_stop", { type: "message_stop" }]
    )
    sse(res, events)
  }

  // ---- OpenAI Chat Completions -----------------------------------------------------------------
  /** The file-reading call: Qwen Code's `read_file` `file_path`, or `read` with pi's `path` / opencode's `filePath`. */
  const readCall = (tools) => {
    const own = Array.isArray(tools) ? tools.find((t) => t?.function?.name === "read") : undefined
    if (own === undefined) return { name: "read_file", arguments: JSON.stringify({ file_path: read }) }
    const field = own.function?.parameters?.properties?.filePath !== undefined ? "filePath" : "path"
    return { name: "read", arguments: JSON.stringify({ [field]: read }) }
  }

  function chat(req, res, body) {
    const tools = Array.isArray(body?.tools) ? body.tools.map((t) => t?.function?.name) : []
    const shell = CHAT_SHELL_TOOLS.find((t) => tools.includes(t.name))
    const main = shell !== undefined
    const messages = Array.isArray(body?.messages) ? body.messages : []
    const after = messages.some((m) => m?.role === "tool" || m?.role === "assistant")
    const answer = main ? decide(after) : "text"
    record(req, "chat", main, answer, body)
    const id = `chatcmpl-${requests.length}`
    const model = body?.model ?? "scripted"
    const created = Math.floor(Date.now() / 1000)
    const toolCall =
      read === null
        ? {
            id: `call_scripted_${requests.length}`,
            type: "function",
            function: { name: shell?.name, arguments: JSON.stringify(shell?.args(command)) }
          }
        : {
            id: `call_scripted_${requests.length}`,
            type: "function",
            function:
              shell?.read !== undefined && tools.includes(shell.read)
                ? { name: shell.read, arguments: JSON.stringify(shell.readArgs?.(read) ?? { file_path: read }) }
                : readCall(body?.tools)
          }
    const finish = answer === "tool" ? "tool_calls" : "stop"
    const usage = { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 }
    if (!body?.stream) {
      const message =
        answer === "tool" ? { role: "assistant", content: null, tool_calls: [toolCall] } : { role: "assistant", content: "done" }
      return json(res, { id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finish }], usage })
    }
    const chunk = (delta, finishReason, extra = {}) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra
    })
    const events = [
      [
        null,
        chunk(
          answer === "tool" ? { role: "assistant", tool_calls: [{ index: 0, ...toolCall }] } : { role: "assistant", content: "done" },
          null
        )
      ],
      [null, chunk({}, finish, { usage })],
      [null, "[DONE]"]
    ]
    sse(res, events)
  }

  // ---- OpenAI Responses API (Codex) ------------------------------------------------------------
  function responses(req, res, body) {
    const tools = Array.isArray(body?.tools) ? body.tools.map((t) => t?.name ?? t?.type) : []
    const main = tools.length > 0
    const input = Array.isArray(body?.input) ? body.input : []
    const after = input.some((i) => i?.type === "function_call_output" || i?.type === "custom_tool_call_output" || i?.role === "assistant")
    const answer = main ? decide(after) : "text"
    record(req, "responses", main, answer, body)
    const id = `resp_${requests.length}`
    const shell = tools.includes("exec_command") ? "exec_command" : tools.includes("shell") ? "shell" : "exec_command"
    const args = shell === "shell" ? { command: ["bash", "-lc", command] } : { cmd: command }
    const item =
      answer === "tool"
        ? {
            type: "function_call",
            id: `fc_${requests.length}`,
            call_id: `call_scripted_${requests.length}`,
            name: shell,
            arguments: JSON.stringify(args)
          }
        : {
            type: "message",
            id: `msg_${requests.length}`,
            role: "assistant",
            content: [{ type: "output_text", text: "done", annotations: [] }]
          }
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 105
    }
    const events = [
      ["response.created", { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } }],
      ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }]
    ]
    if (answer === "text") {
      events.push([
        "response.output_text.delta",
        { type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta: "done" }
      ])
    }
    events.push(
      ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
      [
        "response.completed",
        { type: "response.completed", response: { id, object: "response", status: "completed", output: [item], usage } }
      ]
    )
    sse(res, events)
  }

  // ---- Gemini API -------------------------------------------------------------------------------
  function gemini(req, res, body, method) {
    if (method === "countTokens") {
      record(req, "gemini", false, "count", body)
      return json(res, { totalTokens: 100 })
    }
    const cfg = body?.generationConfig ?? {}
    const schema = cfg.responseJsonSchema ?? cfg.responseSchema
    const decls = (Array.isArray(body?.tools) ? body.tools : []).flatMap((t) => t?.functionDeclarations ?? []).map((d) => d?.name)
    const main = decls.includes("run_shell_command") && !schema
    const contents = Array.isArray(body?.contents) ? body.contents : []
    const after = contents.some((c) => c?.role === "model" || (c?.parts ?? []).some((p) => p?.functionResponse))
    let parts
    let answer
    if (schema || cfg.responseMimeType === "application/json") {
      // The router's and the next-speaker check's JSON side requests.
      answer = "json"
      parts = [{ text: JSON.stringify(fillSchema(schema ?? {})) }]
    } else if (main) {
      answer = decide(after)
      const call =
        read === null
          ? { name: "run_shell_command", args: { command, description: "Create the marker file" } }
          : { name: "read_file", args: { file_path: read } }
      parts = answer === "tool" ? [{ functionCall: call }] : [{ text: "done" }]
    } else {
      answer = "text"
      parts = [{ text: "done" }]
    }
    record(req, "gemini", main, answer, body)
    const response = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 5, totalTokenCount: 105 },
      modelVersion: "gemini-scripted"
    }
    if (method === "generateContent") return json(res, response)
    sse(res, [[null, response]])
  }

  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", resolve)
  })
  const address = server.address()
  const port = typeof address === "object" && address ? address.port : 0
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    stray,
    /** How many times the model asked for the shell tool. */
    get toolCalls() {
      return toolCalls
    },
    /** Everything the model was sent (main-loop requests) after it first asked for the tool, as text. */
    sentAfterToolCall() {
      const first = requests.findIndex((r) => r.main && r.answer === "tool")
      if (first < 0) return ""
      return requests
        .slice(first + 1)
        .filter((r) => r.main || r.protocol !== "get")
        .map((r) => JSON.stringify(r.body))
        .join("\n")
    },
    /** Everything every main-loop request sent the model, as text. */
    sentToModel() {
      return requests
        .filter((r) => r.main)
        .map((r) => JSON.stringify(r.body))
        .join("\n")
    },
    mainRequests() {
      return requests.filter((r) => r.main).length
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve(undefined))
      })
  }
}

function json(res, value) {
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify(value))
}

/** @param {[string | null, unknown][]} events */
function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" })
  for (const [event, data] of events) {
    const payload = typeof data === "string" ? data : JSON.stringify(data)
    res.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`)
  }
  res.end()
}

/** A value that satisfies a JSON schema well enough for Gemini's side requests. */
function fillSchema(schema) {
  if (!schema || typeof schema !== "object") return "ok"
  const type = String(schema.type ?? "").toLowerCase()
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    // next_speaker: "user" ends the turn; the router's model choice: the first.
    return schema.enum.includes("user") ? "user" : schema.enum[0]
  }
  if (type === "object" || schema.properties) {
    const out = {}
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fillSchema(v)
    return out
  }
  if (type === "array") return []
  if (type === "boolean") return false
  if (type === "number" || type === "integer") return 0
  return "ok"
}
