/**
 * Telemetry against a local OTLP/HTTP receiver (test-utils' OtlpReceiver decodes the protobuf or
 * JSON that Effect's exporters post): spans, attributes, counters, the standard OTEL_* variables,
 * and a collector that fails.
 */
import { describe, expect, it } from "vitest"
import { Effect, Exit, Scope } from "effect"
import { Telemetry } from "@agent-hooks/core"
import { createHookEngine } from "@agent-hooks/node"
import { readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"
import { OtlpReceiver } from "@agent-hooks/test-utils"

const cleanups = Cleanups.register("agent-hooks-otel-")
const receiver = OtlpReceiver.register()

/** One dispatch with two hooks, in telemetry made from `env`; the scope is closed (flushed) at the end. */
const dispatchOnce = (env: Record<string, string>, options?: Telemetry.TelemetryOptions | false) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const telemetry = yield* Telemetry.make(env, options).pipe(Scope.provide(scope))
      const hook = (command: string, exitCode: number) =>
        telemetry.hook(
          { event: "PreToolUse", matcher: "Bash", command, type: "command", source: "/p/.agent-hooks/settings.json" },
          Effect.succeed({
            exitCode,
            status: exitCode === 2 ? ("blocking-error" as const) : ("success" as const),
            decision: exitCode === 2 ? ("deny" as const) : null,
            durationMs: 12.5,
            timedOut: false
          }),
          (run) => run
        )
      const outcome = yield* telemetry.dispatch(
        { event: "PreToolUse", matcher: "Bash" },
        Effect.map(Effect.all([hook("./guard.sh", 2), hook("./log.sh", 0)], { concurrency: "unbounded" }), (runs) => ({
          blocked: true,
          decision: "deny" as const,
          hooks: runs.length
        })),
        (result) => result
      )
      yield* Scope.close(scope, Exit.void)
      return { outcome, enabled: telemetry.enabled }
    })
  )

describe("Telemetry over OTLP/HTTP", () => {
  it("sends a span per dispatch and a child span per hook, with their attributes (protobuf)", async () => {
    const otlp = await receiver()
    const { outcome, enabled } = await dispatchOnce({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: "ci-agents",
      OTEL_RESOURCE_ATTRIBUTES: "team=platform,host.name=runner-7"
    })
    expect(enabled).toBe(true)
    expect(outcome).toEqual({ blocked: true, decision: "deny", hooks: 2 })
    await otlp.waitFor((r) => r.spans.length >= 3)
    expect(otlp.requests.find((request) => request.path === "/v1/traces")?.contentType).toBe("application/x-protobuf")
    const root = otlp.spans.find((span) => span.name === "agent-hooks PreToolUse")!
    expect(root.parentSpanId).toBe("")
    expect(root.attributes).toMatchObject({
      "agent_hooks.event": "PreToolUse",
      "agent_hooks.matcher": "Bash",
      "agent_hooks.blocked": true,
      "agent_hooks.decision": "deny",
      "agent_hooks.hooks": 2
    })
    expect(root.resource).toMatchObject({ "service.name": "ci-agents", team: "platform", "host.name": "runner-7" })
    const children = otlp.spans.filter((span) => span.parentSpanId === root.spanId)
    expect(children.map((span) => span.attributes["agent_hooks.hook.command"]).sort()).toEqual(["./guard.sh", "./log.sh"])
    expect(children.every((span) => span.traceId === root.traceId)).toBe(true)
    expect(children.find((span) => span.attributes["agent_hooks.hook.command"] === "./guard.sh")!.attributes).toMatchObject({
      "agent_hooks.event": "PreToolUse",
      "agent_hooks.matcher": "Bash",
      "agent_hooks.hook.type": "command",
      "agent_hooks.hook.source": "/p/.agent-hooks/settings.json",
      "agent_hooks.hook.exit_code": 2,
      "agent_hooks.hook.status": "blocking-error",
      "agent_hooks.hook.decision": "deny",
      "agent_hooks.hook.duration_ms": 12.5,
      "agent_hooks.hook.timed_out": false
    })
    await otlp.waitFor((r) => r.points.some((point) => point.metric === "agent_hooks.decisions"))
    expect(otlp.points.find((point) => point.metric === "agent_hooks.decisions")).toMatchObject({
      attributes: { event: "PreToolUse", decision: "deny" },
      value: 1
    })
    // Cumulative counters: a series may be sent more than once (each export sends its current value).
    const runs = otlp.points.filter((point) => point.metric === "agent_hooks.hook_runs")
    expect([...new Set(runs.map((point) => `${point.attributes["status"]}=${point.value}`))].sort()).toEqual([
      "blocking-error=1",
      "success=1"
    ])
  })

  it("honours OTEL_EXPORTER_OTLP_PROTOCOL=http/json and OTEL_EXPORTER_OTLP_HEADERS", async () => {
    const otlp = await receiver()
    await dispatchOnce({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "x-team-token=s%20cret,x-other=1",
      OTEL_METRICS_EXPORTER: "none"
    })
    await otlp.waitFor((r) => r.spans.length >= 3)
    const traces = otlp.requests.find((request) => request.path === "/v1/traces")!
    expect(traces.contentType).toContain("application/json")
    expect(traces.headers["x-team-token"]).toBe("s cret")
    expect(otlp.spans.map((span) => span.name).sort()).toEqual([
      "agent-hooks PreToolUse",
      "agent-hooks hook command",
      "agent-hooks hook command"
    ])
    expect(otlp.requests.some((request) => request.path === "/v1/metrics")).toBe(false)
  })

  it("an engine option endpoint works without the environment, and false turns it off", async () => {
    const otlp = await receiver()
    await dispatchOnce({}, { endpoint: otlp.url, serviceName: "from-option" })
    await otlp.waitFor((r) => r.spans.length >= 3)
    expect(otlp.spans[0]!.resource["service.name"]).toBe("from-option")
    const off = await receiver()
    const { enabled } = await dispatchOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: off.url }, false)
    expect(enabled).toBe(false)
  })

  it("is off without an endpoint, and with OTEL_SDK_DISABLED", () => {
    expect(Telemetry.settingsFrom({}, undefined)).toEqual({
      disabled: "no OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or the telemetry option)"
    })
    expect(Telemetry.settingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318", OTEL_SDK_DISABLED: "true" }, undefined)).toEqual({
      disabled: "OTEL_SDK_DISABLED is true"
    })
    expect(Telemetry.settingsFrom({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://x:4318/custom" }, undefined)).toMatchObject({
      traces: "http://x:4318/custom",
      metrics: undefined
    })
  })

  it("a collector that fails or is not there never changes the dispatch", async () => {
    const failing = await receiver({ status: 503 })
    const { outcome } = await dispatchOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: failing.url })
    expect(outcome).toEqual({ blocked: true, decision: "deny", hooks: 2 })
    // Nothing listens on port 9 of this machine (discard): the export fails to connect.
    const { outcome: again } = await dispatchOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" })
    expect(again).toEqual({ blocked: true, decision: "deny", hooks: 2 })
  })
})

describe("Telemetry in the engine", () => {
  it("traces a dispatch with real hook processes, flushed when the engine closes", async () => {
    const otlp = await receiver()
    const dir = cleanups.tempDir()
    const blockRm = fileURLToPath(new URL("./fixtures/block-rm.sh", import.meta.url))
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: `sh ${blockRm}` },
                { type: "command", command: "sleep 5", timeout: 0.2 }
              ]
            }
          ]
        }
      })
    )
    // A long export interval: only the flush on close can deliver the spans in time.
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url },
      telemetry: { exportIntervalMs: 60_000 }
    })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })
    expect(outcome.blocked).toBe(true)
    await engine.close()
    await otlp.waitFor((r) => r.spans.length >= 3)
    const root = otlp.spans.find((span) => span.name === "agent-hooks PreToolUse")!
    expect(root.attributes).toMatchObject({
      "agent_hooks.blocked": true,
      "agent_hooks.decision": "deny",
      "agent_hooks.hooks": 2,
      "agent_hooks.matcher": "Bash"
    })
    const hooks = otlp.spans.filter((span) => span.parentSpanId === root.spanId)
    expect(hooks.find((span) => span.attributes["agent_hooks.hook.command"] === `sh ${blockRm}`)!.attributes).toMatchObject({
      "agent_hooks.hook.exit_code": 2,
      "agent_hooks.hook.status": "blocking-error",
      "agent_hooks.hook.source": file,
      "agent_hooks.hook.timed_out": false
    })
    expect(hooks.find((span) => span.attributes["agent_hooks.hook.command"] === "sleep 5")!.attributes).toMatchObject({
      "agent_hooks.hook.status": "cancelled",
      "agent_hooks.hook.timed_out": true
    })
    expect(otlp.points.find((point) => point.metric === "agent_hooks.hook_failures")).toMatchObject({
      attributes: { event: "PreToolUse", status: "cancelled" },
      value: 1
    })
  })
})

describe("Trace context: hooks join the agent's trace", () => {
  /** An engine whose one PreToolUse hook writes the TRACEPARENT and TRACESTATE it was given to a file. */
  const tracedEngine = async (env: Record<string, string>) => {
    const otlp = await receiver()
    const dir = cleanups.tempDir()
    const seen = join(dir, "seen.txt")
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: `printf '%s|%s' "$TRACEPARENT" "\${TRACESTATE-unset}" > '${seen}'` }] }
          ]
        }
      })
    )
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, ...env },
      telemetry: { exportIntervalMs: 60_000 }
    })
    await engine.dispatch("PreToolUse", {
      session_id: "conv-42",
      tool_name: "Bash",
      tool_use_id: "toolu_01",
      tool_input: { command: "ls" }
    })
    await engine.close()
    await otlp.waitFor((r) => r.spans.length >= 2)
    const root = otlp.spans.find((span) => span.name === "agent-hooks PreToolUse")!
    const hook = otlp.spans.find((span) => span.name === "agent-hooks hook command")!
    const [traceparent, tracestate] = readFileSync(seen, "utf8").split("|")
    return { root, hook, traceparent, tracestate }
  }
  const incomingTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
  const incomingSpan = "00f067aa0ba902b7"

  it("an incoming TRACEPARENT is the dispatch span's parent; the hook process gets TRACEPARENT of its own span and the TRACESTATE", async () => {
    const { root, hook, traceparent, tracestate } = await tracedEngine({
      TRACEPARENT: `00-${incomingTrace}-${incomingSpan}-01`,
      TRACESTATE: "vendor=opaque"
    })
    expect(root.traceId).toBe(incomingTrace)
    expect(root.parentSpanId).toBe(incomingSpan)
    expect(hook.traceId).toBe(incomingTrace)
    expect(hook.parentSpanId).toBe(root.spanId)
    expect(traceparent).toBe(`00-${incomingTrace}-${hook.spanId}-01`)
    expect(tracestate).toBe("vendor=opaque")
  })

  it("spans carry the GenAI conventions for tool execution: execute_tool, the tool's name and call id, the conversation", async () => {
    const { root, hook } = await tracedEngine({})
    for (const span of [root, hook]) {
      expect(span.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "Bash",
        "gen_ai.tool.call.id": "toolu_01",
        "gen_ai.conversation.id": "conv-42"
      })
    }
  })

  it("without an incoming trace (or with a malformed one) the dispatch is a root span; a stray TRACESTATE is not passed on", async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { TRACEPARENT: `00-${"0".repeat(32)}-${incomingSpan}-01`, TRACESTATE: "stale=1" },
      { TRACEPARENT: "garbage", TRACESTATE: "stale=1" }
    ]
    for (const incoming of cases) {
      const { root, hook, traceparent, tracestate } = await tracedEngine(incoming)
      expect(root.parentSpanId).toBe("")
      expect(traceparent).toBe(`00-${root.traceId}-${hook.spanId}-01`)
      expect(tracestate).toBe("unset")
    }
  })

  it("an http hook's request carries the traceparent of its own span", async () => {
    const otlp = await receiver()
    const seen: Array<Record<string, unknown>> = []
    const server = createServer((req, res) => {
      seen.push({ ...req.headers })
      req.resume()
      req.on("end", () => res.end(""))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "http", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }] }] }
      })
    )
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        TRACEPARENT: `00-${incomingTrace}-${incomingSpan}-01`,
        TRACESTATE: "vendor=opaque"
      },
      telemetry: { exportIntervalMs: 60_000 }
    })
    await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    await engine.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await otlp.waitFor((r) => r.spans.some((span) => span.name === "agent-hooks hook http"))
    const hook = otlp.spans.find((span) => span.name === "agent-hooks hook http")!
    expect(seen[0]).toMatchObject({ traceparent: `00-${incomingTrace}-${hook.spanId}-01`, tracestate: "vendor=opaque" })
  })

  it("a host's trace given to dispatch (a LangChain run's) is the dispatch span's parent, over an incoming TRACEPARENT; a malformed one is ignored", async () => {
    const otlp = await receiver()
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 0" }] }] } }))
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, TRACEPARENT: `00-${incomingTrace}-${incomingSpan}-01` },
      telemetry: { exportIntervalMs: 60_000 }
    })
    const runTrace = "0af7651916cd43dd8448eb211c80319c"
    const runSpan = "b7ad6b7169203331"
    const payload = (id: string) => ({ session_id: "conv-7", tool_name: "Bash", tool_use_id: id, tool_input: { command: "ls" } })
    await engine.dispatch("PreToolUse", payload("from-run"), { traceparent: `00-${runTrace}-${runSpan}-01` })
    await engine.dispatch("PreToolUse", payload("malformed"), { traceparent: "00-not-a-trace" })
    await engine.close()
    await otlp.waitFor((r) => r.spans.filter((span) => span.name === "agent-hooks PreToolUse").length >= 2)
    const root = (id: string) =>
      otlp.spans.find((span) => span.name === "agent-hooks PreToolUse" && span.attributes["gen_ai.tool.call.id"] === id)!
    expect(root("from-run")).toMatchObject({ traceId: runTrace, parentSpanId: runSpan })
    expect(root("malformed")).toMatchObject({ traceId: incomingTrace, parentSpanId: incomingSpan })
  })
})
