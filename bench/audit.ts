/**
 * Reliability figures of the audit trail (docs/reliability.md, "Audit trail"):
 *
 * 1. kill -9: AUDIT_KILLS (200) writer processes append to one file in turn, each killed with
 *    SIGKILL at a random moment: 0 to 50 ms after it opened the log (it appends a few records per
 *    millisecond), or, for one run in twenty, 0 to 50 ms after its start (before it opens the log). For each run, the records in the file are compared
 *    with the records the writer had reported as written: at most the one being written may be
 *    missing, none may be extra. Then `Audit.verify` runs on the whole file.
 * 2. concurrency: AUDIT_WRITERS (8) processes append AUDIT_RECORDS (1000) records each to one file
 *    at the same time, with a key (checkpoints every 100 records); the file must verify, with every
 *    record of every writer.
 *
 * 3. cost of recording a call no hook matches: one Node engine (`createHookEngine`, the Promise
 *    facade) dispatches a PreToolUse that no hook matches, with the audit trail off (the synchronous
 *    no-match path), on without a key, and on with a key; AUDIT_ROUNDS (5) rounds of AUDIT_SAMPLES
 *    (2000) dispatches per engine, interleaved (one batch of each engine in turn per round). The
 *    figure is the median over rounds of the mean per dispatch, and of the on/off difference.
 *
 * The writer is `packages/node/test/fixtures/audit-writer.ts` on the built packages. Run from the
 * repository root: `npm run bench -- audit` (`npm run bench -- audit --cost`: only 3).
 */
import { Audit } from "@agent-hooks/core"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, release, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const COST_ONLY = process.argv.includes("--cost")
const ROUNDS = Number(process.env["AUDIT_ROUNDS"] ?? 5)
const SAMPLES = Number(process.env["AUDIT_SAMPLES"] ?? 2000)
const KILLS = Number(process.env["AUDIT_KILLS"] ?? 200)
const WRITERS = Number(process.env["AUDIT_WRITERS"] ?? 8)
const RECORDS = Number(process.env["AUDIT_RECORDS"] ?? 1000)
const writerScript = fileURLToPath(new URL("../packages/node/test/fixtures/audit-writer.ts", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-audit-bench-"))

interface Run {
  readonly writer: string | undefined
  readonly acknowledged: number
  readonly code: number | null
  readonly signal: string | null
}

/** `kill`: SIGKILL that many ms after the writer opened the log, or (`before`) after the spawn. */
const start = (
  file: string,
  count: number,
  env: Record<string, string> = {},
  kill?: { readonly ms: number; readonly before: boolean }
): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writerScript, file, String(count)], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    let armed = false
    const arm = () => {
      if (kill === undefined || armed) return
      armed = true
      setTimeout(() => child.kill("SIGKILL"), kill.ms)
    }
    child.stdout.on("data", (chunk) => {
      out += chunk
      if (out.includes("writer ")) arm()
    })
    if (kill?.before === true) arm()
    child.on("error", reject)
    child.on("close", (code, signal) => {
      const lines = out.split("\n").filter((line) => line !== "")
      const writer = lines.find((line) => line.startsWith("writer "))?.slice(7)
      const acks = lines.filter((line) => /^\d+$/.test(line)).map(Number)
      resolve({ writer, acknowledged: acks.length === 0 ? 0 : Math.max(...acks), code, signal })
    })
  })

const hookRecords = (text: string): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const { record } of Audit.parse(text).records)
    if (record.kind === "hook") counts.set(record.writer, (counts.get(record.writer) ?? 0) + 1)
  return counts
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** 3. What recording a call that no hook matches costs, against the same dispatch with the trail off. */
const cost = async () => {
  const { createHookEngine } = await import("@agent-hooks/node")
  const settingsFile = join(dir, "cost-settings.json")
  writeFileSync(
    settingsFile,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "true" }] }] } })
  )
  const payload = { session_id: "bench", tool_name: "Bash", tool_input: { command: "git status --short && ls -la src" } }
  const engines = [
    { name: "audit off (no-match path)", engine: await createHookEngine({ settings: [settingsFile], projectDir: dir }) },
    {
      name: "audit on, no key",
      engine: await createHookEngine({ settings: [settingsFile], projectDir: dir, auditLog: join(dir, "cost-nokey.jsonl") })
    },
    {
      name: "audit on, with key",
      engine: await createHookEngine({
        settings: [settingsFile],
        projectDir: dir,
        auditLog: join(dir, "cost-key.jsonl"),
        auditKey: "bench-key"
      })
    }
  ]
  const perRound = engines.map(() => [] as Array<number>)
  // Warm-up: JIT, the writers' opening checkpoint.
  for (const { engine } of engines) for (let i = 0; i < 200; i++) await engine.dispatch("PreToolUse", payload)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { engine }] of engines.entries()) {
      const started = performance.now()
      for (let i = 0; i < SAMPLES; i++) await engine.dispatch("PreToolUse", payload)
      perRound[index]!.push(((performance.now() - started) * 1000) / SAMPLES)
    }
  }
  const off = perRound[0]!
  console.log(
    `cost of recording a tool call no hook matches: ${ROUNDS} rounds x ${SAMPLES} dispatches per engine, interleaved; median over rounds of the mean per dispatch`
  )
  for (const [index, { name }] of engines.entries()) {
    const rounds = perRound[index]!
    const added =
      index === 0
        ? ""
        : `, adds ${median(rounds.map((value, r) => value - off[r]!)).toFixed(1)} µs to the no-match path (rounds ${Math.min(...rounds.map((v, r) => v - off[r]!)).toFixed(1)}–${Math.max(...rounds.map((v, r) => v - off[r]!)).toFixed(1)})`
    console.log(`  ${name}: ${median(rounds).toFixed(1)} µs per dispatch${added}`)
  }
  for (const { engine } of engines) await engine.close()
  for (const file of ["cost-nokey.jsonl", "cost-key.jsonl"]) {
    const text = readFileSync(join(dir, file), "utf8")
    const head = await Effect.runPromise(Audit.readHead(join(dir, file)).pipe(Effect.provide(NodeFileSystem.layer)))
    const report = await Effect.runPromise(Audit.verify(text, { key: file === "cost-key.jsonl" ? "bench-key" : undefined, head }))
    console.log(`  ${file}: ${report.records} records, verify ${report.ok ? "ok" : `FAILED: ${report.problems[0]?.message}`}`)
    if (!report.ok) process.exitCode = 1
  }
}

try {
  console.log(
    `audit bench: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Linux ${release()}, Node ${process.versions.node}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )
  if (COST_ONLY) {
    await cost()
  } else {
    await reliability()
    await cost()
  }
  console.log(
    `load at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}

async function reliability() {
  // 1. kill -9 at random points
  const killFile = join(dir, "killed.jsonl")
  const runs: Array<Run> = []
  for (let i = 0; i < KILLS; i++) runs.push(await start(killFile, -1, {}, { ms: Math.random() * 50, before: Math.random() < 0.05 }))
  const killText = readFileSync(killFile, "utf8")
  const counts = hookRecords(killText)
  let exact = 0
  let lostOne = 0
  let bad = 0
  let beforeFirst = 0
  for (const run of runs) {
    if (run.writer === undefined) {
      beforeFirst += 1
      continue
    }
    const inFile = counts.get(run.writer) ?? 0
    // The writer reports a record after its write returned; a kill between the two leaves one more in the file.
    if (inFile === run.acknowledged) exact += 1
    else if (inFile === run.acknowledged + 1) lostOne += 1
    else bad += 1
  }
  const killReport = await Effect.runPromise(Audit.verify(killText))
  const killedBySignal = runs.filter((run) => run.signal === "SIGKILL").length
  console.log(
    `kill -9: ${KILLS} runs (${killedBySignal} killed by SIGKILL, ${beforeFirst} before opening the log), ${killReport.records} records in the file`
  )
  console.log(`  file = acknowledged: ${exact}; file = acknowledged + 1 (killed between write and report): ${lostOne}; other: ${bad}`)
  console.log(
    `  verify: ${killReport.ok ? "ok" : "FAILED"}, ${killReport.problems.length} problems, notices: ${killReport.notices.map((n) => n.kind).join(", ") || "none"}`
  )

  // 2. concurrent writers
  const sharedFile = join(dir, "shared.jsonl")
  const started = performance.now()
  const concurrent = await Promise.all(
    Array.from({ length: WRITERS }, () => start(sharedFile, RECORDS, { AGENT_HOOKS_AUDIT_KEY: "bench-key" }))
  )
  const elapsed = performance.now() - started
  const sharedText = readFileSync(sharedFile, "utf8")
  const sharedReport = await Effect.runPromise(Audit.verify(sharedText, { key: "bench-key" }))
  const sharedCounts = hookRecords(sharedText)
  const complete = concurrent.filter((run) => run.writer !== undefined && sharedCounts.get(run.writer) === RECORDS).length
  const hooks = [...sharedCounts.values()].reduce((a, b) => a + b, 0)
  // How interleaved the file is: the number of places where the writer changes from one line to the next.
  const writers = Audit.parse(sharedText).records.map(({ record }) => record.writer)
  const switches = writers.filter((writer, i) => i > 0 && writer !== writers[i - 1]).length
  console.log(
    `concurrent: ${WRITERS} writers x ${RECORDS} records in ${(elapsed / 1000).toFixed(1)} s: ${hooks} hook records, ${sharedReport.records} records with checkpoints, ${sharedReport.checkpoints} checkpoints (all checked: ${sharedReport.checkedCheckpoints === sharedReport.checkpoints})`
  )
  console.log(
    `  writers complete: ${complete}/${WRITERS}; writer switches between adjacent lines: ${switches}; verify: ${sharedReport.ok ? "ok" : "FAILED"}, ${sharedReport.problems.length} problems`
  )
  for (const problem of [...killReport.problems, ...sharedReport.problems].slice(0, 5)) console.log(`  problem: ${problem.message}`)
  if (!killReport.ok || bad > 0 || !sharedReport.ok || complete !== WRITERS) process.exitCode = 1
}
