/**
 * What one PreToolUse dispatch costs with the same guard written four ways, in one run with
 * interleaved rounds:
 *
 * - `module`: `{"type": "module", "module": "./guard.mjs"}`, run in-process;
 * - `callback`: the same function given to the engine in code (`options.hooks`);
 * - `command: sh`: the guard as a shell script (`sh guard.sh`), a new process per call;
 * - `command: node`: the guard as a Node script (`node guard.mjs`), a new Node per call;
 * - `cedar`: the guard as a Cedar policy (`{"type": "cedar", "policies": "guard.cedar"}`), evaluated
 *   in-process on `@cedar-policy/cedar-wasm` (loaded once, by the sanity dispatch below).
 *
 * Each guard reads the input, denies `rm -rf` and allows the rest; every sample dispatches one
 * allowed call through `createHookEngine` and waits for the Outcome. The table shows the median
 * over rounds of each round's median, and each variant's ratio to `module` measured in the same run.
 *
 * Then one-shot `agent-hooks run` (the built CLI, a new process per call, as an agent's hook
 * config runs it) with the module, sh and cedar guards: for `PreToolUse` (the guard runs) and for
 * `Stop` (another event of the same settings), the median wall time and CPU time (user + system,
 * from `/usr/bin/time` where there is one) over BENCH_CLI_N (default 7) interleaved runs.
 *
 * Run from the repository root after `npm run build`: `node bench/module-hooks.ts`
 * (or `npm run bench -- module-hooks`). Environment: BENCH_N (default 100), BENCH_ROUNDS (default 3),
 * BENCH_CLI_N (default 7; 0 skips the CLI part).
 */
import { createHookEngine } from "@agent-hooks/node"
import type { HookEngine } from "@agent-hooks/core"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, cpus, release, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const N = Number(process.env["BENCH_N"] ?? 100)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3)
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-"))

const guardJs = `export default (input) => input.tool_input.command.includes("rm -rf")
  ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } }
  : undefined
`
writeFileSync(join(dir, "guard.mjs"), guardJs)
writeFileSync(
  join(dir, "guard-cli.mjs"),
  `let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => {
  if (JSON.parse(s).tool_input.command.includes("rm -rf")) { process.stderr.write("no"); process.exit(2) } })
`
)
writeFileSync(
  join(dir, "guard.cedar"),
  `@id("no-rm-rf") @reason("no")
forbid (principal, action == Action::"PreToolUse", resource) when { resource.tool == "Bash" && resource.path like "*rm -rf*" };
permit (principal, action == Action::"PreToolUse", resource) when { resource.tool == "Bash" };
`
)
writeFileSync(join(dir, "guard.sh"), `input=$(cat)\ncase "$input" in *'rm -rf'*) echo no >&2; exit 2 ;; esac\n`)

const guardFn: HookEngine.HookCallback = (input) =>
  String((input["tool_input"] as { command: string }).command).includes("rm -rf")
    ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } }
    : undefined

const settingsFile = (name: string, handler: object | undefined) => {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ hooks: handler === undefined ? {} : { PreToolUse: [{ matcher: "Bash", hooks: [handler] }] } }))
  return file
}

const variants = [
  { name: "module", settings: settingsFile("module", { type: "module", module: "./guard.mjs" }) },
  { name: "callback", settings: settingsFile("callback", undefined), hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guardFn] }] } },
  { name: "command: sh", settings: settingsFile("sh", { type: "command", command: `sh ${join(dir, "guard.sh")}` }) },
  { name: "command: node", settings: settingsFile("node", { type: "command", command: `node ${join(dir, "guard-cli.mjs")}` }) },
  { name: "cedar", settings: settingsFile("cedar", { type: "cedar", policies: "guard.cedar" }) }
] as const

const payload = { tool_name: "Bash", tool_input: { command: "ls -la" } }
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const engines = await Promise.all(
  variants.map((v) => createHookEngine({ settings: [v.settings], projectDir: dir, ...("hooks" in v ? { hooks: v.hooks } : {}) }))
)
// Sanity: every variant really decides (deny on rm -rf).
for (const [i, engine] of engines.entries()) {
  const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })
  if (!outcome.blocked) throw new Error(`${variants[i]!.name} did not block rm -rf`)
}

const perVariant: Array<Array<number>> = variants.map(() => [])
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < variants.length; k++) {
    const i = (k + round) % variants.length
    const engine = engines[i]!
    const samples: Array<number> = []
    for (let w = 0; w < Math.min(10, N); w++) await engine.dispatch("PreToolUse", payload)
    for (let s = 0; s < N; s++) {
      const t0 = performance.now()
      await engine.dispatch("PreToolUse", payload)
      samples.push(performance.now() - t0)
    }
    perVariant[i]!.push(median(samples))
  }
}
await Promise.all(engines.map((engine) => engine.close()))

// One-shot `agent-hooks run`: a new CLI process per call.
const CLI_N = Number(process.env["BENCH_CLI_N"] ?? 7)
const cli = fileURLToPath(new URL("../packages/cli/dist/agent-hooks.mjs", import.meta.url))
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined
const oneShot = variants.filter((v) => v.name === "module" || v.name === "command: sh" || v.name === "cedar")
const events = [
  { event: "PreToolUse", payload: JSON.stringify({ session_id: "s", tool_name: "Bash", tool_input: { command: "ls -la" } }) },
  { event: "Stop", payload: JSON.stringify({ session_id: "s" }) }
]
const cliSamples = new Map<string, { wall: Array<number>; cpu: Array<number> }>()
if (CLI_N > 0 && existsSync(cli)) {
  for (let round = 0; round < CLI_N; round++) {
    for (const v of oneShot) {
      for (const { event, payload: input } of events) {
        const args = [process.execPath, cli, "run", event, "--settings", v.settings, "--project-dir", dir]
        const t0 = performance.now()
        const result =
          timeBin === undefined
            ? spawnSync(args[0]!, args.slice(1), { input, encoding: "utf8" })
            : spawnSync(timeBin, ["-f", "%U %S", ...args], { input, encoding: "utf8" })
        const wall = performance.now() - t0
        if (result.status !== 0) throw new Error(`${v.name} ${event}: exit ${result.status}: ${result.stderr}`)
        const key = `${v.name}|${event}`
        const entry = cliSamples.get(key) ?? { wall: [], cpu: [] }
        entry.wall.push(wall)
        const times = timeBin === undefined ? undefined : result.stderr.trim().split("\n").at(-1)!.split(" ").map(Number)
        if (times !== undefined) entry.cpu.push((times[0]! + times[1]!) * 1000)
        cliSamples.set(key, entry)
      }
    }
  }
}
rmSync(dir, { recursive: true, force: true })

const results = variants.map((v, i) => ({ name: v.name, medianUs: median(perVariant[i]!) * 1000 }))
const base = results[0]!.medianUs
const lines = [
  `Run: \`node bench/module-hooks.ts\` (N=${N} per round, ${ROUNDS} interleaved rounds), ${new Date().toISOString().slice(0, 10)},`,
  `node ${process.version}, ${availableParallelism()} cpu(s), ${cpus()[0]?.model ?? "unknown cpu"}, linux ${release()}.`,
  "",
  "| hook written as | median µs per dispatch | ratio to module |",
  "|---|---:|---:|",
  ...results.map((r) => `| ${r.name} | ${r.medianUs.toFixed(0)} | ${(r.medianUs / base).toFixed(1)}x |`),
  ...(cliSamples.size === 0
    ? []
    : [
        "",
        `One-shot \`agent-hooks run\` (a new process per call), median of ${CLI_N} interleaved runs${timeBin === undefined ? " (no /usr/bin/time: no CPU column)" : ""}:`,
        "",
        "| hook written as | event | median wall ms | median CPU ms |",
        "|---|---|---:|---:|",
        ...[...cliSamples].map(([key, { wall, cpu }]) => {
          const [name, event] = key.split("|")
          return `| ${name} | ${event}${event === "Stop" ? " (no hook on it)" : ""} | ${median(wall).toFixed(0)} | ${cpu.length === 0 ? "-" : median(cpu).toFixed(0)} |`
        })
      ])
]
console.log(lines.join("\n"))
