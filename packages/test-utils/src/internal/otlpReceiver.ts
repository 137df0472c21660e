import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach } from "vitest"
import type { ReceivedLog, ReceivedPoint, ReceivedRequest, ReceivedSpan, Receiver } from "../OtlpReceiver.ts"

// --- protobuf wire format: just enough to read OTLP's trace and metric messages -----------------

interface Field {
  readonly number: number
  readonly wire: number
  /** varint and fixed values */
  readonly int: bigint
  /** length-delimited bytes */
  readonly bytes: Uint8Array
}

const fields = (buffer: Uint8Array): Array<Field> => {
  const out: Array<Field> = []
  let at = 0
  const varint = (): bigint => {
    let result = 0n
    let shift = 0n
    for (;;) {
      if (at >= buffer.length) throw new Error("protobuf: varint runs past the end")
      const byte = buffer[at++]!
      result |= BigInt(byte & 0x7f) << shift
      if ((byte & 0x80) === 0) return result
      shift += 7n
    }
  }
  const fixed = (size: number): bigint => {
    let result = 0n
    for (let i = size - 1; i >= 0; i--) result = (result << 8n) | BigInt(buffer[at + i]!)
    at += size
    return result
  }
  while (at < buffer.length) {
    const key = Number(varint())
    const number = key >>> 3
    const wire = key & 7
    const empty = new Uint8Array(0)
    if (wire === 0) out.push({ number, wire, int: varint(), bytes: empty })
    else if (wire === 1) out.push({ number, wire, int: fixed(8), bytes: empty })
    else if (wire === 5) out.push({ number, wire, int: fixed(4), bytes: empty })
    else if (wire === 2) {
      const length = Number(varint())
      out.push({ number, wire, int: 0n, bytes: buffer.subarray(at, at + length) })
      at += length
    } else throw new Error(`protobuf: unsupported wire type ${wire}`)
  }
  return out
}

const decoder = new TextDecoder()
const text = (field: Field | undefined) => (field === undefined ? "" : decoder.decode(field.bytes))
const hex = (field: Field | undefined) => (field === undefined ? "" : Buffer.from(field.bytes).toString("hex"))
const first = (list: ReadonlyArray<Field>, number: number) => list.find((field) => field.number === number)
const all = (list: ReadonlyArray<Field>, number: number) => list.filter((field) => field.number === number)
const signed = (value: bigint) => (value >= 1n << 63n ? value - (1n << 64n) : value)
const double = (value: bigint) => {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigUint64(0, value, true)
  return view.getFloat64(0, true)
}

/** AnyValue: string 1, bool 2, int 3, double 4, array 5, kvlist 6, bytes 7. */
const anyValue = (bytes: Uint8Array): unknown => {
  const [field] = fields(bytes)
  if (field === undefined) return null
  switch (field.number) {
    case 1:
      return text(field)
    case 2:
      return field.int !== 0n
    case 3:
      return Number(signed(field.int))
    case 4:
      return double(field.int)
    case 5:
      return all(fields(field.bytes), 1).map((value) => anyValue(value.bytes))
    case 6:
      return keyValues(all(fields(field.bytes), 1))
    default:
      return Buffer.from(field.bytes).toString("hex")
  }
}

/** KeyValue: key 1, value 2. */
const keyValues = (list: ReadonlyArray<Field>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const entry of list) {
    const kv = fields(entry.bytes)
    const value = first(kv, 2)
    out[text(first(kv, 1))] = value === undefined ? null : anyValue(value.bytes)
  }
  return out
}

/** Resource: attributes 1. */
const resource = (field: Field | undefined) => (field === undefined ? {} : keyValues(all(fields(field.bytes), 1)))

/** @internal */
export const decodeTraces = (bytes: Uint8Array): Array<ReceivedSpan> => {
  const spans: Array<ReceivedSpan> = []
  // ExportTraceServiceRequest: resource_spans 1; ResourceSpans: resource 1, scope_spans 2;
  // ScopeSpans: scope 1 (name 1), spans 2.
  for (const rs of all(fields(bytes), 1)) {
    const rsFields = fields(rs.bytes)
    const res = resource(first(rsFields, 1))
    for (const ss of all(rsFields, 2)) {
      const ssFields = fields(ss.bytes)
      const scope = first(ssFields, 1)
      const scopeName = scope === undefined ? "" : text(first(fields(scope.bytes), 1))
      for (const span of all(ssFields, 2)) {
        // Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, start 7, end 8, attributes 9, status 15 (message 2, code 3).
        const f = fields(span.bytes)
        const status = first(f, 15)
        const statusFields = status === undefined ? [] : fields(status.bytes)
        spans.push({
          name: text(first(f, 5)),
          traceId: hex(first(f, 1)),
          spanId: hex(first(f, 2)),
          parentSpanId: hex(first(f, 4)),
          kind: Number(first(f, 6)?.int ?? 0n),
          startTimeUnixNano: first(f, 7)?.int ?? 0n,
          endTimeUnixNano: first(f, 8)?.int ?? 0n,
          attributes: keyValues(all(f, 9)),
          status: { code: Number(first(statusFields, 3)?.int ?? 0n), message: text(first(statusFields, 2)) },
          resource: res,
          scope: scopeName
        })
      }
    }
  }
  return spans
}

const decodeMetrics = (bytes: Uint8Array): Array<ReceivedPoint> => {
  const points: Array<ReceivedPoint> = []
  // ExportMetricsServiceRequest: resource_metrics 1; ResourceMetrics: resource 1, scope_metrics 2;
  // ScopeMetrics: metrics 2; Metric: name 1, gauge 5, sum 7 (data_points 1);
  // NumberDataPoint: as_double 4, as_int 6, attributes 7.
  for (const rm of all(fields(bytes), 1)) {
    const rmFields = fields(rm.bytes)
    const res = resource(first(rmFields, 1))
    for (const sm of all(rmFields, 2)) {
      for (const metric of all(fields(sm.bytes), 2)) {
        const m = fields(metric.bytes)
        const name = text(first(m, 1))
        const data = first(m, 7) ?? first(m, 5)
        if (data === undefined) continue
        for (const point of all(fields(data.bytes), 1)) {
          const p = fields(point.bytes)
          const asDouble = first(p, 4)
          const asInt = first(p, 6)
          points.push({
            metric: name,
            attributes: keyValues(all(p, 7)),
            value: asDouble !== undefined ? double(asDouble.int) : Number(signed(asInt?.int ?? 0n)),
            resource: res
          })
        }
      }
    }
  }
  return points
}

// --- OTLP/JSON --------------------------------------------------------------------------------

interface JsonKeyValue {
  readonly key: string
  readonly value: Record<string, unknown>
}
const jsonValue = (value: Record<string, unknown> | undefined): unknown => {
  if (value === undefined) return null
  if ("stringValue" in value) return value["stringValue"]
  if ("boolValue" in value) return value["boolValue"]
  if ("intValue" in value) return Number(value["intValue"])
  if ("doubleValue" in value) return Number(value["doubleValue"])
  if ("arrayValue" in value) return ((value["arrayValue"] as { values?: Array<Record<string, unknown>> }).values ?? []).map(jsonValue)
  return null
}
const jsonAttributes = (list: ReadonlyArray<JsonKeyValue> | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]))

const jsonTraces = (body: any): Array<ReceivedSpan> =>
  (body.resourceSpans ?? []).flatMap((rs: any) =>
    (rs.scopeSpans ?? []).flatMap((ss: any) =>
      (ss.spans ?? []).map(
        (span: any): ReceivedSpan => ({
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? "",
          kind: span.kind ?? 0,
          startTimeUnixNano: BigInt(span.startTimeUnixNano ?? 0),
          endTimeUnixNano: BigInt(span.endTimeUnixNano ?? 0),
          attributes: jsonAttributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
          resource: jsonAttributes(rs.resource?.attributes),
          scope: ss.scope?.name ?? ""
        })
      )
    )
  )

const jsonMetrics = (body: any): Array<ReceivedPoint> =>
  (body.resourceMetrics ?? []).flatMap((rm: any) =>
    (rm.scopeMetrics ?? []).flatMap((sm: any) =>
      (sm.metrics ?? []).flatMap((metric: any) =>
        ((metric.sum ?? metric.gauge)?.dataPoints ?? []).map(
          (point: any): ReceivedPoint => ({
            metric: metric.name,
            attributes: jsonAttributes(point.attributes),
            value: Number(point.asDouble ?? point.asInt ?? 0),
            resource: jsonAttributes(rm.resource?.attributes)
          })
        )
      )
    )
  )

// --- the server -------------------------------------------------------------------------------

const jsonLogs = (body: any): Array<ReceivedLog> =>
  (body.resourceLogs ?? []).flatMap((rl: any) =>
    (rl.scopeLogs ?? []).flatMap((sl: any) =>
      (sl.logRecords ?? []).map(
        (record: any): ReceivedLog => ({
          eventName: record.eventName ?? "",
          timeUnixNano: BigInt(record.timeUnixNano ?? 0),
          severityNumber: record.severityNumber ?? 0,
          body: jsonValue(record.body),
          attributes: jsonAttributes(record.attributes),
          traceId: record.traceId ?? "",
          spanId: record.spanId ?? "",
          resource: jsonAttributes(rl.resource?.attributes),
          scope: sl.scope?.name ?? ""
        })
      )
    )
  )

/** @internal */
export const register = (): ((options?: { readonly status?: number }) => Promise<Receiver>) => {
  const receivers: Array<Receiver> = []
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close()
  })
  return async (options) => {
    const started = await start(options)
    receivers.push(started)
    return started
  }
}

/** @internal */
export const start = (options: { readonly status?: number } = {}): Promise<Receiver> => {
  const spans: Array<ReceivedSpan> = []
  const points: Array<ReceivedPoint> = []
  const logs: Array<ReceivedLog> = []
  const logPayloads: Array<string> = []
  let status = options.status
  const requests: Array<ReceivedRequest> = []
  const waiters = new Set<() => void>()
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = new Uint8Array(Buffer.concat(chunks))
      const contentType = String(request.headers["content-type"] ?? "")
      const path = request.url ?? ""
      requests.push({ path, contentType, headers: request.headers, bytes: body.length })
      if (status !== undefined) {
        response.writeHead(status).end()
      } else {
        try {
          const json = contentType.includes("json")
          if (path.endsWith("/v1/traces")) spans.push(...(json ? jsonTraces(JSON.parse(decoder.decode(body))) : decodeTraces(body)))
          else if (path.endsWith("/v1/metrics"))
            points.push(...(json ? jsonMetrics(JSON.parse(decoder.decode(body))) : decodeMetrics(body)))
          else if (path.endsWith("/v1/logs")) {
            if (!json) throw new Error("this receiver decodes OTLP/JSON logs only")
            const text = decoder.decode(body)
            logs.push(...jsonLogs(JSON.parse(text)))
            logPayloads.push(text)
          }
          response.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" }).end(json ? "{}" : "")
        } catch (error) {
          response.writeHead(400).end(String(error))
        }
      }
      for (const wake of waiters) wake()
    })
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      const receiver: Receiver = {
        url: `http://127.0.0.1:${port}`,
        spans,
        points,
        logs,
        logPayloads,
        setStatus: (next) => {
          status = next
        },
        requests,
        waitFor: (done, timeoutMs = 10_000) =>
          new Promise((ok, fail) => {
            if (done(receiver)) return ok()
            const timer = setTimeout(() => {
              waiters.delete(check)
              fail(
                new Error(
                  `OTLP receiver: condition not met within ${timeoutMs} ms (${requests.length} requests, ${spans.length} spans, ${points.length} points, ${logs.length} log records)`
                )
              )
            }, timeoutMs)
            const check = () => {
              if (!done(receiver)) return
              clearTimeout(timer)
              waiters.delete(check)
              ok()
            }
            waiters.add(check)
          }),
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      }
      resolve(receiver)
    })
  })
}
