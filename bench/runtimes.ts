/**
 * Choosing a runtime package: the per-hook spawn cost of every spawner on every runtime, with and
 * without a big live heap in the host, and the wall time of one `agent-hooks run` of the built CLI
 * under node, bun and deno. The figures in `docs/runtimes.md` come from this script.
 *
 * Run from the repository root (about a minute): `npm run bench -- runtimes`, or directly
 * `node bench/runtimes.ts` after `npm run build` (add `--conditions=source` to measure the
 * TypeScript sources instead of `dist/`). node, bun and deno are taken from PATH (the toolchain
 * in `.tools/node_modules/.bin`). Environment: BENCH_N (default 200), BENCH_WARMUP (20),
 * BENCH_ROUNDS (3), BENCH_BALLAST_MB (200; 0 skips the heap rows), BENCH_CLI_N (20; 0 skips the
 * CLI rows).
 *
 * Spawner rows: the script starts itself once per runtime (`--worker`). Each sample is one hook
 * through the `ProcessSpawner` service, as the engine runs it: `Effect.scoped(spawner.spawn(...))`
 * of `sh -c 'cat >/dev/null'` in its own process group, 200 bytes of JSON on stdin, then awaiting
 * `exited` and `output`; the scope's release SIGKILLs the (empty) group. Samples run one after
 * another inside one Effect program (the layer provided once), 20 warm-up + N timed per round,
 * variants rotated between rounds; the table shows the median of the round medians (and their
 * range), the median p95, and the host's user+sys CPU per spawn.
 *
 * CLI rows: `<runtime> packages/cli/dist/bin.js run PreToolUse --settings <one hook: cat>` with a
 * payload on stdin, started from this (Node) process; wall time per run, start-up included.
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import { Effect } from "effect"
import type { Layer } from "effect"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, cpus, release, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const N = Number(process.env.BENCH_N ?? 200)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const BALLAST_MB = Number(process.env.BENCH_BALLAST_MB ?? 200)
const CLI_N = Number(process.env.BENCH_CLI_N ?? 20)
const PAYLOAD = JSON.stringify({ hook: "PreToolUse", pad: "x".repeat(200 - 30) })

type Runtime = "node" | "bun" | "deno"
const currentRuntime: Runtime = typeof process.versions.bun === "string" ? "bun" : "Deno" in globalThis ? "deno" : "node"

interface WorkerResult {
  readonly runtime: Runtime
  readonly version: string
  readonly spawner: string
  readonly ballastMb: number
  readonly medianUs: number
  readonly minUs: number
  readonly maxUs: number
  readonly p95Us: number
  readonly cpuUs: number
}

const quantile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
const median = (xs: ReadonlyArray<number>): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5
  )

// ---------------------------------------------------------------------------------------------
// Worker: measures the spawners available on the runtime it runs on.

/** The spawners worth measuring on each runtime (the module is loaded on demand). */
const spawnersOn = async (runtime: Runtime): Promise<Array<{ name: string; layer: Layer.Layer<ProcessSpawner> }>> => {
  const { NodeProcessSpawner } = await import("@agent-hooks/node")
  const { DenoProcessSpawner } = await import("@agent-hooks/deno")
  const node = { name: "NodeProcessSpawner (node:child_process)", layer: NodeProcessSpawner.layer }
  switch (runtime) {
    case "node":
      return [node]
    case "bun": {
      const { BunProcessSpawner } = await import("@agent-hooks/bun")
      return [{ name: "BunProcessSpawner (Bun.spawn)", layer: BunProcessSpawner.layer }, node]
    }
    case "deno":
      return [
        { name: "DenoProcessSpawner (Deno.Command, own group)", layer: DenoProcessSpawner.layer },
        { name: "DenoProcessSpawner.layerWithoutGroups (no process group)", layer: DenoProcessSpawner.layerWithoutGroups },
        node
      ]
  }
}

const oneHook = Effect.scoped(
  Effect.gen(function* () {
    const spawner = yield* ProcessSpawner
    const handle = yield* spawner.spawn({
      file: "sh",
      args: ["-c", "cat >/dev/null"],
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdin: PAYLOAD,
      maxOutputBytes: 1024 * 1024
    })
    const reader = yield* HookRunner.collect(handle, 1024 * 1024)
    const [exit] = yield* Effect.all([handle.exited, reader.output], { concurrency: "unbounded" })
    if (exit.exitCode !== 0) return yield* Effect.die(new Error(`exit ${exit.exitCode}`))
  })
)

const measureRound = (layer: Layer.Layer<ProcessSpawner>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      for (let i = 0; i < WARMUP; i++) yield* oneHook
      const samples: Array<number> = []
      const cpu0 = process.cpuUsage()
      for (let i = 0; i < N; i++) {
        const t0 = performance.now()
        yield* oneHook
        samples.push((performance.now() - t0) * 1000)
      }
      const cpu = process.cpuUsage(cpu0)
      samples.sort((a, b) => a - b)
      return { median: quantile(samples, 0.5), p95: quantile(samples, 0.95), cpu: (cpu.user + cpu.system) / N }
    }).pipe(Effect.provide(layer))
  )

const worker = async (ballastMb: number): Promise<void> => {
  // Live memory in the host, as a big agent would have: 1 MB typed arrays, touched (the scouting
  // benchmark's ballast; what matters for fork-based spawning is the mapped, touched memory).
  const ballast = Array.from({ length: ballastMb }, () => new Float64Array(131072).fill(1))
  const spawners = await spawnersOn(currentRuntime)
  const rounds = new Map(spawners.map((s) => [s.name, [] as Array<{ median: number; p95: number; cpu: number }>]))
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < spawners.length; i++) {
      const s = spawners[(i + round) % spawners.length]!
      rounds.get(s.name)!.push(await measureRound(s.layer))
    }
  }
  const version =
    currentRuntime === "bun"
      ? process.versions.bun!
      : currentRuntime === "deno"
        ? (globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno
        : process.versions.node
  for (const s of spawners) {
    const rs = rounds.get(s.name)!
    const medians = rs.map((r) => r.median)
    const result: WorkerResult = {
      runtime: currentRuntime,
      version,
      spawner: s.name,
      ballastMb,
      medianUs: median(medians),
      minUs: Math.min(...medians),
      maxUs: Math.max(...medians),
      p95Us: median(rs.map((r) => r.p95)),
      cpuUs: median(rs.map((r) => r.cpu))
    }
    process.stdout.write(JSON.stringify(result) + "\n")
  }
  if (ballast.length < 0) console.log(ballast)
  process.exit(0)
}

// ---------------------------------------------------------------------------------------------
// Driver (on Node): one worker per runtime and ballast, then the CLI runs.

const self = fileURLToPath(import.meta.url)
const root = fileURLToPath(new URL("..", import.meta.url))
const sourceCondition = process.execArgv.some((a) => a.includes("conditions=source") || a === "source")
const commandFor = (runtime: Runtime, script: string, args: ReadonlyArray<string>): [string, Array<string>] => {
  const conditions = sourceCondition ? ["--conditions=source"] : []
  switch (runtime) {
    case "node":
      return ["node", [...conditions, script, ...args]]
    case "bun":
      return ["bun", [...conditions, script, ...args]]
    case "deno":
      return ["deno", ["run", "-A", "--no-lock", ...conditions, script, ...args]]
  }
}
const runtimes: ReadonlyArray<Runtime> = ["node", "bun", "deno"]

const runWorker = (runtime: Runtime, ballastMb: number): Array<WorkerResult> => {
  const [cmd, args] = commandFor(runtime, self, ["--worker", String(ballastMb)])
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 24 })
  if (r.status !== 0) throw new Error(`${cmd} worker failed: ${r.error?.message ?? `exit ${r.status}`}`)
  return r.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as WorkerResult)
}

const version = (cmd: string): string => (spawnSync(cmd, ["--version"], { encoding: "utf8" }).stdout ?? "").split("\n")[0]!.trim()

const cliRun = (runtime: Runtime, settings: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const [cmd, args] = commandFor(runtime, join(root, "packages/cli/dist/bin.js"), [
      "run",
      "PreToolUse",
      "--settings",
      settings,
      "--project-dir",
      tmpdir()
    ])
    const t0 = performance.now()
    const child = spawn(
      cmd,
      args.filter((a) => a !== "--conditions=source"),
      { cwd: root, stdio: ["pipe", "pipe", "inherit"] }
    )
    let out = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    child.on("error", reject)
    child.on("close", (code) => {
      const ms = performance.now() - t0
      if (code !== 0 || !out.includes(`"blocked":false`)) reject(new Error(`${runtime} CLI: exit ${code}: ${out}`))
      else resolve(ms * 1000)
    })
    child.stdin.end(JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } }))
  })

const driver = async (): Promise<void> => {
  const started = Date.now()
  const rows: Array<WorkerResult> = []
  for (const ballast of BALLAST_MB > 0 ? [0, BALLAST_MB] : [0]) {
    for (const runtime of runtimes) {
      process.stderr.write(`spawners on ${runtime}${ballast > 0 ? ` with a ${ballast} MB heap` : ""} ...\n`)
      rows.push(...runWorker(runtime, ballast))
    }
  }
  const cli: Array<{ runtime: Runtime; median: number; min: number; p95: number }> = []
  if (CLI_N > 0) {
    const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-"))
    const settings = join(dir, "settings.json")
    writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "cat >/dev/null" }] }] } }))
    try {
      const samples = new Map<Runtime, Array<number>>(runtimes.map((r) => [r, []]))
      process.stderr.write(`CLI runs (${CLI_N} per runtime, interleaved) ...\n`)
      for (const runtime of runtimes) await cliRun(runtime, settings) // warm-up (Deno's module cache)
      for (let i = 0; i < CLI_N; i++) {
        for (const runtime of runtimes) samples.get(runtime)!.push(await cliRun(runtime, settings))
      }
      for (const runtime of runtimes) {
        const xs = samples.get(runtime)!.sort((a, b) => a - b)
        cli.push({ runtime, median: quantile(xs, 0.5), min: xs[0]!, p95: quantile(xs, 0.95) })
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const us = (x: number) => Math.round(x).toString()
  const ms = (x: number) => (x / 1000).toFixed(0)
  const nodeBase = rows.find((r) => r.runtime === "node" && r.ballastMb === 0)!
  const lines = [
    `date: ${new Date().toISOString()}; ${Math.round((Date.now() - started) / 1000)} s`,
    `machine: ${availableParallelism()} cpu(s), ${cpus()[0]?.model ?? "unknown CPU"}, ${process.platform} ${release()}`,
    `runtimes: node ${version("node")}, bun ${version("bun")}, ${version("deno")}; code: ${sourceCondition ? "sources (--conditions=source)" : "dist/"}`,
    `spawners: N=${N}, warm-up ${WARMUP}, ${ROUNDS} rounds`,
    "",
    "| runtime | spawner | host heap | median µs (range of round medians) | p95 µs | host CPU µs / spawn | median / Node |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.runtime} ${r.version} | ${r.spawner} | ${r.ballastMb > 0 ? `+${r.ballastMb} MB` : "small"} | ${us(r.medianUs)} (${us(
          r.minUs
        )}-${us(r.maxUs)}) | ${us(r.p95Us)} | ${us(r.cpuUs)} | ${(r.medianUs / nodeBase.medianUs).toFixed(2)}x |`
    )
  ]
  if (cli.length > 0) {
    lines.push(
      "",
      `CLI: one \`agent-hooks run PreToolUse\` with one command hook, start-up included (${CLI_N} runs each)`,
      "",
      "| command | median ms | min ms | p95 ms |",
      "|---|---:|---:|---:|",
      ...cli.map((c) => {
        const [cmd, args] = commandFor(c.runtime, "packages/cli/dist/bin.js", [])
        return `| \`${[cmd, ...args.filter((a) => a !== "--no-lock" && a !== "--conditions=source")].join(" ")}\` | ${ms(c.median)} | ${ms(
          c.min
        )} | ${ms(c.p95)} |`
      })
    )
  }
  console.log(lines.join("\n"))
}

const workerAt = process.argv.indexOf("--worker")
if (workerAt >= 0) await worker(Number(process.argv[workerAt + 1] ?? 0))
else await driver()
