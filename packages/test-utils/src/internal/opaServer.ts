import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { OpaRequest, OpaServer } from "../OpaServer.ts"

type Input = { readonly tool_name?: unknown; readonly tool_input?: Record<string, unknown> } | undefined

/** The policy of `docs/policy-as-code.md`, rule by rule; `undefined` is an undefined rule. */
const pretooluse = (input: Input): Record<string, unknown> => {
  const deny = new Set<string>()
  const command = input?.tool_input?.["command"]
  if (input?.tool_name === "Bash" && typeof command === "string" && command.includes("rm -rf"))
    deny.add(`rm -rf is not allowed: ${command}`)
  const path = input?.tool_input?.["file_path"]
  if ((input?.tool_name === "Write" || input?.tool_name === "Edit") && typeof path === "string" && /(^|\/)\.git\//.test(path))
    deny.add(`no writes under .git/: ${path}`)
  const denied = [...deny].sort() // a Rego set is serialized as a sorted array
  const allow = denied.length === 0
  const document: Record<string, unknown> = { deny: denied, allow, decision: { allow, deny: denied }, version: "1" }
  if (input?.tool_name === "Read") document["allow_read"] = true
  return document
}

/** The data document at a path, or undefined: OPA's `GET/POST /v1/data/{path}` lookup. */
const lookup = (segments: ReadonlyArray<string>, input: Input): unknown => {
  let value: unknown = { agent_hooks: { pretooluse: pretooluse(input) } }
  for (const segment of segments) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, segment)) return undefined
    value = (value as Record<string, unknown>)[segment]
  }
  return value
}

export const start = async (): Promise<OpaServer> => {
  const requests: Array<OpaRequest> = []
  const server = createServer((req, res) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (text += chunk))
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(body))
      }
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      let body: unknown
      if (text.trim() !== "") {
        try {
          body = JSON.parse(text)
        } catch (error) {
          return reply(400, { code: "invalid_parameter", message: `body contains malformed input document: ${String(error)}` })
        }
      }
      requests.push({ method: req.method ?? "", path: url.pathname, body })
      if (!url.pathname.startsWith("/v1/data")) return reply(404, { code: "resource_not_found", message: "unknown path" })
      if (req.method !== "POST" && req.method !== "GET") return reply(405, { code: "method_not_allowed", message: req.method })
      const segments = url.pathname
        .slice("/v1/data".length)
        .split("/")
        .filter((s) => s !== "")
        .map(decodeURIComponent)
      const input = typeof body === "object" && body !== null ? (body as { input?: Input }).input : undefined
      const result = lookup(segments, input)
      // The Data API leaves "result" out when the document is undefined.
      return reply(200, result === undefined ? {} : { result })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    // a client's keep-alive connection would hold close() open (Deno's node:http waits for it): ended here
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
