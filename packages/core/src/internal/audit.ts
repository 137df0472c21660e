import * as Duration from "effect/Duration"
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
import { sha256Hex } from "./sha256.ts"
import * as Hex from "effect/encoding/Hex"
import type {
  AuditRecord,
  CheckpointReason,
  CheckpointRecord,
  Cut,
  HeadFile,
  HookRecordFields,
  Notice,
  OutcomeRecordFields,
  ReloadRecordFields,
  Problem,
  Redaction,
  VerifyReport,
  WriterOptions
} from "../Audit.ts"
import { AuditError } from "../HookError.ts"
import type { ExportReport, ExportStats } from "../Audit.ts"
import * as Otlp from "./auditOtlp.ts"

interface TextCodec {
  encode(text: string): Uint8Array
}
const utf8: TextCodec = new (globalThis as unknown as { readonly TextEncoder: new () => TextCodec }).TextEncoder()

/** The `prev` of the first record of every chain. @internal */
export const GENESIS = "0".repeat(64)
/** A writer signs a checkpoint after at most this many records (when it has a key). @internal */
export const DEFAULT_CHECKPOINT_EVERY = 100
/** The longest outcome reason kept in a record; the record is evidence, not a transcript. */
const MAX_REASON = 1000
/** Every record's line starts so; inside a JSON string the quotes would be escaped. */
const RECORD_START = '{"v":1,"kind":"'
const HASH_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/

// ---------------------------------------------------------------------------------------------
// What a record keeps of a dispatch's payload: secrets replaced, long values cut with their hash

/** The names that make the value assigned to them a secret (`password=…`, `api_key: …`, `AWS_SECRET_ACCESS_KEY=…`). */
const SECRET_NAME = "password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?"
/** A value assigned to a secret name: double-quoted, single-quoted, or bare up to a separator (1 KiB at most). */
const SECRET_VALUE = String.raw`"[^"\n]{1,1024}"|'[^'\n]{1,1024}'|[^\s'"&;|,)}]{1,1024}`
/** Names that are a secret's whatever follows them, also after a space (`aws_secret_access_key VALUE`, `client_secret VALUE`). */
const SECRET_COMPOUND =
  String.raw`\b[A-Za-z0-9]{0,32}[_-]?(?:secret[_-]access[_-]key|secret[_-]key|session[_-]token|access[_-]token|auth[_-]token|` +
  "refresh[_-]token|client[_-]secret|api[_-]key|private[_-]key|password)"
/** The command-line flags whose argument is a secret (`--password x`, `-token x`, `--api-key x`). */
const SECRET_FLAG = "password|passwd|token|secret|api[-_]?key|access[-_]?key"
/** A secret flag's argument: a bare word that is not another flag, or a quoted string (1 KiB at most). */
const FLAG_VALUE = String.raw`[^\s'"-][^\s'"]{0,1023}|"[^"\n]{1,1024}"|'[^'\n]{1,1024}'`

/**
 * The default redaction patterns. Each is linear in the text (bounded quantifiers only: payload
 * values are written by an attacker-steered model). A pattern with a `secret` group replaces that
 * group only, so that the record still says what the value was for (`--password [REDACTED:...]`).
 * @internal
 */
export const DEFAULT_REDACTIONS: ReadonlyArray<Redaction> = [
  {
    name: "private-key",
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[\s\S]{0,16384}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|[\s\S]{0,16384})/g
  },
  { name: "aws-access-key-id", pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  { name: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g },
  { name: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,255}/g },
  { name: "slack-token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/g },
  { name: "api-key", pattern: /\b(?:sk|rk)[-_](?:live[-_]|test[-_]|ant-|proj-)?[A-Za-z0-9_-]{20,255}/g },
  { name: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,4096}/g },
  { name: "url-password", pattern: /\b[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/[^\s:@/]{1,256}:(?<secret>[^\s@/]{1,256})@/g },
  {
    name: "authorization",
    pattern: /\b(?:proxy-)?authorization\s{0,8}[:=]\s{0,8}["']?(?:(?:bearer|basic|token|digest)\s{1,8})?(?<secret>[^\s'"]{1,4096})/gi
  },
  { name: "bearer-token", pattern: /\bbearer\s{1,8}(?<secret>[A-Za-z0-9._~+/=-]{16,4096})/gi },
  {
    name: "secret-assignment",
    pattern: new RegExp(String.raw`(?:${SECRET_NAME})[A-Za-z0-9_.-]{0,64}["']?\s{0,8}[=:]\s{0,8}(?<secret>${SECRET_VALUE})`, "gi")
  },
  {
    name: "secret-flag",
    pattern: new RegExp(String.raw`(?:^|\s)--?(?:${SECRET_FLAG})\s{1,8}(?<secret>${FLAG_VALUE})`, "gi")
  },
  {
    // mysql/mariadb -pPASS: the password attached to -p (a lone -p, or -p with a space, asks for it)
    name: "password-flag",
    pattern: /(?:^|[\s"'])-p(?<secret>[^\s'"-][^\s'"]{0,1023}|"[^"\n]{1,1024}"|'[^'\n]{1,1024}')/g
  },
  {
    // curl -u user:pass, --user user:pass, --proxy-user, -U: the part after the colon
    name: "user-password-flag",
    pattern: /(?:^|[\s"'])(?:-u|-U|--user|--proxy-user)(?:\s{1,8}|=)?["']?[^\s:'"]{0,256}:(?<secret>[^\s'"]{1,1024})/g
  },
  {
    // aws configure set aws_secret_access_key VALUE: a compound secret name, a space, its value
    name: "secret-name-value",
    pattern: new RegExp(String.raw`(?:${SECRET_COMPOUND})["']?\s{1,8}(?<secret>${FLAG_VALUE})`, "gi")
  }
]

/** An object key whose value is a secret whatever it looks like (`"password": "hunter2"`). */
const SECRET_KEY = new RegExp(
  "^(?:.{0,64}[_.-])?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?" +
    "|authorization|cookie|session[_-]?key)$",
  "i"
)

/** The longest string value a record keeps (characters); a longer one is cut, keeping its hash. @internal */
export const DEFAULT_MAX_VALUE_CHARS = 4096
/** The longest input a record keeps, as JSON (characters); a longer one is kept as cut JSON text, with its hash. @internal */
export const DEFAULT_MAX_INPUT_CHARS = 65536
/** Deeper inputs are not recorded (said in `cut`): the walk and JSON.stringify would overflow. */
const MAX_DEPTH = 64

/**
 * Compiles the configured patterns: a RegExp as it is (made global); a string `/body/flags` or a
 * plain regular expression. Fails with the pattern that does not compile.
 * @internal
 */
export const compileRedactions = (
  patterns: ReadonlyArray<string | RegExp | Redaction>,
  defaults: boolean
): { readonly redactions: ReadonlyArray<Redaction>; readonly errors: ReadonlyArray<string> } => {
  const redactions: Array<Redaction> = defaults ? [...DEFAULT_REDACTIONS] : []
  const errors: Array<string> = []
  patterns.forEach((pattern, index) => {
    if (typeof pattern === "object" && !(pattern instanceof RegExp)) {
      redactions.push({ name: pattern.name, pattern: globalOf(pattern.pattern) })
      return
    }
    if (pattern instanceof RegExp) {
      redactions.push({ name: `custom-${index + 1}`, pattern: globalOf(pattern) })
      return
    }
    const literal = pattern.match(/^\/(.+)\/([dimsuvy]*)$/s)
    try {
      const regex = literal === null ? new RegExp(pattern, "g") : new RegExp(literal[1]!, `${literal[2]!.replace("g", "")}g`)
      if (regex.test("")) errors.push(`redaction pattern ${JSON.stringify(pattern)} matches the empty string; ignored`)
      else redactions.push({ name: `custom-${index + 1}`, pattern: regex })
    } catch (error) {
      errors.push(
        `redaction pattern ${JSON.stringify(pattern)} is not a regular expression ` +
          `(${error instanceof Error ? error.message : String(error)}); ignored`
      )
    }
  })
  return { redactions, errors }
}

const globalOf = (regex: RegExp): RegExp =>
  regex.global ? new RegExp(regex.source, regex.flags) : new RegExp(regex.source, `${regex.flags}g`)

/** Replaces what each pattern matches; counts by pattern name into `found`. */
const redactText = (text: string, redactions: ReadonlyArray<Redaction>, found: Set<string>): string => {
  let out = text
  for (const { name, pattern } of redactions) {
    pattern.lastIndex = 0
    if (!pattern.test(out)) continue
    pattern.lastIndex = 0
    out = out.replace(pattern, (...args: Array<unknown>) => {
      found.add(name)
      const match = args[0] as string
      const groups = args[args.length - 1]
      const secret = typeof groups === "object" && groups !== null ? (groups as Record<string, string | undefined>)["secret"] : undefined
      if (secret === undefined || secret === "") return `[REDACTED:${name}]`
      const at = match.lastIndexOf(secret)
      return `${match.slice(0, at)}[REDACTED:${name}]${match.slice(at + secret.length)}`
    })
  }
  return out
}

/** Each pattern with the `d` flag (the secret group's place), built once. */
const withIndices = new WeakMap<RegExp, RegExp>()
const indexed = (pattern: RegExp): RegExp => {
  let found = withIndices.get(pattern)
  if (found === undefined) {
    found = pattern.hasIndices ? new RegExp(pattern.source, pattern.flags) : new RegExp(pattern.source, `${pattern.flags}d`)
    withIndices.set(pattern, found)
  }
  return found
}

/**
 * A secret split over two neighbouring strings of an array (`["--password", "hunter2"]`,
 * `["Authorization:", "Bearer abc…"]`, a token cut in two): each pair is read joined by a space
 * and joined directly, and every match that crosses from one item into the next has its secret
 * replaced in both. The items are redacted one by one afterwards as usual.
 */
const redactAcross = (items: ReadonlyArray<unknown>, redactions: ReadonlyArray<Redaction>, found: Set<string>): ReadonlyArray<unknown> => {
  const marks = items.map(() => [] as Array<{ start: number; end: number; name: string }>)
  for (let i = 0; i + 1 < items.length; i++) {
    const a = items[i]
    const b = items[i + 1]
    if (typeof a !== "string" || typeof b !== "string" || a === "" || b === "") continue
    for (const sep of [" ", ""]) {
      const text = `${a}${sep}${b}`
      const from = a.length + sep.length
      for (const { name, pattern } of redactions) {
        const regex = indexed(pattern)
        regex.lastIndex = 0
        for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
          if (match[0] === "") regex.lastIndex += 1
          const whole = match.indices![0]!
          // a match inside one item is that item's own (redacted below)
          if (whole[0] >= a.length || whole[1] <= from) continue
          const [start, end] = match.indices!.groups?.["secret"] ?? whole
          found.add(name)
          if (start < a.length) marks[i]!.push({ start, end: Math.min(end, a.length), name })
          if (end > from) marks[i + 1]!.push({ start: Math.max(0, start - from), end: end - from, name })
        }
      }
    }
  }
  return items.map((item, i) => {
    const spans = marks[i]!.sort((x, y) => x.start - y.start)
    if (typeof item !== "string" || spans.length === 0) return item
    let out = ""
    let at = 0
    for (const { start, end, name } of spans) {
      if (end <= at) continue
      out += `${item.slice(at, Math.max(at, start))}[REDACTED:${name}]`
      at = end
    }
    return out + item.slice(at)
  })
}

/** `text` cut to `max` characters, never between the two halves of a surrogate pair. */
const head = (text: string, max: number): string => {
  const end = max > 0 && text.charCodeAt(max - 1) >= 0xd800 && text.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max
  return text.slice(0, end)
}

const pathOf = (base: string, key: string | number): string =>
  typeof key === "number"
    ? `${base}[${key}]`
    : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
      ? `${base}.${key}`
      : `${base}[${JSON.stringify(key)}]`

/**
 * What a record keeps of a value a model wrote: every string redacted, every string longer than
 * `maxValueChars` cut to that length with its full (redacted) text's SHA-256 in `cut`, and the
 * whole cut to `maxInputChars` of JSON the same way. Nothing is cut without its line in `cut`.
 * @internal
 */
export const sanitize = (
  value: unknown,
  base: string,
  options: { readonly redactions: ReadonlyArray<Redaction>; readonly maxValueChars: number; readonly maxInputChars: number }
): Effect.Effect<{ readonly value: unknown; readonly redacted: ReadonlyArray<string>; readonly cut: ReadonlyArray<Cut> }> =>
  Effect.gen(function* () {
    const found = new Set<string>()
    const cut: Array<Cut> = []
    const long: Array<{ readonly path: string; readonly text: string }> = []
    let tooDeep = false
    const walk = (node: unknown, path: string, depth: number): unknown => {
      if (depth > MAX_DEPTH) {
        tooDeep = true
        return null
      }
      if (typeof node === "string") {
        const text = redactText(node, options.redactions, found)
        if (text.length <= options.maxValueChars) return text
        long.push({ path, text })
        return head(text, options.maxValueChars)
      }
      if (Array.isArray(node))
        return redactAcross(node, options.redactions, found).map((item, index) => walk(item, pathOf(path, index), depth + 1))
      if (node !== null && typeof node === "object") {
        const out: Record<string, unknown> = {}
        for (const [key, item] of Object.entries(node)) {
          // A member's name is written by the model too (`{"ghp_…": 1}`): redacted as a value is; two
          // names that redact alike are both kept (`#2`).
          let name = redactText(key, options.redactions, found)
          for (let n = 2; name !== key && Object.hasOwn(out, name); n++) name = `${redactText(key, options.redactions, found)} #${n}`
          if (SECRET_KEY.test(key) && item !== null && (typeof item === "string" || typeof item === "number")) {
            found.add("secret-key")
            Object.defineProperty(out, name, { value: "[REDACTED:secret-key]", enumerable: true, writable: true, configurable: true })
          } else
            Object.defineProperty(out, name, {
              value: walk(item, pathOf(path, name), depth + 1),
              enumerable: true,
              writable: true,
              configurable: true
            })
        }
        return out
      }
      return node === undefined ? null : node
    }
    const walked = walk(value, base, 0)
    if (tooDeep) {
      return {
        value: null,
        redacted: [...found].sort(),
        cut: [{ path: base, chars: null, sha256: null, why: `nested deeper than ${MAX_DEPTH} levels: not recorded` }]
      }
    }
    for (const { path, text } of long) {
      cut.push({
        path,
        chars: text.length,
        sha256: yield* sha256(text),
        why: `longer than ${options.maxValueChars} characters: the first ${options.maxValueChars} are kept`
      })
    }
    const json = JSON.stringify(walked) ?? "null"
    if (json.length > options.maxInputChars) {
      return {
        value: head(json, options.maxInputChars),
        redacted: [...found].sort(),
        cut: [
          ...cut,
          {
            path: base,
            chars: json.length,
            sha256: yield* sha256(json),
            why:
              `longer than ${options.maxInputChars} characters as JSON: the first ` +
              `${options.maxInputChars} characters of its JSON text are kept (after the cuts above)`
          }
        ]
      }
    }
    return { value: walked, redacted: [...found].sort(), cut }
  })

const crypto = Layer.mergeAll(Digest.layerWebCrypto, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

const sha256 = sha256Hex

/**
 * What a checkpoint's HMAC covers: the chain head it vouches for and where it stands; an opening
 * checkpoint's link to the record before it in the file (`after`) too.
 */
const macInput = (record: {
  readonly writer: string
  readonly seq: number
  readonly prev: string
  readonly reason: string
  readonly every: number
  readonly after?: string | undefined
}) =>
  record.after === undefined
    ? `agent-hooks audit checkpoint v1\n${record.writer}\n${record.seq}\n${record.prev}\n${record.reason}\n${record.every}`
    : `agent-hooks audit checkpoint v2\n${record.writer}\n${record.seq}\n${record.prev}\n${record.reason}\n${record.every}\n${record.after}`

/** What a head file's HMAC covers: the record it names. */
const headMacInput = (head: { readonly writer: string; readonly seq: number; readonly hash: string }) =>
  `agent-hooks audit head v1\n${head.writer}\n${head.seq}\n${head.hash}`

/** The head file of an audit log: `<log>.head`. @internal */
export const headPath = (file: string): string => `${file}.head`

/** How much of the log's end a writer reads first to find the record its next record follows. */
const FIRST_TAIL_BYTES = 16 * 1024
/** The most it reads (a record is at most a few hundred KiB: its input is capped). */
const MAX_TAIL_BYTES = 8 * 1024 * 1024

const hmac = (key: string, text: string): Effect.Effect<string, AuditError> =>
  Effect.gen(function* () {
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

/**
 * The hash of the last whole record at the log's end: what each record names as `after` (read with
 * the log's lock held, so it is the record just before it in the file). Reads a growing window from
 * the end until a whole record is in it (a record can be longer than the first window).
 */
const lastRecordHash = (fs: FileSystem.FileSystem, file: string): Effect.Effect<string> =>
  Effect.scoped(
    Effect.gen(function* () {
      const handle = yield* fs.open(file, { flag: "r" })
      const size = Number((yield* handle.stat).size)
      if (size === 0) return GENESIS
      for (let window = FIRST_TAIL_BYTES; ; window *= 8) {
        const from = Math.max(0, size - window)
        const bytes = yield* handle.readAlloc(size - from, { position: BigInt(from) })
        if (bytes._tag === "None") return GENESIS
        const text = new (
          globalThis as unknown as { readonly TextDecoder: new () => { decode(bytes: Uint8Array): string } }
        ).TextDecoder().decode(bytes.value)
        // Whole lines only: the last one may be torn by a crash (no newline yet).
        const lines = text.slice(0, text.lastIndexOf("\n") + 1).split("\n")
        // The first line of a window that does not start the file may be the end of a longer one.
        const first = from === 0 ? 0 : 1
        for (let i = lines.length - 1; i >= first; i--) {
          const found = lines[i]!.match(HASH_SUFFIX)
          if (found !== null && lines[i]!.startsWith(RECORD_START)) return found[1]!
          // A line that begins with a torn record and ends with a whole one (a writer killed mid-write).
          const start = lines[i]!.lastIndexOf(RECORD_START)
          if (found !== null && start > 0) return found[1]!
        }
        if (from === 0 || window >= MAX_TAIL_BYTES) return GENESIS
      }
      // A log whose end cannot be read still gets its records; the record is then unlinked (after: 64 zeros), and verify says so.
    })
  ).pipe(Effect.catchCause(() => Effect.succeed(GENESIS)))

/** The lock file that lets one writer at a time append to a log: `<log>.lock`. @internal */
export const lockPath = (file: string): string => `${file}.lock`
/** The space kept free for the record of a loss: `<log>.reserve`. @internal */
export const reservePath = (file: string): string => `${file}.reserve`
/** The reserve's size: room for the loss records of a full disk. */
const RESERVE_BYTES = 64 * 1024
/**
 * A lock older than this was left by a writer that died while holding it (a hold lasts one
 * append: a read of the log's end and one `write`). A live holder stalled longer than this (a
 * machine loaded beyond reason) loses it: two records may then name the same record before them,
 * which `verify` reports; it never passes in silence.
 */
const LOCK_STALE_MS = 2_000
/** A writer that waited this long for the lock gives up the record (said as a warning; the loss is recorded). */
const LOCK_WAIT_MS = 30_000

/**
 * Runs `body` holding the log's lock (`<log>.lock`, created with O_EXCL): one writer at a time
 * reads the log's last record and appends after it, so every record names the record before it
 * in the file (`after`), and no chain can be deleted without breaking the next record's link.
 * A lock left by a writer that died (older than 10 s) is broken. Where no lock file can be made
 * at all (a full disk, a read-only folder), the record is appended without it: a record written
 * beside another writer's then names the same record, which `verify` reports (never a silent pass).
 */
const withLogLock = <A, E, R>(
  fs: FileSystem.FileSystem,
  file: string,
  writer: string,
  body: Effect.Effect<A, E, R>
): Effect.Effect<A, E | AuditError, R> => {
  const lock = lockPath(file)
  const mine = `${writer} ${Hex.random(8)}\n`
  const acquire = Effect.gen(function* () {
    const started = Date.now()
    for (let attempt = 0; ; attempt++) {
      const taken = yield* fs.writeFileString(lock, mine, { flag: "wx", mode: 0o600 }).pipe(
        Effect.as("held" as const),
        Effect.catchTag("PlatformError", (error) =>
          Effect.succeed(error.reason._tag === "AlreadyExists" ? ("busy" as const) : ("unavailable" as const))
        )
      )
      if (taken === "held") return true
      if (taken === "unavailable") return false
      // lstat: a link put there is judged by its own age, never followed
      const info = yield* Effect.option(fs.lstat(lock))
      const mtime = info._tag === "Some" && info.value.mtime._tag === "Some" ? info.value.mtime.value.getTime() : undefined
      if (mtime !== undefined && Date.now() - mtime > LOCK_STALE_MS) {
        // Its holder died between taking and giving it back (kill -9): move it aside, then take it.
        const aside = `${lock}.${writer}.stale`
        yield* Effect.ignore(fs.rename(lock, aside).pipe(Effect.andThen(fs.remove(aside))))
        continue
      }
      if (Date.now() - started > LOCK_WAIT_MS) {
        return yield* new AuditError({
          file,
          detail: `cannot take the audit log's lock ${lock}: other writers kept it for ${LOCK_WAIT_MS / 1000} s`
        })
      }
      yield* Effect.sleep(Duration.millis(1 + Math.floor(Math.random() * Math.min(25, 2 + attempt * 2))))
    }
  })
  return Effect.acquireUseRelease(
    acquire,
    () => body,
    // Given back only while it is still this writer's (one that took it as stale is not locked out).
    (held) =>
      held
        ? Effect.ignore(fs.readFileString(lock).pipe(Effect.flatMap((text) => (text === mine ? fs.remove(lock) : Effect.void))))
        : Effect.void
  )
}

/** @internal */
export const makeWriter = (
  options: WriterOptions
): Effect.Effect<
  {
    readonly writer: string
    readonly hook: (fields: HookRecordFields) => Effect.Effect<void, AuditError>
    readonly outcome: (fields: OutcomeRecordFields) => Effect.Effect<void, AuditError>
    readonly reload: (fields: ReloadRecordFields) => Effect.Effect<void, AuditError>
    readonly close: Effect.Effect<void, AuditError>
    readonly exportStats: Effect.Effect<ExportStats | undefined>
  },
  AuditError,
  FileSystem.FileSystem | Path.Path | Scope.Scope
> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = options.file
    const failed = (what: string) => (error: { readonly message: string }) => new AuditError({ file, detail: `${what}: ${error.message}` })
    // Bad redaction patterns stop the writer: a trail that would keep a secret it was told to hide is not started.
    const { redactions, errors } = compileRedactions(options.redact ?? [], options.defaultRedactions !== false)
    if (errors.length > 0) return yield* new AuditError({ file, detail: errors.join("; ") })
    const limits = {
      redactions,
      maxValueChars: Math.max(64, options.maxValueChars ?? DEFAULT_MAX_VALUE_CHARS),
      maxInputChars: Math.max(256, options.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS)
    }
    // O_APPEND (flag "a"): every write lands at the end of the file, whoever else appends to it.
    const open = fs.open(file, { flag: "a", mode: 0o600 })
    const handle = yield* open.pipe(
      Effect.catchTag("PlatformError", (error) =>
        error.reason._tag === "NotFound"
          ? Effect.andThen(fs.makeDirectory(path.dirname(file), { recursive: true }), open)
          : Effect.fail(error)
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
    /** Records this writer could not write (a full disk), said in a `loss` record as soon as one can be written. */
    let lost: { count: number; kinds: Set<string>; from: string; until: string; error: string } | undefined
    // The copy for a collector; its last batches leave after the closing records (its finalizer runs after the writer's).
    const exporter = options.otlp === undefined ? undefined : yield* Otlp.makeExporter(options.otlp, file)
    // The resource a collector files this writer's records under, in its first record: covered by the hash, checked by verifyExport.
    const resource =
      options.otlp === undefined
        ? undefined
        : { ...options.otlp.resourceAttributes, "service.name": options.otlp.serviceName ?? "agent-hooks" }
    // Room for the record of a loss on a full disk: a writer that cannot append frees it and says what it lost.
    // Only a regular file is the reserve: a link a cloned repository put there is never followed
    // (it could name a file of the user's), and is left alone.
    const reserve = reservePath(file)
    const reserveInfo = yield* Effect.option(fs.lstat(reserve))
    if (reserveInfo._tag === "None" || (reserveInfo.value.type === "File" && Number(reserveInfo.value.size) < RESERVE_BYTES)) {
      yield* Effect.ignore(
        (reserveInfo._tag === "None" ? Effect.void : fs.remove(reserve)).pipe(
          Effect.andThen(fs.writeFileString(reserve, "\n".repeat(RESERVE_BYTES), { flag: "wx", mode: 0o600 }))
        )
      )
    }
    /** Empties the reserve (a regular file only, checked just before). */
    const freeReserve = Effect.ignore(
      fs.lstat(reserve).pipe(Effect.flatMap((info) => (info.type === "File" ? fs.truncate(reserve, 0) : Effect.void)))
    )

    /**
     * One record, one `write`: a line is never split between two writes (torn only by a crash
     * mid-write). Called with the log's lock held: `after` is the record just before it in the file.
     */
    const append = (
      kind: AuditRecord["kind"],
      fieldsOf: (link: {
        readonly seq: number
        readonly prev: string
        readonly after: string
      }) => Effect.Effect<Readonly<Record<string, unknown>>, AuditError>
    ) =>
      Effect.gen(function* () {
        const after = yield* lastRecordHash(fs, file)
        const fields = yield* fieldsOf({ seq: seq + 1, prev, after })
        const first = seq === 0 && resource !== undefined ? { resource } : {}
        const body = { v: 1, kind, writer, seq: seq + 1, time: now(), ...fields, ...first, after, prev }
        const line = yield* seal(body)
        yield* handle.writeAll(utf8.encode(`${line}\n`)).pipe(Effect.mapError(failed("cannot append to the audit log")))
        seq += 1
        prev = line.match(HASH_SUFFIX)![1]!
        // Only a record that is in the local log is exported: the export is a copy, never the record.
        if (exporter !== undefined)
          yield* exporter.push({ kind, line, record: { ...body, hash: prev }, time: body.time, span: yield* Otlp.currentSpan })
      })

    /**
     * The head file names the last record this writer vouched for (signed with the key), replaced
     * atomically (rename) with the log's lock held: the last head written names the last record
     * any writer closed with, so a cut end of the log, or its last chain deleted whole, no longer has it.
     */
    const writeHead = Effect.gen(function* () {
      const named = { writer, seq, hash: prev }
      const mac = key === undefined ? null : yield* hmac(key, headMacInput(named))
      const head = headPath(file)
      const temp = `${head}.${writer}.tmp`
      const record = { v: 1, ...named, time: now(), mac }
      const text = JSON.stringify(record)
      yield* fs
        .writeFileString(temp, `${text}\n`, { mode: 0o600 })
        .pipe(Effect.andThen(fs.rename(temp, head)), Effect.mapError(failed(`cannot write the audit log's head file ${head}`)))
      // The exported head lets a verifier of the export see a cut end of this writer's chain.
      if (exporter !== undefined) yield* exporter.push({ kind: "head", line: text, record, time: record.time, span: undefined })
    })

    const checkpoint = (reason: CheckpointReason) =>
      Effect.gen(function* () {
        if (key === undefined) return
        yield* append("checkpoint", (link) =>
          Effect.map(hmac(key, macInput({ writer, ...link, reason, every })), (mac) => ({ reason, every, mac }))
        )
        sinceCheckpoint = 0
        if (reason !== "open") yield* writeHead
      })

    /** The records this writer lost, in one `loss` record (a problem for `verify`); kept for the next try when it cannot be written either. */
    const writeLoss = Effect.suspend(() => {
      const loss = lost
      if (loss === undefined) return Effect.void
      return append("loss", () =>
        Effect.succeed({ lost: loss.count, kinds: [...loss.kinds].sort(), from: loss.from, until: loss.until, error: loss.error })
      ).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            lost = undefined
          })
        )
      )
    })

    /** A record that could not be written is counted; with the reserve freed, its loss is written at once. */
    const recordLoss = (kind: string, error: AuditError) =>
      Effect.gen(function* () {
        const time = now()
        if (lost === undefined) lost = { count: 0, kinds: new Set(), from: time, until: time, error: error.detail }
        lost.count += 1
        lost.kinds.add(kind)
        lost.until = time
        const written = yield* Effect.exit(writeLoss)
        if (written._tag === "Failure") {
          // The disk is full: the reserve makes room for the record of the loss (the next writer makes a new one).
          yield* freeReserve
          yield* Effect.ignore(writeLoss)
        }
      })

    const record = (kind: AuditRecord["kind"], fields: Readonly<Record<string, unknown>>) =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          if (closed) return yield* new AuditError({ file, detail: "the audit writer is closed" })
          const write = Effect.gen(function* () {
            if (lost !== undefined) yield* Effect.ignore(writeLoss)
            if (seq === 0) yield* checkpoint("open")
            yield* append(kind, () => Effect.succeed(fields))
            sinceCheckpoint += 1
            if (sinceCheckpoint >= every) yield* checkpoint("periodic")
          })
          yield* withLogLock(fs, file, writer, write).pipe(
            Effect.tapError((error) => withLogLock(fs, file, writer, recordLoss(kind, error)).pipe(Effect.ignore))
          )
        })
      )

    const close = lock.withPermits(1)(
      Effect.gen(function* () {
        if (closed) return
        if (seq > 0 || lost !== undefined)
          yield* withLogLock(
            fs,
            file,
            writer,
            Effect.gen(function* () {
              if (lost !== undefined) yield* writeLoss
              yield* key === undefined ? writeHead : checkpoint("close")
            })
          )
        closed = true
      })
    )
    yield* Effect.addFinalizer(() => Effect.ignore(close))

    /**
     * The other strings a record takes from the payload or the run, redacted and capped as the
     * input is: the matcher's value (Cursor's is the shell command itself), the session, the tool,
     * the hook as it ran (its placeholders filled from the payload).
     */
    const scrub = (fields: {
      readonly session: string | null
      readonly matcher: string | null
      readonly tool?: string | null | undefined
      readonly hook?: string | undefined
    }) =>
      Effect.map(
        sanitize(
          { session: fields.session, matcher: fields.matcher, tool: fields.tool ?? null, hook: fields.hook ?? null },
          "",
          // each value is capped; the four together are never cut as one JSON text
          { ...limits, maxInputChars: Number.POSITIVE_INFINITY }
        ),
        ({ value, redacted, cut }) => {
          const v = (value ?? {}) as Record<string, string | null>
          return {
            session: v["session"] ?? null,
            matcher: v["matcher"] ?? null,
            tool: v["tool"] ?? null,
            hook: v["hook"] ?? "",
            redacted,
            cut: cut.map((c) => ({ ...c, path: c.path.replace(/^\./, "") }))
          }
        }
      )

    return {
      writer,
      hook: (fields: HookRecordFields) =>
        Effect.gen(function* () {
          const said = yield* scrub(fields)
          yield* record("hook", {
            session: said.session,
            event: fields.event,
            matcher: said.matcher,
            tool: said.tool,
            hook: said.hook,
            type: fields.type,
            source: fields.source,
            exitCode: fields.exitCode,
            signal: fields.signal,
            status: fields.status,
            decision: fields.decision,
            timedOut: fields.timedOut,
            durationMs: fields.durationMs,
            ...(said.redacted.length === 0 ? {} : { redacted: said.redacted }),
            ...(said.cut.length === 0 ? {} : { cut: said.cut })
          })
        }),
      outcome: (fields: OutcomeRecordFields) =>
        Effect.gen(function* () {
          const input = yield* sanitize(fields.input ?? null, "input", limits)
          const reason =
            fields.reason === null
              ? { value: null, redacted: [], cut: [] }
              : yield* sanitize(fields.reason, "reason", { ...limits, maxValueChars: Math.min(MAX_REASON, limits.maxValueChars) })
          const said = yield* scrub(fields)
          yield* record("outcome", {
            session: said.session,
            event: fields.event,
            matcher: said.matcher,
            tool: said.tool,
            input: input.value,
            blocked: fields.blocked,
            decision: fields.decision,
            reason: reason.value,
            hooks: fields.hooks,
            redacted: [...new Set([...said.redacted, ...input.redacted, ...reason.redacted])].sort(),
            cut: [...said.cut, ...input.cut, ...reason.cut]
          })
        }),
      reload: (fields: ReloadRecordFields) =>
        record("reload", { result: fields.result, files: fields.files, dropped: fields.dropped, message: fields.message }),
      close,
      exportStats: exporter === undefined ? Effect.succeed(undefined) : exporter.stats
    }
  })

// ---------------------------------------------------------------------------------------------
// Reading and verifying

interface Line {
  readonly line: number
  readonly text: string
}

/** @internal */
export const parse = (
  text: string
): {
  readonly records: ReadonlyArray<{ readonly line: number; readonly record: AuditRecord }>
  readonly bad: ReadonlyArray<Line>
  readonly torn: Line | undefined
} => {
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

/** A line's JSON object, or `undefined` when it is not one. */
const jsonObject = (text: string): Record<string, unknown> | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  return Predicate.isObject(value) && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

const decode = (text: string): AuditRecord | undefined => {
  const record = jsonObject(text)
  if (record === undefined) return undefined
  if (
    record["v"] !== 1 ||
    typeof record["writer"] !== "string" ||
    !Number.isSafeInteger(record["seq"]) ||
    (record["seq"] as number) < 1 ||
    !isHex64(record["prev"]) ||
    !isHex64(record["hash"]) ||
    (record["kind"] !== "hook" &&
      record["kind"] !== "outcome" &&
      record["kind"] !== "checkpoint" &&
      record["kind"] !== "reload" &&
      record["kind"] !== "loss")
  )
    return undefined
  if (record["after"] !== undefined && !isHex64(record["after"])) return undefined
  if (record["kind"] === "checkpoint") {
    if (typeof record["mac"] !== "string" || typeof record["reason"] !== "string" || !Number.isSafeInteger(record["every"]))
      return undefined
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
export const verify = (
  text: string,
  options: { readonly key?: string | undefined; readonly head?: string | null | undefined } = {}
): Effect.Effect<VerifyReport, AuditError> => {
  const { complete, torn } = split(text)
  return verifyLines(complete, torn, { ...options, at: (line) => `line ${line}`, source: "the log" })
}

/**
 * What the checks of `verify` are given besides the lines: `at` names a line in messages (`line 7`,
 * or a place in an export), `source` the whole (`the log`, `the export`).
 */
interface VerifyOptions {
  readonly key?: string | undefined
  readonly head?: string | null | undefined
  /** Heads to check besides (an export's: each writer's last), each with where it is. */
  readonly heads?: ReadonlyArray<{ readonly text: string; readonly line: number; readonly what: string }> | undefined
  readonly at: (line: number) => string
  readonly source: string
}

/** A line of the log with its record (`undefined`: the line is not a record). */
interface DecodedLine {
  readonly line: number
  readonly text: string
  readonly record: AuditRecord | undefined
}

/** What the checks have found so far, line by line. */
interface Verifying {
  readonly key: string | undefined
  readonly at: (line: number) => string
  readonly source: string
  readonly problems: Array<Problem>
  readonly notices: Array<Notice>
  readonly chains: Map<string, ChainState>
  /** Every sequence number each writer has anywhere in the file: a gap whose records come later is a reordering. */
  readonly present: Map<string, Set<number>>
  /** The `hash` of every record so far. */
  readonly hashes: Set<string>
  /** Every record names the one before it in the file (`after` on records past the first of their chain). */
  readonly linked: boolean
  /** The `hash` of the record on the line before. */
  previous: string | undefined
  records: number
  checkpoints: number
  checkedCheckpoints: number
}

/** The log's lines as records; a record cut short by a crash, with the next one on its line, is a notice. */
const decodeLines = (complete: ReadonlyArray<Line>, notices: Array<Notice>): ReadonlyArray<DecodedLine> =>
  complete.map((line) => {
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
          message:
            `line ${line.line} begins with the remains of a record cut short by a crash (${start} ` +
            `characters); that record is lost, the record after it is intact`
        })
        return { line: line.line, text: line.text.slice(start), record: rest }
      }
    }
    return { ...line, record: undefined }
  })

const presentSeqs = (decoded: ReadonlyArray<DecodedLine>): Map<string, Set<number>> => {
  const present = new Map<string, Set<number>>()
  for (const { record } of decoded) {
    if (record !== undefined) {
      let set = present.get(record.writer)
      if (set === undefined) present.set(record.writer, (set = new Set()))
      set.add(record.seq)
    }
  }
  return present
}

const newChain = (record: AuditRecord, line: number): ChainState => ({
  seq: record.seq,
  hash: record.hash,
  line,
  seen: new Map([[record.seq, record.hash]]),
  lastCheckpoint: undefined,
  checkpointProblem: false
})

/** The link of a record to the record before it in the file (see `Verifying.linked`); `undefined` when it holds. */
const linkProblem = (state: Verifying, line: number, record: AuditRecord): Problem | undefined => {
  const { at } = state
  const after = (record as { readonly after?: string }).after
  if (state.linked && after !== undefined) {
    // Every record names the record before it in the file (written under the log's lock): a
    // record or a whole chain deleted before it, or a record rewritten with a fresh hash, breaks it.
    const before = state.previous ?? GENESIS
    if (after === before) return undefined
    return state.hashes.has(after)
      ? {
          line,
          kind: "reordered",
          writer: record.writer,
          message:
            `${at(line)} (writer ${record.writer}, seq ${record.seq}) was written right after record ` +
            `${after.slice(0, 12)}…, but other records come between them in ${state.source}: records ` +
            `were moved or inserted, or two writers appended without the log's lock`
        }
      : {
          line,
          kind: "deleted",
          writer: record.writer,
          message:
            `${at(line)} (writer ${record.writer}, seq ${record.seq}) was written right after record ` +
            `${after.slice(0, 12)}…, which is not in ${state.source} before it: records (perhaps a ` +
            `whole chain) were deleted, or a record was rewritten with a fresh hash`
        }
  }
  if (record.seq === 1 && after !== undefined && after !== GENESIS && !state.hashes.has(after)) {
    // A log written before every record was linked: a chain's first record names a record before it.
    return {
      line,
      kind: "deleted",
      writer: record.writer,
      message:
        `${at(line)}: writer ${record.writer} started after record ${after.slice(0, 12)}…, which ` +
        `is not in ${state.source} before it: a whole chain was deleted, or a record was ` +
        `rewritten with a fresh hash`
    }
  }
  return undefined
}

/** One record's checks: its link to the file, its hash, its place in its writer's chain, its checkpoint. */
const checkRecord = (state: Verifying, { line, text, record }: DecodedLine): Effect.Effect<void, AuditError> =>
  Effect.gen(function* () {
    const { at, problems, chains } = state
    if (record === undefined) {
      problems.push({
        line,
        kind: "malformed",
        writer: null,
        message: `${at(line)} is not an audit record (not JSON, or a field is missing or of the wrong type): edited or corrupted`
      })
      return
    }
    state.records += 1
    const link = linkProblem(state, line, record)
    state.previous = record.hash
    if (record.kind === "loss") {
      const loss = record as unknown as {
        readonly lost?: unknown
        readonly from?: unknown
        readonly until?: unknown
        readonly error?: unknown
      }
      problems.push({
        line,
        kind: "lost",
        writer: record.writer,
        message:
          `${at(line)}: writer ${record.writer} could not write ${String(loss.lost)} record` +
          `${loss.lost === 1 ? "" : "s"} between ${String(loss.from)} and ${String(loss.until)} ` +
          `(${String(loss.error)}): the trail has a gap there, and other writers may have lost records too`
      })
    }
    state.hashes.add(record.hash)
    const reported = problems.length
    const match = text.match(HASH_SUFFIX)
    const hash = match === null ? undefined : yield* sha256(`${text.slice(0, match.index!)}}`)
    if (match === null || hash !== record.hash) {
      problems.push({
        line,
        kind: "edited",
        writer: record.writer,
        message: `${at(line)} (writer ${record.writer}, seq ${record.seq}) was edited: its content does not match its hash`
      })
      // The hash it carries is still the original's: the chain goes on from it, so the next record is not blamed too.
      const edited = chains.get(record.writer)
      if (edited === undefined) chains.set(record.writer, newChain(record, line))
      else if (record.seq > edited.seq) {
        edited.seen.set(record.seq, record.hash)
        edited.seq = record.seq
        edited.hash = record.hash
        edited.line = line
      }
      return
    }
    checkLink(state, line, record)
    // The chain's own check names a deletion, insertion or reordering more precisely; the link speaks when it is silent.
    if (link !== undefined && !problems.slice(reported).some((problem) => problem.line === line)) problems.push(link)
    if (record.kind === "checkpoint") yield* checkCheckpoint(state, line, record)
  })

/** A record's place in its writer's chain: the chain's start, a deleted, rewritten, reordered or inserted record. */
const checkLink = (state: Verifying, line: number, record: AuditRecord) => {
  const { at, problems } = state
  const chain = state.chains.get(record.writer)
  if (chain === undefined) {
    state.chains.set(record.writer, newChain(record, line))
    if (record.seq !== 1 || record.prev !== GENESIS) {
      problems.push({
        line,
        kind: "deleted",
        writer: record.writer,
        message:
          `${at(line)}: writer ${record.writer} starts at seq ${record.seq}; ` +
          `${record.seq === 1 ? "its first record does not start a chain" : `records 1 to ${record.seq - 1} were deleted`}`
      })
    }
    return
  }
  const expected = chain.seq + 1
  if (record.seq === expected && record.prev === chain.hash) {
    // the chain continues
  } else if (record.seq === expected) {
    problems.push({
      line: chain.line,
      kind: "edited",
      writer: record.writer,
      message:
        `${at(chain.line)} (writer ${record.writer}, seq ${chain.seq}) was rewritten: the next ` +
        `record of its chain (${at(line)}) vouches for other content`
    })
  } else if (record.seq > expected) {
    const missing = Array.from({ length: record.seq - expected }, (_, i) => expected + i)
    const later = missing.every((seq) => state.present.get(record.writer)?.has(seq) === true && !chain.seen.has(seq))
    problems.push({
      line,
      kind: later ? "reordered" : "deleted",
      writer: record.writer,
      message: later
        ? `${at(line)} (writer ${record.writer}, seq ${record.seq}) is out of order: seq ${expected} comes later in the file`
        : `${at(line)} (writer ${record.writer}, seq ${record.seq}): ` +
          `${missing.length === 1 ? `record ${expected} was` : `records ${expected} to ${record.seq - 1} were`} ` +
          `deleted before it`
    })
  } else if (chain.seen.has(record.seq)) {
    problems.push({
      line,
      kind: "inserted",
      writer: record.writer,
      message:
        `${at(line)} (writer ${record.writer}, seq ${record.seq}) was inserted: the chain already ` +
        `has a record ` +
        `${record.seq}${chain.seen.get(record.seq) === record.hash ? " (this is a copy of it)" : ""}`
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

/** A checkpoint's signature (with the key) and the gap since the chain's last one. */
const checkCheckpoint = (state: Verifying, line: number, record: CheckpointRecord): Effect.Effect<void, AuditError> =>
  Effect.gen(function* () {
    state.checkpoints += 1
    const chain = state.chains.get(record.writer)!
    if (state.key !== undefined) {
      state.checkedCheckpoints += 1
      const mac = yield* hmac(state.key, macInput(record))
      if (mac !== record.mac) {
        chain.checkpointProblem = true
        state.problems.push({
          line,
          kind: "checkpoint-wrong",
          writer: record.writer,
          message:
            `${state.at(line)}: the checkpoint of writer ${record.writer} at seq ${record.seq} has a wrong ` +
            `signature (the chain was rewritten, or the key is not the writer's)`
        })
      } else {
        checkGap(chain, record, line, state.problems, state.at)
      }
    }
    chain.lastCheckpoint = { seq: record.seq, line, reason: record.reason, every: record.every }
  })

/** How each chain ends: signed and closed, cut after its last checkpoint, or (without the key) unchecked. */
const checkChainEnds = (state: Verifying, decoded: ReadonlyArray<DecodedLine>) => {
  const { at, problems, notices, checkpoints } = state
  if (state.key === undefined) {
    if (checkpoints > 0) {
      notices.push({
        line: null,
        kind: "unchecked",
        message:
          `${checkpoints} checkpoint${checkpoints === 1 ? " was" : "s were"} not checked: set ` +
          `AGENT_HOOKS_AUDIT_KEY to the writers' key`
      })
    }
    return
  }
  for (const [writer, chain] of state.chains) {
    if (chain.checkpointProblem) continue
    const last = chain.lastCheckpoint
    if (last === undefined) {
      problems.push({
        line: firstLine(decoded, writer),
        kind: "checkpoint-missing",
        writer,
        message:
          `writer ${writer} (from ${at(firstLine(decoded, writer))}) has no signed checkpoint: its ` +
          `chain was not written with this key, or was replaced`
      })
    } else if (last.reason !== "close") {
      const after = chain.seq - last.seq
      if (after > last.every) {
        problems.push({
          line: last.line,
          kind: "checkpoint-missing",
          writer,
          message:
            `writer ${writer}: ${after} records after the checkpoint on ${at(last.line)} and no ` +
            `checkpoint since (one is due every ${last.every}): checkpoints were deleted`
        })
      } else if (after > 0) {
        notices.push({
          line: chain.line,
          kind: "unclosed",
          message:
            `writer ${writer} did not close its chain: the ${after} record${after === 1 ? "" : "s"} ` +
            `after ${at(last.line)} ${after === 1 ? "is" : "are"} not covered by a checkpoint (the ` +
            `writer was killed, or the end of its chain was cut)`
        })
      } else {
        notices.push({
          line: chain.line,
          kind: "unclosed",
          message: `writer ${writer} did not close its chain after ${at(last.line)} (the writer was killed, or is still running)`
        })
      }
    }
  }
}

/** The head files: there when the log links its chains, signed with the key, naming a record that is in the log. */
const checkHeads = (
  state: Verifying,
  options: VerifyOptions,
  decoded: ReadonlyArray<DecodedLine>,
  end: number
): Effect.Effect<void, AuditError> =>
  Effect.gen(function* () {
    const { key, problems } = state
    if (options.head === null) {
      const linked = decoded.some(({ record }) => record !== undefined && (record as { readonly after?: string }).after !== undefined)
      if (linked) {
        problems.push({
          line: end,
          kind: "head-missing",
          writer: null,
          message: `the log's head file is missing: it was deleted (with it, the end of the log can be cut unseen)`
        })
      }
    }
    const heads =
      options.head === undefined || options.head === null
        ? (options.heads ?? [])
        : [{ text: options.head, line: end, what: "the log's head file" }]
    const recordKeys =
      heads.length === 0
        ? new Set<string>()
        : new Set(decoded.flatMap(({ record }) => (record === undefined ? [] : [`${record.writer}\n${record.seq}\n${record.hash}`])))
    for (const given of heads) {
      const head = decodeHead(given.text)
      if (head === undefined) {
        problems.push({
          line: given.line,
          kind: "head-wrong",
          writer: null,
          message: `${given.what} is not a head record: it was edited or corrupted`
        })
        continue
      }
      const signed = key === undefined || head.mac === null ? undefined : (yield* hmac(key, headMacInput(head))) === head.mac
      const found = recordKeys.has(`${head.writer}\n${head.seq}\n${head.hash}`)
      if (signed === false || (key !== undefined && head.mac === null && state.checkpoints > 0)) {
        problems.push({
          line: given.line,
          kind: "head-wrong",
          writer: head.writer,
          message: `${given.what} has a wrong signature (it was forged, or the key is not the writers')`
        })
      } else if (!found) {
        problems.push({
          line: given.line,
          kind: "deleted",
          writer: head.writer,
          message:
            `${given.what} names writer ${head.writer}'s record ${head.seq} ` +
            `(${head.hash.slice(0, 12)}…), which is not in ${options.source}: the end of ` +
            `${options.source} was cut, its last chain deleted, or a record rewritten`
        })
      }
    }
  })

/** The checks of `verify` on a log's lines in order (see `VerifyOptions`). */
const verifyLines = (
  complete: ReadonlyArray<Line>,
  torn: Line | undefined,
  options: VerifyOptions
): Effect.Effect<VerifyReport, AuditError> =>
  Effect.gen(function* () {
    const notices: Array<Notice> = []
    const decoded = decodeLines(complete, notices)
    const state: Verifying = {
      key: options.key !== undefined && options.key !== "" ? options.key : undefined,
      at: options.at,
      source: options.source,
      problems: [],
      notices,
      chains: new Map(),
      present: presentSeqs(decoded),
      hashes: new Set(),
      linked: decoded.some(
        ({ record }) => record !== undefined && record.seq > 1 && (record as { readonly after?: string }).after !== undefined
      ),
      previous: undefined,
      records: 0,
      checkpoints: 0,
      checkedCheckpoints: 0
    }
    for (const line of decoded) yield* checkRecord(state, line)
    checkChainEnds(state, decoded)
    const end = complete.length === 0 ? 1 : complete[complete.length - 1]!.line
    yield* checkHeads(state, options, decoded, end)
    if (torn !== undefined) {
      notices.push({
        line: torn.line,
        kind: "truncated",
        message:
          `line ${torn.line} is cut short (no newline at the end of the file): a writer stopped in ` +
          `the middle of a record; that record is lost, the records before it are intact`
      })
    }
    const { problems, records, chains, checkpoints, checkedCheckpoints } = state
    problems.sort((a, b) => a.line - b.line)
    const headChecked = options.head !== undefined || options.heads !== undefined
    return { ok: problems.length === 0, records, writers: chains.size, checkpoints, checkedCheckpoints, headChecked, problems, notices }
  })

/** A head file's record: the last record a writer vouched for. */
const decodeHead = (text: string): HeadFile | undefined => {
  const head = jsonObject(text)
  if (head === undefined) return undefined
  if (head["v"] !== 1 || typeof head["writer"] !== "string" || !Number.isSafeInteger(head["seq"]) || !isHex64(head["hash"]))
    return undefined
  if (head["mac"] !== null && typeof head["mac"] !== "string") return undefined
  return head as unknown as HeadFile
}

const checkGap = (state: ChainState, record: CheckpointRecord, line: number, problems: Array<Problem>, at: (line: number) => string) => {
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
      message:
        `${at(line)}: writer ${record.writer} went ${record.seq - from - 1} records without a ` +
        `checkpoint before this one (one is due every ${last?.every ?? record.every}): a ` +
        `checkpoint was deleted`
    })
  }
}

const firstLine = (decoded: ReadonlyArray<{ readonly line: number; readonly record: AuditRecord | undefined }>, writer: string): number =>
  decoded.find(({ record }) => record?.writer === writer)?.line ?? 0

/** The text of the log's head file, `null` when there is none. @internal */
export const readHead = (file: string): Effect.Effect<string | null, AuditError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(headPath(file))).pipe(
    Effect.map((text): string | null => text),
    Effect.catchTag("PlatformError", (error) =>
      error.reason._tag === "NotFound"
        ? Effect.succeed(null)
        : Effect.fail(new AuditError({ file: headPath(file), detail: `cannot read the audit log's head file: ${error.message}` }))
    )
  )

/** @internal */
export const readFile = (file: string): Effect.Effect<string, AuditError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.mapError((error) => new AuditError({ file, detail: `cannot read the audit log: ${error.message}` }))
  )

// ---------------------------------------------------------------------------------------------
// Verifying an export (what a collector received)

/**
 * What of an exported log record differs from what the writer sent for its record (the body, which
 * the hash covers): its time, severity, event name, every attribute (one missing, added, changed,
 * or given twice), and the resource the writer recorded it exports under (`service.name`...).
 */
const exportMismatches = (
  kind: string,
  record: Readonly<Record<string, unknown>>,
  found: Otlp.Found,
  resource: Readonly<Record<string, unknown>> | undefined
): ReadonlyArray<string> => {
  const sent = Otlp.logRecord({ kind, line: found.body ?? "", record, time: String(record["time"]), span: undefined })
  const out: Array<string> = []
  if (String(found.fields.timeUnixNano) !== sent.timeUnixNano) out.push("timeUnixNano")
  if (found.fields.severityNumber !== sent.severityNumber) out.push("severityNumber")
  if (found.fields.severityText !== sent.severityText) out.push("severityText")
  if (found.fields.eventName !== sent.eventName) out.push("eventName")
  const expected = Otlp.recordAttributeValues(kind, record)
  for (const name of new Set([...Object.keys(expected), ...Object.keys(found.attributes)])) {
    if (!Object.hasOwn(found.attributes, name)) out.push(`${name} (missing)`)
    else if (!Object.hasOwn(expected, name)) out.push(`${name} (added)`)
    else if (JSON.stringify(found.attributes[name]) !== JSON.stringify(expected[name])) out.push(name)
  }
  for (const name of found.duplicates) out.push(`${name} (given more than once)`)
  if (resource !== undefined) {
    for (const [name, value] of Object.entries(resource)) {
      if (JSON.stringify(found.resource[name]) !== JSON.stringify(value)) out.push(`resource ${name}`)
    }
    for (const name of found.resourceDuplicates) out.push(`resource ${name} (given more than once)`)
  }
  return out
}

interface ExportItem {
  readonly found: Otlp.Found
  readonly record: AuditRecord | undefined
}

/** `a` was written before `b` (by time, then writer and seq): the order chains are merged in. */
const earlier = (a: AuditRecord, b: AuditRecord): boolean =>
  a.time !== b.time ? a.time < b.time : a.writer !== b.writer ? a.writer < b.writer : a.seq < b.seq

/** A binary min-heap (the chains' next records, earliest first). */
const heap = <A>(less: (a: A, b: A) => boolean) => {
  const items: Array<A> = []
  return {
    get size() {
      return items.length
    },
    push: (item: A) => {
      items.push(item)
      for (let i = items.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1
        if (!less(items[i]!, items[parent]!)) break
        ;[items[i], items[parent]] = [items[parent]!, items[i]!]
        i = parent
      }
    },
    pop: (): A | undefined => {
      const top = items[0]
      const last = items.pop()
      if (items.length > 0 && last !== undefined) {
        items[0] = last
        for (let i = 0; ; ) {
          const l = 2 * i + 1
          const r = l + 1
          let m = i
          if (l < items.length && less(items[l]!, items[m]!)) m = l
          if (r < items.length && less(items[r]!, items[m]!)) m = r
          if (m === i) break
          ;[items[i], items[m]] = [items[m]!, items[i]!]
          i = m
        }
      }
      return top
    }
  }
}

/**
 * The records of an export in an order the log could have had: each writer's by `seq`, the chains
 * merged by time, a chain's first record after the record it names (`after`) when the export has
 * it. O(n log n) in records: a day of one-shot runs is thousands of chains.
 */
const logOrder = (items: ReadonlyArray<ExportItem>): ReadonlyArray<ExportItem> => {
  if (items.some((item) => item.record !== undefined && item.record.seq > 1 && item.record.after !== undefined)) return linkedOrder(items)
  const chains = new Map<string, Array<ExportItem>>()
  const loose: Array<ExportItem> = []
  for (const item of items) {
    if (item.record === undefined) loose.push(item)
    else {
      const chain = chains.get(item.record.writer)
      if (chain === undefined) chains.set(item.record.writer, [item])
      else chain.push(item)
    }
  }
  const all = new Set(items.flatMap((item) => (item.record === undefined ? [] : [item.record.hash])))
  interface Cursor {
    readonly chain: ReadonlyArray<ExportItem>
    at: number
  }
  const next = (cursor: Cursor) => cursor.chain[cursor.at]!.record!
  const ready = heap<Cursor>((a, b) => earlier(next(a), next(b)))
  /** Chains whose first record waits for the record it names, by that record's hash. */
  const waiting = new Map<string, Array<Cursor>>()
  for (const chain of chains.values()) {
    const cursor: Cursor = { chain: chain.sort((a, b) => a.record!.seq - b.record!.seq), at: 0 }
    const first = next(cursor)
    const after = first.seq === 1 ? (first as { readonly after?: string }).after : undefined
    if (after !== undefined && after !== GENESIS && all.has(after) && after !== first.hash) {
      const list = waiting.get(after)
      if (list === undefined) waiting.set(after, [cursor])
      else list.push(cursor)
    } else ready.push(cursor)
  }
  const ordered: Array<ExportItem> = []
  for (;;) {
    let cursor = ready.pop()
    if (cursor === undefined) {
      // Only chains waiting on each other (a forged cycle): the earliest goes first.
      const parked = [...waiting.values()].flat()
      if (parked.length === 0) break
      cursor = parked.reduce((a, b) => (earlier(next(b), next(a)) ? b : a))
      for (const [hash, list] of waiting) {
        const rest = list.filter((c) => c !== cursor)
        if (rest.length === 0) waiting.delete(hash)
        else waiting.set(hash, rest)
      }
    }
    const item = cursor.chain[cursor.at++]!
    ordered.push(item)
    const woken = waiting.get(item.record!.hash)
    if (woken !== undefined) {
      waiting.delete(item.record!.hash)
      for (const c of woken) ready.push(c)
    }
    if (cursor.at < cursor.chain.length) ready.push(cursor)
  }
  return [...ordered, ...loose]
}

/**
 * The records of an export whose every record names the one before it in the file (`after`): the
 * file's order, rebuilt by following the links from each record whose predecessor is not in the
 * export (the first of the log, or one after a gap); where two name the same one, the earlier
 * first. Records on no path (a forged cycle) follow, earliest first. O(n log n).
 */
const linkedOrder = (items: ReadonlyArray<ExportItem>): ReadonlyArray<ExportItem> => {
  const records = items.filter((item) => item.record !== undefined)
  const loose = items.filter((item) => item.record === undefined)
  const byEarliest = (a: ExportItem, b: ExportItem) => (earlier(a.record!, b.record!) ? -1 : earlier(b.record!, a.record!) ? 1 : 0)
  const hashes = new Set(records.map((item) => item.record!.hash))
  const next = new Map<string, Array<ExportItem>>()
  const starts: Array<ExportItem> = []
  for (const item of records) {
    const after = item.record!.after
    if (after === undefined || !hashes.has(after) || after === item.record!.hash) starts.push(item)
    else {
      const list = next.get(after)
      if (list === undefined) next.set(after, [item])
      else list.push(item)
    }
  }
  for (const list of next.values()) list.sort(byEarliest)
  const ordered: Array<ExportItem> = []
  const done = new Set<ExportItem>()
  const walk = (start: ExportItem) => {
    const stack = [start]
    while (stack.length > 0) {
      const item = stack.pop()!
      if (done.has(item)) continue
      done.add(item)
      ordered.push(item)
      const following = next.get(item.record!.hash) ?? []
      for (let i = following.length - 1; i >= 0; i--) stack.push(following[i]!)
    }
  }
  for (const start of starts.sort(byEarliest)) walk(start)
  for (const item of records.filter((item) => !done.has(item)).sort(byEarliest)) walk(item)
  return [...ordered, ...loose]
}

/** @internal */
export const verifyExport = (text: string, options: { readonly key?: string | undefined } = {}): Effect.Effect<ExportReport, AuditError> =>
  Effect.gen(function* () {
    const read = Otlp.readExport(text)
    const where = (found: Otlp.Found) => `payload line ${found.line}, record ${found.index}`
    const problems: Array<Problem> = read.malformed.map(({ line, message }) => ({ line, kind: "malformed", writer: null, message }))
    const notices: Array<Notice> = []
    // The same line twice is one record delivered twice (an exporter's retry), not an insertion.
    const seen = new Set<string>()
    let duplicates = 0
    let headCount = 0
    const items: Array<ExportItem> = []
    const heads = new Map<string, { readonly found: Otlp.Found; readonly seq: number; readonly text: string }>()
    const intactRecords: Array<{ readonly found: Otlp.Found; readonly record: AuditRecord }> = []
    const headRecords: Array<{ readonly found: Otlp.Found; readonly head: HeadFile }> = []
    for (const found of read.found) {
      const writerAttribute =
        typeof found.attributes["agent_hooks.audit.writer"] === "string" ? found.attributes["agent_hooks.audit.writer"] : null
      if (found.body === undefined) {
        problems.push({
          line: found.line,
          kind: "malformed",
          writer: writerAttribute,
          message: `${where(found)}: its body is not the record's line (a string): it was edited`
        })
        continue
      }
      if (seen.has(found.body)) {
        duplicates += 1
        continue
      }
      seen.add(found.body)
      if (found.attributes["agent_hooks.audit.kind"] === "head") {
        headCount += 1
        const head = decodeHead(found.body)
        if (head !== undefined) headRecords.push({ found, head })
        const writer = head?.writer ?? writerAttribute ?? ""
        const seq = head?.seq ?? -1
        const prior = heads.get(writer)
        if (prior === undefined || seq > prior.seq) heads.set(writer, { found, seq, text: found.body })
        continue
      }
      const record = decode(found.body)
      // An edited body is reported by the chain check; its log record's other fields are compared only with an intact body.
      const match = found.body.match(HASH_SUFFIX)
      const intact = record !== undefined && match !== null && (yield* sha256(`${found.body.slice(0, match.index!)}}`)) === record.hash
      if (record !== undefined && intact) intactRecords.push({ found, record })
      items.push({ found, record })
    }
    // Each log record as the writer sent it: the resource its writer recorded in the first record of its chain.
    const resources = new Map<string, Readonly<Record<string, unknown>>>()
    for (const { record } of intactRecords) {
      const resource = (record as { readonly resource?: unknown }).resource
      if (record.seq === 1 && Predicate.isObject(resource)) resources.set(record.writer, resource as Readonly<Record<string, unknown>>)
    }
    const compared = [
      ...intactRecords.map(({ found, record }) => ({ found, kind: record.kind, record, writer: record.writer, seq: record.seq })),
      ...headRecords.map(({ found, head }) => ({ found, kind: "head", record: head, writer: head.writer, seq: head.seq }))
    ]
    for (const { found, kind, record, writer, seq } of compared) {
      const mismatches = exportMismatches(kind, record as unknown as Readonly<Record<string, unknown>>, found, resources.get(writer))
      if (mismatches.length > 0) {
        problems.push({
          line: found.line,
          kind: "edited",
          writer,
          message:
            `${where(found)} (writer ${writer}, ${kind === "head" ? "head at " : ""}seq ${seq}): its ` +
            `${mismatches.join(", ")} differ from what the writer sent for its record (the body, which ` +
            `the hash covers): they were edited, and a query on them sees other values`
        })
      }
    }
    const ordered = logOrder(items)
    const headList = [...heads.values()]
    // Every place the core check may name: the records in their order, then the heads.
    const places = [...ordered.map((item) => item.found), ...headList.map((head) => head.found)]
    const report = yield* verifyLines(
      ordered.map((item, i) => ({ line: i + 1, text: item.found.body! })),
      undefined,
      {
        key: options.key,
        heads: headList.map((head, i) => ({
          text: head.text,
          line: ordered.length + i + 1,
          what: `the exported head of writer ${head.found.attributes["agent_hooks.audit.writer"] ?? "?"} (${where(head.found)})`
        })),
        at: (line) => (places[line - 1] === undefined ? `line ${line}` : where(places[line - 1]!)),
        source: "the export"
      }
    )
    const lineOf = (line: number) => places[line - 1]?.line ?? line
    for (const writer of new Set(items.flatMap((item) => (item.record === undefined ? [] : [item.record.writer])))) {
      if (!heads.has(writer)) {
        notices.push({
          line: null,
          kind: "unclosed",
          message:
            `writer ${writer} has no head record in the export: the end of its chain cannot be checked ` +
            `(the writer was killed or is still running, or its last batch was not exported)`
        })
      }
    }
    if (duplicates > 0) {
      notices.push({
        line: null,
        kind: "duplicate",
        message:
          `${duplicates} record${duplicates === 1 ? " was" : "s were"} received more than once (an ` +
          `exporter's retry): each is checked once`
      })
    }
    const all = [...problems, ...report.problems.map((problem) => ({ ...problem, line: lineOf(problem.line) }))].sort(
      (a, b) => a.line - b.line
    )
    return {
      ...report,
      ok: all.length === 0,
      problems: all,
      notices: [...report.notices.map((notice) => ({ ...notice, line: notice.line === null ? null : lineOf(notice.line) })), ...notices],
      payloads: read.payloads,
      logRecords: read.logRecords,
      skipped: read.skipped,
      duplicates,
      heads: headCount
    }
  })
