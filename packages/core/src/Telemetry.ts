/**
 * OpenTelemetry for the engine, on Effect's own OTLP/HTTP exporters (`effect/observability`): a
 * span per dispatched event that runs hooks (one that matches none is answered without the Effect
 * runtime, and without a span), a child span per hook, and counters of decisions and failures,
 * sent to the collector a team already runs.
 *
 * It is on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
 * `..._METRICS_ENDPOINT`) is set in the engine's environment, or the engine option `telemetry`
 * names an endpoint. Otherwise nothing is loaded (the exporter modules are imported only when
 * needed) and nothing is sent. Standard variables honoured: `OTEL_SDK_DISABLED`,
 * `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS` (and the
 * per-signal `_TRACES_` / `_METRICS_` forms), `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, the
 * default, or `http/json`), `OTEL_TRACES_EXPORTER=none`, `OTEL_METRICS_EXPORTER=none`.
 *
 * Export runs in the background, in batches; an unreachable or failing collector never changes or
 * delays a dispatch. Closing the engine flushes what is buffered, waiting at most 1 s.
 *
 * Span attributes (all prefixed `agent_hooks.`): `event`, `matcher`; on dispatch spans `blocked`,
 * `decision`, `hooks`; on hook spans `hook.command`, `hook.type`, `hook.source`, `hook.exit_code`,
 * `hook.status`, `hook.decision`, `hook.duration_ms`, `hook.timed_out`. Counters:
 * `agent_hooks.decisions` (event, decision), `agent_hooks.hook_runs` and
 * `agent_hooks.hook_failures` (event, status).
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as activeSpan from "./internal/activeSpan.ts"
import * as internal from "./internal/telemetry.ts"
import type { Decision, HookStatus } from "./HookOutput.ts"

/**
 * The engine option `telemetry`: settings that take precedence over the environment. `false`
 * turns telemetry off whatever the environment says.
 *
 * @since 0.2.0
 * @category models
 */
export interface TelemetryOptions {
  /** The OTLP/HTTP base URL (`http://collector:4318`); traces go to `/v1/traces`, metrics to `/v1/metrics`. */
  readonly endpoint?: string | undefined
  /** Extra request headers (added to `OTEL_EXPORTER_OTLP_HEADERS`). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** `service.name` (default: `OTEL_SERVICE_NAME`, else `agent-hooks`). */
  readonly serviceName?: string | undefined
  /** How often batches are sent (default 5000 ms); closing the engine sends the rest. */
  readonly exportIntervalMs?: number | undefined
}

/**
 * What telemetry was resolved to.
 *
 * @since 0.2.0
 * @category models
 */
export interface Settings {
  readonly traces: string | undefined
  readonly metrics: string | undefined
  readonly protocol: "http/protobuf" | "http/json"
  readonly headers: Readonly<Record<string, string>>
  readonly tracesHeaders: Readonly<Record<string, string>>
  readonly metricsHeaders: Readonly<Record<string, string>>
  readonly serviceName: string
  readonly exportIntervalMs: number
}

/**
 * What a dispatch span knows when it starts.
 *
 * @since 0.2.0
 * @category models
 */
export interface DispatchAttributes {
  readonly event: string
  /** The value the matchers were tested against, `null` when none. */
  readonly matcher: string | null
  /**
   * The tool call a tool event is about (its `tool_name` and `tool_use_id`): the spans then carry
   * the OpenTelemetry GenAI conventions for tool execution (`gen_ai.operation.name: execute_tool`,
   * `gen_ai.tool.name`, `gen_ai.tool.call.id`).
   */
  readonly tool?: { readonly name: string; readonly callId: string | undefined } | undefined
  /** The agent's session (`session_id`): `gen_ai.conversation.id`. */
  readonly conversationId?: string | undefined
}

/**
 * What a hook span knows when it starts.
 *
 * @since 0.2.0
 * @category models
 */
export interface HookAttributes extends DispatchAttributes {
  readonly command: string
  readonly type: string
  readonly source: string | null
}

/**
 * The engine's telemetry: wrappers that put a dispatch or a hook run in a span and count it.
 *
 * @since 0.2.0
 * @category models
 */
export interface Telemetry {
  readonly enabled: boolean
  readonly dispatch: <A, E, R>(
    attributes: DispatchAttributes,
    self: Effect.Effect<A, E, R>,
    after: (value: A) => { readonly blocked: boolean; readonly decision: Decision | null; readonly hooks: number }
  ) => Effect.Effect<A, E, R>
  readonly hook: <A, E, R>(
    attributes: HookAttributes,
    self: Effect.Effect<A, E, R>,
    after: (value: A) => {
      readonly exitCode: number | null
      readonly status: HookStatus
      readonly decision: Decision | null
      readonly durationMs: number
      readonly timedOut: boolean
    }
  ) => Effect.Effect<A, E, R>
  /** Sends what is buffered, waiting at most 1 s. */
  readonly flush: Effect.Effect<void>
}

/**
 * Resolves the settings from an environment and the option, or says why telemetry is off.
 *
 * @since 0.2.0
 * @category constructors
 */
export const settingsFrom: (
  env: Readonly<Record<string, string | undefined>>,
  options: TelemetryOptions | undefined
) => Settings | { readonly disabled: string } = internal.settingsFrom

/**
 * Telemetry for one engine; the exporters live in the scope, which flushes them when it closes
 * (waiting at most 1 s).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: (
  env: Readonly<Record<string, string | undefined>>,
  options: TelemetryOptions | false | undefined
) => Effect.Effect<Telemetry, never, Scope.Scope> = internal.make

/**
 * A W3C trace context (`TRACEPARENT` `00-<trace id>-<span id>-<flags>`), read from a string; `undefined`
 * when it is not one (a malformed, all-zero or unknown-version value is ignored, as the W3C rules say).
 *
 * @since 0.2.0
 * @category trace context
 */
export const parseTraceparent: (
  value: string | undefined
) => { readonly traceId: string; readonly spanId: string; readonly sampled: boolean } | undefined = internal.parseTraceparent

/**
 * A hook's environment with `TRACEPARENT` for the current span (the hook's span) and the incoming
 * `TRACESTATE`, so that the hook's own spans join the trace; the environment as it is when there is
 * no current span (telemetry off).
 *
 * @since 0.2.0
 * @category trace context
 */
export const withTraceContext: (env: Readonly<Record<string, string>>) => Effect.Effect<Readonly<Record<string, string>>> =
  internal.withTraceContext

/**
 * Telemetry that does nothing.
 *
 * @since 0.2.0
 * @category constructors
 */
export const disabled: Telemetry = internal.disabled

/**
 * The W3C `traceparent` of the host's active OpenTelemetry span (`@opentelemetry/api`'s context,
 * read from its global registration without importing the package), else `undefined`. What an
 * adapter passes as a dispatch's `context`, so the hooks' spans join the agent framework's trace.
 *
 * @since 0.2.0
 * @category tracing
 */
export const activeTraceparent: () => string | undefined = activeSpan.activeTraceparent
