import * as Audit from "@agent-hooks/core/Audit"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Failed } from "../ExitCode.ts"
import { withPlan } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"

/** Options of `agent-hooks audit verify`: FILE, else the `auditLog` of the settings. */
export interface VerifyOptions extends SettingsOptions {
  readonly file: Option.Option<string>
  readonly json: boolean
}

/** Options of `agent-hooks audit show`. */
export type ShowOptions = VerifyOptions

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
                plan.settings.files.filter((file) => file.found).map((file) => file.path).join(", ") || "no settings file"
              })`
            })
          ))
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
export const verify = (options: VerifyOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const file = yield* fileOf(options)
    const text = yield* read(file)
    const report = yield* Audit.verify(text, { key: key() }).pipe(Effect.mapError((error) => new Failed({ message: error.message })))
    if (options.json) {
      yield* Console.log(JSON.stringify({ file, ...report }))
    } else {
      const checkpoints = report.checkpoints === 0
        ? "no checkpoints"
        : `${report.checkpoints} checkpoint${report.checkpoints === 1 ? "" : "s"}${report.checkedCheckpoints > 0 ? " (signatures checked)" : " (not checked)"}`
      yield* Console.log(
        `${file}: ${report.records} record${report.records === 1 ? "" : "s"}, ${report.writers} writer${report.writers === 1 ? "" : "s"}, ${checkpoints}`
      )
      for (const problem of report.problems) yield* Console.log(`  ${problem.kind}: ${problem.message}`)
      for (const notice of report.notices) yield* Console.log(`  note (${notice.kind}): ${notice.message}`)
      yield* Console.log(report.ok ? "ok: no record was edited, inserted, deleted or reordered" : `FAILED: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}`)
    }
    if (!report.ok) {
      const first = report.problems[0]!
      return yield* new Failed({ message: `${file}:${first.line}: ${first.message}` })
    }
  }).pipe(Effect.provide(NodeFileSystem.layer))

const cell = (value: unknown): string => (value === null || value === undefined ? "-" : String(value))

const describe = (record: Audit.AuditRecord): string => {
  switch (record.kind) {
    case "hook":
      return `hook     ${record.event}${record.matcher === null ? "" : `(${record.matcher})`}  ${JSON.stringify(record.hook)}  ${record.status}` +
        `  exit ${cell(record.exitCode)}${record.timedOut ? " timed out" : ""}  decision ${cell(record.decision)}  ${record.durationMs.toFixed(1)} ms  from ${cell(record.source)}`
    case "outcome":
      return `outcome  ${record.event}${record.matcher === null ? "" : `(${record.matcher})`}  ${record.blocked ? "BLOCKED" : "allowed"}` +
        `  decision ${cell(record.decision)}  ${record.hooks} hook${record.hooks === 1 ? "" : "s"}${record.reason === null ? "" : `  reason ${JSON.stringify(record.reason)}`}`
    case "checkpoint":
      return `checkpoint (${record.reason}, every ${record.every})`
  }
}

/**
 * `agent-hooks audit show FILE`: the records as they stand, one line each (`--json`: one JSON object
 * per record, with its line number). It does not check the chains (that is `audit verify`).
 *
 * @internal
 */
export const show = (options: ShowOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const file = yield* fileOf(options)
    const text = yield* read(file)
    const { records, bad, torn } = Audit.parse(text)
    if (options.json) {
      for (const { line, record } of records) yield* Console.log(JSON.stringify({ line, ...record }))
    } else {
      for (const { line, record } of records) {
        yield* Console.log(`${String(line).padStart(5)}  ${record.time}  ${record.writer}#${record.seq}  ${describe(record)}`)
      }
    }
    for (const { line } of bad) yield* Console.error(`agent-hooks: ${file}:${line}: not an audit record (run agent-hooks audit verify)`)
    if (torn !== undefined) yield* Console.error(`agent-hooks: ${file}:${torn.line}: the last line is cut short (a writer stopped mid-record)`)
  }).pipe(Effect.provide(NodeFileSystem.layer))
