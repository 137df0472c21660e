import { Audit } from "@agent-hooks/core"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import { Console, Effect } from "effect"
import { Failed } from "../ExitCode.ts"

/** Options of `agent-hooks audit verify`. */
export interface VerifyOptions {
  readonly file: string
  readonly json: boolean
}

/** Options of `agent-hooks audit show`. */
export interface ShowOptions {
  readonly file: string
  readonly json: boolean
}

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
    const text = yield* read(options.file)
    const report = yield* Audit.verify(text, { key: key() }).pipe(Effect.mapError((error) => new Failed({ message: error.message })))
    if (options.json) {
      yield* Console.log(JSON.stringify({ file: options.file, ...report }))
    } else {
      const checkpoints = report.checkpoints === 0
        ? "no checkpoints"
        : `${report.checkpoints} checkpoint${report.checkpoints === 1 ? "" : "s"}${report.checkedCheckpoints > 0 ? " (signatures checked)" : " (not checked)"}`
      yield* Console.log(
        `${options.file}: ${report.records} record${report.records === 1 ? "" : "s"}, ${report.writers} writer${report.writers === 1 ? "" : "s"}, ${checkpoints}`
      )
      for (const problem of report.problems) yield* Console.log(`  ${problem.kind}: ${problem.message}`)
      for (const notice of report.notices) yield* Console.log(`  note (${notice.kind}): ${notice.message}`)
      yield* Console.log(report.ok ? "ok: no record was edited, inserted, deleted or reordered" : `FAILED: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}`)
    }
    if (!report.ok) {
      const first = report.problems[0]!
      return yield* new Failed({ message: `${options.file}:${first.line}: ${first.message}` })
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
    const text = yield* read(options.file)
    const { records, bad, torn } = Audit.parse(text)
    if (options.json) {
      for (const { line, record } of records) yield* Console.log(JSON.stringify({ line, ...record }))
    } else {
      for (const { line, record } of records) {
        yield* Console.log(`${String(line).padStart(5)}  ${record.time}  ${record.writer}#${record.seq}  ${describe(record)}`)
      }
    }
    for (const { line } of bad) yield* Console.error(`agent-hooks: ${options.file}:${line}: not an audit record (run agent-hooks audit verify)`)
    if (torn !== undefined) yield* Console.error(`agent-hooks: ${options.file}:${torn.line}: the last line is cut short (a writer stopped mid-record)`)
  }).pipe(Effect.provide(NodeFileSystem.layer))
