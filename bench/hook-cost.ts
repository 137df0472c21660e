/**
 * The per-call cost of host mode: `agent-hooks hook --host claude` (the built CLI as an agent's hook
 * config starts it: node, bin.js, then the daemon or the bundle) on one Claude Code PreToolUse, with
 * a policy of one `true` hook, against a bare `node -e 0` start and a bare `sh -c true` spawn,
 * interleaved in the same run so that the machine's load hits every row alike. The figures in
 * docs/performance.md ("Host mode per call") come from this script.
 *
 * Rows: answered by the per-user daemon (warm: it runs, and has answered calls before), through
 * the Node client (from `agent-hooks.cjs`, the entry install writes, and from `bin.js`, which older
 * configs name; and against a stub daemon that answers at once: the client's own share) and through the native client (`packages/cli/native/hook-client.c`, built here with
 * `cc` as `install --native` builds it; no row without a C compiler); the native client against a
 * stub daemon that answers at once (its own share: start, connect, request, answer written); in-process
 * (`AGENT_HOOKS_DAEMON=0`) with the compile cache warm, and off; cold: the first call with an empty
 * compile cache, in-process. Wall time is the median over rounds of the round medians; CPU time
 * (user + system) is measured apart, per batch of BENCH_N calls of one row in `sh` (its `times`):
 * the CPU of the process the agent starts, and for the daemon row also the daemon's own CPU for
 * the same calls (from /proc), which wall time on a busy machine hides.
 *
 * Run from the repository root after `npm run build`: `node bench/hook-cost.ts`. Environment:
 * BENCH_N (default 20 runs per row and round), BENCH_ROUNDS (3).
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { buildClient, clientSource } from "../packages/cli/src/internal/nativeClient.ts"
import { hookBench } from "./hookPayload.ts"

const N = Number(process.env.BENCH_N ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const bin = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-hook-"))
const { settings, payload } = hookBench(dir)
writeFileSync(join(dir, "payload.json"), payload)
// The CLI's own compile cache under HOME (host mode refuses NODE_COMPILE_CACHE: a project could
// point it at compiled code of its own), and no AGENT_HOOKS_HOME (host mode ignores it)
const cache = join(dir, ".cache", "agent-hooks", "node-compile-cache")
const env: Record<string, string | undefined> = {
  ...process.env,
  HOME: dir,
  CLAUDE_PROJECT_DIR: dir
}
for (const name of [
  "AGENT_HOOKS_HOST_MODE",
  "AGENT_HOOKS_DAEMON",
  "AGENT_HOOKS_HOME",
  "XDG_RUNTIME_DIR",
  "XDG_CACHE_HOME",
  "NODE_OPTIONS",
  "NODE_COMPILE_CACHE"
])
  delete env[name]
const inProcess = { ...env, AGENT_HOOKS_DAEMON: "0" }

interface Row {
  readonly name: string
  readonly cmd: string
  readonly args: ReadonlyArray<string>
  readonly env: Record<string, string | undefined>
}
const hookArgs = [bin, "hook", "--host", "claude", "--settings", settings]
// What install writes for Node, and npm links: the CommonJS entry beside bin.js
const entry = fileURLToPath(new URL("../packages/cli/dist/agent-hooks.cjs", import.meta.url))
const entryArgs = [entry, ...hookArgs.slice(1)]
// The native client, for this Node and this build (as install --native builds it), when there is a C compiler
const client = join(dir, "hook-client")
const built = buildClient(clientSource(realpathSync(bin)), client, {
  node: process.execPath,
  bin: realpathSync(entry),
  version: process.version
})
if ("error" in built) console.log(`no native client rows: ${built.error}`)
// The stub daemon: a HOME of its own, its socket named as the real one, answering every call at once
const stubHome = join(dir, "stub")
const stubEnv = { ...env, HOME: stubHome }
const nativeRows: ReadonlyArray<Row> =
  "error" in built
    ? []
    : [
        { name: "native", cmd: client, args: entryArgs.slice(1), env },
        { name: "native, stub daemon", cmd: client, args: entryArgs.slice(1), env: stubEnv }
      ]
const rows: ReadonlyArray<Row> = [
  { name: "sh -c true", cmd: "sh", args: ["-c", "true"], env },
  { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"], env },
  { name: "daemon", cmd: process.execPath, args: entryArgs, env },
  { name: "daemon, bin.js", cmd: process.execPath, args: hookArgs, env },
  { name: "daemon, stub", cmd: process.execPath, args: entryArgs, env: stubEnv },
  ...nativeRows,
  { name: "in-process", cmd: process.execPath, args: hookArgs, env: inProcess },
  { name: "in-process, no compile cache", cmd: process.execPath, args: hookArgs, env: { ...inProcess, NODE_DISABLE_COMPILE_CACHE: "1" } }
]
const time = (row: Row): number => {
  const start = performance.now()
  const r = spawnSync(row.cmd, row.args, { input: payload, encoding: "utf8", cwd: dir, env: row.env })
  const took = performance.now() - start
  if (r.status !== 0) throw new Error(`${row.name}: exit ${r.status}\n${r.stderr}`)
  return took
}

/** The daemon of this HOME: its pid (from /proc: its command line names a socket under `dir`). */
const daemonPid = (): number | undefined => {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
      if (argv.includes("__daemon") && argv.some((arg) => arg.startsWith(dir))) return Number(pid)
    } catch {
      // gone
    }
  }
  return undefined
}
const ticks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100
/** A process's user + system CPU so far, in ms. */
const cpuOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ")
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks
}
/** CPU per call of `row`'s process (user + system, from `times` of a shell that ran it N times), and of the daemon meanwhile. */
const cpu = (row: Row): { own: number; daemon: number | undefined } => {
  const pid = row.name === "daemon" || row.name === "daemon, bin.js" || row.name === "native" ? daemonPid() : undefined
  const before = pid === undefined ? 0 : cpuOf(pid)
  const script = `i=0; while [ $i -lt ${N} ]; do "$@" < ${JSON.stringify(join(dir, "payload.json"))} > /dev/null 2>&1; i=$((i+1)); done; times`
  const r = spawnSync("sh", ["-c", script, "sh", row.cmd, ...row.args], { encoding: "utf8", cwd: dir, env: row.env })
  const after = pid === undefined ? 0 : cpuOf(pid)
  const [user, system] = [
    ...r.stdout
      .trim()
      .split("\n")
      .at(-1)!
      .matchAll(/(\d+)m([\d.]+)s/g)
  ].map((m) => Number(m[1]) * 60 + Number(m[2]))
  return { own: ((user! + system!) * 1000) / N, daemon: pid === undefined ? undefined : (after - before) / N }
}
const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

rmSync(cache, { recursive: true, force: true })
const named = (name: string): Row => rows.find((one) => one.name === name)!
const cold = time(named("in-process"))
// the first call with the daemon on starts it: wait until it answers
time(named("daemon"))
for (let i = 0; i < 100 && daemonPid() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100))
for (let i = 0; i < 5; i++) time(named("daemon"))
if (daemonPid() === undefined) throw new Error("no daemon started")
const STUB = `
const { createServer } = require("node:net"); const { chmodSync } = require("node:fs")
const socket = process.argv[1]
createServer((c) => {
  let got = Buffer.alloc(0); let need = -1; let answered = false
  c.on("error", () => {})
  c.on("data", (chunk) => {
    got = Buffer.concat([got, chunk])
    if (need < 0) { const at = got.indexOf(10); if (at < 0) return; need = at + 1 + JSON.parse(got.subarray(0, at)).stdinLength }
    if (!answered && got.length >= need) { answered = true; c.write('{"t":"accepted"}\\n'); got = got.subarray(need); need = Infinity }
    if (answered && got.toString().startsWith("go\\n")) c.end('{"t":"done","stdout":"","stderr":"","exitCode":0}\\n')
  })
}).listen(socket, () => { chmodSync(socket, 0o600); console.log("ready") })`
let stub: ReturnType<typeof spawn> | undefined
{
  const real = readdirSync(join(dir, ".cache", "agent-hooks", "daemon")).find((name) => name.endsWith(".sock"))!
  const folder = join(stubHome, ".cache", "agent-hooks", "daemon")
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  stub = spawn(process.execPath, ["-e", STUB, join(folder, basename(real))], { stdio: ["ignore", "pipe", "inherit"] })
  await new Promise((resolve) => stub!.stdout!.once("data", resolve))
  for (let i = 0; i < 5; i++) time(named("daemon, stub"))
}
const results = new Map<string, Array<number>>()
const cpus_ = new Map<string, Array<{ own: number; daemon: number | undefined }>>()
for (let round = 0; round < ROUNDS; round++) {
  const samples = new Map<string, Array<number>>()
  for (let i = 0; i < N + 1; i++) {
    for (const row of rows) {
      const took = time(row)
      if (i >= 1) samples.set(row.name, [...(samples.get(row.name) ?? []), took])
    }
  }
  for (const [name, values] of samples) results.set(name, [...(results.get(name) ?? []), median(values)])
  for (const row of rows) cpus_.set(row.name, [...(cpus_.get(row.name) ?? []), cpu(row)])
}
const pid = daemonPid()
if (pid !== undefined) process.kill(pid, "SIGTERM")
stub?.kill()
rmSync(dir, { recursive: true, force: true })

const ms = (name: string): number => median(results.get(name)!)
const cpuMs = (name: string): number => median(cpus_.get(name)!.map((c) => c.own))
const daemonCpuOf = (name: string) => median(cpus_.get(name)!.map((c) => c.daemon ?? NaN))
const sh = ms("sh -c true")
const node = ms("node -e 0")
console.log(
  `host mode per call: ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at the end, ${ROUNDS} rounds x ${N} runs, median of round medians`
)
// The figure: the call minus a native `sh` hook doing the same check (the policy's check is `true`)
console.log("| call | wall ms | / node -e 0 | / sh -c true | (wall - sh -c true) / node -e 0 | CPU ms (its process) | CPU / node -e 0 |")
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
const label: Record<string, string> = {
  "sh -c true": "sh -c true",
  "node -e 0": "node -e 0",
  daemon: "agent-hooks hook --host claude (`agent-hooks.cjs`, as install writes it), answered by the daemon (warm)",
  "daemon, bin.js": "the same through `bin.js` (a config written before `agent-hooks.cjs`)",
  "daemon, stub": "Node's client, a stub daemon that answers at once (the client's own share)",
  native: "native client, answered by the daemon (warm)",
  "native, stub daemon": "native client, a stub daemon that answers at once (the client's own share)",
  "in-process": "agent-hooks hook --host claude, in-process (warm: compile cache filled)",
  "in-process, no compile cache": "agent-hooks hook --host claude, in-process, compile cache off"
}
for (const row of rows) {
  const value = ms(row.name)
  const own = cpuMs(row.name)
  const extra =
    row.name === "daemon" || row.name === "daemon, bin.js" || row.name === "native"
      ? ` (+ ${daemonCpuOf(row.name).toFixed(1)} in the daemon)`
      : ""
  console.log(
    `| ${label[row.name]} | ${value.toFixed(1)} | ${(value / node).toFixed(2)}x | ${(value / sh).toFixed(1)}x | ${((value - sh) / node).toFixed(2)}x | ${own.toFixed(1)}${extra} | ${(own / cpuMs("node -e 0")).toFixed(2)}x |`
  )
}
console.log(
  `| agent-hooks hook --host claude, in-process, cold (first call, empty compile cache) | ${cold.toFixed(1)} | ${(cold / node).toFixed(2)}x | ${(cold / sh).toFixed(1)}x | ${((cold - sh) / node).toFixed(2)}x |  |  |`
)
