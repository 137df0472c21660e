import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Effect, FileSystem, Layer, Option, Path, PlatformError } from "effect"
import { Audit } from "@agent-hooks/core"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"

/**
 * A file system whose files live in memory: what the writer appends to the log, `text()` reads
 * back; its head file, `head()`. `full()` makes every write fail as on a full disk (ENOSPC) until
 * `space()`, except what the room freed by truncating a file allows (as a real disk would).
 */
const memoryFile = (log = "/log/audit.jsonl") => {
  const files = new Map<string, Uint8Array>()
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  let freed: number | undefined
  const noSpace = () =>
    new PlatformError.PlatformError(
      new PlatformError.SystemError({
        _tag: "Unknown",
        module: "FileSystem",
        method: "write",
        description: "ENOSPC: no space left on device"
      })
    )
  const notFound = (path: string) =>
    new PlatformError.PlatformError(
      new PlatformError.SystemError({ _tag: "NotFound", module: "FileSystem", method: "open", pathOrDescriptor: path })
    )
  /** Takes `bytes` of the room left: all of it without a full disk. */
  const room = (bytes: number) => {
    if (freed === undefined) return true
    if (freed < bytes) return false
    freed -= bytes
    return true
  }
  const bytesOf = (path: string) => files.get(path) ?? new Uint8Array()
  const info = (path: string) =>
    files.has(path)
      ? Effect.succeed({
          type: "File",
          size: BigInt(bytesOf(path).length),
          mtime: Option.some(new Date())
        } as unknown as FileSystem.File.Info)
      : Effect.fail(notFound(path))
  const append = (path: string, bytes: Uint8Array) => {
    const old = bytesOf(path)
    const next = new Uint8Array(old.length + bytes.length)
    next.set(old)
    next.set(bytes, old.length)
    files.set(path, next)
  }
  const layer = Layer.mergeAll(
    FileSystem.layerNoop({
      open: (path, options) =>
        options?.flag === "r" && !files.has(path)
          ? Effect.fail(notFound(path))
          : Effect.succeed({
              writeAll: (bytes: Uint8Array) => (room(bytes.length) ? Effect.sync(() => append(path, bytes)) : Effect.fail(noSpace())),
              stat: Effect.sync(
                () => ({ size: BigInt(bytesOf(path).length), mtime: Option.some(new Date()) }) as unknown as FileSystem.File.Info
              ),
              readAlloc: (size: number, options?: { position?: bigint }) =>
                Effect.sync(() => {
                  const at = Number(options?.position ?? 0n)
                  return Option.some(bytesOf(path).slice(at, at + Number(size)))
                })
            } as unknown as FileSystem.File),
      writeFileString: (path, data, options) =>
        Effect.suspend(() => {
          if (options?.flag === "wx" && files.has(path))
            return Effect.fail(
              new PlatformError.PlatformError(
                new PlatformError.SystemError({ _tag: "AlreadyExists", module: "FileSystem", method: "open", pathOrDescriptor: path })
              )
            )
          const bytes = encoder.encode(data)
          if (!room(bytes.length)) return Effect.fail(noSpace())
          files.set(path, bytes)
          return Effect.void
        }),
      rename: (from, to) =>
        Effect.suspend(() => {
          const bytes = files.get(from)
          if (bytes === undefined) return Effect.fail(notFound(from))
          files.delete(from)
          files.set(to, bytes)
          return Effect.void
        }),
      remove: (path) => Effect.sync(() => void files.delete(path)),
      readFile: (path) => (files.has(path) ? Effect.succeed(bytesOf(path)) : Effect.fail(notFound(path))),
      readFileString: (path) => (files.has(path) ? Effect.succeed(decoder.decode(bytesOf(path))) : Effect.fail(notFound(path))),
      stat: (path) => info(path),
      lstat: (path) => info(path),
      truncate: (path, length) =>
        Effect.sync(() => {
          const bytes = bytesOf(path)
          const keep = Number(length ?? 0)
          if (freed !== undefined) freed += Math.max(0, bytes.length - keep)
          files.set(path, bytes.slice(0, keep))
        })
    }),
    Path.layer
  )
  const read = (path: string) => (files.has(path) ? decoder.decode(bytesOf(path)) : null)
  return {
    layer,
    text: () => read(log) ?? "",
    head: () => read(`${log}.head`),
    files,
    full: () => void (freed = 0),
    space: () => void (freed = undefined)
  }
}

const hook = (event: string, command: string, status: Audit.HookRecordFields["status"] = "success"): Audit.HookRecordFields => ({
  session: "s1",
  event,
  matcher: "Bash",
  hook: command,
  type: "command",
  source: "/p/.agent-hooks/settings.json",
  exitCode: status === "blocking-error" ? 2 : 0,
  signal: null,
  status,
  decision: status === "blocking-error" ? "deny" : null,
  timedOut: false,
  durationMs: 3.5
})

/** Writes `count` hook records (one writer) and returns the file's text. */
const writeLog = (count: number, options: { key?: string; every?: number; close?: boolean; writer?: string } = {}) => {
  const file = memoryFile()
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const writer = yield* Audit.makeWriter({
          file: "/log/audit.jsonl",
          key: options.key,
          checkpointEvery: options.every,
          writer: options.writer
        })
        for (let i = 0; i < count; i++) yield* writer.hook(hook("PreToolUse", `./hook-${i}.sh`))
        if (options.close !== false) yield* writer.close
      })
    ).pipe(Effect.provide(file.layer))
  ).then(() => file.text())
}

/** Records of several writers in one file, in the order given (one hook record per name), every writer closed at the end. */
const writeTogether = (order: ReadonlyArray<string>, file = memoryFile()) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const writers = new Map<string, Audit.Writer>()
        for (const name of order) {
          let writer = writers.get(name)
          if (writer === undefined) writers.set(name, (writer = yield* Audit.makeWriter({ file: "/log/audit.jsonl", writer: name })))
          yield* writer.hook(hook("PreToolUse", `./${name}.sh`))
        }
        for (const writer of writers.values()) yield* writer.close
      })
    ).pipe(Effect.provide(file.layer))
  ).then(() => file.text())

const verify = (text: string, key?: string) => Effect.runPromise(Audit.verify(text, { key }))
const lines = (text: string) => text.split("\n").slice(0, -1)
const join = (parts: ReadonlyArray<string>) => `${parts.join("\n")}\n`

describe("Audit writer", () => {
  it("writes one JSON line per record, chained by SHA-256", async () => {
    const text = await writeLog(3)
    const records = lines(text).map((line) => JSON.parse(line))
    expect(records.map((r) => [r.kind, r.seq, r.hook])).toEqual([
      ["hook", 1, "./hook-0.sh"],
      ["hook", 2, "./hook-1.sh"],
      ["hook", 3, "./hook-2.sh"]
    ])
    expect(records[0].prev).toBe("0".repeat(64))
    expect(records[1].prev).toBe(records[0].hash)
    expect(records[2].prev).toBe(records[1].hash)
    expect(new Set(records.map((r) => r.writer)).size).toBe(1)
    expect(records[0]).toMatchObject({
      v: 1,
      event: "PreToolUse",
      matcher: "Bash",
      type: "command",
      status: "success",
      exitCode: 0,
      source: "/p/.agent-hooks/settings.json"
    })
    // The hash covers the line as written, without its hash member.
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(lines(text)[0]!.replace(/,"hash":"[0-9a-f]{64}"\}$/, "}")))
    )
    expect(records[0].hash).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""))
    expect(await verify(text)).toMatchObject({ ok: true, records: 3, writers: 1, problems: [] })
  })

  it("signs checkpoints when opening, every N records and when closing, with a key", async () => {
    const text = await writeLog(5, { key: "k1", every: 2 })
    const kinds = lines(text)
      .map((line) => JSON.parse(line))
      .map((r) => (r.kind === "checkpoint" ? `checkpoint:${r.reason}` : r.kind))
    expect(kinds).toEqual([
      "checkpoint:open",
      "hook",
      "hook",
      "checkpoint:periodic",
      "hook",
      "hook",
      "checkpoint:periodic",
      "hook",
      "checkpoint:close"
    ])
    expect(await verify(text, "k1")).toMatchObject({ ok: true, checkpoints: 4, checkedCheckpoints: 4, notices: [] })
    const unchecked = await verify(text)
    expect(unchecked.ok).toBe(true)
    expect(unchecked.notices.map((n) => n.kind)).toEqual(["unchecked"])
  })

  it("writes no checkpoint without a key", async () => {
    const text = await writeLog(3, { every: 1 })
    expect(lines(text).every((line) => JSON.parse(line).kind === "hook")).toBe(true)
  })
})

describe("Audit.verify", () => {
  it("finds an edited record by its line", async () => {
    const parts = lines(await writeLog(5))
    parts[2] = parts[2]!.replace('"status":"success"', '"status":"blocking-error"')
    const report = await verify(join(parts))
    expect(report.ok).toBe(false)
    // Only the edited line is blamed, not the records after it.
    expect(report.problems).toEqual([expect.objectContaining({ line: 3, kind: "edited" })])
    // The same for the first record of a chain.
    const first = lines(await writeLog(3))
    first[0] = first[0]!.replace("./hook-0.sh", "./other.sh")
    expect((await verify(join(first))).problems).toEqual([expect.objectContaining({ line: 1, kind: "edited" })])
  })

  it("finds a record rewritten with a fresh hash: the next record no longer vouches for it", async () => {
    const parts = lines(await writeLog(5))
    const record = JSON.parse(parts[1]!)
    const { hash: _, ...body } = { ...record, status: "blocking-error" }
    const text = JSON.stringify(body)
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
    parts[1] = `${text.slice(0, -1)},"hash":"${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}"}`
    const report = await verify(join(parts))
    expect(report.problems[0]).toMatchObject({ line: 2, kind: "edited" })
  })

  it("finds a deleted record", async () => {
    const parts = lines(await writeLog(5))
    parts.splice(2, 1)
    expect((await verify(join(parts))).problems[0]).toMatchObject({ line: 3, kind: "deleted" })
  })

  it("finds an inserted copy of a record", async () => {
    const parts = lines(await writeLog(5))
    parts.splice(4, 0, parts[1]!)
    expect((await verify(join(parts))).problems[0]).toMatchObject({ line: 5, kind: "inserted" })
  })

  it("finds two records swapped", async () => {
    const parts = lines(await writeLog(5))
    ;[parts[1], parts[2]] = [parts[2]!, parts[1]!]
    expect((await verify(join(parts))).problems[0]).toMatchObject({ line: 2, kind: "reordered" })
  })

  it("finds a line that is not a record", async () => {
    const parts = lines(await writeLog(3))
    parts.splice(1, 0, '{"kind":"hook","event":"PreToolUse"}')
    expect((await verify(join(parts))).problems[0]).toMatchObject({ line: 2, kind: "malformed" })
  })

  it("reports a last line torn by a crash as truncation, not corruption", async () => {
    const text = await writeLog(4)
    const torn = text.slice(0, text.length - 40)
    const report = await verify(torn)
    expect(report).toMatchObject({ ok: true, records: 3 })
    expect(report.notices).toEqual([expect.objectContaining({ kind: "truncated", line: 4 })])
  })

  it("keeps writers' chains apart: interleaved lines of two writers verify", async () => {
    const mixed = await writeTogether(["w-a", "w-b", "w-b", "w-a", "w-a", "w-b"])
    expect(await verify(mixed)).toMatchObject({ ok: true, records: 6, writers: 2 })
    // Each record names the one before it in the file, whichever writer wrote it.
    const records = lines(mixed).map((line) => JSON.parse(line) as { after: string; hash: string })
    expect(records.slice(1).map((record) => record.after)).toEqual(records.slice(0, -1).map((record) => record.hash))
  })

  it("with the key, finds a cut at a record boundary once a checkpoint is missing", async () => {
    const parts = lines(await writeLog(7, { key: "k1", every: 2 }))
    // open, h, h, periodic, h, h, periodic, h, h, periodic, h, close: cut the last six lines.
    const cut = join(parts.slice(0, parts.length - 6))
    const report = await verify(cut, "k1")
    expect(report.ok).toBe(true)
    expect(report.notices.map((n) => n.kind)).toEqual(["unclosed"])
    // Without the periodic checkpoints, the cut can no longer hide behind "unclosed".
    const noPeriodic = join(parts.filter((line) => !line.includes('"reason":"periodic"')))
    const missing = await verify(noPeriodic, "k1")
    expect(missing.ok).toBe(false)
    expect(missing.problems.map((p) => p.kind)).toContain("checkpoint-missing")
  })

  it("with the key, finds a chain rewritten from scratch", async () => {
    const genuine = await writeLog(3, { key: "k1", writer: "w-a" })
    const forged = await writeLog(3, { key: "not the key", writer: "w-a" })
    expect((await verify(genuine, "k1")).ok).toBe(true)
    const report = await verify(forged, "k1")
    expect(report.problems[0]).toMatchObject({ line: 1, kind: "checkpoint-wrong" })
    const unsigned = await writeLog(3, { writer: "w-a" })
    expect((await verify(unsigned, "k1")).problems[0]).toMatchObject({ line: 1, kind: "checkpoint-missing" })
  })
})

describe("Audit.verify after crashes", () => {
  it("reads a torn record followed by another writer's record as truncation", async () => {
    const file = memoryFile()
    const written = lines(await writeTogether(["w-a"], file))
    // Writer a died in the middle of its second record; writer b appended after the fragment.
    file.files.set("/log/audit.jsonl", new TextEncoder().encode(`${written[0]!}\n${written[0]!.slice(0, 50)}`))
    const text = await writeTogether(["w-b", "w-b"], file)
    const report = await verify(text)
    expect(report).toMatchObject({ ok: true, records: 3, writers: 2 })
    expect(report.notices).toEqual([expect.objectContaining({ kind: "truncated", line: 2 })])
  })
})

/** One writer's dispatch records for `inputs` (tool calls to Bash), with the head file it leaves. */
const writeDispatches = (inputs: ReadonlyArray<unknown>, options: Partial<Audit.WriterOptions> = {}) => {
  const file = memoryFile()
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const writer = yield* Audit.makeWriter({ file: "/log/audit.jsonl", ...options })
        for (const input of inputs) {
          yield* writer.outcome({
            session: "s1",
            event: "PreToolUse",
            matcher: "Bash",
            tool: "Bash",
            input,
            blocked: false,
            decision: null,
            reason: null,
            hooks: 0
          })
        }
        yield* writer.close
      })
    ).pipe(Effect.provide(file.layer))
  ).then(() => ({ text: file.text(), head: file.head() }))
}

describe("Audit records of hostile input", () => {
  it("a payload crafted against the redaction patterns is recorded in bounded time", async () => {
    const started = Date.now()
    const hostile = [
      "password".repeat(200_000),
      `token=${'"'.repeat(100_000)}`,
      `-----BEGIN RSA PRIVATE KEY-----${"A".repeat(500_000)}`,
      `Authorization: ${"x".repeat(300_000)}`,
      "https://".repeat(50_000) + "a:b@"
    ]
    const { text } = await writeDispatches(hostile.map((command) => ({ command })))
    // Generous: a linear pass over 2.5 MB takes milliseconds; catastrophic backtracking would take hours.
    expect(Date.now() - started).toBeLessThan(20_000)
    const records = lines(text).map((line) => JSON.parse(line))
    expect(records.every((record) => record.cut.length === 1 && record.cut[0].path === "input.command")).toBe(true)
    expect(records[2].redacted).toContain("private-key")
    expect(await verify(text)).toMatchObject({ ok: true })
  })

  it("an input nested deeper than the walk goes is not recorded, and says so", async () => {
    let deep: unknown = "AKIAIOSFODNN7EXAMPLE"
    for (let i = 0; i < 5000; i++) deep = { a: deep }
    const { text } = await writeDispatches([deep])
    const record = JSON.parse(lines(text)[0]!)
    expect(record.input).toBeNull()
    expect(record.cut).toEqual([{ path: "input", chars: null, sha256: null, why: "nested deeper than 64 levels: not recorded" }])
    expect(text).not.toContain("AKIAIOSFODNN7EXAMPLE")
  })

  it("a huge input is kept as the head of its JSON with the hash of the whole; configured patterns and caps apply", async () => {
    const input = { files: Array.from({ length: 400 }, (_, i) => `file-${i}-${"y".repeat(300)}`), ticket: "JIRA-4242" }
    const { text } = await writeDispatches([input], { redact: [/JIRA-\d+/, "/y{300}/i"], maxInputChars: 1000, maxValueChars: 200 })
    const record = JSON.parse(lines(text)[0]!)
    expect(typeof record.input).toBe("string")
    expect(record.input).toHaveLength(1000)
    expect(record.cut.at(-1)).toMatchObject({ path: "input", why: expect.stringContaining("1000 characters as JSON") })
    expect(text).not.toContain("JIRA-4242")
    expect(record.redacted).toEqual(["custom-1", "custom-2"])
  })

  it("a redaction pattern that does not compile, or matches nothing but the empty string, stops the writer with its name", async () => {
    await expect(writeDispatches([{}], { redact: ["(open"] })).rejects.toThrow(/redaction pattern "\(open" is not a regular expression/)
    await expect(writeDispatches([{}], { redact: ["x*"] })).rejects.toThrow(/matches the empty string/)
  })
})

describe("Audit.verify with the head file", () => {
  it("passes with the head a writer left; fails when its record is gone, when it is forged, or missing", async () => {
    const { text, head } = await writeDispatches([{ command: "ls" }, { command: "rm -rf /" }], { key: "k" })
    expect(head).not.toBeNull()
    const ok = await Effect.runPromise(Audit.verify(text, { key: "k", head }))
    expect(ok).toMatchObject({ ok: true, headChecked: true })
    const cut = join(lines(text).slice(0, -1))
    const cutReport = await Effect.runPromise(Audit.verify(cut, { key: "k", head }))
    expect(cutReport.problems.map((p) => p.kind)).toContain("deleted")
    const forged = JSON.stringify({ ...JSON.parse(head!), mac: "0".repeat(64) })
    expect((await Effect.runPromise(Audit.verify(text, { key: "k", head: forged }))).problems.map((p) => p.kind)).toEqual(["head-wrong"])
    expect((await Effect.runPromise(Audit.verify(text, { key: "k", head: null }))).problems.map((p) => p.kind)).toEqual(["head-missing"])
  })
})

describe("verifyExport on hostile input", () => {
  const payload = (records: ReadonlyArray<{ body: unknown; attributes?: ReadonlyArray<unknown> }>) =>
    JSON.stringify({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: records.map((r) => ({
                body: r.body,
                attributes: r.attributes ?? [{ key: "agent_hooks.audit.kind", value: { stringValue: "hook" } }]
              }))
            }
          ]
        }
      ]
    })
  const line = (writer: string, after: string, hash: string) =>
    `{"v":1,"kind":"hook","writer":"${writer}","seq":1,"time":"2026-11-26T00:00:00.000Z","after":"${after}","prev":"${"0".repeat(64)}","hash":"${hash}"}`

  it("two forged chains that each start after the other end, reported, instead of looping", async () => {
    const a = "a".repeat(64)
    const b = "b".repeat(64)
    const report = await Effect.runPromise(
      Audit.verifyExport(payload([{ body: { stringValue: line("w-a", b, a) } }, { body: { stringValue: line("w-b", a, b) } }]) + "\n")
    )
    expect(report.ok).toBe(false)
    expect(report.records).toBe(2)
    expect(
      report.problems
        .filter((p) => p.kind === "edited")
        .map((p) => p.message)
        .sort()
    ).toEqual([
      expect.stringMatching(/^payload line 1, record 1 \(writer w-a, seq 1\) was edited/),
      expect.stringMatching(/^payload line 1, record 2 \(writer w-b, seq 1\) was edited/)
    ])
  })

  it("what is not an OTLP payload, or not a record, is named by line; deeply nested values and other services' logs do not break it", async () => {
    // JSON.parse takes any depth; a recursive reader of the attribute would overflow the stack.
    const deep = `${'{"arrayValue":{"values":['.repeat(100_000)}{"stringValue":"x"}${"]}}".repeat(100_000)}`
    const text =
      [
        "not json",
        JSON.stringify({ something: 1 }),
        payload([{ body: { stringValue: "a service's own log" }, attributes: [{ key: "deep", value: "DEEP" }] }]).replace('"DEEP"', deep),
        payload([{ body: { kvlistValue: {} } }])
      ].join("\n") + "\n"
    const report = await Effect.runPromise(Audit.verifyExport(text))
    expect(report).toMatchObject({ ok: false, payloads: 3, logRecords: 2, skipped: 1 })
    expect(report.problems.map((p) => [p.line, p.kind])).toEqual([
      [1, "malformed"],
      [2, "malformed"],
      [4, "malformed"]
    ])
    expect(report.problems[0]!.message).toContain("line 1 is not JSON (expected one OTLP/JSON logs payload per line")
    expect(report.problems[2]!.message).toContain("payload line 4, record 1: its body is not the record's line (a string)")
  })
})

describe("verifyExport: every field of an exported record is checked against its body", () => {
  /** A blocked call exported by one writer: the collector's file (one payload per line) as it received it. */
  const exported = async () => {
    const file = memoryFile()
    const bodies: Array<string> = []
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const writer = yield* Audit.makeWriter({
            file: "/log/audit.jsonl",
            otlp: {
              endpoint: "http://collector.test/v1/logs",
              serviceName: "guarded-agent",
              resourceAttributes: { team: "platform" },
              exportIntervalMs: 60_000,
              fetch: (_url, init) => {
                bodies.push(init.body)
                return Promise.resolve({ status: 200, text: () => Promise.resolve("{}") })
              }
            }
          })
          yield* writer.hook({ ...hook("PreToolUse", "./guard.sh", "blocking-error"), tool: "Bash" })
          yield* writer.outcome({
            session: "s1",
            event: "PreToolUse",
            matcher: "Bash",
            tool: "Bash",
            input: { command: "rm -rf /" },
            blocked: true,
            decision: "deny",
            reason: "rm -rf is not allowed",
            hooks: 1
          })
        })
      ).pipe(Effect.provide(file.layer))
    )
    return bodies.join("\n") + "\n"
  }
  type LogRecord = { attributes: Array<{ key: string; value: Record<string, unknown> }> } & Record<string, unknown>
  type Payload = {
    resourceLogs: Array<{
      resource: { attributes: Array<{ key: string; value: unknown }> }
      scopeLogs: Array<{ logRecords: Array<LogRecord> }>
    }>
  }
  /** The export with the blocked outcome's log record (and its payload) changed by `edit`. */
  const withEdit = (text: string, edit: (record: LogRecord, payload: Payload) => void) => {
    let edited = 0
    const out = text
      .trimEnd()
      .split("\n")
      .map((line) => {
        const payload = JSON.parse(line) as Payload
        for (const resource of payload.resourceLogs)
          for (const scope of resource.scopeLogs)
            for (const record of scope.logRecords) {
              if (record.attributes.some((a) => a.key === "agent_hooks.audit.blocked" && a.value["boolValue"] === true)) {
                edit(record, payload)
                edited += 1
              }
            }
        return JSON.stringify(payload)
      })
    expect(edited).toBe(1)
    return `${out.join("\n")}\n`
  }
  const attribute = (record: LogRecord, key: string) => record.attributes.find((a) => a.key === key)!

  const edits: ReadonlyArray<readonly [string, (record: LogRecord, payload: Payload) => void, RegExp]> = [
    ["severity number lowered", (r) => void (r["severityNumber"] = 9), /severityNumber/],
    ["severity text lowered", (r) => void (r["severityText"] = "INFO"), /severityText/],
    ["event name changed", (r) => void (r["eventName"] = "agent_hooks.audit.hook"), /eventName/],
    ["tool name changed", (r) => void (attribute(r, "gen_ai.tool.name").value = { stringValue: "Read" }), /gen_ai\.tool\.name/],
    ["time moved", (r) => void (r["timeUnixNano"] = "1000000000000000000"), /timeUnixNano/],
    [
      "service changed",
      (_, p) => void (p.resourceLogs[0]!.resource.attributes.find((a) => a.key === "service.name")!.value = { stringValue: "other" }),
      /resource service\.name/
    ],
    [
      "blocked attribute dropped",
      (r) => void (r.attributes = r.attributes.filter((a) => a.key !== "agent_hooks.audit.blocked")),
      /blocked \(missing\)/
    ],
    [
      "blocked=false inserted before the true one",
      (r) => void r.attributes.unshift({ key: "agent_hooks.audit.blocked", value: { boolValue: false } }),
      /blocked/
    ],
    ["blocked attribute flipped", (r) => void (attribute(r, "agent_hooks.audit.blocked").value = { boolValue: false }), /blocked/]
  ]

  it("the export as sent verifies", async () => {
    const report = await Effect.runPromise(Audit.verifyExport(await exported()))
    expect(report.problems).toEqual([])
    expect(report.ok).toBe(true)
  })

  it.each(edits)("%s: verify --otlp fails and names the field", async (_, edit, field) => {
    const report = await Effect.runPromise(Audit.verifyExport(withEdit(await exported(), edit)))
    expect(report.ok).toBe(false)
    expect(report.problems.map((p) => p.kind)).toContain("edited")
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(field)
  })

  it("an attribute given twice is a problem even when both say the same", async () => {
    const text = withEdit(await exported(), (r) => void r.attributes.push({ ...attribute(r, "agent_hooks.audit.blocked") }))
    const report = await Effect.runPromise(Audit.verifyExport(text))
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(/agent_hooks\.audit\.blocked \(given more than once\)/)
  })
})

describe("Audit trail on a full disk: the loss is on record", () => {
  const call = (command: string) => ({
    session: "s1",
    event: "PreToolUse",
    matcher: "Bash",
    tool: "Bash",
    input: { command },
    blocked: true,
    decision: "deny" as const,
    reason: "blocked",
    hooks: 1
  })
  /** One `run`: a writer that records one blocked call and closes; the write's error, if any. */
  const oneRun = (file: ReturnType<typeof memoryFile>, command: string) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const writer = yield* Audit.makeWriter({ file: "/log/audit.jsonl" })
          return yield* Effect.exit(writer.outcome(call(command)))
        })
      ).pipe(Effect.provide(file.layer))
    )

  it("8 calls, the disk full for 5 of them (each run its own writer): verify fails once space returns", async () => {
    const file = memoryFile()
    const exits = []
    for (let i = 0; i < 8; i++) {
      // Other programs take whatever room there is while the disk is full.
      if (i >= 2 && i < 7) file.full()
      else file.space()
      exits.push((await oneRun(file, `rm -rf /srv/${i}`))._tag)
    }
    expect(exits).toEqual(["Success", "Success", "Failure", "Failure", "Failure", "Failure", "Failure", "Success"])
    const text = file.text()
    expect(text.split("\n").filter((line) => line.includes('"kind":"outcome"'))).toHaveLength(3)
    const report = await Effect.runPromise(Audit.verify(text, { head: file.head() }))
    expect(report.ok).toBe(false)
    expect(report.problems).toEqual([expect.objectContaining({ kind: "lost", line: 3 })])
    expect(report.problems[0]!.message).toMatch(/could not write 1 record .*ENOSPC/)
  })

  it("a long-lived writer says what it lost in its next record once space returns, even with no reserve", async () => {
    const file = memoryFile()
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const writer = yield* Audit.makeWriter({ file: "/log/audit.jsonl" })
          yield* writer.outcome(call("ls"))
          file.files.delete("/log/audit.jsonl.reserve")
          file.full()
          const lost = [yield* Effect.exit(writer.outcome(call("rm -rf /a"))), yield* Effect.exit(writer.outcome(call("rm -rf /b")))]
          file.space()
          yield* writer.outcome(call("git status"))
          return lost.map((exit) => exit._tag)
        })
      ).pipe(Effect.provide(file.layer))
    )
    expect(result).toEqual(["Failure", "Failure"])
    const records = lines(file.text()).map((line) => JSON.parse(line) as { kind: string; lost?: number; kinds?: Array<string> })
    expect(records.map((r) => r.kind)).toEqual(["outcome", "loss", "outcome"])
    expect(records[1]).toMatchObject({ lost: 2, kinds: ["outcome"] })
    const report = await Effect.runPromise(Audit.verify(file.text(), { head: file.head() }))
    expect(report.problems.map((p) => p.kind)).toEqual(["lost"])
  })
})

describe("Audit redaction: every field that can hold a command or input", () => {
  /** One dispatch whose matcher value (Cursor's: the shell command), input and hook command carry `command`; the whole log. */
  const recordOf = (command: string, input: unknown) => {
    const file = memoryFile()
    return Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const writer = yield* Audit.makeWriter({ file: "/log/audit.jsonl" })
          yield* writer.hook({ ...hook("beforeShellExecution", `./gate.sh '${command}'`), matcher: command, tool: null })
          yield* writer.outcome({
            session: "s1",
            event: "beforeShellExecution",
            matcher: command,
            tool: null,
            input,
            blocked: true,
            decision: "deny",
            reason: `denied: ${command}`,
            hooks: 1
          })
          yield* writer.close
        })
      ).pipe(Effect.provide(file.layer))
    ).then(() => ({ text: file.text(), head: file.head() }))
  }
  /** A secret of the shapes people use: letters and digits, 12 to 40 of them (never a word of the record's own). */
  const secret = fc.stringMatching(/^[A-Za-z0-9]{12,40}$/).map((s) => `Zq${s}`)
  const token = fc.stringMatching(/^[A-Za-z0-9]{36,40}$/).map((s) => `ghp_${s}`)
  const forms: ReadonlyArray<
    readonly [string, fc.Arbitrary<{ readonly secret: string; readonly command: string; readonly input: unknown }>]
  > = [
    [
      "curl -u user:pass",
      secret.map((p) => ({ secret: p, command: `curl -u bob:${p} https://x.test`, input: { command: `curl -u bob:${p} https://x.test` } }))
    ],
    ["curl --user=user:pass", secret.map((p) => ({ secret: p, command: `curl --user=bob:${p} x`, input: { args: ["--user=bob:" + p] } }))],
    [
      "mysql -pPASS",
      secret.map((p) => ({ secret: p, command: `mysql -uroot -p${p} shop`, input: { command: `mysql -uroot -p${p} shop` } }))
    ],
    [
      "aws_secret_access_key VALUE",
      secret.map((p) => ({
        secret: p,
        command: `aws configure set aws_secret_access_key ${p}`,
        input: { command: `AWS configure set AWS_SECRET_ACCESS_KEY ${p} --profile x` }
      }))
    ],
    [
      "a secret used as an object key",
      token.map((t) => ({ secret: t, command: "env", input: { env: { [t]: "1" }, headers: { [`x-${t}`]: "v" } } }))
    ],
    [
      "a flag and its value in two array items",
      secret.map((p) => ({ secret: p, command: "mysql", input: { argv: ["mysql", "--password", p, "-u", "bob:" + p] } }))
    ],
    [
      "a header split over two array items",
      secret.map((p) => ({ secret: p, command: "curl", input: { argv: ["-H", "Authorization: Basic", p] } }))
    ],
    [
      "a token split in two array items",
      token.map((t) => ({ secret: t.slice(10), command: "echo", input: { parts: [t.slice(0, 10), t.slice(10)] } }))
    ]
  ]

  it.each(forms)("%s: in no field of any record, and verify passes", async (_, form) => {
    await fc.assert(
      fc.asyncProperty(form, async ({ secret, command, input }) => {
        const { text, head } = await recordOf(command, input)
        expect(text).not.toContain(secret)
        expect((await Effect.runPromise(Audit.verify(text, { head }))).ok).toBe(true)
      }),
      { numRuns: PropertyRuns.forLane(50) }
    )
  })

  it("the matcher field (Cursor's shell command) is redacted in hook and outcome records, and the outcome lists what matched", async () => {
    const { text } = await recordOf("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456' https://x.test", null)
    expect(text).not.toContain("abcdefghijklmnopqrstuvwxyz123456")
    const [hookRecord, outcome] = lines(text).map((line) => JSON.parse(line))
    expect(hookRecord.matcher).toBe("curl -H 'Authorization: Bearer [REDACTED:authorization]' https://x.test")
    expect(hookRecord.redacted).toEqual(["authorization"])
    expect(outcome.matcher).toBe(hookRecord.matcher)
    expect(outcome.redacted).toContain("authorization")
  })

  it("what is not a secret stays: mkdir -p, a lone -u, ports", async () => {
    const { text } = await recordOf("ls", { command: "mkdir -p /srv/app && git log -u && docker run -p 8080:80 img" })
    expect(JSON.parse(lines(text)[1]!).input).toEqual({ command: "mkdir -p /srv/app && git log -u && docker run -p 8080:80 img" })
  })
})
