/**
 * The audit log on a real file system, written by several real processes at once
 * (`fixtures/audit-writer.ts`, one writer each, on the built packages) and by processes killed
 * with SIGKILL in the middle of appending.
 */
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { Audit } from "@agent-hooks/core"
import { createHookEngine } from "@agent-hooks/node"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"

const cleanups = Cleanups.register("agent-hooks-audit-")
const writerScript = fileURLToPath(new URL("./fixtures/audit-writer.ts", import.meta.url))
// The writer is a Node program: this Node, or `node` from PATH under Bun or Deno.
const isNode = typeof process.versions.bun !== "string" && typeof process.versions.deno !== "string" &&
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
      resolve({ writer: lines.find((line) => line.startsWith("writer "))?.slice(7), acknowledged: Math.max(0, ...acks), signal, stderr: err })
    })
  })

const hookCounts = (text: string) => {
  const counts = new Map<string, number>()
  for (const { record } of Audit.parse(text).records) if (record.kind === "hook") counts.set(record.writer, (counts.get(record.writer) ?? 0) + 1)
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
    writeFileSync(file, JSON.stringify({ auditLog, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${blockRm}` }] }] } }))
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
      expect(records[1]).toMatchObject({ kind: "hook", session: "s-1", event: "PreToolUse", matcher: "Bash", type: "command", source: file, exitCode: 2, status: "blocking-error", decision: "deny" })
      expect(records[2]).toMatchObject({ kind: "outcome", event: "PreToolUse", matcher: "Bash", blocked: true, decision: "deny", reason: "rm -rf is not allowed here", hooks: 1 })
    } finally {
      await engine.close()
    }
    const report = await Effect.runPromise(Audit.verify(readFileSync(log, "utf8"), { key: "k" }))
    expect(report).toMatchObject({ ok: true, records: 4, notices: [] })
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
    expect(warnings.join("\n")).toContain(`${join(project, ".agent-hooks", "settings.json")} at auditLog: a project settings file may only log inside ${project}/.agent-hooks/logs/`)
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
    expect(linked.join("\n")).toContain(`at auditLog: log path ${join(project, ".agent-hooks", "logs", "out", "audit.jsonl")}: ${join(project, ".agent-hooks", "logs", "out")} is a symbolic link to ${elsewhere}`)
    expect(() => statSync(join(elsewhere, "audit.jsonl"))).toThrow()
  })
})
