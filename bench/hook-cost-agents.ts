/**
 * The per-call cost of host mode inside the real agents (agents/: Claude Code, Codex, Gemini CLI,
 * Qwen Code from the npm registry, headless, against the scripted model server on 127.0.0.1): the
 * hook command's own wall time, minus that of a native `sh` hook doing the same check in the same
 * run, and against a bare `node -e 0` started as a hook beside them (the goal's yardstick: at most
 * 1.5x it). Each run wires the three on UserPromptSubmit, PreToolUse, PostToolUse and Stop (the agent's own
 * names): the native hook runs `check.sh` itself on PreToolUse (and reads its stdin elsewhere);
 * `agent-hooks hook --host <agent>` runs the same `check.sh` as its policy's one PreToolUse hook.
 * Each command is wrapped in `t0=$(date +%s%N); …; t1=…`, the same wrapper for both, so the figure
 * is the command's own wall time as the agent waits for it.
 *
 * Each run has a fresh HOME: its first agent-hooks call is cold (empty compile cache, no daemon),
 * every later call warm (a second call in the same HOME). Modes: "daemon" (the default: the first
 * call starts the daemon and runs in-process), "native client" (the same, through the native client
 * `install --native` writes, built here with `cc`; left out without a C compiler) and "in-process"
 * (`AGENT_HOOKS_DAEMON=0`).
 *
 * Run from the repository root after `npm run build` (the agents are installed by the agents step,
 * `node agents/run.mjs`, or here on first use): `node bench/hook-cost-agents.ts`. Environment:
 * BENCH_AGENTS (default claude,codex,gemini,qwen), BENCH_RUNS (runs per agent and mode, default 2),
 * BENCH_MODES (default: all).
 */
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
// @ts-expect-error the agents harness is plain JavaScript
import { AGENTS, agentEnv } from "../agents/lib/agents.mjs"
// @ts-expect-error the agents harness is plain JavaScript
import { ensureAgents, exec } from "../agents/lib/install.mjs"
// @ts-expect-error the agents harness is plain JavaScript
import { startModelServer } from "../agents/lib/server.mjs"
import { buildClient, clientSource } from "../packages/cli/src/internal/nativeClient.ts"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const TOOLS_BIN = join(ROOT, ".tools", "node_modules", ".bin")
// The entry install writes for Node (and npm links): the CommonJS one, which asks the daemon before any ES module loads
const CLI = join(ROOT, "packages", "cli", "dist", "agent-hooks.cjs")
const AGENTS_DIR = join(ROOT, "agents")
const names = (process.env["BENCH_AGENTS"] ?? "claude,codex,gemini,qwen").split(",").filter(Boolean)
const RUNS = Number(process.env["BENCH_RUNS"] ?? 2)
const ALL_MODES = ["daemon", "native client", "in-process"] as const
const EVENTS = ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] as const

// The native client, for the Node the hook commands name and this build (as install --native builds it)
const NODE = realpathSync(join(TOOLS_BIN, "node"))
const CLIENT = join(mkdtempSync(join(tmpdir(), "agent-hooks-bench-client-")), "hook-client")
const built = buildClient(clientSource(realpathSync(CLI)), CLIENT, {
  node: NODE,
  bin: realpathSync(CLI),
  version: spawnSync(NODE, ["--version"], { encoding: "utf8" }).stdout.trim()
})
if ("error" in built) process.stderr.write(`[bench] no native client mode: ${built.error}\n`)
const wanted = (process.env["BENCH_MODES"] ?? ALL_MODES.join(",")).split(",")
const MODES = ALL_MODES.filter((mode) => wanted.includes(mode) && (mode !== "native client" || !("error" in built)))

const q = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`
const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)]!
}

interface Sample {
  readonly side: "native" | "agent-hooks" | "node"
  readonly event: string
  readonly start: number
  readonly ms: number
}

const runOnce = async (agentName: string, mode: (typeof MODES)[number]): Promise<ReadonlyArray<Sample>> => {
  const agent = AGENTS[agentName]
  const dir = mkdtempSync(join(tmpdir(), `agent-hooks-bench-agents-${agentName}-`))
  const home = join(dir, "home")
  const project = join(dir, "project")
  for (const d of [home, project]) mkdirSync(d, { recursive: true })
  const times = join(dir, "times.txt")
  const check = join(dir, "check.sh")
  writeFileSync(check, `input=$(cat)\ncase "$input" in *'rm -rf'*) echo "no rm -rf" >&2; exit 2 ;; esac\nexit 0\n`)
  const readOnly = join(dir, "read.sh")
  writeFileSync(readOnly, "cat >/dev/null\nexit 0\n")
  for (const f of [check, readOnly]) chmodSync(f, 0o755)
  const policy = join(dir, "policy.json")
  writeFileSync(
    policy,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${q(check)}` }] }] } })
  )
  const timed = (label: string, command: string): string =>
    `t0=$(date +%s%N); ${command}; rc=$?; t1=$(date +%s%N); echo "${label} $t0 $((t1-t0))" >> ${q(times)}; exit $rc`
  const ours = `${mode === "in-process" ? "AGENT_HOOKS_DAEMON=0 " : ""}${mode === "native client" ? q(CLIENT) : `${q(join(TOOLS_BIN, "node"))} ${q(CLI)}`} hook --host ${agentName} --timeout 60 --settings ${q(policy)}`
  // A bare Node start as the agent starts a hook (the goal's yardstick, in the same conditions): stdin read after the timing
  const bareNode = (event: string): string =>
    `t0=$(date +%s%N); ${q(join(TOOLS_BIN, "node"))} -e 0 </dev/null; t1=$(date +%s%N); echo "node ${event} $t0 $((t1-t0))" >> ${q(times)}; cat >/dev/null; exit 0`
  const hooks = EVENTS.flatMap((event) => [
    { event, command: timed(`native ${event}`, `sh ${q(event === "PreToolUse" ? check : readOnly)}`), matcher: null },
    { event, command: timed(`agent-hooks ${event}`, ours), matcher: null },
    { event, command: bareNode(event), matcher: null }
  ])
  const server = await startModelServer({})
  try {
    agent.setup({ home, project, url: server.url, hooks, timeout: 60 })
    const env = agentEnv(agent, { home, url: server.url, pathPrefix: TOOLS_BIN })
    const result = await exec(
      join(AGENTS_DIR, "node_modules", ".bin", agent.bin),
      agent.command("Please create the marker file in this folder."),
      {
        cwd: project,
        env,
        timeoutMs: 180_000
      }
    )
    let text = ""
    try {
      text = readFileSync(times, "utf8")
    } catch {
      throw new Error(`${agentName}: no hook ran (exit ${result.code}):\n${result.out.slice(-2000)}`)
    }
    return text
      .trim()
      .split("\n")
      .map((line) => {
        const [side, event, start, ns] = line.split(" ")
        return { side: side as Sample["side"], event: event!, start: Number(start), ms: Number(ns) / 1e6 }
      })
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

await ensureAgents({
  dir: AGENTS_DIR,
  pathPrefix: TOOLS_BIN,
  agents: names.map((name) => AGENTS[name]),
  log: (s: string) => process.stderr.write(`[bench] ${s}\n`)
})
const loadBefore = loadavg()
const rows: Array<string> = []
for (const name of names) {
  for (const mode of MODES) {
    const cold: Array<[number, number, number]> = []
    const warm: Array<[number, number, number]> = []
    for (let run = 0; run < RUNS; run++) {
      const samples = [...(await runOnce(name, mode))].sort((a, b) => a.start - b.start)
      const ours = samples.filter((s) => s.side === "agent-hooks")
      process.stderr.write(
        `[bench] ${name} ${mode} run ${run + 1}: ${samples.map((s) => `${s.side} ${s.event} ${s.ms.toFixed(0)} ms`).join(", ")}\n`
      )
      // each agent-hooks call beside the native hook of the same event in the same run
      ours.forEach((sample, i) => {
        const near = (side: Sample["side"]) =>
          samples.find((s) => s.side === side && s.event === sample.event && Math.abs(s.start - sample.start) < 5e9)
        const native = near("native")
        const node = near("node")
        if (native === undefined || node === undefined) return
        ;(i === 0 ? cold : warm).push([sample.ms, native.ms, node.ms])
      })
    }
    const row = (what: string, triples: ReadonlyArray<[number, number, number]>) => {
      const ah = median(triples.map((p) => p[0]))
      const sh = median(triples.map((p) => p[1]))
      const node = median(triples.map((p) => p[2]))
      const diff = median(triples.map((p) => p[0] - p[1]))
      rows.push(
        `| ${AGENTS[name].title} | ${mode} | ${what} | ${triples.length} | ${ah.toFixed(0)} | ${sh.toFixed(0)} | ${diff.toFixed(0)} | ${node.toFixed(0)} | ${(diff / node).toFixed(2)}x |`
      )
    }
    row("cold (first call in the HOME)", cold)
    row("warm (later calls)", warm)
  }
}
console.log(
  `host mode inside the real agents: ${process.version}, ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")} at the start, ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at the end; ${RUNS} runs per agent and mode; medians`
)
console.log(
  "| agent | agent-hooks | calls | n | agent-hooks hook ms | native sh hook ms | difference ms (median of pairs) | bare node -e 0 hook ms | difference / node -e 0 |"
)
console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for (const row of rows) console.log(row)
