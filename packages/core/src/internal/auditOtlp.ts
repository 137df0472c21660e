/**
 * The audit trail's copy for a collector: each record (and each head the writer vouches for) as an
 * OTLP/HTTP JSON log record whose body is the record's line exactly as written, so that the hash
 * chain can be checked again from what the collector received (`verifyExport` in audit.ts), and
 * the reading of such an export (a collector's file exporter: one `{"resourceLogs": ...}` per line).
 *
 * The local log stays the record: an export that fails never blocks, delays or loses it; it is
 * said (`onWarning`) and counted (`ExportStats`).
 *
 * Kept, not Effect's OTLP logger: each body must be the record's line byte for byte (the chain is
 * verified from what the collector got), and an export must never delay or fail the local record.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import type { ExportStats, OtlpOptions } from "../Audit.ts"
import type { FetchLike } from "../Capabilities.ts"
import { keyValueList, nonEmpty } from "./telemetry.ts"

type Env = Readonly<Record<string, string | undefined>>

/** The instrumentation scope of every exported record. @internal */
export const SCOPE_NAME = "agent-hooks.audit"
/** Records sent in one request, at most. */
const BATCH = 256
/** Records waiting while the collector is away, at most; older ones are given up (counted). */
const MAX_PENDING = 10_000
const REQUEST_TIMEOUT = Duration.seconds(10)

/**
 * The export's settings from the engine option and the environment: the option wins; else
 * `AGENT_HOOKS_AUDIT_OTLP` (a URL: the logs endpoint as given; `1`/`true`/`on`: the standard
 * `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/logs`). A setting
 * that cannot be used is a `problem` (said as a warning; the local log is written as always).
 * @internal
 */
export const optionsFrom = (
  env: Env,
  option: Partial<OtlpOptions> | false | undefined
): OtlpOptions | { readonly problem: string } | undefined => {
  if (option === false) return undefined
  const resource = keyValueList(env["OTEL_RESOURCE_ATTRIBUTES"])
  const defaults = {
    headers: { ...keyValueList(env["OTEL_EXPORTER_OTLP_HEADERS"]), ...keyValueList(env["OTEL_EXPORTER_OTLP_LOGS_HEADERS"]) },
    serviceName: env["OTEL_SERVICE_NAME"] ?? resource["service.name"] ?? "agent-hooks",
    resourceAttributes: resource
  }
  let endpoint = option?.endpoint
  if (endpoint === undefined) {
    const value = env["AGENT_HOOKS_AUDIT_OTLP"]?.trim() ?? ""
    if (value === "" || /^(0|false|off|no)$/i.test(value)) return undefined
    if (/^(1|true|on|yes)$/i.test(value)) {
      const base = env["OTEL_EXPORTER_OTLP_ENDPOINT"]
      endpoint = nonEmpty(env["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"])
        ? env["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"].trim()
        : nonEmpty(base)
          ? `${base.trim()}${base.trim().endsWith("/") ? "" : "/"}v1/logs`
          : undefined
      if (endpoint === undefined) {
        return {
          problem:
            "AGENT_HOOKS_AUDIT_OTLP is on but no OTLP endpoint is set " +
            "(OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT): audit records are not exported"
        }
      }
    } else endpoint = value
  }
  let url: { readonly protocol: string }
  try {
    url = new (globalThis as unknown as { readonly URL: new (url: string) => { readonly protocol: string } }).URL(endpoint)
  } catch {
    return {
      problem:
        `the audit export endpoint ${JSON.stringify(endpoint)} is not a URL (expected ` +
        `http(s)://collector:4318/v1/logs, or 1 for the OTEL_EXPORTER_OTLP_ENDPOINT): audit ` +
        `records are not exported`
    }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      problem: `the audit export endpoint ${JSON.stringify(endpoint)} is not http(s) (OTLP/HTTP only): audit records are not exported`
    }
  }
  return {
    ...defaults,
    ...option,
    endpoint,
    headers: { ...defaults.headers, ...option?.headers },
    resourceAttributes: { ...defaults.resourceAttributes, ...option?.resourceAttributes }
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding: OTLP/JSON (ids in hex, 64-bit integers as strings)

type AnyValue =
  | { readonly stringValue: string }
  | { readonly boolValue: boolean }
  | { readonly intValue: string }
  | { readonly doubleValue: number }
  | { readonly arrayValue: { readonly values: ReadonlyArray<AnyValue> } }

const anyValue = (value: unknown): AnyValue | undefined => {
  if (typeof value === "string") return { stringValue: value }
  if (typeof value === "boolean") return { boolValue: value }
  if (typeof value === "number") return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value }
  if (Array.isArray(value) && value.every((item) => typeof item === "string"))
    return { arrayValue: { values: value.map((item) => ({ stringValue: item as string })) } }
  if (value === null || value === undefined) return undefined
  return { stringValue: JSON.stringify(value) }
}

const attributes = (record: Readonly<Record<string, unknown>>) =>
  Object.entries(record).flatMap(([key, value]) => {
    const encoded = anyValue(value)
    return encoded === undefined ? [] : [{ key, value: encoded }]
  })

/** `agent_hooks.audit.<member>` for each member of the record (`null` ones left out), and the GenAI names of its tool and session. */
const recordAttributes = (kind: string, record: Readonly<Record<string, unknown>>) => {
  const out: Record<string, unknown> = { "agent_hooks.audit.kind": kind }
  for (const [key, value] of Object.entries(record)) if (key !== "kind") out[`agent_hooks.audit.${key}`] = value
  if (typeof record["tool"] === "string") out["gen_ai.tool.name"] = record["tool"]
  if (typeof record["session"] === "string") out["gen_ai.conversation.id"] = record["session"]
  return attributes(out)
}

/** The attributes of a record as a reader of the export decodes them (to check them against its body). @internal */
export const recordAttributeValues = (kind: string, record: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> =>
  Object.fromEntries(recordAttributes(kind, record).map(({ key, value }) => [key, jsonValue(value)]))

/** What a log record is made of: the line, its record, when, and the span it was written in. @internal */
export interface Exported {
  readonly kind: string
  readonly line: string
  readonly record: Readonly<Record<string, unknown>>
  readonly time: string
  readonly span: { readonly traceId: string; readonly spanId: string } | undefined
}

const severity = (record: Readonly<Record<string, unknown>>): { readonly severityNumber: number; readonly severityText: string } =>
  record["blocked"] === true ||
  record["kind"] === "loss" ||
  record["status"] === "blocking-error" ||
  record["status"] === "non-blocking-error" ||
  record["result"] === "Failed" ||
  record["result"] === "Blocked"
    ? { severityNumber: 13, severityText: "WARN" }
    : { severityNumber: 9, severityText: "INFO" }

/** One OTLP log record: the body is the line as written (what the hash covers). @internal */
export const logRecord = (item: Exported) => {
  const ms = Date.parse(item.time)
  const nanos = Number.isNaN(ms) ? "0" : (BigInt(ms) * 1_000_000n).toString()
  return {
    timeUnixNano: nanos,
    observedTimeUnixNano: nanos,
    ...severity(item.record),
    eventName: `agent_hooks.audit.${item.kind}`,
    body: { stringValue: item.line },
    attributes: recordAttributes(item.kind, item.record),
    ...(item.span === undefined ? {} : { traceId: item.span.traceId, spanId: item.span.spanId })
  }
}

/** An `ExportLogsServiceRequest` in OTLP/JSON. @internal */
export const payload = (options: OtlpOptions, records: ReadonlyArray<unknown>) => ({
  resourceLogs: [
    {
      resource: { attributes: attributes({ ...options.resourceAttributes, "service.name": options.serviceName ?? "agent-hooks" }) },
      scopeLogs: [{ scope: { name: SCOPE_NAME }, logRecords: records }]
    }
  ]
})

/** The span a record is written in (the dispatch's, with telemetry on). @internal */
export const currentSpan: Effect.Effect<{ readonly traceId: string; readonly spanId: string } | undefined> = Effect.map(
  Effect.option(Effect.currentSpan),
  (span) => (Option.isNone(span) ? undefined : { traceId: span.value.traceId, spanId: span.value.spanId })
)

// ---------------------------------------------------------------------------------------------
// The exporter

/** @internal */
export interface Exporter {
  readonly push: (item: Exported) => Effect.Effect<void>
  readonly stats: Effect.Effect<ExportStats>
}

type Sent =
  | { readonly _tag: "ok"; readonly rejected: number; readonly detail: string }
  | { readonly _tag: "retry"; readonly why: string }
  | { readonly _tag: "refused"; readonly why: string }

/**
 * Sends in the background, in batches, one request at a time: every `exportIntervalMs`, when a
 * batch is full, and when the scope closes (at most `closeTimeoutMs`). A collector that is down,
 * slow or failing keeps the records waiting for the next attempt (at most 10 000, then the oldest
 * are given up); one that refuses a batch (4xx) has it given up. Each is said once per streak, and
 * counted.
 * @internal
 */
export const makeExporter = (options: OtlpOptions, file: string): Effect.Effect<Exporter, never, Scope.Scope> =>
  Effect.gen(function* () {
    const fetch = options.fetch ?? (globalThis as unknown as { readonly fetch: FetchLike }).fetch
    const url = options.endpoint
    const headers = { ...options.headers, "content-type": "application/json" }
    const pending: Array<unknown> = []
    const counts = { exported: 0, failedAttempts: 0, dropped: 0 }
    let failing: string | undefined
    let overflowing = false
    const warn = (text: string) => Effect.sync(() => options.onWarning?.(`audit export to ${url}: ${text}`))
    const lock = yield* Semaphore.make(1)
    const scope = yield* Effect.scope

    const post = (body: string): Effect.Effect<Sent> =>
      Effect.tryPromise({
        try: (signal) =>
          fetch(url, { method: "POST", headers, body, signal }).then(async (response) => ({
            status: response.status,
            text: await response.text().catch(() => "")
          })),
        catch: (error) => (error instanceof Error ? error.message : String(error))
      }).pipe(
        Effect.timeoutOrElse({
          duration: REQUEST_TIMEOUT,
          orElse: () => Effect.fail(`no answer within ${Duration.toSeconds(REQUEST_TIMEOUT)} s`)
        }),
        Effect.map(({ status, text }): Sent => {
          if (status >= 200 && status < 300) {
            // A collector may accept a request and still reject some of its records (partialSuccess).
            let rejected = 0
            let detail = ""
            try {
              const answer = JSON.parse(text) as { partialSuccess?: { rejectedLogRecords?: string | number; errorMessage?: string } }
              rejected = Number(answer.partialSuccess?.rejectedLogRecords ?? 0) || 0
              detail = answer.partialSuccess?.errorMessage ?? ""
            } catch {
              // not JSON: nothing rejected
            }
            return { _tag: "ok", rejected, detail }
          }
          const why = `HTTP ${status}${text.trim() === "" ? "" : `: ${text.trim().slice(0, 200)}`}`
          // 408, 429 and 5xx are worth trying again (OTLP/HTTP's retryable answers); another 4xx is not.
          return status === 408 || status === 429 || status >= 500 ? { _tag: "retry", why } : { _tag: "refused", why }
        }),
        Effect.catch((why) => Effect.succeed<Sent>({ _tag: "retry", why }))
      )

    /** Sends what is waiting, batch after batch, until it is sent or an attempt fails. */
    const sendAll: Effect.Effect<void> = lock.withPermits(1)(
      Effect.gen(function* () {
        while (pending.length > 0) {
          const batch = pending.slice(0, BATCH)
          const sent = yield* post(JSON.stringify(payload(options, batch)))
          if (sent._tag === "retry") {
            counts.failedAttempts += 1
            if (failing === undefined)
              yield* warn(
                `failed (${sent.why}); ${pending.length} record${pending.length === 1 ? "" : "s"} wait for ` +
                  `the next attempt (the local log ${file} has them)`
              )
            failing = sent.why
            return
          }
          pending.splice(0, batch.length)
          if (sent._tag === "refused") {
            counts.failedAttempts += 1
            counts.dropped += batch.length
            yield* warn(
              `the collector refused ${batch.length} record${batch.length === 1 ? "" : "s"} ` +
                `(${sent.why}): not exported (the local log ${file} has them)`
            )
            continue
          }
          counts.exported += batch.length - Math.min(sent.rejected, batch.length)
          if (sent.rejected > 0) {
            counts.dropped += Math.min(sent.rejected, batch.length)
            yield* warn(
              `the collector rejected ${sent.rejected} of ${batch.length} ` +
                `records${sent.detail === "" ? "" : ` (${sent.detail})`} (the local log ${file} has them)`
            )
          }
          if (failing !== undefined) {
            yield* warn(`works again (${counts.failedAttempts} failed attempt${counts.failedAttempts === 1 ? "" : "s"} so far)`)
            failing = undefined
          }
        }
      })
    )

    // Every interval, in the background, for as long as the writer's scope is open.
    yield* Effect.sleep(Duration.millis(Math.max(10, options.exportIntervalMs ?? 1000))).pipe(
      Effect.andThen(sendAll),
      Effect.forever,
      Effect.forkIn(scope)
    )
    // On close (after the writer's closing records, which are pushed first): what is left, at most closeTimeoutMs.
    yield* Scope.addFinalizer(
      scope,
      Effect.gen(function* () {
        yield* sendAll.pipe(Effect.timeoutOption(Duration.millis(options.closeTimeoutMs ?? 1000)))
        if (pending.length > 0) {
          counts.dropped += pending.length
          yield* warn(
            `${pending.length} record${pending.length === 1 ? " was" : "s were"} not exported before ` +
              `the writer closed ` +
              `(${failing ?? `no answer within ${options.closeTimeoutMs ?? 1000} ms`}); they are in the ` +
              `local log ${file} only`
          )
          pending.splice(0)
        }
      })
    )

    return {
      push: (item) =>
        Effect.gen(function* () {
          pending.push(logRecord(item))
          if (pending.length > MAX_PENDING) {
            const over = pending.length - MAX_PENDING
            pending.splice(0, over)
            counts.dropped += over
            if (!overflowing)
              yield* warn(
                `more than ${MAX_PENDING} records wait (the collector is away); the oldest are given up (the local log ${file} has them)`
              )
            overflowing = true
          } else if (overflowing && pending.length < MAX_PENDING / 2) overflowing = false
          if (pending.length >= BATCH && failing === undefined) yield* Effect.forkIn(sendAll, scope)
        }),
      stats: Effect.sync(() => ({
        endpoint: url,
        exported: counts.exported,
        pending: pending.length,
        failedAttempts: counts.failedAttempts,
        dropped: counts.dropped
      }))
    }
  })

// ---------------------------------------------------------------------------------------------
// Reading an export

/** One audit log record found in an export: where (the payload's line, the record's place in it) and what. @internal */
export interface Found {
  /** The line of the file the payload is on (from 1). */
  readonly line: number
  /** The log record's place among the audit records of that payload (from 1). */
  readonly index: number
  /** The body, when it is a string. */
  readonly body: string | undefined
  readonly attributes: Readonly<Record<string, unknown>>
  /** Attribute names the log record has more than once (the first value is in `attributes`). */
  readonly duplicates: ReadonlyArray<string>
  /** The log record's own fields, as received: checked against the record's body. */
  readonly fields: {
    readonly timeUnixNano: unknown
    readonly severityNumber: unknown
    readonly severityText: unknown
    readonly eventName: unknown
  }
  /** The resource's attributes (`service.name`...), and the names it has more than once. */
  readonly resource: Readonly<Record<string, unknown>>
  readonly resourceDuplicates: ReadonlyArray<string>
}

/** Attributes as plain values (the first of a name given twice), and the names given more than once. */
const attributesOf = (value: unknown): { readonly values: Record<string, unknown>; readonly duplicates: ReadonlyArray<string> } => {
  const values: Record<string, unknown> = {}
  const seen = new Set<string>()
  const duplicates = new Set<string>()
  for (const kv of list(value)) {
    const entry = kv as { key?: unknown; value?: unknown } | undefined
    if (typeof entry?.key !== "string") continue
    if (seen.has(entry.key)) duplicates.add(entry.key)
    else {
      seen.add(entry.key)
      Object.defineProperty(values, entry.key, { value: jsonValue(entry.value), enumerable: true, writable: true, configurable: true })
    }
  }
  return { values, duplicates: [...duplicates] }
}

const list = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/** An OTLP/JSON AnyValue as a plain value; arrays nested deeper than 16 (not written by the exporter) are left out. */
const jsonValue = (value: unknown, depth = 0): unknown => {
  if (!Predicate.isObject(value) || depth > 16) return undefined
  const v = value as Record<string, unknown>
  if ("stringValue" in v) return v["stringValue"]
  if ("boolValue" in v) return v["boolValue"]
  if ("intValue" in v) return Number(v["intValue"])
  if ("doubleValue" in v) return Number(v["doubleValue"])
  if ("arrayValue" in v)
    return list((v["arrayValue"] as { values?: unknown } | undefined)?.values).map((item) => jsonValue(item, depth + 1))
  return undefined
}

/**
 * The audit records in an export: every `resourceLogs[].scopeLogs[].logRecords[]` with the
 * attribute `agent_hooks.audit.kind`, or whose body is an audit line; other log records are
 * counted and skipped. The file is one OTLP/JSON payload per line (a collector's file exporter),
 * or one JSON document (a payload, or an array of them).
 * @internal
 */
export const readExport = (
  text: string
): {
  readonly found: ReadonlyArray<Found>
  readonly malformed: ReadonlyArray<{ readonly line: number; readonly message: string }>
  readonly payloads: number
  readonly logRecords: number
  readonly skipped: number
} => {
  const lines = text.split("\n")
  let documents: Array<{ readonly line: number; readonly value: unknown }> = []
  const malformed: Array<{ line: number; message: string }> = []
  lines.forEach((part, i) => {
    if (part.trim() === "") return
    try {
      documents.push({ line: i + 1, value: JSON.parse(part) })
    } catch {
      malformed.push({
        line: i + 1,
        message: `line ${i + 1} is not JSON (expected one OTLP/JSON logs payload per line, as a collector's file exporter writes them)`
      })
    }
  })
  if (malformed.length > 0) {
    // One pretty-printed document (a payload, or an array of payloads) is read whole.
    try {
      const whole = JSON.parse(text) as unknown
      documents = (Array.isArray(whole) ? whole : [whole]).map((value) => ({ line: 1, value }))
      malformed.splice(0)
    } catch {
      // the lines that are not JSON stay malformed
    }
  }
  const found: Array<Found> = []
  let logRecords = 0
  let skipped = 0
  for (const { line, value } of documents) {
    if (!Predicate.isObject(value) || !Array.isArray((value as Record<string, unknown>)["resourceLogs"])) {
      malformed.push({ line, message: `line ${line} is not an OTLP logs payload (no "resourceLogs" array)` })
      continue
    }
    let index = 0
    for (const resource of list((value as Record<string, unknown>)["resourceLogs"])) {
      const resourceAttributes = attributesOf(
        ((resource as Record<string, unknown> | undefined)?.["resource"] as Record<string, unknown> | undefined)?.["attributes"]
      )
      for (const scope of list((resource as Record<string, unknown> | undefined)?.["scopeLogs"])) {
        for (const record of list((scope as Record<string, unknown> | undefined)?.["logRecords"])) {
          logRecords += 1
          const r = (Predicate.isObject(record) ? record : {}) as Record<string, unknown>
          const { values: attrs, duplicates } = attributesOf(r["attributes"])
          const body = jsonValue(r["body"])
          const isAudit = attrs["agent_hooks.audit.kind"] !== undefined || (typeof body === "string" && body.startsWith('{"v":1,"kind":"'))
          if (!isAudit) {
            skipped += 1
            continue
          }
          index += 1
          found.push({
            line,
            index,
            body: typeof body === "string" ? body : undefined,
            attributes: attrs,
            duplicates,
            fields: {
              timeUnixNano: r["timeUnixNano"],
              severityNumber: r["severityNumber"],
              severityText: r["severityText"],
              eventName: r["eventName"]
            },
            resource: resourceAttributes.values,
            resourceDuplicates: resourceAttributes.duplicates
          })
        }
      }
    }
  }
  return { found, malformed, payloads: documents.length, logRecords, skipped }
}
