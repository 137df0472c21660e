/**
 * The per-call cost of host mode: `agent-hooks hook --host claude` (the built CLI as an agent's hook
 * config starts it: node, bin.js, the bundle) on one Claude Code PreToolUse, with a policy of one
 * `true` hook, against a bare `node -e 0` start and a bare `sh -c true` spawn, interleaved in the
 * same run so that the machine's load hits every row alike. The figures in docs/performance.md
 * ("Host mode per call") come from this script.
 *
 * Run from the repository root after `npm run build`: `node bench/hook-cost.ts`. Environment:
 * BENCH_N (default 20 runs per row and round), BENCH_ROUNDS (3). "cold" is the first call with an
 * empty compile cache (a fresh NODE_COMPILE_CACHE folder); "warm" every later call, as a second call
 * in the same HOME is.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const N = Number(process.env.BENCH_N ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const bin = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-hook-"))
const settings = join(dir, "settings.json")
writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }))
const payload = JSON.stringify({
  session_id: "bench",
  transcript_path: join(dir, "t.jsonl"),
  cwd: dir,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls", description: "list" },
  tool_use_id: "toolu_bench"
})
const cache = join(dir, "compile-cache")
const env = { ...process.env, HOME: dir, AGENT_HOOKS_HOME: join(dir, "agent-hooks"), CLAUDE_PROJECT_DIR: dir, NODE_COMPILE_CACHE: cache }
delete (env as Record<string, string | undefined>)["AGENT_HOOKS_HOST_MODE"]

const rows = [
  { name: "sh -c true", cmd: "sh", args: ["-c", "true"] },
  { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
  { name: "agent-hooks hook --host claude", cmd: process.execPath, args: [bin, "hook", "--host", "claude", "--settings", settings] },
  { name: "agent-hooks hook --host claude, no compile cache", cmd: process.execPath, args: [bin, "hook", "--host", "claude", "--settings", settings], off: true }
]
const time = (row: typeof rows[number]): number => {
  const start = performance.now()
  const r = spawnSync(row.cmd, row.args, { input: payload, encoding: "utf8", cwd: dir, env: "off" in row ? { ...env, NODE_DISABLE_COMPILE_CACHE: "1" } : env })
  const took = performance.now() - start
  if (r.status !== 0) throw new Error(`${row.name}: exit ${r.status}\n${r.stderr}`)
  return took
}
const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

rmSync(cache, { recursive: true, force: true })
const cold = time(rows[2]!)
const results = new Map<string, Array<number>>()
for (let round = 0; round < ROUNDS; round++) {
  const samples = new Map<string, Array<number>>()
  for (let i = 0; i < N + 1; i++) {
    for (const row of rows) {
      const took = time(row)
      if (i >= 1) samples.set(row.name, [...(samples.get(row.name) ?? []), took])
    }
  }
  for (const [name, values] of samples) results.set(name, [...(results.get(name) ?? []), median(values)])
}
rmSync(dir, { recursive: true, force: true })

const ms = (name: string): number => median(results.get(name)!)
const sh = ms("sh -c true")
const node = ms("node -e 0")
const hook = ms("agent-hooks hook --host claude")
console.log(`host mode per call: ${process.version}, ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}, ${ROUNDS} rounds x ${N} runs, median of round medians`)
console.log("| call | ms | / node -e 0 | / sh -c true |")
console.log("| --- | ---: | ---: | ---: |")
const off = ms("agent-hooks hook --host claude, no compile cache")
for (const [name, value] of [["sh -c true", sh], ["node -e 0", node], ["agent-hooks hook --host claude (warm)", hook], ["agent-hooks hook --host claude, compile cache off", off]] as const) {
  console.log(`| ${name} | ${value.toFixed(1)} | ${(value / node).toFixed(2)}x | ${(value / sh).toFixed(1)}x |`)
}
console.log(`| agent-hooks hook --host claude (cold: first call, empty compile cache) | ${cold.toFixed(1)} | ${(cold / node).toFixed(2)}x | ${(cold / sh).toFixed(1)}x |`)
