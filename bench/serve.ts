/**
 * `agent-hooks serve` against in-process dispatch: the cost of one event for a host that talks to
 * the server in JSON lines, compared with a Node host that embeds the engine. The figures in
 * `docs/benchmarks/serve.md` come from this script. Goal: serve ≤ 1.2× in-process.
 *
 * Run from the repository root after `npm run build`: `npm run bench -- serve`, or
 * `node bench/serve.ts`. Environment: BENCH_N (default 300), BENCH_WARMUP (30), BENCH_ROUNDS (3).
 *
 * Both sides run the same settings (one PreToolUse hook, `true`) and send one request at a time,
 * waiting for its answer (the latency a host sees per event). Serve: the built CLI under Node,
 * requests written to its stdin, answers read from its stdout, from this process. In-process: the
 * Promise facade of `@agent-hooks/node` in this process. Rounds alternate the two; the table shows
 * the median of the round medians.
 */
import { createHookEngine } from "@agent-hooks/node"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const N = Number(process.env.BENCH_N ?? 300)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const bin = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url))
const payload = { tool_name: "Bash", tool_input: { command: "ls" }, pad: "x".repeat(150) }

const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-serve-"))
const settings = join(dir, "settings.json")
writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }))

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const inProcessRound = async (): Promise<number> => {
  const engine = await createHookEngine({ settings: [settings], projectDir: dir })
  const samples: Array<number> = []
  for (let i = 0; i < WARMUP + N; i++) {
    const start = performance.now()
    const outcome = await engine.dispatch("PreToolUse", payload)
    const took = performance.now() - start
    if (outcome.hooks.length !== 1 || outcome.hooks[0]!.exitCode !== 0) throw new Error("in-process: unexpected outcome")
    if (i >= WARMUP) samples.push(took)
  }
  await engine.close()
  return median(samples)
}

const serveRound = async (): Promise<number> => {
  const child = spawn(process.execPath, [bin, "serve", "--settings", settings, "--project-dir", dir], {
    stdio: ["pipe", "pipe", "inherit"]
  })
  let buffer = ""
  const waiting: Array<(line: string) => void> = []
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8")
    let newline = buffer.indexOf("\n")
    while (newline >= 0) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
      waiting.shift()?.(line)
      newline = buffer.indexOf("\n")
    }
  })
  const next = () => new Promise<string>((resolve) => waiting.push(resolve))
  await next() // hello
  const samples: Array<number> = []
  for (let i = 0; i < WARMUP + N; i++) {
    const start = performance.now()
    const answer = next()
    child.stdin.write(`${JSON.stringify({ id: i, event: "PreToolUse", payload })}\n`)
    const line = JSON.parse(await answer) as { id: number; outcome?: { hooks: Array<{ exitCode: number }> } }
    const took = performance.now() - start
    if (line.id !== i || line.outcome?.hooks[0]?.exitCode !== 0) throw new Error(`serve: unexpected answer ${JSON.stringify(line)}`)
    if (i >= WARMUP) samples.push(took)
  }
  child.stdin.end()
  await new Promise((resolve) => child.on("exit", resolve))
  return median(samples)
}

const inProcess: Array<number> = []
const served: Array<number> = []
for (let round = 0; round < ROUNDS; round++) {
  inProcess.push(await inProcessRound())
  served.push(await serveRound())
}
rmSync(dir, { recursive: true, force: true })

const ms = (value: number) => `${value.toFixed(2)} ms`
const a = median(inProcess)
const b = median(served)
console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; N=${N} per round, ${ROUNDS} rounds`)
console.log("")
console.log("| Path | Per event (median of round medians) | Round medians |")
console.log("| --- | --- | --- |")
console.log(`| In-process dispatch (\`createHookEngine\`) | ${ms(a)} | ${inProcess.map(ms).join(", ")} |`)
console.log(`| \`agent-hooks serve\` (stdin/stdout JSON lines) | ${ms(b)} | ${served.map(ms).join(", ")} |`)
console.log("")
console.log(`serve / in-process: ${(b / a).toFixed(2)}× (goal ≤ 1.2×)`)
