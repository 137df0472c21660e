/**
 * A central policy service for a fleet of agents: it receives the PreToolUse events that every
 * agent's `http` hook posts (the hook's input JSON), applies the team's rule set and answers with
 * Claude Code's hook JSON (`permissionDecision` deny or ask, with the reason). No rule matched:
 * an empty 200 answer, which decides nothing, so the agent's own rules and hooks apply.
 *
 * Node's `http` module only, no framework. Run: `node examples/policy-server/server.ts`
 * (PORT, default 8787; RULES, default rules.json beside this file; POLICY_TOKEN, when set, is the
 * bearer token every request must carry). `GET /v1/decisions` lists what was decided, per agent
 * session, for dashboards and tests.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

/** One team rule: when `tool` (a `|` list of tool names, `*` for all) is called with `field` matching `pattern`. */
export interface Rule {
  readonly id: string
  readonly tool: string
  readonly field: string
  readonly pattern: string
  readonly decision: "deny" | "ask" | "allow"
  readonly reason: string
}

/** What the server decided for one request. */
export interface Decision {
  readonly session: string | null
  readonly tool: string
  readonly rule: string | null
  readonly decision: "deny" | "ask" | "allow" | null
}

export interface PolicyServer {
  readonly url: string
  readonly decisions: ReadonlyArray<Decision>
  readonly close: () => Promise<void>
}

/** A hook input larger than this is refused (413): the payload is the agent's, not the team's. */
const MAX_BODY = 1024 * 1024
/** Claude Code's precedence when several rules match: deny over ask over allow. */
const RANK = { deny: 3, ask: 2, allow: 1 } as const

interface Compiled extends Rule {
  readonly tools: ReadonlySet<string> | "*"
  readonly regex: RegExp
}

/** Reads and checks a rule file; a bad rule stops the server with the rule's place and what is wrong. */
export const loadRules = (file: string): ReadonlyArray<Rule> => {
  const document = JSON.parse(readFileSync(file, "utf8")) as { rules?: unknown }
  if (!Array.isArray(document.rules)) throw new Error(`${file}: expected {"rules": [...]}`)
  return document.rules.map((rule: Record<string, unknown>, index: number) => {
    for (const key of ["id", "tool", "field", "pattern", "reason"] as const) {
      if (typeof rule[key] !== "string")
        throw new Error(`${file} at rules[${index}].${key}: expected a string, got ${JSON.stringify(rule[key])}`)
    }
    if (rule["decision"] !== "deny" && rule["decision"] !== "ask" && rule["decision"] !== "allow") {
      throw new Error(`${file} at rules[${index}].decision: expected "deny", "ask" or "allow", got ${JSON.stringify(rule["decision"])}`)
    }
    return rule as unknown as Rule
  })
}

const compile = (rules: ReadonlyArray<Rule>): ReadonlyArray<Compiled> =>
  rules.map((rule) => ({ ...rule, tools: rule.tool === "*" ? "*" : new Set(rule.tool.split("|")), regex: new RegExp(rule.pattern) }))

/** The strongest decision of the rules that match this tool call, or `undefined`. */
export const decide = (rules: ReadonlyArray<Compiled>, input: Record<string, unknown>): Compiled | undefined => {
  const tool = typeof input["tool_name"] === "string" ? input["tool_name"] : ""
  const toolInput =
    typeof input["tool_input"] === "object" && input["tool_input"] !== null ? (input["tool_input"] as Record<string, unknown>) : {}
  let best: Compiled | undefined
  for (const rule of rules) {
    if (rule.tools !== "*" && !rule.tools.has(tool)) continue
    const value = toolInput[rule.field]
    if (typeof value !== "string" || !rule.regex.test(value)) continue
    if (best === undefined || RANK[rule.decision] > RANK[best.decision]) best = rule
  }
  return best
}

const readBody = (request: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        resolve(undefined)
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const send = (response: ServerResponse, status: number, body: unknown) => {
  const text = body === undefined ? "" : JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

export const startPolicyServer = (options: {
  readonly port?: number
  readonly rules: ReadonlyArray<Rule>
  readonly token?: string | undefined
}): Promise<PolicyServer> => {
  const rules = compile(options.rules)
  const decisions: Array<Decision> = []
  const server = createServer(async (request, response) => {
    try {
      if (options.token !== undefined && options.token !== "" && request.headers.authorization !== `Bearer ${options.token}`) {
        return send(response, 401, { error: "missing or wrong bearer token" })
      }
      if (request.method === "GET" && request.url === "/v1/decisions") return send(response, 200, decisions)
      if (request.method !== "POST" || request.url !== "/v1/pre-tool-use")
        return send(response, 404, { error: "POST /v1/pre-tool-use or GET /v1/decisions" })
      const body = await readBody(request)
      if (body === undefined) return send(response, 413, { error: `hook input over ${MAX_BODY} bytes` })
      let input: unknown
      try {
        input = JSON.parse(body)
      } catch {
        return send(response, 400, { error: "the body is not JSON" })
      }
      if (typeof input !== "object" || input === null || Array.isArray(input))
        return send(response, 400, { error: "the body is not a JSON object" })
      const record = input as Record<string, unknown>
      const rule = decide(rules, record)
      decisions.push({
        session: typeof record["session_id"] === "string" ? record["session_id"] : null,
        tool: typeof record["tool_name"] === "string" ? record["tool_name"] : "",
        rule: rule?.id ?? null,
        decision: rule?.decision ?? null
      })
      if (rule === undefined) return send(response, 200, undefined)
      return send(response, 200, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: rule.decision,
          permissionDecisionReason: `team policy ${rule.id}: ${rule.reason}`
        }
      })
    } catch (error) {
      send(response, 500, { error: String(error) })
    }
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        decisions,
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rulesFile = process.env["RULES"] ?? fileURLToPath(new URL("./rules.json", import.meta.url))
  const server = await startPolicyServer({
    port: Number(process.env["PORT"] ?? 8787),
    rules: loadRules(rulesFile),
    token: process.env["POLICY_TOKEN"]
  })
  console.log(`policy server on ${server.url} with the rules of ${rulesFile}`)
}
