/**
 * The LangChain run's trace is the parent of the hooks' spans: a real engine with telemetry on runs
 * a real hook process, which reads the TRACEPARENT it was given (its own span, in the run's trace).
 */
import { AsyncLocalStorage } from "node:async_hooks"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { AIMessage, HumanMessage } from "@langchain/core/messages"
import { createAgent, fakeModel } from "langchain"
import { afterEach, describe, expect, it } from "vitest"
import { createHookEngine } from "@agent-hooks/node"
import { hooksMiddleware } from "@agent-hooks/langchain-adapter"
import { bashTool, settingsFile } from "./helpers.ts"

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A collector that takes whatever it is sent (the spans are not what these tests read). */
const collector = async (): Promise<string> => {
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => res.end(""))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/**
 * An agent whose one Bash call runs a PreToolUse hook that writes the TRACEPARENT it was given;
 * the engine has telemetry on, and `env` (an incoming TRACEPARENT, perhaps).
 */
const tracedAgent = async (env: Record<string, string> = {}) => {
  const { dir, file } = settingsFile({
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `printf '%s' "$TRACEPARENT" > seen.txt` }] }]
  })
  const engine = await createHookEngine({
    settings: [file],
    projectDir: dir,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: await collector(), ...env },
    telemetry: { exportIntervalMs: 60_000 }
  })
  const hooks = hooksMiddleware({ engine, cwd: dir, transcriptDir: join(dir, "t") })
  closers.push(async () => {
    await hooks.close()
    await engine.close()
  })
  const { bash, ran } = bashTool()
  const model = fakeModel()
    .respondWithTools([{ name: "bash", args: { command: "ls" }, id: "call-1" }])
    .respond(new AIMessage("done"))
  const agent = createAgent({ model, tools: [bash], middleware: [hooks] })
  return {
    invoke: (config?: { readonly metadata?: Record<string, unknown> }) => agent.invoke({ messages: [new HumanMessage("list")] }, config),
    /** The hook's TRACEPARENT: trace id and span id. */
    seen: () => {
      const [version, traceId, spanId, flags] = readFileSync(join(dir, "seen.txt"), "utf8").split("-")
      return { version, traceId, spanId, flags }
    },
    ran
  }
}

const runTrace = "0af7651916cd43dd8448eb211c80319c"
const runSpan = "b7ad6b7169203331"

/**
 * The host's OpenTelemetry context, registered where `@opentelemetry/api` registers it (its global
 * and its span context key), with an AsyncLocalStorage context manager as the Node SDK's.
 */
const withOtelSpan = async <A>(traceId: string, spanId: string, f: () => Promise<A>): Promise<A> => {
  const key = Symbol.for("opentelemetry.js.api.1")
  const spanKey = Symbol.for("OpenTelemetry Context Key SPAN")
  const store = new AsyncLocalStorage<ReadonlyMap<symbol, unknown>>()
  const root: ReadonlyMap<symbol, unknown> = new Map()
  const contextOf = (values: ReadonlyMap<symbol, unknown>) => ({ getValue: (k: symbol) => values.get(k) })
  const globals = globalThis as Record<symbol, unknown>
  const before = globals[key]
  globals[key] = { version: "1.9.0", context: { active: () => contextOf(store.getStore() ?? root) } }
  const span = { spanContext: () => ({ traceId, spanId, traceFlags: 1 }) }
  try {
    return await store.run(new Map([[spanKey, span]]), f)
  } finally {
    globals[key] = before
  }
}

describe("the LangChain run's trace is the parent of the hooks' spans", () => {
  it("a traceparent in the run's config metadata: the hook process's TRACEPARENT is its own span in the run's trace", async () => {
    const agent = await tracedAgent()
    await agent.invoke({ metadata: { traceparent: `00-${runTrace}-${runSpan}-01` } })
    expect(agent.ran).toEqual(["ls"])
    const seen = agent.seen()
    expect(seen.traceId).toBe(runTrace)
    // The hook's span is a descendant of the run's span, not that span itself.
    expect(seen.spanId).toMatch(/^[0-9a-f]{16}$/)
    expect(seen.spanId).not.toBe(runSpan)
  })

  it("the active OpenTelemetry span of the run wins over the metadata, and over the engine's incoming TRACEPARENT", async () => {
    const otelTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    const agent = await tracedAgent({ TRACEPARENT: `00-${"1".repeat(32)}-${"2".repeat(16)}-01` })
    await withOtelSpan(otelTrace, "00f067aa0ba902b7", () => agent.invoke({ metadata: { traceparent: `00-${runTrace}-${runSpan}-01` } }))
    expect(agent.seen().traceId).toBe(otelTrace)
  })

  it("a run without a trace (or with a malformed traceparent) keeps the engine's incoming TRACEPARENT as the parent", async () => {
    const incoming = "5" + "a".repeat(31)
    const agent = await tracedAgent({ TRACEPARENT: `00-${incoming}-${"3".repeat(16)}-01` })
    await agent.invoke({ metadata: { traceparent: "00-garbage-01" } })
    expect(agent.seen().traceId).toBe(incoming)
  })
})
