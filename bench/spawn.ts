/**
 * Per-spawn latency of one hook-like process, in one run with interleaved rounds:
 *
 * - `raw`: `node:child_process.spawn` (detached), no Effect;
 * - `NodeProcessSpawner`: `@agent-hooks/node`'s spawner through the Effect API, scoped;
 * - `effect/process`: `ChildProcess.make` with `NodeServices` (`forceKillAfter` set, as the
 *   hook runner would have to).
 *
 * Each sample spawns `sh -c 'cat >/dev/null'` in its own process group, writes 200 bytes to its
 * stdin and closes it, reads stdout and stderr to EOF and waits for the exit. Samples run one
 * after another, timed with `performance.now()`; "parent CPU" is the parent's user+sys CPU time
 * per spawn (`process.cpuUsage()`). Every round runs every variant (warm-up, then N timed
 * samples), rotating the order; the table shows the median over rounds.
 *
 * Run from the repository root: `node --conditions=source bench/spawn.ts`
 * Environment: BENCH_N (default 200), BENCH_WARMUP (default 20), BENCH_ROUNDS (default 3).
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import * as NodeProcessSpawner from "@agent-hooks/node/NodeProcessSpawner"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, type Layer, Stream } from "effect"
import { ChildProcess } from "effect/process"
import { spawn } from "node:child_process"
import { availableParallelism, cpus, release } from "node:os"

const N = Number(process.env.BENCH_N ?? 200)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PAYLOAD_TEXT = JSON.stringify({ hook: "PreToolUse", pad: "x".repeat(200 - 30) })
const PAYLOAD = new TextEncoder().encode(PAYLOAD_TEXT)
if (PAYLOAD.length !== 200) throw new Error(`payload is ${PAYLOAD.length} bytes`)
const FILE = "sh"
const ARGS = ["-c", "cat >/dev/null"]

interface RoundResult {
  readonly samplesMs: Array<number>
  readonly cpuUsPerSpawn: number
}

/** Runs `once` WARMUP times, then N timed times. */
const measure = async (once: () => Promise<void>): Promise<RoundResult> => {
  for (let i = 0; i < WARMUP; i++) await once()
  const samplesMs: Array<number> = []
  const cpu0 = process.cpuUsage()
  for (let i = 0; i < N; i++) {
    const t0 = performance.now()
    await once()
    samplesMs.push(performance.now() - t0)
  }
  const cpu = process.cpuUsage(cpu0)
  return { samplesMs, cpuUsPerSpawn: (cpu.user + cpu.system) / N }
}

const raw = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const cp = spawn(FILE, ARGS, { detached: true, stdio: ["pipe", "pipe", "pipe"] })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    cp.stdout.on("data", (d: Buffer) => out.push(d))
    cp.stderr.on("data", (d: Buffer) => err.push(d))
    cp.on("error", reject)
    cp.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))))
    cp.stdin.end(PAYLOAD)
  })

/** The same loop inside one Effect program, with the layer provided once (as a host's runtime would). */
const measureEffect =
  <R>(once: Effect.Effect<void, unknown, R>, layer: Layer.Layer<R>) =>
  (): Promise<RoundResult> =>
    Effect.runPromise(
      Effect.gen(function* () {
        for (let i = 0; i < WARMUP; i++) yield* once
        const samplesMs: Array<number> = []
        const cpu0 = process.cpuUsage()
        for (let i = 0; i < N; i++) {
          const t0 = performance.now()
          yield* once
          samplesMs.push(performance.now() - t0)
        }
        const cpu = process.cpuUsage(cpu0)
        return { samplesMs, cpuUsPerSpawn: (cpu.user + cpu.system) / N }
      }).pipe(Effect.provide(layer))
    )

const ours = Effect.scoped(
  Effect.gen(function* () {
    const spawner = yield* ProcessSpawner
    const handle = yield* spawner.spawn({
      file: FILE,
      args: ARGS,
      cwd: process.cwd(),
      env: process.env as Record<string, string>,
      stdin: PAYLOAD_TEXT,
      maxOutputBytes: 1024 * 1024
    })
    const reader = yield* HookRunner.collect(handle, 1024 * 1024)
    const [exit] = yield* Effect.all([handle.exited, reader.output], { concurrency: "unbounded" })
    if (exit.exitCode !== 0) return yield* Effect.die(`exit ${exit.exitCode}`)
  })
)

const effectProcess = Effect.scoped(
  Effect.gen(function* () {
    const handle = yield* ChildProcess.make(FILE, ARGS, { stdin: Stream.make(PAYLOAD), forceKillAfter: "1 second" })
    const [, , code] = yield* Effect.all(
      [handle.stdout.pipe(Stream.decodeText(), Stream.mkString), handle.stderr.pipe(Stream.decodeText(), Stream.mkString), handle.exitCode],
      { concurrency: "unbounded" }
    )
    if (code !== 0) return yield* Effect.die(`exit ${code}`)
  })
)

const variants: Array<{ readonly name: string; readonly measure: () => Promise<RoundResult> }> = [
  { name: "raw node:child_process.spawn", measure: () => measure(raw) },
  { name: "NodeProcessSpawner (Effect, scoped)", measure: measureEffect(ours, NodeProcessSpawner.layer) },
  { name: "effect/process ChildProcess + NodeServices", measure: measureEffect(effectProcess, NodeServices.layer) }
]

const quantile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
const median = (xs: ReadonlyArray<number>): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5
  )

const results = new Map<string, Array<RoundResult>>(variants.map((v) => [v.name, []]))
const started = Date.now()
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order so that no variant always runs first (or last) in a round.
  const order = variants.map((_, i) => variants[(i + round) % variants.length]!)
  for (const variant of order) {
    results.get(variant.name)!.push(await variant.measure())
    process.stderr.write(`round ${round + 1}: ${variant.name} done\n`)
  }
}

const rows = variants.map((variant) => {
  const rounds = results.get(variant.name)!
  const medians = rounds.map(
    (r) =>
      quantile(
        [...r.samplesMs].sort((a, b) => a - b),
        0.5
      ) * 1000
  )
  const p95s = rounds.map(
    (r) =>
      quantile(
        [...r.samplesMs].sort((a, b) => a - b),
        0.95
      ) * 1000
  )
  const cpu = rounds.map((r) => r.cpuUsPerSpawn)
  return {
    name: variant.name,
    median: median(medians),
    min: Math.min(...medians),
    max: Math.max(...medians),
    p95: median(p95s),
    cpu: median(cpu)
  }
})
const base = rows[0]!
const us = (x: number) => Math.round(x).toString()
const lines = [
  `machine: ${availableParallelism()} cpu(s), ${cpus()[0]?.model ?? "unknown CPU"}, ${process.platform} ${release()}`,
  `runtime: node ${process.version}; N=${N}, warm-up ${WARMUP}, ${ROUNDS} rounds; ${new Date().toISOString()}; ${Math.round(
    (Date.now() - started) / 1000
  )} s`,
  "",
  "| variant | median µs (range of round medians) | p95 µs | parent CPU µs / spawn | median / raw | CPU / raw |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.name} | ${us(r.median)} (${us(r.min)}-${us(r.max)}) | ${us(r.p95)} | ${us(r.cpu)} | ${(r.median / base.median).toFixed(
        2
      )}x | ${(r.cpu / base.cpu).toFixed(2)}x |`
  )
]
console.log(lines.join("\n"))
process.exit(0)
