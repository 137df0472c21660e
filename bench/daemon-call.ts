/**
 * The per-user daemon's own cost (internal/hookDaemon.ts): a daemon started as its client starts it
 * (`node bin.js __daemon <socket>`), then BENCH_N calls through its socket, as the client speaks the
 * protocol: the time from `go` to `done` is the time the call spends inside the daemon (no process
 * start, no client). Its resident memory (VmRSS) is read before and after the calls, and after each
 * tenth of them. Then BENCH_PARALLEL calls at once (several agents of one user): how many the daemon
 * answered, and how many it sent away as `busy`.
 *
 * Run from the repository root after `npm run build`: `node bench/daemon-call.ts`. Environment:
 * BENCH_N (default 300), BENCH_PARALLEL (4), BENCH_BIN (another build's bin.js, to compare),
 * BENCH_NODE_FLAGS (the daemon's Node flags; default the client's `DAEMON_NODE_FLAGS`), BENCH_HOOK=none
 * (the policy's hook does not match: the daemon's own work, no hook spawned). The daemon's CPU time
 * per call (from /proc, user + system: clock ticks of 10 ms, so over many calls) is what a busy
 * machine's wall time hides.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { DAEMON_NODE_FLAGS } from "../packages/cli/src/internal/hookClient.ts"
import { hookBench } from "./hookPayload.ts"

const N = Number(process.env.BENCH_N ?? 300)
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 4)
const bin = process.env.BENCH_BIN ?? fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-daemon-"))
// BENCH_HOOK=none: the policy's hook does not match the call (the daemon's own work alone, no spawn)
const bench = hookBench(dir, process.env.BENCH_HOOK === "none" ? "NoSuchTool" : "Bash")
const settings = bench.settings
const payload = Buffer.from(bench.payload)
const folder = join(dir, "run")
mkdirSync(folder, { mode: 0o700 })
const socket = join(folder, "d.sock")
const env: Record<string, string> = {}
for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value
Object.assign(env, { HOME: dir, AGENT_HOOKS_HOME: join(dir, "agent-hooks"), CLAUDE_PROJECT_DIR: dir, AGENT_HOOKS_DAEMON_IDLE: "600" })
for (const name of ["AGENT_HOOKS_HOST_MODE", "AGENT_HOOKS_DAEMON", "NODE_OPTIONS"]) delete env[name]

// the heap bounds the client starts the daemon with (BENCH_NODE_FLAGS="" for none)
const flags = process.env.BENCH_NODE_FLAGS === undefined ? DAEMON_NODE_FLAGS : process.env.BENCH_NODE_FLAGS.split(" ").filter(Boolean)
const daemon = spawn(process.execPath, [...flags, bin, "__daemon", socket], { stdio: "ignore", env, cwd: "/" })
/** The daemon's CPU time so far (user + system, ms): what a busy machine's wall time hides. */
const cpu = (): number => {
  const fields = readFileSync(`/proc/${daemon.pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}
const rss = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.pid}/status`, "utf8"))![1]) / 1024

interface Reply {
  readonly answer: "done" | "busy" | "other"
  readonly inDaemonMs: number
}
/** One call as the client makes it: request line and payload, `go` on `accepted`, until `done`. */
const call = (): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const connection = createConnection(socket)
    let buffered = ""
    let go = 0
    connection.setEncoding("utf8")
    connection.on("error", reject)
    connection.on("data", (text: string) => {
      buffered += text
      for (let at = buffered.indexOf("\n"); at !== -1; at = buffered.indexOf("\n")) {
        const reply = JSON.parse(buffered.slice(0, at)) as { t: string; exitCode?: number; stderr?: string }
        buffered = buffered.slice(at + 1)
        if (reply.t === "accepted") {
          go = performance.now()
          connection.write("go\n")
        } else if (reply.t === "done") {
          if (reply.exitCode !== 0) reject(new Error(`exit ${reply.exitCode}: ${Buffer.from(reply.stderr ?? "", "base64")}`))
          connection.destroy()
          return resolve({ answer: "done", inDaemonMs: performance.now() - go })
        } else if (reply.t === "busy") {
          connection.destroy()
          return resolve({ answer: "busy", inDaemonMs: 0 })
        } else if (reply.t !== "started") {
          connection.destroy()
          return resolve({ answer: "other", inDaemonMs: 0 })
        }
      }
    })
    const argv = ["hook", "--host", "claude", "--settings", settings]
    connection.write(
      `${JSON.stringify({ v: 1, argv, env, cwd: dir, umask: 0o022, stdinIsTerminal: false, stdinLength: payload.length, started: true })}\n`
    )
    connection.write(payload)
  })

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
try {
  for (let i = 0; i < 100; i++) {
    try {
      await call()
      break
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const before = rss()
  const cpuBefore = cpu()
  const times: Array<number> = []
  const memory: Array<number> = []
  for (let i = 0; i < N; i++) {
    times.push((await call()).inDaemonMs)
    if ((i + 1) % Math.max(1, Math.floor(N / 10)) === 0) memory.push(rss())
  }
  const first = times.slice(0, Math.min(20, N))
  const cpuPerCall = (cpu() - cpuBefore) / N
  console.log(
    `calls: ${N}; in the daemon per call: median ${median(times).toFixed(1)} ms wall (first 20: ${median(first).toFixed(1)} ms), ${cpuPerCall.toFixed(2)} ms CPU`
  )
  console.log(`daemon RSS: ${before.toFixed(0)} MB before, ${memory.map((m) => m.toFixed(0)).join(" ")} MB every ${N / 10} calls`)
  // the first time, the daemon starts its helpers (a call that waits too long for one is told busy); then they are warm
  for (const round of ["first", "then"]) {
    const parallel = await Promise.all(Array.from({ length: PARALLEL }, () => call()))
    const answered = parallel.filter((r) => r.answer === "done").length
    console.log(`${PARALLEL} calls at once (${round}): ${answered} answered by the daemon, ${PARALLEL - answered} busy (run in-process)`)
    await new Promise((resolve) => setTimeout(resolve, 3000))
  }
} finally {
  daemon.kill("SIGTERM")
  rmSync(dir, { recursive: true, force: true })
}
