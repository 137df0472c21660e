// `@opentelemetry/api` keeps its registered globals here, and the current span under this context
// key: read without importing the package (the host's copy is the one that counts).
const OTEL_API = Symbol.for("opentelemetry.js.api.1")
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN")

const TRACE_ID = /^[0-9a-f]{32}$/
const SPAN_ID = /^[0-9a-f]{16}$/

interface SpanContextLike {
  readonly traceId?: unknown
  readonly spanId?: unknown
  readonly traceFlags?: unknown
}

/** @internal */
export const activeTraceparent = (): string | undefined => {
  try {
    const api = (globalThis as Record<symbol, unknown>)[OTEL_API] as { readonly context?: { readonly active?: () => unknown } } | undefined
    const active = api?.context?.active?.() as { readonly getValue?: (key: symbol) => unknown } | undefined
    const span = active?.getValue?.(SPAN_KEY) as { readonly spanContext?: () => SpanContextLike } | undefined
    const context = span?.spanContext?.()
    if (context === undefined) return undefined
    const { spanId, traceFlags, traceId } = context
    // An invalid span context (all zeros: no trace) is no parent.
    if (typeof traceId !== "string" || typeof spanId !== "string" || !TRACE_ID.test(traceId) || !SPAN_ID.test(spanId)) return undefined
    if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined
    const sampled = typeof traceFlags === "number" && (traceFlags & 1) === 1
    return `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`
  } catch {
    // A broken context manager is no reason to stop a hook: the hooks' spans have no parent.
    return undefined
  }
}
