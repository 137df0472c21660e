/**
 * A local OTLP/HTTP receiver for tests: it listens on 127.0.0.1, accepts what an OpenTelemetry
 * exporter posts to `/v1/traces` and `/v1/metrics` (protobuf, `application/x-protobuf`, or JSON)
 * and to `/v1/logs` (JSON), decodes it, and keeps the spans, metric points and log records for
 * assertions. No collector binary needed.
 *
 * **Example**
 *
 * ```ts
 * const receiver = await OtlpReceiver.start()
 * // ... run code with OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url ...
 * const spans = await receiver.waitFor((r) => r.spans.some((s) => s.name === "PreToolUse"))
 * await receiver.close()
 * ```
 *
 * @since 0.2.0
 */
import * as internal from "./internal/otlpReceiver.ts"

/**
 * One received span, flattened out of its resource and scope.
 *
 * @since 0.2.0
 * @category models
 */
export interface ReceivedSpan {
  readonly name: string
  /** Hex. */
  readonly traceId: string
  readonly spanId: string
  /** Hex, `""` for a root span. */
  readonly parentSpanId: string
  readonly kind: number
  readonly startTimeUnixNano: bigint
  readonly endTimeUnixNano: bigint
  readonly attributes: Readonly<Record<string, unknown>>
  /** 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message: string }
  /** The resource's attributes (`service.name`, ...). */
  readonly resource: Readonly<Record<string, unknown>>
  readonly scope: string
}

/**
 * One received metric data point (sums and gauges).
 *
 * @since 0.2.0
 * @category models
 */
export interface ReceivedPoint {
  readonly metric: string
  readonly attributes: Readonly<Record<string, unknown>>
  readonly value: number
  readonly resource: Readonly<Record<string, unknown>>
}

/**
 * One received log record (OTLP/JSON), flattened out of its resource and scope.
 *
 * @since 0.2.0
 * @category models
 */
export interface ReceivedLog {
  readonly eventName: string
  readonly timeUnixNano: bigint
  readonly severityNumber: number
  readonly body: unknown
  readonly attributes: Readonly<Record<string, unknown>>
  /** Hex, `""` when none. */
  readonly traceId: string
  readonly spanId: string
  readonly resource: Readonly<Record<string, unknown>>
  readonly scope: string
}

/**
 * One HTTP request the receiver got.
 *
 * @since 0.2.0
 * @category models
 */
export interface ReceivedRequest {
  readonly path: string
  readonly contentType: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly bytes: number
}

/**
 * A running receiver.
 *
 * @since 0.2.0
 * @category models
 */
export interface Receiver {
  /** `http://127.0.0.1:<port>`: the value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string
  readonly spans: ReadonlyArray<ReceivedSpan>
  readonly points: ReadonlyArray<ReceivedPoint>
  readonly logs: ReadonlyArray<ReceivedLog>
  /** The body of each `/v1/logs` request as received (OTLP/JSON text), in order. */
  readonly logPayloads: ReadonlyArray<string>
  /** From now on, answer every request with this HTTP status (`undefined`: decode and answer 200 again). */
  readonly setStatus: (status: number | undefined) => void
  readonly requests: ReadonlyArray<ReceivedRequest>
  /** Resolves once `done` holds (checked after every request), or rejects after `timeoutMs` (default 10 s). */
  readonly waitFor: (done: (receiver: Receiver) => boolean, timeoutMs?: number) => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * Starts a receiver on a free port. With `status`, it answers every request with that HTTP status
 * (to test export failures).
 *
 * @since 0.2.0
 * @category constructors
 */
export const start: (options?: { readonly status?: number }) => Promise<Receiver> = internal.start

/**
 * Registers a vitest `afterEach` that closes the receivers started through the returned function;
 * call it at the top level of a test file or inside a `describe`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const register: () => (options?: { readonly status?: number }) => Promise<Receiver> = internal.register

/**
 * Decodes an OTLP `ExportTraceServiceRequest` in protobuf form into spans.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeTraces: (bytes: Uint8Array) => ReadonlyArray<ReceivedSpan> = internal.decodeTraces
