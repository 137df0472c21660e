/**
 * The audit log on a real file system, written by several real processes at once
 * (`fixtures/audit-writer.ts`, one writer each, on the built packages) and by processes killed
 * with SIGKILL in the middle of appending; and its copy as OTLP log records, received by a real
 * OTLP/HTTP receiver on 127.0.0.1 (test-utils' OtlpReceiver) and verified again from what it got.
 */
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Audit } from "@agent-hooks/core"
import { createHookEngine } from "@agent-hooks/node"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"
import { OtlpReceiver } from "@agent-hooks/test-utils"

const cleanups = Cleanups.register("agent-hooks-audit-")
const writerScript = fileURLToPath(new URL("./fixtures/audit-writer.ts", import.meta.url))
// The writer is a Node program: this Node, or `node` from PATH under Bun or Deno.
const isNode =
  typeof process.versions.bun !== "string" &&
  typeof process.versions.deno !== "string" &&
  /^node(\.exe)?$/i.test(basename(process.execPath))
const node = isNode ? process.execPath : "node"

interface Run {
  readonly writer: string | undefined
  readonly acknowledged: number
  readonly signal: string | null
  readonly stderr: string
}

/** Runs a writer; with `killAfterMs`, SIGKILLs it that long after it opened the log. */
const write = (file: string, count: number, options: { key?: string; killAfterMs?: number } = {}): Promise<Run> =>
  new Promise((resolve, reject) => {
    const env = { ...process.env, AGENT_HOOKS_AUDIT_KEY: options.key ?? "" }
    const child = spawn(node, [writerScript, file, String(count)], { env, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    let armed = false
    child.stdout.on("data", (chunk) => {
      out += chunk
      if (options.killAfterMs !== undefined && !armed && out.includes("writer ")) {
        armed = true
        setTimeout(() => child.kill("SIGKILL"), options.killAfterMs)
      }
    })
    child.stderr.on("data", (chunk) => (err += chunk))
    child.on("error", reject)
    child.on("close", (_code, signal) => {
      const lines = out.split("\n")
      const acks = lines.filter((line) => /^\d+$/.test(line)).map(Number)
      resolve({
        writer: lines.find((line) => line.startsWith("writer "))?.slice(7),
        acknowledged: Math.max(0, ...acks),
        signal,
        stderr: err
      })
    })
  })

const hookCounts = (text: string) => {
  const counts = new Map<string, number>()
  for (const { record } of Audit.parse(text).records)
    if (record.kind === "hook") counts.set(record.writer, (counts.get(record.writer) ?? 0) + 1)
  return counts
}

describe("Audit log on the Node file system", () => {
  it("four processes appending 200 records each at once give four whole chains", async () => {
    const file = join(cleanups.tempDir(), "logs", "audit.jsonl")
    const runs = await Promise.all([1, 2, 3, 4].map(() => write(file, 200, { key: "team-key" })))
    for (const run of runs) expect(run.stderr).toBe("")
    const text = readFileSync(file, "utf8")
    const report = await Effect.runPromise(Audit.verify(text, { key: "team-key" }))
    expect(report).toMatchObject({ ok: true, writers: 4, problems: [], notices: [] })
    const counts = hookCounts(text)
    expect(runs.map((run) => counts.get(run.writer!))).toEqual([200, 200, 200, 200])
    // open + one per 100 records + close, per writer.
    expect(report.checkpoints).toBe(4 * 4)
    // The folder was created; the file is the owner's only.
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it("a writer killed with SIGKILL loses at most the record it was writing, and the file still verifies", async () => {
    const file = join(cleanups.tempDir(), "audit.jsonl")
    const runs: Array<Run> = []
    for (const delay of [0, 5, 15, 30]) runs.push(await write(file, -1, { killAfterMs: delay }))
    // One more writer after the killed ones appends normally.
    const last = await write(file, 3)
    const text = readFileSync(file, "utf8")
    const counts = hookCounts(text)
    for (const run of runs) {
      expect(run.signal).toBe("SIGKILL")
      const inFile = counts.get(run.writer!) ?? 0
      expect([run.acknowledged, run.acknowledged + 1]).toContain(inFile)
    }
    expect(counts.get(last.writer!)).toBe(3)
    const report = await Effect.runPromise(Audit.verify(text))
    expect(report.ok).toBe(true)
    expect(report.problems).toEqual([])
  })
})

describe("auditLog in the engine", () => {
  const blockRm = fileURLToPath(new URL("./fixtures/block-rm.sh", import.meta.url))
  const settingsWith = (dir: string, auditLog: string, name = "settings.json") => {
    const file = join(dir, name)
    writeFileSync(
      file,
      JSON.stringify({ auditLog, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] } })
    )
    return file
  }

  it("records every hook run and the outcome before the outcome is returned; a blocked action has its record", async () => {
    const dir = cleanups.tempDir()
    const log = join(dir, "audit", "hooks.jsonl")
    const file = settingsWith(dir, "audit/hooks.jsonl")
    const engine = await createHookEngine({ settings: [file], projectDir: dir, env: { ...process.env, AGENT_HOOKS_AUDIT_KEY: "k" } })
    try {
      const outcome = await engine.dispatch("PreToolUse", { session_id: "s-1", tool_name: "Bash", tool_input: { command: "rm -rf /" } })
      expect(outcome.blocked).toBe(true)
      // Read while the engine is still open: the records are there already.
      const records = Audit.parse(readFileSync(log, "utf8")).records.map(({ record }) => record)
      expect(records.map((r) => r.kind)).toEqual(["checkpoint", "hook", "outcome"])
      expect(records[1]).toMatchObject({
        kind: "hook",
        session: "s-1",
        event: "PreToolUse",
        matcher: "Bash",
        type: "command",
        source: file,
        exitCode: 2,
        status: "blocking-error",
        decision: "deny"
      })
      expect(records[2]).toMatchObject({
        kind: "outcome",
        event: "PreToolUse",
        matcher: "Bash",
        blocked: true,
        decision: "deny",
        reason: "rm -rf is not allowed here",
        hooks: 1
      })
    } finally {
      await engine.close()
    }
    const report = await Effect.runPromise(Audit.verify(readFileSync(log, "utf8"), { key: "k" }))
    expect(report).toMatchObject({ ok: true, records: 4, notices: [] })
  })

  it("the outcome record and the returned Outcome are one decision: a Stop block, its release by the Stop guard, a dispatch no hook matches", async () => {
    const dir = cleanups.tempDir()
    const log = join(dir, "audit.jsonl")
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({ auditLog: log, hooks: { Stop: [{ hooks: [{ type: "command", command: "echo 'keep going' >&2; exit 2" }] }] } })
    )
    const engine = await createHookEngine({ settings: [file], projectDir: dir, stopBlockCap: 1, onWarning: () => {} })
    const outcomes = []
    try {
      outcomes.push(await engine.dispatch("Stop", { session_id: "s" }))
      outcomes.push(await engine.dispatch("Stop", { session_id: "s" }))
      outcomes.push(await engine.dispatch("PreToolUse", { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } }))
    } finally {
      await engine.close()
    }
    expect(outcomes.map((outcome) => outcome.blocked)).toEqual([true, false, false])
    const records = Audit.parse(readFileSync(log, "utf8"))
      .records.map(({ record }) => record)
      .filter((record) => record.kind === "outcome")
    expect(records).toEqual(
      outcomes.map((outcome) =>
        expect.objectContaining({
          event: outcome.event,
          blocked: outcome.blocked,
          decision: outcome.decision,
          reason: outcome.reason,
          hooks: outcome.hooks.length
        })
      )
    )
  })

  it("a record that could not be written is in the Outcome's warnings once, after the Stop guard's note, and heard once, with or without a hook that matched", async () => {
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    // /dev/full takes the open and refuses every write: each record is a gap.
    writeFileSync(
      file,
      JSON.stringify({
        auditLog: "/dev/full",
        hooks: { Stop: [{ hooks: [{ type: "command", command: "echo 'keep going' >&2; exit 2" }] }] }
      })
    )
    const heard: Array<string> = []
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      stopBlockCap: 1,
      onWarning: (warning) => heard.push(warning)
    })
    const gap = expect.stringMatching(/^audit record not written: \/dev\/full: /)
    try {
      await engine.dispatch("Stop", { session_id: "s" })
      heard.length = 0
      const released = await engine.dispatch("Stop", { session_id: "s" })
      expect(released.blocked).toBe(false)
      // The hook's record and the dispatch's, after the note that the agent may stop.
      expect(released.warnings).toEqual([expect.stringContaining("Stop hooks blocked 1 times in a row; the agent may stop now"), gap, gap])
      expect(heard).toEqual(released.warnings)
      heard.length = 0
      // No hook matched: the dispatch's record only.
      const unmatched = await engine.dispatch("PreToolUse", { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } })
      expect(unmatched.warnings.filter((warning) => warning.startsWith("audit record"))).toEqual([gap])
      expect(heard).toEqual([gap])
    } finally {
      await engine.close()
    }
  })

  it("a project file may only name an audit log inside .agent-hooks/logs/", async () => {
    const project = cleanups.tempDir()
    mkdirSync(join(project, ".agent-hooks"))
    settingsWith(join(project, ".agent-hooks"), "../../outside.jsonl")
    const warnings: Array<string> = []
    const engine = await createHookEngine({ projectDir: project, env: { HOME: cleanups.tempDir() }, onWarning: (w) => warnings.push(w) })
    await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    await engine.close()
    // the one log-path rule (LogPath), with the same message as executionLog
    expect(warnings.join("\n")).toContain(
      `${join(project, ".agent-hooks", "settings.json")} at auditLog: a project settings file may only log inside ${project}/.agent-hooks/logs/`
    )
    expect(() => statSync(join(project, "..", "outside.jsonl"))).toThrow()

    // Inside the folder it is written; through a symlinked folder that leads out it is refused.
    settingsWith(join(project, ".agent-hooks"), "logs/audit.jsonl")
    const inside = await createHookEngine({ projectDir: project, env: { HOME: cleanups.tempDir() } })
    await inside.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    await inside.close()
    expect(readFileSync(join(project, ".agent-hooks", "logs", "audit.jsonl"), "utf8")).toContain('"kind":"outcome"')

    const elsewhere = cleanups.tempDir()
    symlinkSync(elsewhere, join(project, ".agent-hooks", "logs", "out"))
    settingsWith(join(project, ".agent-hooks"), "logs/out/audit.jsonl")
    const linked: Array<string> = []
    const third = await createHookEngine({ projectDir: project, env: { HOME: cleanups.tempDir() }, onWarning: (w) => linked.push(w) })
    await third.close()
    expect(linked.join("\n")).toContain(
      `at auditLog: log path ${join(project, ".agent-hooks", "logs", "out", "audit.jsonl")}: ${join(project, ".agent-hooks", "logs", "out")} is a symbolic link to ${elsewhere}`
    )
    expect(() => statSync(join(elsewhere, "audit.jsonl"))).toThrow()
  })
})

describe("auditLog under the Cursor preset", () => {
  it("the matcher field (the shell command itself) keeps no token: hook and outcome records redact it, and verify passes", async () => {
    const dir = cleanups.tempDir()
    const home = cleanups.tempDir()
    mkdirSync(join(dir, ".cursor"))
    writeFileSync(
      join(dir, ".cursor", "hooks.json"),
      JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: "echo blocked >&2; exit 2", matcher: "curl" }] } })
    )
    const log = join(dir, "audit.jsonl")
    const token = "ghp_" + "A1b2C3d4E5".repeat(4)
    const engine = await createHookEngine({ preset: "cursor", projectDir: dir, auditLog: log, env: { ...process.env, HOME: home } })
    try {
      const command = `curl -H "Authorization: token ${token}" -u bob:hunter2secret https://api.example.test`
      const outcome = await engine.dispatch("beforeShellExecution", { command, cwd: dir, hook_event_name: "beforeShellExecution" })
      expect(outcome.blocked).toBe(true)
    } finally {
      await engine.close()
    }
    const text = readFileSync(log, "utf8")
    expect(text).not.toContain(token)
    expect(text).not.toContain("hunter2secret")
    const records = Audit.parse(text).records.map(({ record }) => record)
    const hook = records.find((r) => r.kind === "hook")
    expect(hook).toMatchObject({ matcher: expect.stringContaining("[REDACTED:") })
    expect((await Effect.runPromise(Audit.verify(text, { head: readFileSync(`${log}.head`, "utf8") }))).ok).toBe(true)
  })
})

describe("audit records as OTLP log records", () => {
  const blockRm = fileURLToPath(new URL("./fixtures/block-rm.sh", import.meta.url))
  const receiver = OtlpReceiver.register()
  /** The payloads as a collector's file exporter writes them: one OTLP/JSON document per line. */
  const exportFile = (payloads: ReadonlyArray<string>) => payloads.map((text) => JSON.stringify(JSON.parse(text))).join("\n") + "\n"
  const verifyExport = (text: string, key?: string) => Effect.runPromise(Audit.verifyExport(text, { key }))
  type Payload = {
    resourceLogs: Array<{
      scopeLogs: Array<{
        logRecords: Array<{ body: { stringValue: string }; attributes: Array<{ key: string; value: Record<string, unknown> }> }>
      }>
    }>
  }
  /** Edits the export: `edit` gets every log record (payload index, record) and returns it changed, or `undefined` to drop it. */
  const tamper = (
    payloads: ReadonlyArray<string>,
    edit: (record: Payload["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0], body: string) => unknown
  ) =>
    exportFile(
      payloads.map((text) => {
        const payload = JSON.parse(text) as Payload
        for (const rl of payload.resourceLogs)
          for (const sl of rl.scopeLogs)
            sl.logRecords = sl.logRecords.flatMap((record) => {
              const out = edit(record, record.body.stringValue)
              return out === undefined ? [] : [out as typeof record]
            })
        return JSON.stringify(payload)
      })
    )

  /** Three dispatches (blocked, allowed, a prompt with a secret) through an engine whose audit log is exported to `otlp`. */
  const audited = async (otlp: OtlpReceiver.Receiver, env: Record<string, string> = {}) => {
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({
        auditLog: "audit.jsonl",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] }
      })
    )
    const warnings: Array<string> = []
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      onWarning: (w) => warnings.push(w),
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        AGENT_HOOKS_AUDIT_KEY: "k",
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        AGENT_HOOKS_AUDIT_OTLP: "1",
        OTEL_SERVICE_NAME: "ci-agents",
        ...env
      }
    })
    const blocked = await engine.dispatch("PreToolUse", {
      session_id: "s-1",
      tool_name: "Bash",
      tool_use_id: "call-1",
      tool_input: { command: "rm -rf /" }
    })
    const allowed = await engine.dispatch("PreToolUse", { session_id: "s-1", tool_name: "Bash", tool_input: { command: "ls" } })
    await engine.dispatch("UserPromptSubmit", { session_id: "s-1", prompt: "deploy with password=hunter2 now" })
    await engine.close()
    return {
      blocked,
      allowed,
      warnings,
      log: readFileSync(join(dir, "audit.jsonl"), "utf8"),
      head: readFileSync(join(dir, "audit.jsonl.head"), "utf8")
    }
  }

  it("each record goes out as a log record whose body is its line; the chain verifies from what the receiver got", async () => {
    const otlp = await receiver()
    const { blocked, allowed, warnings, log, head } = await audited(otlp)
    expect(blocked.blocked).toBe(true)
    expect(allowed.blocked).toBe(false)
    expect(warnings.filter((w) => w.includes("audit"))).toEqual([])
    const lines = log.trim().split("\n")
    // Every record of the local log, and the head, and nothing else; in the writer's order.
    await otlp.waitFor((r) => r.logs.length >= lines.length + 1)
    const records = otlp.logs.filter((l) => l.eventName !== "agent_hooks.audit.head")
    expect(records.map((l) => l.body)).toEqual(lines)
    expect(otlp.logs.filter((l) => l.eventName === "agent_hooks.audit.head").map((l) => l.body)).toEqual([head.trim()])
    expect(otlp.requests.find((r) => r.path === "/v1/logs")?.contentType).toBe("application/json")
    const outcome = records.find((l) => l.attributes["agent_hooks.audit.kind"] === "outcome")!
    const first = JSON.parse(outcome.body as string) as Audit.OutcomeRecord
    expect(outcome).toMatchObject({
      eventName: "agent_hooks.audit.outcome",
      severityNumber: 13,
      scope: "agent-hooks.audit",
      resource: { "service.name": "ci-agents" },
      attributes: {
        "agent_hooks.audit.writer": first.writer,
        "agent_hooks.audit.seq": first.seq,
        "agent_hooks.audit.hash": first.hash,
        "agent_hooks.audit.prev": first.prev,
        "agent_hooks.audit.blocked": true,
        "agent_hooks.audit.decision": "deny",
        "agent_hooks.audit.input": JSON.stringify({ command: "rm -rf /" }),
        "gen_ai.tool.name": "Bash",
        "gen_ai.conversation.id": "s-1"
      }
    })
    // The record joins the dispatch's trace (telemetry is on): its trace is a span's trace.
    await otlp.waitFor((r) => r.spans.some((span) => span.name === "agent-hooks PreToolUse"))
    const span = otlp.spans.find((s) => s.name === "agent-hooks PreToolUse" && s.attributes["gen_ai.tool.call.id"] === "call-1")!
    expect(outcome.traceId).toBe(span.traceId)
    expect(outcome.spanId).toBe(span.spanId)
    // What the SIEM gets is the redacted record: the secret is in no payload.
    expect(otlp.logPayloads.join("\n")).not.toContain("hunter2")
    expect(otlp.logPayloads.join("\n")).toContain("[REDACTED:secret-assignment]")

    const report = await verifyExport(exportFile(otlp.logPayloads), "k")
    expect(report).toMatchObject({
      ok: true,
      records: lines.length,
      writers: 1,
      heads: 1,
      duplicates: 0,
      skipped: 0,
      problems: [],
      notices: []
    })
    expect(report.checkedCheckpoints).toBe(2)
    // Transport order does not count, and a batch delivered twice (an exporter's retry) is no insertion.
    const reversed = exportFile([...otlp.logPayloads].reverse())
    expect(await verifyExport(reversed + exportFile(otlp.logPayloads), "k")).toMatchObject({
      ok: true,
      records: lines.length,
      duplicates: lines.length + 1
    })
    // The wrong key: every checkpoint is wrong.
    expect((await verifyExport(exportFile(otlp.logPayloads), "not-the-key")).problems.map((p) => p.kind)).toContain("checkpoint-wrong")
  })

  it("a record dropped, edited, or with its attributes changed in the exported stream is caught, naming the payload line and record", async () => {
    const otlp = await receiver()
    await audited(otlp)
    await otlp.waitFor((r) => r.logs.some((l) => l.eventName === "agent_hooks.audit.head"))
    const payloads = otlp.logPayloads
    const kindOf = (record: { attributes: Array<{ key: string; value: Record<string, unknown> }> }) =>
      record.attributes.find((a) => a.key === "agent_hooks.audit.kind")?.value["stringValue"]
    const seqOf = (body: string) => (JSON.parse(body) as { seq: number }).seq

    // A hook record dropped: its writer's chain has a gap.
    const dropped = await verifyExport(
      tamper(payloads, (record) => (kindOf(record) === "hook" ? undefined : record)),
      "k"
    )
    expect(dropped.ok).toBe(false)
    expect(dropped.problems[0]).toMatchObject({ kind: "deleted", line: 1 })
    expect(dropped.problems[0]!.message).toMatch(
      /^payload line 1, record \d+ \(writer w-[0-9a-f]{16}, seq \d+\): record \d+ was deleted before it/
    )

    // A body flipped from blocked to allowed: its hash no longer matches.
    const flipped = await verifyExport(
      tamper(payloads, (record, body) =>
        body.includes('"blocked":true') ? { ...record, body: { stringValue: body.replace('"blocked":true', '"blocked":false') } } : record
      ),
      "k"
    )
    expect(flipped.problems.map((p) => p.kind)).toEqual(["edited"])
    expect(flipped.problems[0]!.message).toMatch(/was edited: its content does not match its hash/)

    // Only the attribute a SIEM queries flipped: the body still hashes, the attribute disagrees with it.
    const attribute = await verifyExport(
      tamper(payloads, (record) => ({
        ...record,
        attributes: record.attributes.map((a) =>
          a.key === "agent_hooks.audit.blocked" && a.value["boolValue"] === true ? { ...a, value: { boolValue: false } } : a
        )
      })),
      "k"
    )
    expect(attribute.problems).toHaveLength(1)
    expect(attribute.problems[0]).toMatchObject({ kind: "edited" })
    expect(attribute.problems[0]!.message).toContain("its agent_hooks.audit.blocked differ from what the writer sent for its record")

    // The end of the chain dropped (the closing checkpoint and the last outcome), the head kept: the head names a record the export lacks.
    const lastSeq = Math.max(
      ...otlp.logs.filter((l) => l.eventName !== "agent_hooks.audit.head").map((l) => l.attributes["agent_hooks.audit.seq"] as number)
    )
    const cut = await verifyExport(
      tamper(payloads, (record, body) => (kindOf(record) !== "head" && seqOf(body) >= lastSeq - 1 ? undefined : record)),
      "k"
    )
    expect(cut.problems.map((p) => p.kind)).toContain("deleted")
    expect(cut.problems.map((p) => p.message).join("\n")).toMatch(
      /the exported head of writer w-[0-9a-f]{16} \(payload line \d+, record \d+\) names writer .* which is not in the export/
    )

    // A forged record (a copy with another seq): its hash is its old one.
    const forged = await verifyExport(
      tamper(payloads, (record, body) =>
        kindOf(record) === "hook"
          ? { ...record, body: { stringValue: body.replace(/"seq":(\d+)/, (_m, n) => `"seq":${Number(n) + 100}`) } }
          : record
      ),
      "k"
    )
    expect(forged.ok).toBe(false)
  })

  it("a whole run dropped from the export leaves the next run's link dangling", async () => {
    const otlp = await receiver()
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(file, JSON.stringify({ auditLog: "audit.jsonl", hooks: {} }))
    const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", AGENT_HOOKS_AUDIT_OTLP: `${otlp.url}/v1/logs` }
    const writers: Array<string> = []
    for (let i = 0; i < 2; i++) {
      const engine = await createHookEngine({ settings: [file], projectDir: dir, env })
      await engine.dispatch("PreToolUse", { session_id: `s-${i}`, tool_name: "Read", tool_input: { file_path: "/etc/hosts" } })
      await engine.close()
      writers.push(Audit.parse(readFileSync(join(dir, "audit.jsonl"), "utf8")).records.at(-1)!.record.writer)
    }
    await otlp.waitFor((r) => r.logs.filter((l) => l.eventName === "agent_hooks.audit.head").length >= 2)
    expect(await verifyExport(exportFile(otlp.logPayloads))).toMatchObject({ ok: true, writers: 2 })
    const withoutFirst = await verifyExport(
      tamper(otlp.logPayloads, (record, body) => (body.includes(`"writer":"${writers[0]}"`) ? undefined : record))
    )
    expect(withoutFirst.problems.map((p) => p.kind)).toEqual(["deleted"])
    expect(withoutFirst.problems[0]!.message).toMatch(/which is not in the export before it: a whole chain was deleted/)
  })

  it("a collector that fails never blocks or loses the local log; the failure is said and counted, and the records go out when it is back", async () => {
    const otlp = await receiver({ status: 503 })
    const file = join(cleanups.tempDir(), "audit.jsonl")
    const warnings: Array<string> = []
    const run = Effect.scoped(
      Effect.gen(function* () {
        const writer = yield* Audit.makeWriter({
          file,
          otlp: { endpoint: `${otlp.url}/v1/logs`, exportIntervalMs: 50, onWarning: (w) => warnings.push(w) }
        })
        const hook = {
          session: "s",
          event: "PreToolUse",
          matcher: "Bash",
          tool: "Bash",
          hook: "sh x",
          type: "command",
          source: null,
          exitCode: 0,
          signal: null,
          status: "success" as const,
          decision: null,
          timedOut: false,
          durationMs: 1
        }
        yield* writer.hook(hook)
        yield* writer.hook(hook)
        // The local records are in the file at once, whatever the collector does.
        expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2)
        // The stats once they satisfy `done` (polled; at most 10 s).
        const statsWhen = (done: (stats: Audit.ExportStats) => boolean) =>
          Effect.gen(function* () {
            for (let i = 0; i < 1000; i++) {
              const stats = (yield* writer.exportStats)!
              if (done(stats)) return stats
              yield* Effect.sleep("10 millis")
            }
            return (yield* writer.exportStats)!
          })
        const failing = yield* statsWhen((stats) => stats.failedAttempts >= 2)
        expect(failing).toMatchObject({ exported: 0, pending: 2, dropped: 0 })
        expect(failing.failedAttempts).toBeGreaterThanOrEqual(2)
        // Said once per streak, not once per attempt.
        expect(warnings.filter((w) => w.includes("failed (HTTP 503)"))).toHaveLength(1)
        // the count is what waited when the first attempt failed: the exporter may have sent the first
        // record before the second was written (a loaded machine), so 1 or 2
        expect(warnings[0]).toMatch(
          /audit export to \S+\/v1\/logs: failed \(HTTP 503\); (1 record waits|2 records wait) for the next attempt \(the local log /
        )
        expect(warnings[0]).toContain(`${otlp.url}/v1/logs`)
        expect(warnings[0]).toContain(`(the local log ${file} has them)`)
        // Back: what waited goes out.
        otlp.setStatus(undefined)
        expect(yield* statsWhen((stats) => stats.exported === 2)).toMatchObject({ exported: 2, pending: 0, dropped: 0 })
        expect(otlp.logs).toHaveLength(2)
        expect(warnings.some((w) => w.includes("works again"))).toBe(true)
        // A collector that refuses (400) has the batch given up: counted, said.
        otlp.setStatus(400)
        yield* writer.hook(hook)
        expect(yield* statsWhen((stats) => stats.dropped === 1)).toMatchObject({ exported: 2, pending: 0, dropped: 1 })
        expect(warnings.some((w) => w.includes("the collector refused 1 record (HTTP 400): not exported"))).toBe(true)
        // Down at close: what is left is given up after the close timeout, counted and said.
        otlp.setStatus(503)
        yield* writer.hook(hook)
      })
    )
    await Effect.runPromise(run.pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))))
    expect(warnings.at(-1)).toMatch(
      /records? (was|were) not exported before the writer closed \(HTTP 503\); they are in the local log .* only$/
    )
    // The local log is whole and verifies.
    expect(await Effect.runPromise(Audit.verify(readFileSync(file, "utf8"), { head: readFileSync(`${file}.head`, "utf8") }))).toMatchObject(
      { ok: true, records: 4 }
    )
  })

  it("AGENT_HOOKS_AUDIT_OTLP that cannot be used is a warning, and the local log is written", async () => {
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(file, JSON.stringify({ auditLog: "audit.jsonl", hooks: {} }))
    for (const [value, expected] of [
      ["1", /AGENT_HOOKS_AUDIT_OTLP is on but no OTLP endpoint is set/],
      ["http//collector:4318", /is not a URL/],
      ["ftp://c/v1/logs", /is not http\(s\)/]
    ] as const) {
      const warnings: Array<string> = []
      const engine = await createHookEngine({
        settings: [file],
        projectDir: dir,
        env: { PATH: "/usr/bin:/bin", AGENT_HOOKS_AUDIT_OTLP: value },
        onWarning: (w) => warnings.push(w)
      })
      await engine.dispatch("Stop", { session_id: "s" })
      await engine.close()
      expect(warnings.join("\n")).toMatch(expected)
    }
    expect(
      Audit.parse(readFileSync(join(dir, "audit.jsonl"), "utf8")).records.filter(({ record }) => record.kind === "outcome")
    ).toHaveLength(3)
  })
})

describe("the audit log's lock and reserve files from a cloned repository", () => {
  it("a reserve that is a link to the user's file is never written or emptied; a dangling link as the lock stalls no one for long", async () => {
    const dir = cleanups.tempDir()
    const victim = join(cleanups.tempDir(), "bashrc")
    writeFileSync(victim, "export PATH=/usr/bin\n")
    const log = join(dir, "audit.jsonl")
    symlinkSync(victim, `${log}.reserve`)
    symlinkSync(join(dir, "nowhere"), `${log}.lock`)
    const started = Date.now()
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const writer = yield* Audit.makeWriter({ file: log })
          yield* writer.outcome({
            session: "s",
            event: "PreToolUse",
            matcher: "Bash",
            tool: "Bash",
            input: { command: "ls" },
            blocked: false,
            decision: null,
            reason: null,
            hooks: 0
          })
        })
      ).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
    )
    // A generous bound: the link's own age (taken as a dead writer's lock) is what it waits for, not 30 s.
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(readFileSync(victim, "utf8")).toBe("export PATH=/usr/bin\n")
    expect(Audit.parse(readFileSync(log, "utf8")).records.map(({ record }) => record.kind)).toEqual(["outcome"])
  })
})
