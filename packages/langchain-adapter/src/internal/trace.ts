/**
 * The LangChain run's trace, for the hooks' spans to join: the active OpenTelemetry span (a host
 * that instruments its agent with `@opentelemetry/api`, LangSmith in OTel mode), else a W3C
 * `traceparent` in the run's config `metadata`.
 */
import { getConfig } from "@langchain/langgraph"
import type { DispatchContext } from "../HookDispatcher.ts"

// `@opentelemetry/api` keeps its registered globals here, and the current span under this context
// key: read without importing the package (the host's copy is the one that counts).
const OTEL_API = Symbol.for("opentelemetry.js.api.1")
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN")

interface SpanContextLike {
  readonly traceId?: unknown
  readonly spanId?: unknown
  readonly traceFlags?: unknown
}

const TRACE_ID = /^[0-9a-f]{32}$/
const SPAN_ID = /^[0-9a-f]{16}$/
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/

/** The active OpenTelemetry span's context, when `@opentelemetry/api` has a context manager with one. */
const fromOtel = (): DispatchContext | undefined => {
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
    return { traceparent: `00-${traceId}-${spanId}-${sampled ? "01" : "00"}` }
  } catch {
    // A broken context manager is no reason to stop a hook: the hooks' spans have no LangChain parent.
    return undefined
  }
}

/** A `traceparent` in the run's config metadata (`agent.invoke(input, { metadata: { traceparent } })`). */
const fromMetadata = (): DispatchContext | undefined => {
  let metadata: Record<string, unknown> | undefined
  try {
    metadata = getConfig()?.metadata as Record<string, unknown> | undefined
  } catch {
    // Outside a LangGraph run (`submitPrompt`): no run, no trace.
    return undefined
  }
  const traceparent = metadata?.["traceparent"]
  // A value that is not a W3C traceparent is ignored (the engine's own parent, if any, stays).
  return typeof traceparent === "string" && TRACEPARENT.test(traceparent.trim()) ? { traceparent: traceparent.trim() } : undefined
}

/** The trace the current LangChain run is in, if it carries one. */
export const current = (): DispatchContext | undefined => fromOtel() ?? fromMetadata()
