import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import * as Predicate from "effect/Predicate"
import * as Semaphore from "effect/Semaphore"
import type * as Scope from "effect/Scope"
import * as Digest from "effect/crypto/Digest"
import * as Mac from "effect/crypto/Mac"
import * as SecureRandom from "effect/crypto/SecureRandom"
import * as Hex from "effect/encoding/Hex"
import type {
  AuditRecord,
  CheckpointReason,
  CheckpointRecord,
  HookRecordFields,
  Notice,
  OutcomeRecordFields,
  Problem,
  VerifyReport,
  WriterOptions
} from "../Audit.ts"
import { AuditError } from "../Audit.ts"

interface TextCodec {
  encode(text: string): Uint8Array
}
const utf8: TextCodec = new (globalThis as unknown as { readonly TextEncoder: new() => TextCodec }).TextEncoder()

/** The `prev` of the first record of every chain. @internal */
export const GENESIS = "0".repeat(64)
/** A writer signs a checkpoint after at most this many records (when it has a key). @internal */
export const DEFAULT_CHECKPOINT_EVERY = 100
/** The longest outcome reason kept in a record; the record is evidence, not a transcript. */
const MAX_REASON = 1000
/** Every record's line starts so; inside a JSON string the quotes would be escaped. */
const RECORD_START = '{"v":1,"kind":"'
const HASH_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/

const crypto = Layer.mergeAll(Digest.layerWebCrypto, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

const sha256 = (text: string): Effect.Effect<string> =>
  Effect.flatMap(Digest.Digest, (digest) => digest.digestHex(Digest.sha256, utf8.encode(text))).pipe(Effect.provide(crypto))

/** What a checkpoint's HMAC covers: the chain head it vouches for and where it stands. */
const macInput = (record: { readonly writer: string; readonly seq: number; readonly prev: string; readonly reason: string; readonly every: number }) =>
  `agent-hooks audit checkpoint v1\n${record.writer}\n${record.seq}\n${record.prev}\n${record.reason}\n${record.every}`

const hmac = (key: string, text: string): Effect.Effect<string, AuditError> =>
  Effect.gen(function*() {
    const macKey = yield* Mac.key(Mac.hmacSha256, utf8.encode(key))
    const mac = yield* Mac.Mac
    return Hex.encode(yield* mac.sign(macKey, utf8.encode(text)))
  }).pipe(
    Effect.provide(crypto),
    Effect.mapError((error) => new AuditError({ file: "", detail: `cannot compute the checkpoint HMAC: ${error.message}` }))
  )

/**
 * Seals a record: its `hash` is the SHA-256 of the line's own text without the `hash` member, so a
 * verifier hashes exactly the bytes in the file (no re-serialisation, no key-order question).
 * @internal
 */
export const seal = (body: Readonly<Record<string, unknown>>): Effect.Effect<string> => {
  const text = JSON.stringify(body)
  return Effect.map(sha256(text), (hash) => `${text.slice(0, -1)},"hash":"${hash}"}`)
}

/** @internal */
export const makeWriter = (
  options: WriterOptions
): Effect.Effect<
  {
    readonly writer: string
    readonly hook: (fields: HookRecordFields) => Effect.Effect<void, AuditError>
    readonly outcome: (fields: OutcomeRecordFields) => Effect.Effect<void, AuditError>
    readonly close: Effect.Effect<void, AuditError>
  },
  AuditError,
  FileSystem.FileSystem | Path.Path | Scope.Scope
> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = options.file
    const failed = (what: string) => (error: { readonly message: string }) => new AuditError({ file, detail: `${what}: ${error.message}` })
    // O_APPEND (flag "a"): every write lands at the end of the file, whoever else appends to it.
    const open = fs.open(file, { flag: "a", mode: 0o600 })
    const handle = yield* open.pipe(
      Effect.catchTag("PlatformError", (error) =>
        error.reason._tag === "NotFound" ? Effect.andThen(fs.makeDirectory(path.dirname(file), { recursive: true }), open) : Effect.fail(error)
      ),
      Effect.mapError(failed("cannot open the audit log"))
    )
    const writer = options.writer ?? `w-${Hex.random(16)}`
    const key = options.key !== undefined && options.key !== "" ? options.key : undefined
    const every = Math.max(1, options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY)
    const now = options.now ?? (() => new Date().toISOString())
    const lock = yield* Semaphore.make(1)
    let seq = 0
    let prev = GENESIS
    let sinceCheckpoint = 0
    let closed = false

    /** One record, one `write`: a line is never split between two writes (torn only by a crash mid-write). */
    const append = (kind: AuditRecord["kind"], fields: Readonly<Record<string, unknown>>) =>
      Effect.gen(function*() {
        const body = { v: 1, kind, writer, seq: seq + 1, time: now(), ...fields, prev }
        const line = yield* seal(body)
        yield* handle.writeAll(utf8.encode(`${line}\n`)).pipe(Effect.mapError(failed("cannot append to the audit log")))
        seq += 1
        prev = line.match(HASH_SUFFIX)![1]!
      })

    const checkpoint = (reason: CheckpointReason) =>
      Effect.gen(function*() {
        if (key === undefined) return
        const mac = yield* hmac(key, macInput({ writer, seq: seq + 1, prev, reason, every }))
        yield* append("checkpoint", { reason, every, mac })
        sinceCheckpoint = 0
      })

    const record = (kind: AuditRecord["kind"], fields: Readonly<Record<string, unknown>>) =>
      lock.withPermits(1)(
        Effect.gen(function*() {
          if (closed) return yield* new AuditError({ file, detail: "the audit writer is closed" })
          if (seq === 0) yield* checkpoint("open")
          yield* append(kind, fields)
          sinceCheckpoint += 1
          if (sinceCheckpoint >= every) yield* checkpoint("periodic")
        })
      )

    const close = lock.withPermits(1)(
      Effect.gen(function*() {
        if (closed) return
        if (seq > 0) yield* checkpoint("close")
        closed = true
      })
    )
    yield* Effect.addFinalizer(() => Effect.ignore(close))

    return {
      writer,
      hook: (fields: HookRecordFields) =>
        record("hook", {
          session: fields.session,
          event: fields.event,
          matcher: fields.matcher,
          hook: fields.hook,
          type: fields.type,
          source: fields.source,
          exitCode: fields.exitCode,
          signal: fields.signal,
          status: fields.status,
          decision: fields.decision,
          timedOut: fields.timedOut,
          durationMs: fields.durationMs
        }),
      outcome: (fields: OutcomeRecordFields) =>
        record("outcome", {
          session: fields.session,
          event: fields.event,
          matcher: fields.matcher,
          blocked: fields.blocked,
          decision: fields.decision,
          reason: fields.reason === null ? null : fields.reason.slice(0, MAX_REASON),
          hooks: fields.hooks
        }),
      close
    }
  })

// ---------------------------------------------------------------------------------------------
// Reading and verifying

interface Line {
  readonly line: number
  readonly text: string
}

/** @internal */
export const parse = (text: string): { readonly records: ReadonlyArray<{ readonly line: number; readonly record: AuditRecord }>; readonly bad: ReadonlyArray<Line>; readonly torn: Line | undefined } => {
  const { complete, torn } = split(text)
  const records: Array<{ line: number; record: AuditRecord }> = []
  const bad: Array<Line> = []
  for (const line of complete) {
    const record = decode(line.text)
    if (record === undefined) bad.push(line)
    else records.push({ line: line.line, record })
  }
  return { records, bad, torn }
}

/** Complete lines end with a newline; a last line without one was torn by a crash mid-write. */
const split = (text: string): { readonly complete: ReadonlyArray<Line>; readonly torn: Line | undefined } => {
  const parts = text.split("\n")
  const last = parts.pop() ?? ""
  const complete: Array<Line> = []
  parts.forEach((part, index) => {
    if (part !== "") complete.push({ line: index + 1, text: part })
  })
  return { complete, torn: last === "" ? undefined : { line: parts.length + 1, text: last } }
}

const isHex64 = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{64}$/.test(value)

const decode = (text: string): AuditRecord | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!Predicate.isObject(value) || Array.isArray(value)) return undefined
  const record = value as Record<string, unknown>
  if (
    record["v"] !== 1 || typeof record["writer"] !== "string" || !Number.isSafeInteger(record["seq"]) || (record["seq"] as number) < 1 ||
    !isHex64(record["prev"]) || !isHex64(record["hash"]) ||
    (record["kind"] !== "hook" && record["kind"] !== "outcome" && record["kind"] !== "checkpoint")
  ) return undefined
  if (record["kind"] === "checkpoint") {
    if (typeof record["mac"] !== "string" || typeof record["reason"] !== "string" || !Number.isSafeInteger(record["every"])) return undefined
  }
  return record as unknown as AuditRecord
}

interface ChainState {
  seq: number
  hash: string
  line: number
  readonly seen: Map<number, string>
  lastCheckpoint: { readonly seq: number; readonly line: number; readonly reason: string; readonly every: number } | undefined
  checkpointProblem: boolean
}

/** @internal */
export const verify = (text: string, options: { readonly key?: string | undefined } = {}): Effect.Effect<VerifyReport, AuditError> =>
  Effect.gen(function*() {
    const key = options.key !== undefined && options.key !== "" ? options.key : undefined
    const { complete, torn } = split(text)
    const problems: Array<Problem> = []
    const notices: Array<Notice> = []
    const chains = new Map<string, ChainState>()
    let records = 0
    let checkpoints = 0
    let checkedCheckpoints = 0

    // Every sequence number each writer has anywhere in the file: a gap whose records come later is a reordering.
    const present = new Map<string, Set<number>>()
    const decoded = complete.map((line) => {
      const record = decode(line.text)
      if (record !== undefined) return { ...line, record }
      // A record cut short by a crash, followed by the next writer's whole record on the same line.
      const start = line.text.lastIndexOf(RECORD_START)
      if (start > 0 && line.text.startsWith(RECORD_START)) {
        const rest = decode(line.text.slice(start))
        if (rest !== undefined) {
          notices.push({
            line: line.line,
            kind: "truncated",
            message: `line ${line.line} begins with the remains of a record cut short by a crash (${start} characters); that record is lost, the record after it is intact`
          })
          return { line: line.line, text: line.text.slice(start), record: rest }
        }
      }
      return { ...line, record: undefined }
    })
    for (const { record } of decoded) {
      if (record !== undefined) {
        let set = present.get(record.writer)
        if (set === undefined) present.set(record.writer, set = new Set())
        set.add(record.seq)
      }
    }

    for (const { line, text: lineText, record } of decoded) {
      if (record === undefined) {
        problems.push({ line, kind: "malformed", writer: null, message: `line ${line} is not an audit record (not JSON, or a field is missing or of the wrong type): edited or corrupted` })
        continue
      }
      records += 1
      const match = lineText.match(HASH_SUFFIX)
      const hash = match === null ? undefined : yield* sha256(`${lineText.slice(0, match.index!)}}`)
      if (match === null || hash !== record.hash) {
        problems.push({ line, kind: "edited", writer: record.writer, message: `line ${line} (writer ${record.writer}, seq ${record.seq}) was edited: its content does not match its hash` })
        // The hash it carries is still the original's: the chain goes on from it, so the next record is not blamed too.
        const edited = chains.get(record.writer)
        if (edited === undefined) {
          chains.set(record.writer, { seq: record.seq, hash: record.hash, line, seen: new Map([[record.seq, record.hash]]), lastCheckpoint: undefined, checkpointProblem: false })
        } else if (record.seq > edited.seq) {
          edited.seen.set(record.seq, record.hash)
          edited.seq = record.seq
          edited.hash = record.hash
          edited.line = line
        }
        continue
      }
      const chain = chains.get(record.writer)
      if (chain === undefined) {
        const state: ChainState = { seq: record.seq, hash: record.hash, line, seen: new Map([[record.seq, record.hash]]), lastCheckpoint: undefined, checkpointProblem: false }
        chains.set(record.writer, state)
        if (record.seq !== 1 || record.prev !== GENESIS) {
          problems.push({
            line,
            kind: "deleted",
            writer: record.writer,
            message: `line ${line}: writer ${record.writer} starts at seq ${record.seq}; ${record.seq === 1 ? "its first record does not start a chain" : `records 1 to ${record.seq - 1} were deleted`}`
          })
        }
      } else {
        const expected = chain.seq + 1
        if (record.seq === expected && record.prev === chain.hash) {
          // the chain continues
        } else if (record.seq === expected) {
          problems.push({
            line: chain.line,
            kind: "edited",
            writer: record.writer,
            message: `line ${chain.line} (writer ${record.writer}, seq ${chain.seq}) was rewritten: the next record of its chain (line ${line}) vouches for other content`
          })
        } else if (record.seq > expected) {
          const missing = Array.from({ length: record.seq - expected }, (_, i) => expected + i)
          const later = missing.every((seq) => present.get(record.writer)?.has(seq) === true && !chain.seen.has(seq))
          problems.push({
            line,
            kind: later ? "reordered" : "deleted",
            writer: record.writer,
            message: later
              ? `line ${line} (writer ${record.writer}, seq ${record.seq}) is out of order: seq ${expected} comes later in the file`
              : `line ${line} (writer ${record.writer}, seq ${record.seq}): ${missing.length === 1 ? `record ${expected} was` : `records ${expected} to ${record.seq - 1} were`} deleted before it`
          })
        } else if (chain.seen.has(record.seq)) {
          problems.push({
            line,
            kind: "inserted",
            writer: record.writer,
            message: `line ${line} (writer ${record.writer}, seq ${record.seq}) was inserted: the chain already has a record ${record.seq}${chain.seen.get(record.seq) === record.hash ? " (this is a copy of it)" : ""}`
          })
        }
        // A record that comes back after a reordering was already reported at the gap.
        chain.seen.set(record.seq, record.hash)
        if (record.seq > chain.seq) {
          chain.seq = record.seq
          chain.hash = record.hash
          chain.line = line
        }
      }
      if (record.kind === "checkpoint") {
        checkpoints += 1
        const state = chains.get(record.writer)!
        if (key !== undefined) {
          checkedCheckpoints += 1
          const mac = yield* hmac(key, macInput(record))
          if (mac !== record.mac) {
            state.checkpointProblem = true
            problems.push({
              line,
              kind: "checkpoint-wrong",
              writer: record.writer,
              message: `line ${line}: the checkpoint of writer ${record.writer} at seq ${record.seq} has a wrong signature (the chain was rewritten, or the key is not the writer's)`
            })
          } else {
            checkGap(state, record, line, problems)
          }
        }
        state.lastCheckpoint = { seq: record.seq, line, reason: record.reason, every: record.every }
      }
    }

    if (key !== undefined) {
      for (const [writer, state] of chains) {
        if (state.checkpointProblem) continue
        const last = state.lastCheckpoint
        if (last === undefined) {
          problems.push({
            line: firstLine(decoded, writer),
            kind: "checkpoint-missing",
            writer,
            message: `writer ${writer} (from line ${firstLine(decoded, writer)}) has no signed checkpoint: its chain was not written with this key, or was replaced`
          })
        } else if (last.reason !== "close") {
          const after = state.seq - last.seq
          if (after > last.every) {
            problems.push({
              line: last.line,
              kind: "checkpoint-missing",
              writer,
              message: `writer ${writer}: ${after} records after the checkpoint on line ${last.line} and no checkpoint since (one is due every ${last.every}): checkpoints were deleted`
            })
          } else if (after > 0) {
            notices.push({
              line: state.line,
              kind: "unclosed",
              message: `writer ${writer} did not close its chain: the ${after} record${after === 1 ? "" : "s"} after line ${last.line} ${after === 1 ? "is" : "are"} not covered by a checkpoint (the writer was killed, or the end of its chain was cut)`
            })
          } else {
            notices.push({ line: state.line, kind: "unclosed", message: `writer ${writer} did not close its chain after line ${last.line} (the writer was killed, or is still running)` })
          }
        }
      }
    } else if (checkpoints > 0) {
      notices.push({ line: null, kind: "unchecked", message: `${checkpoints} checkpoint${checkpoints === 1 ? " was" : "s were"} not checked: set AGENT_HOOKS_AUDIT_KEY to the writers' key` })
    }
    if (torn !== undefined) {
      notices.push({ line: torn.line, kind: "truncated", message: `line ${torn.line} is cut short (no newline at the end of the file): a writer stopped in the middle of a record; that record is lost, the records before it are intact` })
    }
    problems.sort((a, b) => a.line - b.line)
    return { ok: problems.length === 0, records, writers: chains.size, checkpoints, checkedCheckpoints, problems, notices }
  })

const checkGap = (state: ChainState, record: CheckpointRecord, line: number, problems: Array<Problem>) => {
  const last = state.lastCheckpoint
  const from = last?.seq ?? 0
  const allowed = (last?.every ?? record.every) + 1
  if (last === undefined && record.reason !== "open" && record.seq !== 1) {
    // The opening checkpoint is gone, and with it the start of the chain (already reported as deleted).
    return
  }
  if (record.seq - from > allowed) {
    problems.push({
      line,
      kind: "checkpoint-missing",
      writer: record.writer,
      message: `line ${line}: writer ${record.writer} went ${record.seq - from - 1} records without a checkpoint before this one (one is due every ${last?.every ?? record.every}): a checkpoint was deleted`
    })
  }
}

const firstLine = (decoded: ReadonlyArray<{ readonly line: number; readonly record: AuditRecord | undefined }>, writer: string): number =>
  decoded.find(({ record }) => record?.writer === writer)?.line ?? 0

/** @internal */
export const readFile = (file: string): Effect.Effect<string, AuditError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.mapError((error) => new AuditError({ file, detail: `cannot read the audit log: ${error.message}` }))
  )
