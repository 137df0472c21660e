import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Tracer from "effect/Tracer"
import type * as Context from "effect/Context"
import type { DispatchAttributes, Settings, Telemetry, TelemetryOptions } from "../Telemetry.ts"

type Env = Readonly<Record<string, string | undefined>>

/** @internal */
export const nonEmpty = (value: string | undefined): value is string => value !== undefined && value.trim() !== ""

/** `k=v,k2=v2` with percent-encoded keys and values (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). @internal */
export const keyValueList = (text: string | undefined): Record<string, string> => {
  const out: Record<string, string> = {}
  if (!nonEmpty(text)) return out
  for (const item of text.split(",")) {
    const at = item.indexOf("=")
    if (at <= 0) continue
    try {
      out[decodeURIComponent(item.slice(0, at).trim())] = decodeURIComponent(item.slice(at + 1).trim())
    } catch {
      // A malformed escape: the pair is skipped, as the OpenTelemetry SDKs do.
    }
  }
  return out
}

/** A signal's URL: its own variable as given, else `/v1/<signal>` below the common endpoint. */
const signalUrl = (base: string | undefined, own: string | undefined, signal: "traces" | "metrics"): string | undefined => {
  if (nonEmpty(own)) return own.trim()
  if (!nonEmpty(base)) return undefined
  const trimmed = base.trim()
  return `${trimmed}${trimmed.endsWith("/") ? "" : "/"}v1/${signal}`
}

/** @internal */
export const settingsFrom = (env: Env, options: TelemetryOptions | undefined): Settings | { readonly disabled: string } => {
  if (/^true$/i.test(env["OTEL_SDK_DISABLED"]?.trim() ?? "")) return { disabled: "OTEL_SDK_DISABLED is true" }
  const base = options?.endpoint ?? env["OTEL_EXPORTER_OTLP_ENDPOINT"]
  const tracesOff = env["OTEL_TRACES_EXPORTER"]?.trim().toLowerCase() === "none"
  const metricsOff = env["OTEL_METRICS_EXPORTER"]?.trim().toLowerCase() === "none"
  const traces = tracesOff
    ? undefined
    : signalUrl(base, options?.endpoint === undefined ? env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] : undefined, "traces")
  const metrics = metricsOff
    ? undefined
    : signalUrl(base, options?.endpoint === undefined ? env["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"] : undefined, "metrics")
  if (traces === undefined && metrics === undefined)
    return { disabled: "no OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or the telemetry option)" }
  const protocol = (env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] ?? env["OTEL_EXPORTER_OTLP_PROTOCOL"] ?? "http/protobuf").trim().toLowerCase()
  if (protocol !== "http/protobuf" && protocol !== "http/json") {
    return { disabled: `OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocol)} is not supported (use http/protobuf or http/json)` }
  }
  const resourceAttributes = keyValueList(env["OTEL_RESOURCE_ATTRIBUTES"])
  const serviceName = options?.serviceName ?? env["OTEL_SERVICE_NAME"] ?? resourceAttributes["service.name"] ?? "agent-hooks"
  return {
    traces,
    metrics,
    protocol,
    headers: { ...keyValueList(env["OTEL_EXPORTER_OTLP_HEADERS"]), ...options?.headers },
    tracesHeaders: keyValueList(env["OTEL_EXPORTER_OTLP_TRACES_HEADERS"]),
    metricsHeaders: keyValueList(env["OTEL_EXPORTER_OTLP_METRICS_HEADERS"]),
    serviceName,
    exportIntervalMs: options?.exportIntervalMs ?? 5000
  }
}

/** @internal */
export const disabled: Telemetry = {
  enabled: false,
  dispatch: (_attributes, self) => self,
  hook: (_attributes, self) => self,
  flush: Effect.void
}

const decisions = Metric.counter("agent_hooks.decisions", {
  description: "Outcomes by event and decision (none when no hook decided)",
  incremental: true
})
const hookRuns = Metric.counter("agent_hooks.hook_runs", { description: "Hook runs by event and status", incremental: true })
const failures = Metric.counter("agent_hooks.hook_failures", {
  description: "Hook runs that failed, timed out or could not start",
  incremental: true
})

// W3C Trace Context: version 00, 32 hex trace id, 16 hex parent id, 2 hex flags; all-zero ids are invalid.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/

/** @internal */
export const parseTraceparent = (
  value: string | undefined
): { readonly traceId: string; readonly spanId: string; readonly sampled: boolean } | undefined => {
  const match = TRACEPARENT.exec(value?.trim() ?? "")
  if (match === null) return undefined
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined]
  // Version ff is invalid; version 00 has nothing after the flags.
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 }
}

/** Every hook process is started with the trace context of its own span (TRACEPARENT, TRACESTATE). @internal */
export const withTraceContext = (env: Readonly<Record<string, string>>): Effect.Effect<Readonly<Record<string, string>>> =>
  Effect.map(Effect.option(Effect.currentSpan), (span) => {
    if (Option.isNone(span)) return env
    const { traceId, spanId, sampled } = span.value
    const { TRACESTATE, ...rest } = env
    // The incoming TRACESTATE belongs to the incoming trace: kept when the hook's span continues it.
    const keep = TRACESTATE !== undefined && parseTraceparent(env["TRACEPARENT"])?.traceId === traceId
    return { ...rest, TRACEPARENT: `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`, ...(keep ? { TRACESTATE } : {}) }
  })

/**
 * The caller's span (a host's trace given to a dispatch, as the LangChain adapter does) is the
 * dispatch span's parent; without one, the incoming TRACEPARENT of the engine's environment.
 */
const withDefaultParent = <A, E, R>(self: Effect.Effect<A, E, R>, parent: Tracer.AnySpan): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.option(Effect.currentParentSpan), (current) =>
    Option.isSome(current) ? self : Effect.withParentSpan(self, parent)
  )

/** The OpenTelemetry GenAI attributes of a tool call, and the conversation. */
const genAiAttributes = (attributes: DispatchAttributes) => ({
  ...(attributes.tool === undefined
    ? {}
    : {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": attributes.tool.name,
        ...(attributes.tool.callId === undefined ? {} : { "gen_ai.tool.call.id": attributes.tool.callId })
      }),
  ...(attributes.conversationId === undefined ? {} : { "gen_ai.conversation.id": attributes.conversationId })
})

const dispatchSpanAttributes = (attributes: DispatchAttributes) => ({
  "agent_hooks.event": attributes.event,
  ...(attributes.matcher === null ? {} : { "agent_hooks.matcher": attributes.matcher }),
  ...genAiAttributes(attributes)
})

/**
 * Telemetry over Effect's own OTLP exporters, loaded only here: `effect/observability` and the
 * fetch HTTP client are imported when an endpoint is configured, never otherwise.
 * @internal
 */
export const make = (env: Env, options: TelemetryOptions | false | undefined): Effect.Effect<Telemetry, never, Scope.Scope> =>
  Effect.gen(function* () {
    if (options === false) return disabled
    const settings = settingsFrom(env, options)
    if ("disabled" in settings) return disabled
    const [{ OtlpExporter, OtlpMetrics, OtlpSerialization, OtlpTracer }, { FetchHttpClient }] = yield* Effect.promise(() =>
      Promise.all([import("effect/observability"), import("effect/http")])
    )
    const resource = { serviceName: settings.serviceName }
    // The exporters' own flush on close runs one after the other; the engine flushes them together
    // first (at most 1 s, below), so theirs only has to notice there is nothing left.
    const shutdownTimeout = Duration.millis(10)
    const exportInterval = Duration.millis(settings.exportIntervalMs)
    const signals = Layer.mergeAll(
      settings.traces === undefined
        ? Layer.empty
        : OtlpTracer.layer({
            url: settings.traces,
            resource,
            headers: { ...settings.headers, ...settings.tracesHeaders },
            exportInterval,
            shutdownTimeout
          }),
      settings.metrics === undefined
        ? Layer.empty
        : OtlpMetrics.layer({
            url: settings.metrics,
            resource,
            headers: { ...settings.headers, ...settings.metricsHeaders },
            exportInterval,
            shutdownTimeout
          })
    ).pipe(
      Layer.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
      Layer.provide(FetchHttpClient.layer),
      // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES come from the engine's environment, not the process's.
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ ...env })))
    )
    // Each engine counts into its own registry, so that two engines in one process do not mix counts.
    const registry: Map<string, unknown> = new Map()
    const scope = yield* Effect.scope
    const context = yield* Layer.buildWithScope(
      signals.pipe(Layer.provideMerge(Layer.succeed(Metric.MetricRegistry, registry as never))),
      scope
    )
    const inContext = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.provideContext(self, context as Context.Context<never>)
    // An incoming TRACEPARENT (the agent's own trace) is the parent of every dispatch span.
    const incoming = parseTraceparent(env["TRACEPARENT"])
    const parent = incoming === undefined ? undefined : Tracer.externalSpan(incoming)
    const flush = Effect.flatMap(OtlpExporter.Flusher, (flusher) => flusher.flush).pipe(
      Effect.provideContext(context),
      Effect.timeoutOption(Duration.seconds(1)),
      Effect.ignore
    )
    // Added after the exporters, so it runs before their finalizers: a closing engine (a one-shot
    // `agent-hooks run`) sends what is buffered, waiting at most 1 s for a slow or absent collector.
    yield* Effect.addFinalizer(() => flush)

    const telemetry: Telemetry = {
      enabled: true,
      dispatch: (attributes, self, after) =>
        self.pipe(
          Effect.tap((value) => {
            const result = after(value)
            return Effect.andThen(
              Effect.annotateCurrentSpan({
                "agent_hooks.blocked": result.blocked,
                "agent_hooks.decision": result.decision ?? "none",
                "agent_hooks.hooks": result.hooks
              }),
              Metric.update(Metric.withAttributes(decisions, { event: attributes.event, decision: result.decision ?? "none" }), 1)
            )
          }),
          Effect.withSpan(`agent-hooks ${attributes.event}`, { attributes: dispatchSpanAttributes(attributes), kind: "internal" }),
          inContext,
          (dispatch) => (parent === undefined ? dispatch : withDefaultParent(dispatch, parent))
        ),
      hook: (attributes, self, after) =>
        self.pipe(
          Effect.tap((value) => {
            const result = after(value)
            const failed = result.status === "non-blocking-error" || result.status === "cancelled"
            return Effect.all([
              Effect.annotateCurrentSpan({
                ...(result.exitCode === null ? {} : { "agent_hooks.hook.exit_code": result.exitCode }),
                "agent_hooks.hook.status": result.status,
                "agent_hooks.hook.decision": result.decision ?? "none",
                "agent_hooks.hook.duration_ms": result.durationMs,
                "agent_hooks.hook.timed_out": result.timedOut
              }),
              Metric.update(Metric.withAttributes(hookRuns, { event: attributes.event, status: result.status }), 1),
              failed ? Metric.update(Metric.withAttributes(failures, { event: attributes.event, status: result.status }), 1) : Effect.void
            ])
          }),
          Effect.withSpan(`agent-hooks hook ${attributes.type}`, {
            attributes: {
              ...dispatchSpanAttributes(attributes),
              "agent_hooks.hook.command": attributes.command,
              "agent_hooks.hook.type": attributes.type,
              ...(attributes.source === null ? {} : { "agent_hooks.hook.source": attributes.source })
            },
            kind: "internal"
          }),
          inContext
        ),
      flush
    }
    return telemetry
  })
