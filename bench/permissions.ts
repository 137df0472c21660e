/**
 * What a `permissions`-only policy costs per call, against an empty policy through the same client
 * and against the cheapest native shell hook (`sh -c true`): host mode (`agent-hooks hook --host
 * claude`, answered by the warm per-user daemon, through the Node client and, with a C compiler,
 * the native client `install --native` builds), and in-process through the API (`createHookEngine`,
 * as the LangChain adapter uses it). The figures of docs/benchmarks/permissions.md come from it.
 *
 * The policy: 50 rules (deny, ask and allow; shell and path rules) in the user's settings; the call:
 * a Claude Code PreToolUse of `Bash` that no rule names (every rule is judged) and one a deny rule
 * names (the first deny decides). Rows are interleaved in each round, so that the machine's load
 * hits every row alike; wall time is the median over rounds of the round medians.
 *
 * Run from the repository root after `npm run build`: `node bench/permissions.ts`.
 * Environment: BENCH_N (default 20 host-mode runs per row and round), BENCH_ROUNDS (3),
 * BENCH_API_N (20000 in-process calls per row and round).
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createHookEngine } from "@agent-hooks/node"
import { buildClient, clientSource } from "../packages/cli/src/internal/nativeClient.ts"

const N = Number(process.env.BENCH_N ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const API_N = Number(process.env.BENCH_API_N ?? 20000)
const bin = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url))
const entry = fileURLToPath(new URL("../packages/cli/dist/agent-hooks.cjs", import.meta.url))
const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-bench-permissions-")))

/** 50 rules as people write them: shell prefixes, exact commands, paths, web fetches, MCP tools. */
export const fiftyRules = () => {
  const deny = [
    "Bash(rm -rf:*)",
    "Bash(git push --force:*)",
    "Bash(git push -f:*)",
    "Bash(git reset --hard:*)",
    "Bash(git clean -fdx:*)",
    "Bash(chmod -R 777:*)",
    "Bash(mkfs:*)",
    "Bash(dd of=/dev/sda)",
    "Bash(curl * | sh)",
    "Bash(wget * | sh)",
    "Bash(shutdown:*)",
    "Bash(reboot)",
    "Bash(kubectl delete:*)",
    "Bash(terraform destroy:*)",
    "Bash(docker system prune:*)",
    "Bash(npm publish:*)",
    "Read(./.env)",
    "Read(./.env.*)",
    "Edit(./.env)",
    "Read(~/.ssh/**)",
    "Edit(~/.ssh/**)",
    "Read(~/.aws/**)",
    "Read(~/.kube/config)",
    "Read(~/.config/gcloud/**)",
    "Read(**/*.pem)",
    "Read(**/id_rsa)",
    "Edit(//etc/**)",
    "WebFetch(domain:pastebin.com)",
    "mcp__prod-db__drop_table",
    "mcp__payments"
  ]
  const ask = [
    "Bash(git push:*)",
    "Bash(npm install:*)",
    "Bash(pip install:*)",
    "Bash(docker run:*)",
    "Bash(ssh:*)",
    "Bash(scp:*)",
    "Edit(package.json)",
    "Edit(.github/**)",
    "WebFetch(domain:*.internal.example)",
    "mcp__github__create_pull_request"
  ]
  const allow = [
    "Bash(npm test)",
    "Bash(npm run lint)",
    "Bash(git status)",
    "Bash(git diff:*)",
    "Bash(ls:*)",
    "Read(src/**)",
    "Edit(src/**)",
    "WebFetch(domain:docs.example.com)",
    "mcp__docs__search",
    "Bash(cat README.md)"
  ]
  return { deny, ask, allow }
}

const payload = (command: string) =>
  JSON.stringify({
    session_id: "bench",
    transcript_path: join(dir, "t.jsonl"),
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "bench" },
    tool_use_id: "toolu_bench"
  })
const passes = payload("npm run build && git status --short | head -20")
const denied = payload("sudo rm -rf /tmp/bench-x")

const permissionsFile = join(dir, "permissions.json")
writeFileSync(permissionsFile, JSON.stringify({ permissions: fiftyRules() }))
const emptyFile = join(dir, "empty.json")
writeFileSync(emptyFile, "{}")

const env: Record<string, string | undefined> = { ...process.env, HOME: dir, CLAUDE_PROJECT_DIR: dir }
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

interface Row {
  readonly name: string
  readonly cmd: string
  readonly args: ReadonlyArray<string>
  readonly input: string
  /** The exit the call must end with (2: blocked). */
  readonly status: number
}
const hook = (settings: string) => [entry, "hook", "--host", "claude", "--settings", settings]
const client = join(dir, "hook-client")
const built = buildClient(clientSource(realpathSync(bin)), client, {
  node: process.execPath,
  bin: realpathSync(entry),
  version: process.version
})
if ("error" in built) console.log(`no native client rows: ${built.error}`)
const via = (name: string, settings: string, input: string, status: number): ReadonlyArray<Row> => [
  { name: `node client, ${name}`, cmd: process.execPath, args: hook(settings), input, status },
  ...("error" in built ? [] : [{ name: `native client, ${name}`, cmd: client, args: hook(settings).slice(1), input, status }])
]
const rows: ReadonlyArray<Row> = [
  { name: "sh -c true", cmd: "sh", args: ["-c", "true"], input: passes, status: 0 },
  ...via("empty policy", emptyFile, passes, 0),
  ...via("50 rules, no rule names the call", permissionsFile, passes, 0),
  ...via("50 rules, a deny names the call", permissionsFile, denied, 2)
]
const time = (row: Row): number => {
  const start = performance.now()
  const r = spawnSync(row.cmd, row.args, { input: row.input, encoding: "utf8", cwd: dir, env })
  const took = performance.now() - start
  if (r.status !== row.status) throw new Error(`${row.name}: exit ${r.status}, expected ${row.status}\n${r.stdout}${r.stderr}`)
  return took
}
const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The daemon of this HOME (its command line names a socket under `dir`). */
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

// The daemon warm: the first call starts it; wait until it answers, then a few calls of each row
time(rows[1]!)
for (let i = 0; i < 100 && daemonPid() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100))
for (const row of rows) for (let i = 0; i < 5; i++) time(row)
if (daemonPid() === undefined) throw new Error("no daemon started")

const results = new Map<string, Array<number>>()
for (let round = 0; round < ROUNDS; round++) {
  const samples = new Map<string, Array<number>>()
  for (let i = 0; i < N; i++) for (const row of rows) samples.set(row.name, [...(samples.get(row.name) ?? []), time(row)])
  for (const [name, values] of samples) results.set(name, [...(results.get(name) ?? []), median(values)])
}
const pid = daemonPid()
if (pid !== undefined) process.kill(pid, "SIGTERM")

// In-process: the Promise API the LangChain adapter is given
const api = async (settings: string, input: string) => {
  const engine = await createHookEngine({ settings: [settings], projectDir: dir, env: { HOME: dir } })
  const call = JSON.parse(input) as Record<string, unknown>
  try {
    for (let i = 0; i < 1000; i++) await engine.dispatch("PreToolUse", call)
    const rounds: Array<number> = []
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now()
      for (let i = 0; i < API_N; i++) await engine.dispatch("PreToolUse", call)
      rounds.push(((performance.now() - start) * 1000) / API_N)
    }
    return median(rounds)
  } finally {
    await engine.close()
  }
}
const apiRows = [
  { name: "empty policy", us: await api(emptyFile, passes) },
  { name: "50 rules, no rule names the call (all 50 judged)", us: await api(permissionsFile, passes) },
  { name: "50 rules, a deny names the call", us: await api(permissionsFile, denied) }
]
rmSync(dir, { recursive: true, force: true })

const ms = (name: string): number => median(results.get(name)!)
const sh = ms("sh -c true")
console.log(
  `permissions per call: ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at the end, ${ROUNDS} rounds x ${N} runs (host mode), ${API_N} calls (API), median of round medians`
)
console.log("")
console.log("| host mode call (the daemon warm) | wall ms | / the same client, empty policy | / sh -c true |")
console.log("| --- | ---: | ---: | ---: |")
for (const row of rows) {
  const client = row.name.split(",")[0]!
  const empty = row.name === "sh -c true" ? undefined : ms(`${client}, empty policy`)
  console.log(
    `| ${row.name} | ${ms(row.name).toFixed(2)} | ${empty === undefined ? "" : `${(ms(row.name) / empty).toFixed(2)}x`} | ${(ms(row.name) / sh).toFixed(2)}x |`
  )
}
console.log("")
console.log("| in-process (API), per call | µs |")
console.log("| --- | ---: |")
for (const row of apiRows) console.log(`| ${row.name} | ${row.us.toFixed(1)} |`)
