import * as Audit from "@agent-hooks/core/Audit"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Failed } from "../ExitCode.ts"
import { withPlan } from "./engine.ts"
import { plural } from "./render.ts"
import type { SettingsOptions } from "./engine.ts"

/** Options of `agent-hooks audit verify`: FILE, else the `auditLog` of the settings. */
export interface VerifyOptions extends SettingsOptions {
  readonly file: Option.Option<string>
  readonly json: boolean
  /** `--head FILE`: the head file to check against (default: the log's own `FILE.head`). */
  readonly head?: Option.Option<string> | undefined
  /** `--otlp FILE`: check the records a collector received (OTLP/JSON logs payloads) instead. */
  readonly otlp?: Option.Option<string> | undefined
}

/** Options of `agent-hooks audit show`: the filters are all optional; records pass when they match every one given. */
export interface ShowOptions extends VerifyOptions {
  readonly session?: Option.Option<string> | undefined
  readonly tool?: Option.Option<string> | undefined
  readonly since?: Option.Option<string> | undefined
  readonly until?: Option.Option<string> | undefined
}

/** FILE when given, else the `auditLog` the settings name (without starting an engine, which would open the log). */
const fileOf = (options: VerifyOptions): Effect.Effect<string, Failed> =>
  Option.match(options.file, {
    onSome: Effect.succeed,
    onNone: () =>
      withPlan(options, undefined, (plan) =>
        plan.settings.auditLog !== undefined
          ? Effect.succeed(plan.settings.auditLog)
          : Effect.fail(
              new Failed({
                message: `no FILE given, and the settings set no auditLog (read: ${
                  plan.settings.files
                    .filter((file) => file.found)
                    .map((file) => file.path)
                    .join(", ") || "no settings file"
                })`
              })
            )
      )
  })

const read = (file: string) => Audit.readFile(file).pipe(Effect.mapError((error) => new Failed({ message: error.message })))

const key = (): string | undefined => {
  const value = process.env["AGENT_HOOKS_AUDIT_KEY"]
  return value === undefined || value === "" ? undefined : value
}

/**
 * `agent-hooks audit verify FILE`: checks every writer's chain (and, with `AGENT_HOOKS_AUDIT_KEY`,
 * every checkpoint). Prints a summary, the problems and the notices; exit 1 when the log was changed,
 * naming the first changed line.
 *
 * @internal
 */
export const verify = (options: VerifyOptions): Effect.Effect<void, Failed> => {
  const exported = options.otlp === undefined ? undefined : Option.getOrUndefined(options.otlp)
  return exported === undefined ? verifyLog(options) : verifyExport(options, exported)
}

/**
 * Prints a verify report (`--json`: one object), the summary line made by `summary` from the
 * checkpoint count; fails naming the first problem's place.
 */
const printReport = (
  file: string,
  report: Audit.VerifyReport,
  json: boolean,
  summary: (checkpoints: string) => string,
  ok: string
): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    if (json) {
      yield* Console.log(JSON.stringify({ file, ...report }))
    } else {
      const checkpoints =
        report.checkpoints === 0
          ? "no checkpoints"
          : `${plural(report.checkpoints, "checkpoint")}${report.checkedCheckpoints > 0 ? " (signatures checked)" : " (not checked)"}`
      yield* Console.log(summary(checkpoints))
      for (const problem of report.problems) yield* Console.log(`  ${problem.kind}: ${problem.message}`)
      for (const notice of report.notices) yield* Console.log(`  note (${notice.kind}): ${notice.message}`)
      yield* Console.log(report.ok ? ok : `FAILED: ${plural(report.problems.length, "problem")}`)
    }
    if (!report.ok) {
      const first = report.problems[0]!
      return yield* new Failed({ message: `${file}:${first.line}: ${first.message}` })
    }
  })

const verifyLog = (options: VerifyOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const file = yield* fileOf(options)
    const text = yield* read(file)
    // The head file names the last record a writer vouched for: without it, the end of the log could be cut unseen.
    const given = options.head === undefined ? undefined : Option.getOrUndefined(options.head)
    const head =
      given === undefined
        ? yield* Audit.readHead(file).pipe(Effect.mapError((error) => new Failed({ message: error.message })))
        : yield* read(given).pipe(Effect.mapError((error) => new Failed({ message: `--head: ${error.message}` })))
    const report = yield* Audit.verify(text, { key: key(), head }).pipe(Effect.mapError((error) => new Failed({ message: error.message })))
    yield* printReport(
      file,
      report,
      options.json,
      (checkpoints) =>
        `${file}: ${plural(report.records, "record")}, ${plural(report.writers, "writer")}, ${checkpoints}${head === null ? ", no head file" : ", head file checked"}`,
      "ok: no record was edited, inserted, deleted or reordered, and no chain is missing"
    )
  }).pipe(Effect.provide(NodeFileSystem.layer))

/**
 * `agent-hooks audit verify --otlp FILE`: the chains checked again from what a collector received.
 * Same output and exit status as for a local log; places are `payload line N, record K`.
 */
const verifyExport = (options: VerifyOptions, file: string): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    if (Option.isSome(options.file)) return yield* new Failed({ message: `give either an audit log (FILE) or --otlp FILE, not both` })
    if (options.head !== undefined && Option.isSome(options.head))
      return yield* new Failed({ message: `--head applies to a local log; an export carries its writers' heads` })
    const text = yield* read(file)
    const report = yield* Audit.verifyExport(text, { key: key() }).pipe(Effect.mapError((error) => new Failed({ message: error.message })))
    yield* printReport(
      file,
      report,
      options.json,
      (checkpoints) =>
        `${file} (OTLP export): ${plural(report.payloads, "payload")}, ${plural(report.records, "record")}, ${plural(report.writers, "writer")}, ${checkpoints}, ${plural(
          report.heads,
          "head"
        )}${report.skipped === 0 ? "" : `, ${report.skipped} other log records skipped`}`,
      "ok: no exported record was edited, dropped or forged, and no chain is missing"
    )
  }).pipe(Effect.provide(NodeFileSystem.layer))

const cell = (value: unknown): string => (value === null || value === undefined ? "-" : String(value))

/** The longest input `show` prints on a line; `--json` prints it whole. */
const SHOWN_INPUT = 300

const inputText = (input: unknown): string => {
  const json = JSON.stringify(input) ?? "null"
  return json.length <= SHOWN_INPUT
    ? json
    : `${json.slice(0, SHOWN_INPUT)}… (${json.length - SHOWN_INPUT} more characters: --json prints all)`
}

const describe = (record: Audit.AuditRecord): string => {
  switch (record.kind) {
    case "hook":
      return (
        `hook     ${record.event}${record.matcher === null ? "" : `(${record.matcher})`}  ${JSON.stringify(record.hook)}  ${record.status}` +
        `  exit ${cell(record.exitCode)}${record.timedOut ? " timed out" : ""}  decision ${cell(record.decision)}  ${record.durationMs.toFixed(1)} ms  from ${cell(record.source)}`
      )
    case "outcome": {
      const redacted = record.redacted === undefined || record.redacted.length === 0 ? "" : `  redacted ${record.redacted.join(",")}`
      const cut = (record.cut ?? [])
        .map((c) => `  cut ${c.path}${c.chars === null ? "" : ` (${c.chars} chars, sha256 ${c.sha256})`}`)
        .join("")
      return (
        `outcome  ${record.event}${record.matcher === null ? "" : `(${record.matcher})`}  ${record.blocked ? "BLOCKED" : "allowed"}` +
        `  decision ${cell(record.decision)}  ${record.hooks} hook${record.hooks === 1 ? "" : "s"}${record.reason === null ? "" : `  reason ${JSON.stringify(record.reason)}`}` +
        `  session ${cell(record.session)}${record.tool === undefined || record.tool === null ? "" : `  tool ${record.tool}`}` +
        `${record.input === undefined || record.input === null ? "" : `  input ${inputText(record.input)}`}${redacted}${cut}`
      )
    }
    case "checkpoint":
      return `checkpoint (${record.reason}, every ${record.every})`
    case "reload":
      return (
        `reload   ${record.result}  ${record.files.join(", ")}${record.dropped.length === 0 ? "" : `  dropped ${record.dropped.join("; ")}`}` +
        `${record.message === null ? "" : `  ${JSON.stringify(record.message)}`}`
      )
    case "loss":
      return `LOSS     ${record.lost} record${record.lost === 1 ? "" : "s"} (${record.kinds.join(", ")}) not written between ${record.from} and ${record.until}: ${record.error}`
  }
}

/** A time bound of `--since`/`--until`, in ms; a clear error for one that is not a time. */
const timeOf = (flag: string, value: Option.Option<string> | undefined): Effect.Effect<number | undefined, Failed> => {
  if (value === undefined || Option.isNone(value)) return Effect.succeed(undefined)
  const ms = Date.parse(value.value)
  return Number.isNaN(ms)
    ? Effect.fail(
        new Failed({
          message: `--${flag}: expected an ISO 8601 date or time (2026-11-25, 2026-11-25T10:00:00Z), got ${JSON.stringify(value.value)}`
        })
      )
    : Effect.succeed(ms)
}

const optionValue = (value: Option.Option<string> | undefined): string | undefined =>
  value === undefined ? undefined : Option.getOrUndefined(value)

/**
 * `agent-hooks audit show FILE`: the records as they stand, one line each (`--json`: one JSON object
 * per record, with its line number), filtered by `--session`, `--tool`, `--since` and `--until`. It
 * does not check the chains (that is `audit verify`).
 *
 * @internal
 */
export const show = (options: ShowOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const since = yield* timeOf("since", options.since)
    const until = yield* timeOf("until", options.until)
    const session = optionValue(options.session)
    const tool = optionValue(options.tool)
    const file = yield* fileOf(options)
    const text = yield* read(file)
    const { records, bad, torn } = Audit.parse(text)
    const filtered = session !== undefined || tool !== undefined || since !== undefined || until !== undefined
    const shown = records.filter(({ record }) => {
      if (!filtered) return true
      if (record.kind === "checkpoint") return false
      // a reload belongs to no session or tool: shown by time alone
      // a reload, or a loss, belongs to no session or tool: shown by time alone (a loss always: its records may be any)
      if (record.kind === "loss") return true
      if (record.kind === "reload") {
        if (session !== undefined || tool !== undefined) return false
        const at = Date.parse(record.time)
        return (since === undefined || at >= since) && (until === undefined || at < until)
      }
      if (session !== undefined && record.session !== session) return false
      if (tool !== undefined && (record.tool ?? (record.matcher === tool ? tool : null)) !== tool) return false
      const time = Date.parse(record.time)
      return (since === undefined || time >= since) && (until === undefined || time < until)
    })
    if (options.json) {
      for (const { line, record } of shown) yield* Console.log(JSON.stringify({ line, ...record }))
    } else {
      for (const { line, record } of shown) {
        yield* Console.log(`${String(line).padStart(5)}  ${record.time}  ${record.writer}#${record.seq}  ${describe(record)}`)
      }
    }
    for (const { line } of bad) yield* Console.error(`agent-hooks: ${file}:${line}: not an audit record (run agent-hooks audit verify)`)
    if (torn !== undefined)
      yield* Console.error(`agent-hooks: ${file}:${torn.line}: the last line is cut short (a writer stopped mid-record)`)
  }).pipe(Effect.provide(NodeFileSystem.layer))
