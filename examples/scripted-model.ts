/**
 * A scripted OpenAI-compatible model on 127.0.0.1 for the offline examples: each request gets the
 * next answer of the script (a tool call or a text), streamed or not, and every request is kept so
 * that an example can show what the model was told. Point a real provider's `baseURL` here.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export type Turn = { readonly tool: string; readonly args: Record<string, unknown> } | { readonly text: string }

export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string
  /** The request bodies, in order. */
  readonly requests: Array<{ readonly messages: Array<{ role: string; content: unknown }> }>
  readonly close: () => Promise<void>
}

export const scriptedModel = async (script: ReadonlyArray<Turn>): Promise<ScriptedModel> => {
  const requests: ScriptedModel["requests"] = []
  let next = 0
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}")
      requests.push(body)
      const turn = script[Math.min(next++, script.length - 1)]!
      const id = `call_${next}`
      const message =
        "tool" in turn
          ? {
              role: "assistant",
              content: null,
              tool_calls: [{ id, type: "function", function: { name: turn.tool, arguments: JSON.stringify(turn.args) } }]
            }
          : { role: "assistant", content: turn.text }
      const finish = "tool" in turn ? "tool_calls" : "stop"
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
      const base = { id: `chatcmpl-${next}`, created: 0, model: "scripted" }
      if (body.stream !== true) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage }))
        return
      }
      const delta = "tool" in turn ? { role: "assistant", tool_calls: [{ index: 0, ...message.tool_calls![0] }] } : message
      const events = [
        { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }] },
        { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: finish }], usage }
      ]
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.end(`${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("")}data: [DONE]\n\n`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
