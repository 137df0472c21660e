/**
 * `Telemetry.activeTraceparent`: the host's active OpenTelemetry span, read from the global
 * registration of `@opentelemetry/api` (its symbols), as a W3C traceparent.
 */
import { afterEach, describe, expect, it } from "vitest"
import { Telemetry } from "@agent-hooks/core"

const API = Symbol.for("opentelemetry.js.api.1")
const SPAN = Symbol.for("OpenTelemetry Context Key SPAN")
const globals = globalThis as Record<symbol, unknown>
const saved = globals[API]
afterEach(() => {
  globals[API] = saved
})

/** `@opentelemetry/api` as it registers itself, with `span` active. */
const register = (span: unknown) => {
  globals[API] = { context: { active: () => ({ getValue: (key: symbol) => (key === SPAN ? span : undefined) }) } }
}
const spanWith = (context: Record<string, unknown>) => ({ spanContext: () => context })

describe("Telemetry.activeTraceparent", () => {
  it("is the active span's traceparent, sampled or not", () => {
    register(spanWith({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1 }))
    expect(Telemetry.activeTraceparent()).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    register(spanWith({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 0 }))
    expect(Telemetry.activeTraceparent()).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")
  })

  it("is undefined without the API, without an active span, for an invalid span, and when the API throws", () => {
    globals[API] = undefined
    expect(Telemetry.activeTraceparent()).toBeUndefined()
    register(undefined)
    expect(Telemetry.activeTraceparent()).toBeUndefined()
    register(spanWith({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 1 }))
    expect(Telemetry.activeTraceparent()).toBeUndefined()
    register(spanWith({ traceId: "not-hex", spanId: "00f067aa0ba902b7", traceFlags: 1 }))
    expect(Telemetry.activeTraceparent()).toBeUndefined()
    globals[API] = {
      context: {
        active: () => {
          throw new Error("broken context manager")
        }
      }
    }
    expect(Telemetry.activeTraceparent()).toBeUndefined()
  })
})
