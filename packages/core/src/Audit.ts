/**
 * The audit trail: an append-only JSONL file with one record per hook run and one per dispatch
 * (its outcome, with the tool and its arguments, whether a hook matched or not), each carrying the SHA-256 of the
 * previous record of its chain, so that an edited, inserted,
 * deleted or reordered record is found by {@link verify}.
 *
 * **One chain per writer, one writer at a time.** Several processes (agents, CI jobs, `serve`
 * instances, an agent's parallel tool calls) may append to one file. Each writer (one engine) keeps
 * its own chain: a random writer id, a sequence number from 1, and the hash of its own previous
 * record. Appends are single `write`s on a file opened with `O_APPEND`, taken one at a time under
 * the log's lock (`<log>.lock`, created with O_EXCL; a lock left by a writer that died is broken
 * after 2 s), so each record can name the record just before it in the file (`after`).
 *
 * **Checkpoints.** With a key (`AGENT_HOOKS_AUDIT_KEY`), a writer signs a checkpoint record with
 * HMAC-SHA-256 when it opens its chain, after every `checkpointEvery` records (100) and when it
 * closes. A cut at a record boundary, a whole chain rewritten with fresh hashes, or a chain
 * replaced by another are then reported: a checkpoint is missing or its signature is wrong.
 * A chain that ends without its closing checkpoint is reported as a notice (its writer was killed,
 * is still running, or fewer than `checkpointEvery` records were cut from its end).
 *
 * **Links between chains.** Every record names (`after`) the record just before it in the file,
 * whichever writer wrote it, and each writer names its last record in the head file `<log>.head`
 * (signed with the key, written under the lock) when it checkpoints and closes. A record or a
 * chain deleted, or a record rewritten with a fresh hash, leaves a link dangling; a cut end of the
 * log no longer has the head's record.
 *
 * **Losses.** A record that cannot be written (a full disk) becomes a `loss` record
 * ({@link LossRecord}) as soon as one can be written (the log's `<log>.reserve` gives room for it
 * at once), which `verify` reports as a problem.
 *
 * **Secrets and size.** A dispatch's record keeps the tool's input (the prompt, on prompt events)
 * after redaction (of its values, its member names, and neighbouring array strings read joined;
 * the record's matcher value, session, tool and the hook as it ran likewise) ({@link defaultRedactions} and the configured patterns replace what they match
 * with `[REDACTED:<name>]`), each string cut at `maxValueChars` and the whole at `maxInputChars`
 * of JSON; every cut is listed in the record's `cut`, with the SHA-256 of the full (redacted) value.
 *
 * Hashing: `hash` is the SHA-256 (hex) of the record's line exactly as written, without its last
 * member `,"hash":"…"`. The first record of a chain has `prev` = 64 zeros.
 *
 * **Export to a collector.** With `otlp` ({@link OtlpOptions}; the engine reads
 * `AGENT_HOOKS_AUDIT_OTLP`), each record also goes out as an OTLP/HTTP JSON log record whose body
 * is its line as written (the record's members are attributes too), and each head as one more; a
 * SIEM behind the collector keeps them, and {@link verifyExport} checks the chains again from a
 * collector's file of them. The local log stays the record: a failed export is a warning and a
 * count ({@link ExportStats}), never a gap in the file.
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type * as Scope from "effect/Scope"
import * as internal from "./internal/audit.ts"
import type { FetchLike } from "./Capabilities.ts"
import type { AuditError } from "./HookError.ts"
import type { Decision, HookStatus } from "./Verdict.ts"
import * as otlp from "./internal/auditOtlp.ts"

/**
 * The audit log could not be opened, written or read: defined with the engine's other failures in
 * `HookError` (its home), re-exported here.
 *
 * @since 0.2.0
 * @category errors
 */
export { AuditError } from "./HookError.ts"

/**
 * Fields every record has.
 *
 * @since 0.2.0
 * @category models
 */
export interface RecordBase {
  /** The format version, 1. */
  readonly v: 1
  /** The writer (one engine) whose chain the record belongs to. */
  readonly writer: string
  /** Position in the writer's chain, from 1. */
  readonly seq: number
  /** When it was written (ISO 8601, UTC). */
  readonly time: string
  /** SHA-256 of the writer's previous record (64 zeros for the first). */
  readonly prev: string
  /** SHA-256 of this record's line without its `hash` member. */
  readonly hash: string
  /**
   * The `hash` of the record just before it in the file, when it was written (64 zeros: the first
   * record of the log). Written with the log's lock held, so every record is linked to the one
   * before it, whichever writer wrote that; logs written before this was so have it on the first
   * record of each chain only. @since 0.2.0
   */
  readonly after?: string | undefined
  /**
   * On the first record of a chain whose writer exports to a collector: the resource it exports
   * under (`service.name` and the other resource attributes), so that the export's resource is
   * covered by a hash too. @since 0.2.0
   */
  readonly resource?: Readonly<Record<string, string>> | undefined
}

/**
 * What the engine records about one hook run.
 *
 * @since 0.2.0
 * @category models
 */
export interface HookRecordFields {
  /** The payload's `session_id`, or the engine's own session id. */
  readonly session: string | null
  readonly event: string
  /** The value the matchers were tested against (the tool name on tool events), `null` when none. */
  readonly matcher: string | null
  /** The payload's `tool_name`, `null` on events without a tool. @since 0.2.0 */
  readonly tool?: string | null | undefined
  /** The hook as configured: the command, or the handler type and its target (`http https://…`). */
  readonly hook: string
  /** The handler type: `command`, `http`, `prompt`, `agent`, `mcp_tool`, `module`, `cedar`, `callback`. */
  readonly type: string
  /** The settings file it came from (`null` for programmatic hooks). */
  readonly source: string | null
  readonly exitCode: number | null
  readonly signal: string | null
  readonly status: HookStatus
  readonly decision: Decision | null
  readonly timedOut: boolean
  readonly durationMs: number
}

/**
 * One hook run.
 *
 * @since 0.2.0
 * @category models
 */
export interface HookRecord extends RecordBase, HookRecordFields {
  readonly kind: "hook"
}

/**
 * What the engine records about one dispatch's outcome.
 *
 * @since 0.2.0
 * @category models
 */
export interface OutcomeRecordFields {
  readonly session: string | null
  readonly event: string
  readonly matcher: string | null
  /** The payload's `tool_name`, `null` on events without a tool. @since 0.2.0 */
  readonly tool?: string | null | undefined
  /**
   * What the agent asked for: the payload's `tool_input` on tool events, its prompt on prompt
   * events, else `null`; redacted and cut when written. @since 0.2.0
   */
  readonly input?: unknown
  readonly blocked: boolean
  readonly decision: Decision | null
  /** The blocking reason (redacted; at most 1000 characters, a longer one is cut and listed in `cut`). */
  readonly reason: string | null
  /** How many hooks ran (each has its own record before this one); 0 when none matched. */
  readonly hooks: number
}

/**
 * A value the record keeps only in part: where it was (`input.content`, `reason`), how long it was
 * (characters, after redaction) and the SHA-256 (hex) of its full redacted text, so that whoever has
 * the full value can show it is the one recorded.
 *
 * @since 0.2.0
 * @category models
 */
export interface Cut {
  readonly path: string
  readonly chars: number | null
  readonly sha256: string | null
  readonly why: string
}

/**
 * One dispatch, written after its hooks' records (none when no hook matched) and before the
 * outcome is returned.
 *
 * @since 0.2.0
 * @category models
 */
export interface OutcomeRecord extends RecordBase, OutcomeRecordFields {
  readonly kind: "outcome"
  readonly tool: string | null
  readonly input: unknown
  /** The names of the redaction patterns that replaced something in `input` or `reason`. @since 0.2.0 */
  readonly redacted: ReadonlyArray<string>
  /** What was cut from `input` or `reason`. @since 0.2.0 */
  readonly cut: ReadonlyArray<Cut>
}

/**
 * A redaction pattern: what `pattern` matches is replaced with `[REDACTED:<name>]`; with a named
 * group `secret`, only that group (`--password [REDACTED:secret-flag]`).
 *
 * @since 0.2.0
 * @category models
 */
export interface Redaction {
  readonly name: string
  readonly pattern: RegExp
}

/**
 * The redaction patterns on by default: private key blocks, cloud and forge tokens (AWS access key
 * ids, GitHub, GitLab, Slack, `sk-`/`rk-` API keys, Google API keys), JWTs, passwords in URLs,
 * `Authorization` headers and bearer tokens, `password=`/`token:`/`api_key=`... assignments and
 * `--password`/`--token` flags. Object members named like a secret (`password`, `api_key`,
 * `token`, `authorization`, `cookie`...) are replaced whole (`secret-key`).
 *
 * @since 0.2.0
 * @category redaction
 */
export const defaultRedactions: ReadonlyArray<Redaction> = internal.DEFAULT_REDACTIONS

/**
 * The head file `<log>.head`: the last record a writer vouched for, with `mac` the HMAC-SHA-256 under
 * the audit key of `agent-hooks audit head v1\n<writer>\n<seq>\n<hash>` (`null` without a key).
 *
 * @since 0.2.0
 * @category models
 */
export interface HeadFile {
  readonly v: 1
  readonly writer: string
  readonly seq: number
  readonly hash: string
  readonly time: string
  readonly mac: string | null
}

/**
 * Why a checkpoint was written.
 *
 * @since 0.2.0
 * @category models
 */
export type CheckpointReason = "open" | "periodic" | "close"

/**
 * A signed checkpoint: `mac` is the HMAC-SHA-256 (hex), under the audit key, of
 * `agent-hooks audit checkpoint v1\n<writer>\n<seq>\n<prev>\n<reason>\n<every>`.
 *
 * @since 0.2.0
 * @category models
 */
export interface CheckpointRecord extends RecordBase {
  readonly kind: "checkpoint"
  /** On a chain's first record: the hash of the last record in the file when the chain began (64 zeros: none). */
  readonly after?: string | undefined
  readonly reason: CheckpointReason
  /** The writer's checkpoint interval, in records. */
  readonly every: number
  readonly mac: string
}

/**
 * What the engine records about a reload of its settings (`watch`, `serve --watch`): a settings
 * file edited or deleted, perhaps by the agent's own tools, changes which hooks guard; the trail
 * says when, which files, what it did and which hooks it took away.
 *
 * @since 0.2.0
 * @category models
 */
export interface ReloadRecordFields {
  /** `Reloaded`: the new settings are in force; `Failed` / `Blocked`: the previous hooks stay. */
  readonly result: "Reloaded" | "Failed" | "Blocked"
  readonly files: ReadonlyArray<string>
  /** The hooks the reload took away (`event: command (file at path)`). */
  readonly dropped: ReadonlyArray<string>
  readonly message: string | null
}

/**
 * A reload of the settings.
 *
 * @since 0.2.0
 * @category models
 */
export interface ReloadRecord extends RecordBase, ReloadRecordFields {
  readonly kind: "reload"
}

/**
 * One line of the audit log.
 *
 * @since 0.2.0
 * @category models
 */
export type AuditRecord = HookRecord | OutcomeRecord | CheckpointRecord | ReloadRecord | LossRecord

/**
 * Records a writer could not write (a full disk, a lock it could not take): how many, of which
 * kinds, when, and why. Written as soon as it can be (on a full disk, into the room the log's
 * `<log>.reserve` file gives back); `verify` reports every one as a problem (`lost`): a gap in the
 * trail is never a pass.
 *
 * @since 0.2.0
 * @category models
 */
export interface LossRecord extends RecordBase {
  readonly kind: "loss"
  readonly lost: number
  readonly kinds: ReadonlyArray<string>
  readonly from: string
  readonly until: string
  readonly error: string
}

/**
 * Something `verify` found wrong; any problem makes the log fail verification.
 *
 * @since 0.2.0
 * @category models
 */
export interface Problem {
  /** The line (from 1) where the problem is. */
  readonly line: number
  readonly kind:
    | "malformed"
    | "edited"
    | "inserted"
    | "deleted"
    | "reordered"
    | "checkpoint-missing"
    | "checkpoint-wrong"
    | "head-missing"
    | "head-wrong"
    | "lost"
  readonly writer: string | null
  readonly message: string
}

/**
 * Something `verify` reports that does not fail verification: a last line torn by a crash
 * (`truncated`), a chain without its closing checkpoint (`unclosed`), checkpoints not checked for
 * want of a key (`unchecked`), a record an export holds twice (`duplicate`, {@link verifyExport}).
 *
 * @since 0.2.0
 * @category models
 */
export interface Notice {
  readonly line: number | null
  readonly kind: "truncated" | "unclosed" | "unchecked" | "duplicate"
  readonly message: string
}

/**
 * What `verify` found.
 *
 * @since 0.2.0
 * @category models
 */
export interface VerifyReport {
  /** No problem. */
  readonly ok: boolean
  readonly records: number
  readonly writers: number
  readonly checkpoints: number
  readonly checkedCheckpoints: number
  /** The head file was checked (given to `verify`, or found missing). @since 0.2.0 */
  readonly headChecked: boolean
  /** In line order; the first is the earliest place where the log was changed. */
  readonly problems: ReadonlyArray<Problem>
  readonly notices: ReadonlyArray<Notice>
}

/**
 * How a writer appends.
 *
 * @since 0.2.0
 * @category models
 */
export interface WriterOptions {
  /** The audit log (absolute path; its folder is created when missing). */
  readonly file: string
  /** The HMAC key for checkpoints; none are written without one. */
  readonly key?: string | undefined
  /** A checkpoint after at most this many records (default 100). */
  readonly checkpointEvery?: number | undefined
  /** The writer id (default: `w-` and 16 random hex digits). */
  readonly writer?: string | undefined
  /** The clock for `time` (default: now). */
  readonly now?: (() => string) | undefined
  /**
   * More redaction patterns (a RegExp, or a string: a regular expression, or `/body/flags`); a
   * pattern that does not compile, or matches the empty string, fails `makeWriter`. @since 0.2.0
   */
  readonly redact?: ReadonlyArray<string | RegExp | Redaction> | undefined
  /** `false`: only the patterns of `redact` (default: {@link defaultRedactions} too). @since 0.2.0 */
  readonly defaultRedactions?: boolean | undefined
  /** The longest string of an input a record keeps (default 4096 characters). @since 0.2.0 */
  readonly maxValueChars?: number | undefined
  /** The longest input a record keeps, as JSON (default 65536 characters). @since 0.2.0 */
  readonly maxInputChars?: number | undefined
  /** Also send every record to a collector as an OTLP log record (see {@link OtlpOptions}). @since 0.2.0 */
  readonly otlp?: OtlpOptions | undefined
}

/**
 * Where and how the records go out as OTLP/HTTP JSON log records (`POST <endpoint>`, one
 * `ExportLogsServiceRequest` per batch): the body of each log record is the record's line exactly
 * as written (its hash covers it), its attributes are `agent_hooks.audit.<member>` for each member
 * (`writer` is the chain id; `seq`, `hash`, `prev`; objects as JSON text) plus `gen_ai.tool.name`
 * and `gen_ai.conversation.id`, its `eventName` is `agent_hooks.audit.<kind>`, and it carries the
 * dispatch span's `traceId`/`spanId` when telemetry is on. Each head the writer writes goes out
 * too (`agent_hooks.audit.head`). Batches leave in the background every `exportIntervalMs`, and
 * when the writer closes (waiting at most `closeTimeoutMs`).
 *
 * @since 0.2.0
 * @category models
 */
export interface OtlpOptions {
  /** The logs URL, used as given (`http://collector:4318/v1/logs`). */
  readonly endpoint: string
  /** Request headers (an API key). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** The resource's `service.name` (default `agent-hooks`). */
  readonly serviceName?: string | undefined
  /** More resource attributes (`host.name`, `team`...). */
  readonly resourceAttributes?: Readonly<Record<string, string>> | undefined
  /** How often batches are sent (default 1000 ms). */
  readonly exportIntervalMs?: number | undefined
  /** How long closing the writer waits for the last batches (default 1000 ms). */
  readonly closeTimeoutMs?: number | undefined
  /** Where failures are said (once per streak, and what was given up). */
  readonly onWarning?: ((warning: string) => void) | undefined
  /** The fetch to send with (default: the runtime's). */
  readonly fetch?: FetchLike | undefined
}

/**
 * What the export has done so far.
 *
 * @since 0.2.0
 * @category models
 */
export interface ExportStats {
  readonly endpoint: string
  /** Records the collector accepted. */
  readonly exported: number
  /** Records waiting for the next attempt. */
  readonly pending: number
  /** Requests that failed (each said once per streak of failures). */
  readonly failedAttempts: number
  /**
   * Records given up: refused or rejected by the collector, too many waiting, or unsent when the writer closed. They
   * are in the local log only.
   */
  readonly dropped: number
}

/**
 * One writer's appending end of the audit log.
 *
 * @since 0.2.0
 * @category models
 */
export interface Writer {
  readonly writer: string
  /** Appends a hook run's record (one `write`); resolves once it is in the file. */
  readonly hook: (fields: HookRecordFields) => Effect.Effect<void, AuditError>
  /** Appends an outcome's record. */
  readonly outcome: (fields: OutcomeRecordFields) => Effect.Effect<void, AuditError>
  /** Appends a reload's record. @since 0.2.0 */
  readonly reload: (fields: ReloadRecordFields) => Effect.Effect<void, AuditError>
  /** Writes the closing checkpoint; also done when the scope closes. */
  readonly close: Effect.Effect<void, AuditError>
  /** What the export to a collector has done; `undefined` without `otlp`. @since 0.2.0 */
  readonly exportStats: Effect.Effect<ExportStats | undefined>
}

/**
 * Opens `file` for appending (`O_APPEND`, mode 0600) and starts a new chain in it.
 *
 * @since 0.2.0
 * @category writing
 */
export const makeWriter: (options: WriterOptions) => Effect.Effect<Writer, AuditError, FileSystem.FileSystem | Path.Path | Scope.Scope> =
  internal.makeWriter

/**
 * Checks every chain in the text of an audit log, and the links between chains. With `key`, also
 * every checkpoint. With `head` (the text of `<log>.head`, `null` when it does not exist, see
 * {@link readHead}), also that the log still has the record the head names.
 *
 * @since 0.2.0
 * @category reading
 */
export const verify: (
  text: string,
  options?: { readonly key?: string | undefined; readonly head?: string | null | undefined }
) => Effect.Effect<VerifyReport, AuditError> = internal.verify

/**
 * What {@link verifyExport} found: the report of {@link verify} (a problem's `line` is the line of
 * the export file its payload is on), and what the file held.
 *
 * @since 0.2.0
 * @category models
 */
export interface ExportReport extends VerifyReport {
  /** OTLP payloads read (lines of the file). */
  readonly payloads: number
  /** Log records in them, audit records or not. */
  readonly logRecords: number
  /** Log records that are not audit records (other services' logs): not checked. */
  readonly skipped: number
  /** Audit records received more than once (an exporter's retry): each is checked once. */
  readonly duplicates: number
  /** Head records found (one per writer is checked: its last). */
  readonly heads: number
}

/**
 * Checks the chains again from what a collector received: the text of a file of OTLP/JSON logs
 * payloads, one per line (the collector's `file` exporter), or one JSON document. Each audit
 * record's body must hash to its `hash`; every field of its log record must be what the writer
 * sent for that body (time, severity, event name, each attribute once with its value, none added
 * or missing, and the resource its writer recorded); the records, put back in the log's order by
 * their `after` links (transport order does not count), must chain and link as in a local log;
 * each writer's last exported head must name a record of its chain
 * (signed, with `key`). A record dropped, edited or forged in the exported stream is a problem, as in
 * {@link verify}. An exact copy (an exporter's retry) is not.
 *
 * @since 0.2.0
 * @category reading
 */
export const verifyExport: (text: string, options?: { readonly key?: string | undefined }) => Effect.Effect<ExportReport, AuditError> =
  internal.verifyExport

/**
 * The export's settings from an environment and the engine option (the option wins): with
 * `AGENT_HOOKS_AUDIT_OTLP` a URL, that logs endpoint; `1`/`true`/`on`, the standard
 * `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/logs`;
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_LOGS_HEADERS`, `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` as the OpenTelemetry SDKs read them. `undefined`: off; `problem`: a
 * setting that cannot be used.
 *
 * @since 0.2.0
 * @category constructors
 */
export const otlpOptionsFrom: (
  env: Readonly<Record<string, string | undefined>>,
  option: Partial<OtlpOptions> | false | undefined
) => OtlpOptions | { readonly problem: string } | undefined = otlp.optionsFrom

/**
 * The head file of an audit log: `<file>.head`.
 *
 * @since 0.2.0
 * @category reading
 */
export const headPath: (file: string) => string = internal.headPath

/**
 * Reads an audit log's head file; `null` when there is none.
 *
 * @since 0.2.0
 * @category reading
 */
export const readHead: (file: string) => Effect.Effect<string | null, AuditError, FileSystem.FileSystem> = internal.readHead

/**
 * The records of an audit log as they stand (no checking), the lines that are not records, and a
 * last line torn by a crash.
 *
 * @since 0.2.0
 * @category reading
 */
export const parse: (text: string) => {
  readonly records: ReadonlyArray<{ readonly line: number; readonly record: AuditRecord }>
  readonly bad: ReadonlyArray<{ readonly line: number; readonly text: string }>
  readonly torn: { readonly line: number; readonly text: string } | undefined
} = internal.parse

/**
 * Reads an audit log's text.
 *
 * @since 0.2.0
 * @category reading
 */
export const readFile: (file: string) => Effect.Effect<string, AuditError, FileSystem.FileSystem> = internal.readFile
