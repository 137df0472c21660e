/**
 * The audit log on a real file system, written by several real processes at once
 * (`fixtures/audit-writer.ts`, one writer each, on the built packages) and by processes killed
 * with SIGKILL in the middle of appending.
 */
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { readFileSync, statSync } from "node:fs"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { Audit } from "@agent-hooks/core"
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
