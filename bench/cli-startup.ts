/**
 * Start-up of `agent-hooks run` with one `true` hook, against a bare runtime start plus one raw
 * spawn of `true` (the floor a host pays for any per-event program). Goal: ≤ 3× that floor on
 * Node and on Bun. The figures in `docs/benchmarks/cli-startup.md` come from this script.
 *
 * Run from the repository root after `npm run build`: `npm run bench -- cli-startup`, or
 * `node bench/cli-startup.ts`. node and bun come from PATH (the toolchain). Environment: BENCH_N
 * (default 30 runs per row and round), BENCH_ROUNDS (3). Rows of a round are interleaved; the
 * table shows the median of the round medians. Rows:
 *
 * - floor: `<runtime> -e` of a script that spawns `true` once and waits for it;
 * - bundle: `<runtime> packages/cli/dist/bin.js run PreToolUse` (the published layout: bin.js
 *   turns on the compile cache, then loads the one-file bundle dist/agent-hooks.mjs);
 * - modules: the same program from the unbundled modules (dist/main.js), for comparison;
 * - the single-file executable, when `node scripts/release-binaries.mjs` built it for this machine.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const N = Number(process.env.BENCH_N ?? 30)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const dist = fileURLToPath(new URL("../packages/cli/dist/", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-startup-"))
const settings = join(dir, "settings.json")
writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } }))
const modules = join(dir, "modules.mjs")
writeFileSync(
  modules,
  `import module from "node:module"\nmodule.enableCompileCache?.()\nawait import(${JSON.stringify(join(dist, "main.js"))})\n`
)
const payload = JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })
const floorScript = `require("node:child_process").spawn("true").on("exit", () => {})`

const rows: Array<{ name: string; runtime: string; args: Array<string>; expect: number }> = []
for (const runtime of ["node", "bun"]) {
  rows.push({ name: `${runtime}: bare start + one spawn of true`, runtime, args: ["-e", floorScript], expect: 0 })
  rows.push({
    name: `${runtime}: agent-hooks run (bundle)`,
    runtime,
    args: [join(dist, "bin.js"), "run", "PreToolUse", "--settings", settings],
    expect: 0
  })
  rows.push({
    name: `${runtime}: agent-hooks run (modules)`,
    runtime,
    args: [modules, "run", "PreToolUse", "--settings", settings],
    expect: 0
  })
}

// The single-file executable, when scripts/release-binaries.mjs built one for this machine.
const binary = fileURLToPath(new URL(`../release/binaries/agent-hooks-${process.platform}-${process.arch}`, import.meta.url))
if (existsSync(binary)) {
  rows.push({
    name: "bun: single-file executable (bun build --compile)",
    runtime: binary,
    args: ["run", "PreToolUse", "--settings", settings],
    expect: 0
  })
}

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const results = new Map<string, Array<number>>()
for (let round = 0; round < ROUNDS; round++) {
  const samples = new Map<string, Array<number>>()
  for (let i = 0; i < N + 2; i++) {
    for (const row of rows) {
      const start = performance.now()
      const r = spawnSync(row.runtime, row.args, { input: payload, encoding: "utf8", cwd: dir })
      const took = performance.now() - start
      if (r.status !== row.expect) throw new Error(`${row.name}: exit ${r.status}\n${r.stderr}`)
      // The first two runs fill the compile cache and the page cache.
      if (i >= 2) samples.set(row.name, [...(samples.get(row.name) ?? []), took])
    }
  }
  for (const [name, values] of samples) results.set(name, [...(results.get(name) ?? []), median(values)])
}
rmSync(dir, { recursive: true, force: true })

const version = (runtime: string) => spawnSync(runtime, ["--version"], { encoding: "utf8" }).stdout.trim()
console.log(`node ${version("node")}, bun ${version("bun")}; ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; N=${N}, ${ROUNDS} rounds`)
console.log("")
console.log("| Row | Wall time (median of round medians) | × floor | Round medians |")
console.log("| --- | --- | --- | --- |")
for (const runtime of ["node", "bun"]) {
  const floor = median(results.get(`${runtime}: bare start + one spawn of true`)!)
  for (const row of rows.filter((r) => r.runtime === runtime || (runtime === "bun" && r.runtime === binary))) {
    const values = results.get(row.name)!
    console.log(
      `| ${row.name} | ${median(values).toFixed(1)} ms | ${(median(values) / floor).toFixed(2)}× | ${values.map((v) => v.toFixed(1)).join(", ")} |`
    )
  }
}
