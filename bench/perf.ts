/**
 * `npm run bench -- perf` (or `node bench/perf.ts [--quick]`): the speed rows of the engine, each
 * measured beside its yardstick in the same process, rounds interleaved. Prints the ratios and
 * writes `docs/performance.md` with an SVG chart drawn here (`docs/performance.svg`).
 * Not part of CI.
 *
 * One worker process per set, started one after the other:
 *
 * - `main`, on Node (no extra heap, and an 800 MB live heap) on Bun and on Deno: raw spawns of `sh -c true`
 *   (the yardstick), one and five `true` hooks through the Promise facade (`spawnHelper` "auto",
 *   false, true, and on Node also the helper run by Bun), and with no extra heap the no-match
 *   dispatch, a module hook, the config load (`Plan.make` from 3 files) against reading and parsing
 *   them, `agent-hooks run` with one `true` hook against a bare start that spawns `true`, and the
 *   RSS rise of a hook printing 1 GiB;
 * - `gemini`, on Node with Gemini CLI's core loaded (no extra heap, and 800 MB): one matching
 *   `true` command hook and a no-match event through Gemini's own `HookSystem`, and through ours;
 * - `threshold`, on Node at 0, 64, 128, 256, 512 and 800 MB, each in its own process and alike but
 *   for the heap: raw spawn, one hook direct, helper and "auto", and a new engine's first hook
 *   (what starting the helper costs): where the helper starts to win, and the heap's cost;
 * - `floor`, when a C compiler (`cc`) is installed: `bench/spawn-floor.c`, built into a temporary
 *   directory, spawns `sh -c true` as a hook is spawned with nothing of a runtime around it
 *   (`posix_spawn`): one, and five at once. What five at once cost against one on this machine
 *   whatever spawns them.
 *
 * In a worker every round takes one sample of each row in turn (A, B, C, A, B, C, ...); a row's
 * figure is the median over rounds of its round median, and a ratio between two rows of the same
 * worker is the median over rounds of the ratio of their round medians. Ratios across workers
 * (the heap's cost) divide the two figures.
 *
 * Gemini CLI's core (`@google/gemini-cli-core`, pinned in `bench/gemini/package.json` and its
 * lockfile) is installed on demand with `npm ci` into `bench/gemini/node_modules`, outside the
 * workspace (so `npm test` never downloads it); `BENCH_GEMINI=0` skips it, `GEMINI_CLI_CORE_DIR`
 * names another folder holding it.
 *
 * Knobs: `--quick` (fewer samples, for a short check), BENCH_N (samples per row and round, 40;
 * quick 8), BENCH_ROUNDS (5; quick 3), BENCH_HEAP_MB (800; 0 skips the heap workers),
 * BENCH_BIG (1: the 1 GiB output rows), BENCH_THRESHOLDS ("0,64,128,256,512,800"; "" skips them),
 * BENCH_GEMINI (1), BENCH_WRITE (1: write the docs page; 0 prints only).
 *
 * Workers: `node bench/perf.ts --worker <set> <heapMB>` prints one JSON line of rows.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { GEMINI_DIR, GEMINI_ENTRY, geminiHookSystem, type GeminiHookSystem } from "./geminiHookSystem.ts"

type WorkerSet = "main" | "gemini" | "threshold" | "floor"

interface Row {
  /** The worker that measured it: `node`, `node +800 MB`, `node + Gemini CLI`, `bun`, ... */
  readonly worker: string
  readonly runtime: string
  readonly heapMB: number
  readonly set: WorkerSet
  /** The worker's resident memory when its measurements started. */
  readonly rssMB: number
  readonly name: string
  /** Per-round medians (µs, or MB for memory rows). */
  readonly rounds: ReadonlyArray<number>
  /** The row of the same worker this one is compared with, and the goal for that ratio. */
  readonly versus?: string
  readonly goal?: number
  readonly unit?: "us" | "MB"
}

const argv = process.argv.slice(2)
const QUICK = argv.includes("--quick")
const N = Number(process.env.BENCH_N ?? (QUICK ? 8 : 40))
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 5))
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 800)
const BIG = process.env.BENCH_BIG !== "0"
const THRESHOLDS = (process.env.BENCH_THRESHOLDS ?? "0,64,128,256,512,800")
  .split(",")
  .filter((s) => s.trim() !== "")
  .map(Number)
const GEMINI = process.env.BENCH_GEMINI !== "0"
const WRITE = process.env.BENCH_WRITE !== "0"
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined"
const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined"
const runtime = isBun ? "bun" : isDeno ? "deno" : "node"
const PAYLOAD = JSON.stringify({
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls -la" },
  pad: "x".repeat(120)
})
const ROOT = fileURLToPath(new URL("../", import.meta.url))
const CLI_BIN = join(ROOT, "packages", "cli", "dist", "bin.js")

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const workerName = (set: WorkerSet, rt: string, heapMB: number) =>
  `${rt}${heapMB ? ` +${heapMB} MB` : ""}${set === "gemini" ? " + Gemini CLI" : set === "threshold" ? " (threshold)" : ""}`

// --- yardsticks: raw spawns of `sh -c true`, the payload on stdin, waited to exit and EOF -------

type DenoChild = { stdin: WritableStream<Uint8Array>; output(): Promise<unknown> }
const denoCommand = isDeno
  ? (globalThis as unknown as { Deno: { Command: new (file: string, o: object) => { spawn(): DenoChild } } }).Deno.Command
  : undefined

const rawOne = (): Promise<void> =>
  denoCommand !== undefined
    ? (async () => {
        const child = new denoCommand("/bin/sh", { args: ["-c", "true"], stdin: "piped", stdout: "piped", stderr: "piped" }).spawn()
        const writer = child.stdin.getWriter()
        await writer.write(new TextEncoder().encode(PAYLOAD)).catch(() => {})
        await writer.close().catch(() => {})
        await child.output()
      })()
    : isBun
      ? (async () => {
          const bun = (
            globalThis as unknown as { Bun: { spawn(cmd: Array<string>, o: object): { exited: Promise<number>; stdout: ReadableStream } } }
          ).Bun
          const child = bun.spawn(["/bin/sh", "-c", "true"], { stdin: new TextEncoder().encode(PAYLOAD), stdout: "pipe", stderr: "pipe" })
          await Promise.all([child.exited, new Response(child.stdout).arrayBuffer()])
        })()
      : new Promise((resolve, reject) => {
          const child = spawn("/bin/sh", ["-c", "true"], { stdio: ["pipe", "pipe", "pipe"] })
          child.stdin.on("error", () => {})
          child.stdin.end(PAYLOAD)
          child.stdout.resume()
          child.stderr.resume()
          child.on("error", reject)
          child.on("close", () => resolve())
        })

const rawFive = () => Promise.all([rawOne(), rawOne(), rawOne(), rawOne(), rawOne()]).then(() => {})

/**
 * Bun: a raw spawn with what every hook's spawn needs besides (the hook's environment and working
 * directory, a process group of its own, both pipes read to their end, the group killed after):
 * how much of the five-hook row is the spawn a hook needs, and how much the engine.
 */
const rawOneAsHook = (dir: string, env: Record<string, string>) => async (): Promise<void> => {
  const bun = (
    globalThis as unknown as {
      Bun: {
        spawn(
          cmd: Array<string>,
          o: object
        ): { pid: number; exited: Promise<number>; stdout: ReadableStream; stderr: ReadableStream; unref(): void }
      }
    }
  ).Bun
  const child = bun.spawn(["/bin/sh", "-c", "true"], {
    stdin: new TextEncoder().encode(PAYLOAD),
    stdout: "pipe",
    stderr: "pipe",
    cwd: dir,
    env,
    detached: true
  })
  await Promise.all([child.exited, new Response(child.stdout).arrayBuffer(), new Response(child.stderr).arrayBuffer()])
  try {
    process.kill(-child.pid, "SIGKILL")
  } catch {
    // the group is gone
  }
  child.unref()
}

// --- the engine, through the Promise facade -----------------------------------------------------

type Outcome = { blocked: boolean; hooks: ReadonlyArray<{ exitCode: number | null; stdout?: string }> }
type Engine = { dispatch(event: string, payload: object): Promise<Outcome>; close(): Promise<void> }

const settings = (dir: string, name: string, document: unknown) => {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify(document))
  return file
}
const commandHooks = (commands: Array<string>) => ({
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: commands.map((command) => ({ type: "command", command })) }] }
})

const engineWith = async (dir: string, name: string, document: unknown, extra: object = {}): Promise<Engine> => {
  const mod = isBun ? await import("@agent-hooks/bun") : isDeno ? await import("@agent-hooks/deno") : await import("@agent-hooks/node")
  return (await mod.createHookEngine({
    settings: [settings(dir, name, document)],
    projectDir: dir,
    ...extra
  } as never)) as unknown as Engine
}

const MATCH = { tool_name: "Bash", tool_input: { command: "ls" } }
const NO_MATCH = { tool_name: "Read", tool_input: { file_path: "README.md" } }
const check = (outcome: Outcome, n: number) => {
  if (outcome.hooks.length !== n || outcome.hooks.some((h) => h.exitCode !== 0))
    throw new Error(`unexpected outcome ${JSON.stringify(outcome)}`)
}

const peakRss = async (f: () => Promise<void>): Promise<number> => {
  const before = process.memoryUsage.rss()
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5)
  await f()
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage.rss())
  return (peak - before) / 1024 / 1024
}

/** The executables of this process's children (Linux `/proc`), to check which runtime a helper runs on. */
const childExecutables = (): Array<string> => {
  if (!existsSync("/proc/self/stat")) return []
  const found: Array<string> = []
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      if (ppid === process.pid) found.push(readlinkSync(`/proc/${pid}/exe`))
    } catch {
      // gone meanwhile
    }
  }
  return found
}

interface Variant {
  readonly name: string
  readonly run: () => Promise<void>
  readonly versus?: string
  readonly goal?: number
  /** Calls per sample (the sample is their mean): for rows far below a millisecond. */
  readonly batch?: number
  /** Samples per round, when fewer than N (rows that take a whole process start). */
  readonly samples?: number
  /** Runs once before the warm-up (the Bun helper is started here). */
  readonly warmUp?: () => Promise<void>
}

// --- rows that need no spawn: config load, CLI start-up ------------------------------------------

const configRows = async (dir: string): Promise<Array<Variant>> => {
  const { Plan } = await import("@agent-hooks/core")
  const NodeFileSystem = await import("@effect/platform-node/NodeFileSystem")
  const NodePath = await import("@effect/platform-node/NodePath")
  const { Effect, Layer } = await import("effect")
  const HOOKS = 100
  const files = [0, 1, 2].map((f) =>
    settings(dir, `load-${f}`, {
      hooks: {
        PreToolUse: Array.from({ length: 34 }, (_, i) => f * 34 + i)
          .filter((i) => i < HOOKS)
          .map((i) => ({
            matcher: i % 2 === 0 ? `tool_${i}` : `^mcp__server_${i}__.*`,
            hooks: [{ type: "command", command: `./hooks/check-${i}.sh`, timeout: 30, ...(i % 5 === 0 ? { if: "Bash(git push:*)" } : {}) }]
          }))
      }
    })
  )
  const load = Plan.make({ settings: files, projectDir: dir, managedDir: join(dir, "no-managed") }).pipe(
    Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))
  )
  const loaded = await Effect.runPromise(load)
  const planned = [...loaded.events.values()].reduce((n, event) => n + event.hooks.length, 0)
  if (planned !== HOOKS) throw new Error(`config load: expected ${HOOKS} hooks in the plan, got ${planned}`)
  return [
    {
      name: "read + JSON.parse of 3 files",
      run: async () => void (await Promise.all(files.map(async (file) => JSON.parse(await readFile(file, "utf8")) as unknown))),
      batch: 10
    },
    {
      name: "config load (Plan.make, 100 hooks in 3 files)",
      run: async () => void (await Effect.runPromise(load)),
      batch: 10,
      versus: "read + JSON.parse of 3 files"
    }
  ]
}

const cliRows = (dir: string): Array<Variant> => {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run npm run build first`)
  const file = settings(dir, "cli", { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } })
  const exec = (args: Array<string>) => () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: dir, stdio: ["pipe", "pipe", "pipe"] })
      let err = ""
      child.stdin.on("error", () => {})
      child.stdin.end(JSON.stringify(MATCH))
      child.stdout.resume()
      child.stderr.on("data", (d) => (err += d))
      child.on("error", reject)
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(" ")}: exit ${code}\n${err}`))))
    })
  const samples = Math.max(3, Math.ceil(N / 4))
  return [
    {
      name: "bare start + one spawn of true",
      run: exec(
        isDeno
          ? ["eval", `await new Deno.Command("true").output()`]
          : ["-e", `require("node:child_process").spawn("true").on("exit", () => {})`]
      ),
      samples
    },
    {
      name: "CLI start-up: agent-hooks run, 1 true hook",
      run: exec([...(isDeno ? ["run", "-A", "--no-lock"] : []), CLI_BIN, "run", "PreToolUse", "--settings", file]),
      samples,
      versus: "bare start + one spawn of true",
      ...(isDeno ? {} : { goal: 3 })
    }
  ]
}

// --- Gemini CLI's HookSystem (bench/geminiHookSystem.ts) -------------------------------------------

const geminiSystem = (dir: string, command: string): Promise<GeminiHookSystem> =>
  geminiHookSystem(dir, [{ matcher: "run_shell_command", hooks: [{ type: "command", command, timeout: 5000 }] }])

// --- a worker -----------------------------------------------------------------------------------

const worker = async (set: WorkerSet, heapMB: number) => {
  // The host's live heap: `heapMB` arrays of 131 072 doubles (1 MB each, allocated at their size), kept reachable.
  const ballast: Array<Array<number>> = []
  for (let i = 0; i < heapMB; i++) {
    const doubles = new Array<number>(131_072)
    for (let j = 0; j < doubles.length; j++) doubles[j] = i + j + 0.5
    ballast.push(doubles)
  }
  const dir = mkdtempSync(join(tmpdir(), "agent-hooks-perf-"))
  writeFileSync(
    join(dir, "guard.mjs"),
    `export default (input) => String(input.tool_input?.command).includes("rm -rf") ? { decision: "block", reason: "no" } : undefined\n`
  )
  const variants: Array<Variant> = []
  const engines: Array<Engine> = []
  const engine = async (name: string, document: unknown, extra: object = {}) => {
    const e = await engineWith(dir, name, document, extra)
    engines.push(e)
    return e
  }
  const ones = ["true"]
  const fives = ["true", "true ", "true  ", "true   ", "true    "]
  const bun =
    isBun || isDeno
      ? undefined
      : spawnSync("bun", ["-e", "console.log(process.execPath)"], { encoding: "utf8" }).stdout?.trim() || undefined
  /** The helper run by Bun (`spawnHelper: { runtime: "bun" }`): an engine's first run starts one `bun` process, checked here. */
  let bunHelpers = 0
  const onBun = (run: () => Promise<void>) => async () => {
    const before = childExecutables().filter((x) => x === bun).length
    await run()
    if (childExecutables().filter((x) => x === bun).length !== before + 1) throw new Error("the Bun-run helper did not start under bun")
    bunHelpers++
  }

  variants.push({ name: "raw spawn", run: rawOne })
  if (set !== "threshold" && set !== "gemini") variants.push({ name: "5 raw spawns at once", run: rawFive })
  if (isBun && set === "main") {
    const asHook = rawOneAsHook(dir, { ...(process.env as Record<string, string>), CLAUDE_PROJECT_DIR: dir })
    variants.push({
      name: "5 raw spawns at once, as hooks are spawned",
      run: () => Promise.all([asHook(), asHook(), asHook(), asHook(), asHook()]).then(() => {}),
      versus: "5 raw spawns at once"
    })
  }

  const modes: Array<[string, object]> =
    isBun || isDeno
      ? [["", {}]]
      : [
          [" (auto)", {}],
          [" (direct)", { spawnHelper: false }],
          [" (helper)", { spawnHelper: true }],
          ...(bun !== undefined && set !== "threshold"
            ? [[" (helper on bun)", { spawnHelper: { use: true, runtime: "bun", executable: bun } }] as [string, object]]
            : [])
        ]

  if (set === "gemini") {
    const gemini = await geminiSystem(dir, "true")
    const blocking = await geminiSystem(dir, "echo no >&2; exit 2")
    // Sanity: Gemini's matcher and runner really run the hook.
    if ((await blocking.fireBeforeToolEvent("run_shell_command", { command: "ls" }))?.getBlockingError?.().blocked !== true)
      throw new Error("Gemini's HookSystem did not run the blocking hook")
    if ((await gemini.fireBeforeToolEvent("read_file", { file_path: "x" }))?.getBlockingError?.().blocked === true)
      throw new Error("Gemini's no-match event blocked")
    variants.push({
      name: "Gemini HookSystem: 1 hook",
      run: async () => void (await gemini.fireBeforeToolEvent("run_shell_command", { command: "ls" }))
    })
    for (const [label, extra] of modes) {
      const one = await engine(`one${label}`, commandHooks(ones), extra)
      const runOne = async () => check(await one.dispatch("PreToolUse", MATCH), 1)
      variants.push({
        name: `1 hook${label}`,
        run: runOne,
        versus: "Gemini HookSystem: 1 hook",
        ...(label === " (auto)" && heapMB > 0 ? { goal: 0.6 } : {}),
        ...(label === " (helper on bun)" ? { warmUp: onBun(runOne) } : {})
      })
    }
    const none = await engine("nomatch", commandHooks(ones))
    variants.push({
      name: "Gemini HookSystem: no match",
      run: async () => void (await gemini.fireBeforeToolEvent("read_file", { file_path: "x" })),
      batch: 200
    })
    variants.push({
      name: "no-match dispatch",
      run: async () => check(await none.dispatch("PreToolUse", NO_MATCH), 0),
      batch: 200,
      versus: "Gemini HookSystem: no match"
    })
  } else {
    for (const [label, extra] of modes) {
      const one = await engine(`one${label}`, commandHooks(ones), extra)
      const runOne = async () => check(await one.dispatch("PreToolUse", MATCH), 1)
      // Goals on Node (the default, "auto") and Bun; none stated for Deno.
      const goalOne = set === "main" && ((label === "" && isBun) || label === " (auto)") ? { goal: 1.1 } : {}
      variants.push({
        name: `1 hook${label}`,
        run: runOne,
        versus: "raw spawn",
        ...goalOne,
        ...(label === " (helper on bun)" ? { warmUp: onBun(runOne) } : {})
      })
      if (set === "threshold") continue
      const five = await engine(`five${label}`, commandHooks(fives), extra)
      const runFive = async () => check(await five.dispatch("PreToolUse", MATCH), 5)
      variants.push({
        name: `5 hooks${label}`,
        run: runFive,
        versus: "5 raw spawns at once",
        ...goalOne,
        ...(label === " (helper on bun)" ? { warmUp: onBun(runFive) } : {})
      })
    }
  }
  if (set === "threshold") {
    // A new engine per sample: its first hook pays the helper's start (or nothing, direct).
    const file = settings(dir, "first", commandHooks(ones))
    const mod = await import("@agent-hooks/node")
    const first = (spawnHelper: boolean) => async () => {
      const e = (await mod.createHookEngine({ settings: [file], projectDir: dir, spawnHelper })) as unknown as Engine
      check(await e.dispatch("PreToolUse", MATCH), 1)
      await e.close()
    }
    const samples = Math.max(3, Math.ceil(N / 4))
    variants.push({ name: "new engine, first hook (direct)", run: first(false), samples })
    variants.push({ name: "new engine, first hook (helper)", run: first(true), samples, versus: "new engine, first hook (direct)" })
  }
  if (set === "main" && heapMB === 0) {
    const none = await engine("nomatch", commandHooks(ones))
    variants.push({
      name: "no-match dispatch",
      run: async () => check(await none.dispatch("PreToolUse", NO_MATCH), 0),
      batch: 200,
      versus: "raw spawn"
    })
    const mod = await engine("module", { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "module", module: "./guard.mjs" }] }] } })
    variants.push({
      name: "module hook",
      run: async () => check(await mod.dispatch("PreToolUse", MATCH), 1),
      batch: 20,
      versus: "raw spawn"
    })
    variants.push(...(await configRows(dir)), ...cliRows(dir))
  }

  // Warm-up: every row a few times (the helper starts on its first hook, the CLI fills its compile cache).
  for (const v of variants) {
    await v.warmUp?.()
    for (let i = 0; i < 3; i++) for (let b = 0; b < (v.batch ?? 1); b++) await v.run()
  }
  const rssMB = Math.round(process.memoryUsage.rss() / 1024 / 1024)
  const perRound = new Map<string, Array<number>>(variants.map((v) => [v.name, []]))
  for (let round = 0; round < ROUNDS; round++) {
    const samples = new Map<string, Array<number>>(variants.map((v) => [v.name, []]))
    // Interleaved: one sample of each row in turn; the order rotates every round.
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + round) % variants.length]!
        if (i >= (v.samples ?? N)) continue
        const batch = v.batch ?? 1
        const t = performance.now()
        for (let b = 0; b < batch; b++) await v.run()
        samples.get(v.name)!.push(((performance.now() - t) * 1000) / batch)
      }
    }
    for (const v of variants) perRound.get(v.name)!.push(median(samples.get(v.name)!))
  }
  const worker = workerName(set, runtime, heapMB)
  const rows: Array<Row> = variants.map((v) => ({
    worker,
    runtime,
    heapMB,
    set,
    rssMB,
    name: v.name,
    rounds: perRound.get(v.name)!.map((x) => Math.round(x * 100) / 100),
    ...(v.versus !== undefined ? { versus: v.versus } : {}),
    ...(v.goal !== undefined ? { goal: v.goal } : {})
  }))
  if (bun !== undefined && childExecutables().filter((x) => x === bun).length !== bunHelpers) {
    throw new Error("a Bun-run helper exited during the run (a restart would have measured the Node helper)")
  }
  if (BIG && set === "main" && heapMB === 0) {
    for (const [label, extra] of isBun || isDeno
      ? [["", {}] as const]
      : [[" (direct)", { spawnHelper: false }] as const, [" (helper)", { spawnHelper: true }] as const]) {
      const big = await engine(`big${label}`, commandHooks(["head -c 1073741824 /dev/zero"]), extra)
      const mb = await peakRss(async () => {
        const outcome = await big.dispatch("PreToolUse", MATCH)
        if (outcome.hooks[0]?.stdout?.length !== 1024 * 1024 || !JSON.stringify(outcome.hooks[0]).includes("was cut"))
          throw new Error(`big output not capped: ${JSON.stringify({ ...outcome.hooks[0], stdout: outcome.hooks[0]?.stdout?.length })}`)
      })
      rows.push({
        worker,
        runtime,
        heapMB,
        set,
        rssMB,
        name: `RSS rise, 1 GiB on stdout${label}`,
        rounds: [Math.round(mb)],
        unit: "MB",
        goal: 64
      })
    }
  }
  for (const e of engines) await e.close()
  rmSync(dir, { recursive: true, force: true })
  void ballast.length
  process.stdout.write(JSON.stringify(rows) + "\n")
  process.exit(0)
}

// --- main ---------------------------------------------------------------------------------------

const self = fileURLToPath(import.meta.url)

const runWorker = (command: string, set: WorkerSet, heapMB: number): Array<Row> => {
  const flags =
    command === process.execPath && heapMB > 0
      ? [`--max-old-space-size=${heapMB * 4 + 512}`]
      : command === "deno"
        ? ["run", "-A", "--no-lock"]
        : []
  const started = performance.now()
  const r = spawnSync(command, [...flags, self, "--worker", set, String(heapMB), ...(QUICK ? ["--quick"] : [])], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
    stdio: ["ignore", "pipe", "inherit"]
  })
  if (r.status !== 0)
    throw new Error(
      `${workerName(set, command === process.execPath ? "node" : command, heapMB)} worker: exit ${r.status}${r.error ? ` (${r.error.message})` : ""}`
    )
  const rows = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Array<Row>
  console.error(
    `  ${rows[0]?.worker ?? set}: ${rows.length} rows in ${((performance.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}`
  )
  return rows
}

/**
 * The C floor (`bench/spawn-floor.c`), built with `cc` into a temporary directory and run with the
 * workers' samples and rounds; its rows, or why there are none.
 */
const floorWorker = (): Array<Row> | string => {
  if (spawnSync("cc", ["--version"], { stdio: "ignore" }).status !== 0) return "C floor: no C compiler (`cc`) on PATH"
  const dir = mkdtempSync(join(tmpdir(), "agent-hooks-floor-"))
  try {
    const binary = join(dir, "spawn-floor")
    const built = spawnSync("cc", ["-O2", "-o", binary, join(ROOT, "bench", "spawn-floor.c")], { encoding: "utf8" })
    if (built.status !== 0)
      return `C floor: \`cc\` could not build bench/spawn-floor.c (${(built.stderr ?? "").trim().split("\n")[0] ?? `exit ${built.status}`})`
    const started = performance.now()
    const r = spawnSync(binary, [String(N), String(ROUNDS), PAYLOAD], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    if (r.status !== 0) return `C floor: exit ${r.status} (${(r.stderr ?? "").trim()})`
    const rows = JSON.parse(r.stdout.trim()) as Array<Row>
    console.error(
      `  ${rows[0]?.worker}: ${rows.length} rows in ${((performance.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}`
    )
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Gemini CLI's core in bench/gemini (npm ci from the pinned lockfile), or why it is not there. */
const installGemini = (): string | undefined => {
  if (!GEMINI) return "skipped (BENCH_GEMINI=0)"
  if (existsSync(GEMINI_ENTRY)) return undefined
  console.error(`installing Gemini CLI's core into ${GEMINI_DIR} (npm ci) ...`)
  const r = spawnSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: GEMINI_DIR,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })
  if (r.status === 0 && existsSync(GEMINI_ENTRY)) return undefined
  const why = (r.stderr ?? "")
    .split("\n")
    .find((line) => /npm error/.test(line) && !/complete log/.test(line))
    ?.trim()
  return `could not be installed (\`npm ci\` in ${GEMINI_DIR}: ${r.error?.message ?? `exit ${r.status}${why ? `, ${why}` : ""}`})`
}

const fmtUs = (us: number) => (us >= 100 ? `${Math.round(us)} µs` : `${us.toFixed(1)} µs`)
const fmtX = (x: number) => `${x.toFixed(2)}×`

const chart = (bars: Array<{ label: string; r: number; goal?: number | undefined }>): string => {
  const width = 860,
    left = 430,
    barH = 16,
    gap = 5,
    top = 24
  const max = Math.max(2, ...bars.map((b) => Math.max(b.r, b.goal ?? 0))) * 1.1
  const x = (v: number) => left + (Math.min(v, max) / max) * (width - left - 50)
  const height = top + bars.length * (barH + gap) + 24
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;")
  const parts = bars.map((b, i) => {
    const y = top + i * (barH + gap)
    const ok = b.goal === undefined || b.r <= b.goal
    return [
      `<text x="${left - 8}" y="${y + 12}" text-anchor="end" font-size="11">${esc(b.label)}</text>`,
      `<rect x="${left}" y="${y}" width="${Math.max(1, x(b.r) - left).toFixed(1)}" height="${barH}" fill="${b.goal === undefined ? "#8ab" : ok ? "#4a7" : "#c54"}"/>`,
      `<text x="${(x(b.r) + 4).toFixed(1)}" y="${y + 12}" font-size="11">${b.r.toFixed(2)}×</text>`,
      b.goal === undefined
        ? ""
        : `<line x1="${x(b.goal).toFixed(1)}" x2="${x(b.goal).toFixed(1)}" y1="${y - 2}" y2="${y + barH + 2}" stroke="#000" stroke-dasharray="3,2"/>`
    ].join("")
  })
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    `<text x="${left}" y="14" font-size="12">ratio to the yardstick measured in the same process (dashed: goal; green: met, red: missed, blue: no goal)</text>` +
    `<line x1="${x(1)}" x2="${x(1)}" y1="${top - 4}" y2="${height - 20}" stroke="#888"/>` +
    parts.join("") +
    `</svg>`
  )
}

/** The "auto" threshold of the Node package, in MB (what the page states comes from the code). */
let THRESHOLD_MB = 256

const main = async () => {
  const node = (await import("@agent-hooks/node")) as { NodeProcessSpawner: { defaultHelperThresholdBytes: number } }
  THRESHOLD_MB = Math.round(node.NodeProcessSpawner.defaultHelperThresholdBytes / 1024 / 1024)
  const startedAt = new Date()
  const loadStart = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")
  const geminiProblem = installGemini()
  const geminiVersion =
    geminiProblem === undefined
      ? (
          JSON.parse(readFileSync(join(GEMINI_DIR, "node_modules", "@google", "gemini-cli-core", "package.json"), "utf8")) as {
            version: string
          }
        ).version
      : undefined
  const bunVersion = spawnSync("bun", ["--version"], { encoding: "utf8" }).stdout?.trim()
  const denoVersion = spawnSync("deno", ["--version"], { encoding: "utf8" })
    .stdout?.trim()
    .split("\n")[0]
    ?.replace(/^deno /, "")
    .replace(/ .*/, "")
  console.error(`perf: N=${N}, ${ROUNDS} rounds${QUICK ? " (--quick)" : ""}; load average ${loadStart}`)
  const rows: Array<Row> = []
  const skipped: Array<string> = []
  const tryWorker = (command: string, set: WorkerSet, heapMB: number) => {
    try {
      rows.push(...runWorker(command, set, heapMB))
    } catch (error) {
      console.error(String(error))
      skipped.push(String(error).replace(/^Error: /, ""))
    }
  }
  tryWorker(process.execPath, "main", 0)
  if (bunVersion) tryWorker("bun", "main", 0)
  else skipped.push("bun: not on PATH")
  if (denoVersion) tryWorker("deno", "main", 0)
  else skipped.push("deno: not on PATH")
  if (HEAP_MB > 0) tryWorker(process.execPath, "main", HEAP_MB)
  if (geminiProblem === undefined) {
    tryWorker(process.execPath, "gemini", 0)
    if (HEAP_MB > 0) tryWorker(process.execPath, "gemini", HEAP_MB)
  } else console.error(`Gemini CLI's HookSystem: ${geminiProblem}`)
  for (const mb of THRESHOLDS) tryWorker(process.execPath, "threshold", mb)
  const floor = floorWorker()
  if (typeof floor === "string") skipped.push(floor)
  else rows.push(...floor)
  const loadEnd = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")

  const fig = (row: Row) => median(row.rounds)
  const find = (worker: string, name: string) => rows.find((r) => r.worker === worker && r.name === name)
  /** Two rows of one worker: the median over rounds of their per-round ratio. */
  const within = (a: Row, b: Row) => median(a.rounds.map((x, i) => x / b.rounds[i]!))
  /** The spread of those per-round ratios: how far one round can be from another under this load. */
  const spread = (a: Row, b: Row) => {
    const rs = a.rounds.map((x, i) => x / b.rounds[i]!)
    return rs.length < 2 ? "" : ` (rounds ${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`
  }
  const ratio = (row: Row): number | undefined => {
    if (row.unit === "MB" || row.versus === undefined) return undefined
    const base = find(row.worker, row.versus)
    return base === undefined ? undefined : within(row, base)
  }

  // Comparisons between rows: within a worker (per-round ratios) or across workers (figures).
  interface Cross {
    readonly what: string
    readonly value: number
    readonly goal?: number | undefined
    readonly how: "same process" | "two processes"
  }
  const cross: Array<Cross> = []
  for (const worker of [...new Set(rows.map((r) => r.worker))]) {
    // What five spawns at once cost against one, whatever spawns them: the floor of "5 hooks / 1 hook".
    const rawFive = find(worker, "5 raw spawns at once")
    const rawOne = find(worker, "raw spawn")
    if (rawFive && rawOne)
      cross.push({ what: `${worker}: 5 raw spawns at once / raw spawn`, value: within(rawFive, rawOne), how: "same process" })
    for (const five of rows.filter((r) => r.worker === worker && r.name.startsWith("5 hooks"))) {
      const one = find(worker, five.name.replace("5 hooks", "1 hook"))
      if (one)
        cross.push({
          what: `${worker}: ${five.name} / ${one.name}`,
          value: within(five, one),
          goal: /\(helper( on bun)?\)/.test(five.name) ? 2.5 : undefined,
          how: "same process"
        })
    }
  }
  // The heap's cost: the threshold workers at the biggest heap against none (the same program but for the heap).
  const biggest = Math.max(...rows.filter((r) => r.set === "threshold").map((r) => r.heapMB))
  for (const row of rows.filter((r) => r.set === "threshold" && r.heapMB === biggest && biggest > 0 && !r.name.startsWith("new engine"))) {
    const small = find(workerName("threshold", row.runtime, 0), row.name)
    if (small)
      cross.push({
        what: `${row.runtime}: ${row.name}, +${row.heapMB} MB heap / no heap`,
        value: fig(row) / fig(small),
        goal: row.name === "1 hook (auto)" ? 1.5 : undefined,
        how: "two processes"
      })
  }

  // The helper threshold: direct against helper at each host heap.
  const thresholdWorkers = rows.filter((r) => r.set === "threshold" && r.name === "1 hook (direct)").sort((a, b) => a.heapMB - b.heapMB)
  const thresholdLines = thresholdWorkers.map((direct) => {
    const helper = find(direct.worker, "1 hook (helper)")!
    const auto = find(direct.worker, "1 hook (auto)")
    const raw = find(direct.worker, "raw spawn")!
    const hd = within(helper, direct)
    const firstDirect = find(direct.worker, "new engine, first hook (direct)")
    const firstHelper = find(direct.worker, "new engine, first hook (helper)")
    const start = firstDirect && firstHelper ? fig(firstHelper) - fig(firstDirect) : undefined
    const gain = fig(direct) - fig(helper)
    const repay = start === undefined ? "" : gain > 0 ? `${Math.ceil(start / gain)}` : "never"
    return `| ${direct.heapMB ? `+${direct.heapMB} MB` : "none"} | ${direct.rssMB} MB | ${fmtUs(fig(raw))} | ${fmtUs(fig(direct))} | ${fmtUs(fig(helper))} | ${auto ? fmtUs(fig(auto)) : ""} | ${fmtX(hd)} | ${hd < 0.95 ? "helper" : hd > 1.05 ? "direct" : "even"} | ${start === undefined ? "" : `${(start / 1000).toFixed(0)} ms`} | ${repay} |`
  })

  // Node helper against the Bun-run helper, same process.
  const bunHelperLines = rows
    .filter((r) => r.name.includes("(helper on bun)"))
    .map((onBun) => {
      const node = find(onBun.worker, onBun.name.replace(" on bun", ""))!
      return `| ${onBun.worker} | ${onBun.name.replace(" (helper on bun)", "")} | ${fmtUs(fig(node))} | ${fmtUs(fig(onBun))} | ${fmtX(within(onBun, node))} |`
    })

  // The summaries under the two helper tables: this run's numbers, and the choice they support.
  const crossover = thresholdWorkers.map((direct) => ({ rss: direct.rssMB, hd: within(find(direct.worker, "1 hook (helper)")!, direct) }))
  const slower = crossover.filter((c) => c.hd >= 1).map((c) => c.rss)
  const faster = crossover.filter((c) => c.hd < 1).map((c) => c.rss)
  const thresholdSummary =
    crossover.length === 0
      ? "The threshold workers did not run."
      : `In this run the helper was slower than a direct spawn ${slower.length === 0 ? "in no host" : `in hosts of ${slower.join(", ")} MB resident`} and faster ${faster.length === 0 ? "in none" : `in hosts of ${faster.join(", ")} MB`}. ` +
        (slower.every((mb) => mb <= THRESHOLD_MB) && faster.every((mb) => mb >= THRESHOLD_MB)
          ? `The ${THRESHOLD_MB} MB threshold stays: it sits where the two cross on this machine, and below it a host `
          : `That does not put the crossing at ${THRESHOLD_MB} MB in this run; the threshold was not moved on one run (expect runs to differ on a shared VM). Below the threshold a host `) +
        'would also pay the helper\'s start (the "helper start" column) for a gain of a few hundred ' +
        "microseconds per hook at best; a small, short-lived host such as `agent-hooks run` (one " +
        "dispatch per process) would pay it on every call. Above it, the helper is the faster path at " +
        'every heap measured, and it also keeps big outputs out of the host (the "RSS rise" rows).'
  const bunRatios = rows
    .filter((r) => r.name.includes("(helper on bun)"))
    .map((onBun) => within(onBun, find(onBun.worker, onBun.name.replace(" on bun", ""))!))
  const bunSummary =
    bunRatios.length === 0
      ? "The Bun-run helper was not measured in this run (no `bun` on PATH)."
      : `In this run the Bun-run helper took ${fmtX(Math.min(...bunRatios))} to ${fmtX(Math.max(...bunRatios))} the time of the Node helper. ` +
        '**Node runs the helper by default; Bun is an option** (`spawnHelper: { runtime: "bun" }`, or ' +
        '`NodeProcessSpawner.helperLayerWith({ runtime: "bun" })`). By default, because a Bun helper needs Bun on the ' +
        "user's machine: either the `bun` npm package (a native binary of about 100 MB per platform) as a dependency " +
        "of `@agent-hooks/node` for every Node user, or a `bun` found on PATH, and then which executable spawns every " +
        "hook would depend on the environment the host was started in. So the option takes Bun only from an " +
        "`executable` the host names or from the `bun` package as Node resolves it from `@agent-hooks/node`. A host " +
        "that can run on Bun itself needs no helper: `@agent-hooks/bun` spawns with `Bun.spawn`. A compiled " +
        "helper was not built: the machines this installs on have Node and npm, not a C compiler."
  // Five at once against one: the floor every spawner has on this machine, and the helper's figure beside it.
  const cores = cpus().length
  const rawFiveOne = (worker: string) => cross.find((c) => c.what === `${worker}: 5 raw spawns at once / raw spawn`)?.value
  const cFloor = rawFiveOne("C (posix_spawn)")
  const runtimeFloors = ["node", "bun", "deno"].flatMap((w) => {
    const v = rawFiveOne(w)
    return v === undefined ? [] : [`${w} ${fmtX(v)}`]
  })
  const helperFiveOne = cross.filter((c) => c.what.endsWith("5 hooks (helper) / 1 hook (helper)")).map((c) => c.value)
  const bunHelperFiveOne = cross.filter((c) => c.what.endsWith("5 hooks (helper on bun) / 1 hook (helper on bun)")).map((c) => c.value)
  const floorSummary =
    `On this ${cores}-core machine most of a \`sh -c true\`'s time is CPU (its exec, the dynamic linker, its exit): ` +
    `five at once need about ${fmtX(5 / Math.max(1, Math.min(5, cores)))} the CPU time of one on the cores there are, whatever spawns them. ` +
    (cFloor === undefined
      ? "The C floor was not measured in this run (no C compiler). "
      : `From C (\`posix_spawn\`, nothing of a runtime around it: \`bench/spawn-floor.c\`, the "C (posix_spawn)" rows) five at once took ${fmtX(cFloor)} one in this run. `) +
    (runtimeFloors.length === 0
      ? ""
      : `Raw spawns from each runtime, five at once against one: ${runtimeFloors.join(", ")}; a spawner whose one spawn also waits on ` +
        "something other than CPU (its event loop waking up) waits on it once for five, so its ratio can be lower than C's. ") +
    (helperFiveOne.length === 0
      ? ""
      : `Five hooks through the spawn helper took ${helperFiveOne.map(fmtX).join(" and ")} one hook (goal ≤ 2.5×)` +
        (bunHelperFiveOne.length === 0 ? ". " : `, and through the same helper run by Bun ${bunHelperFiveOne.map(fmtX).join(" and ")}. `) +
        "By default the helper is a Node process, and Node starts a child with `fork` (libuv uses neither `vfork` nor `posix_spawn` on Linux): " +
        "in the helper, with its small heap, a spawn still holds its thread for about 0.8 ms until the child has started (side measurement), " +
        "and the five hooks are started one after the other, so the last one starts about 3 ms after the first. Bun starts a child " +
        "with `vfork`, about 0.2 ms.")
  const value = (row: Row) => (row.unit === "MB" ? `${fig(row)} MB` : fmtUs(fig(row)))
  const goalText = (row: Row) => (row.goal === undefined ? "" : row.unit === "MB" ? `≤ ${row.goal} MB` : `≤ ${row.goal}×`)
  const lines = rows.map((row) => {
    const r = ratio(row)
    return `| ${row.worker} | ${row.rssMB} MB | ${row.name} | ${value(row)} | ${r === undefined ? "" : `${fmtX(r)} ${row.versus}${spread(row, find(row.worker, row.versus!)!)}`} | ${goalText(row)} |`
  })
  const crossLines = cross.map((c) => `| ${c.what} | ${fmtX(c.value)} | ${c.goal === undefined ? "" : `≤ ${c.goal}×`} | ${c.how} |`)
  const missed = [
    ...rows.flatMap((row) => {
      const v = row.unit === "MB" ? fig(row) : ratio(row)
      return row.goal !== undefined && v !== undefined && v > row.goal
        ? [
            `${row.worker}: ${row.name} (${row.unit === "MB" ? `${v} MB` : `${fmtX(v)} ${row.versus}`}, goal ≤ ${row.goal}${row.unit === "MB" ? " MB" : "×"})`
          ]
        : []
    }),
    ...cross.flatMap((c) => (c.goal !== undefined && c.value > c.goal ? [`${c.what} (${fmtX(c.value)}, goal ≤ ${c.goal}×)`] : []))
  ]
  const table = ["| worker | RSS | row | median | ratio (same process) | goal |", "|---|---:|---|---:|---|---|", ...lines].join("\n")
  const crossTable = ["| comparison | value | goal | measured in |", "|---|---:|---|---|", ...crossLines].join("\n")
  const thresholdTable = [
    "| host heap | host RSS | raw spawn | 1 hook direct | 1 hook helper | 1 hook auto | helper / direct | faster | helper start | hooks to repay it |",
    "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ...thresholdLines
  ].join("\n")
  const bunTable = ["| host | row | Node helper | Bun helper | Bun / Node |", "|---|---|---:|---:|---:|", ...bunHelperLines].join("\n")
  console.log(`\n${table}\n\n${crossTable}\n\nhelper threshold:\n\n${thresholdTable}\n\nhelper runtime:\n\n${bunTable}\n`)
  console.log(`load average: ${loadStart} at the start, ${loadEnd} at the end`)
  if (missed.length > 0) console.log(`goals missed:\n${missed.map((m) => `- ${m}`).join("\n")}`)
  if (skipped.length > 0) console.log(`workers skipped:\n${skipped.map((m) => `- ${m}`).join("\n")}`)

  // The chart: every ratio of the main and Gemini workers (the threshold workers have their table),
  // leaving out the rows that are a hundredth of their yardstick (no-match, module hook).
  const bars = [
    ...rows.flatMap((row) => {
      const r = ratio(row)
      return r === undefined || row.set === "threshold" || r < 0.1 ? [] : [{ label: `${row.worker}: ${row.name}`, r, goal: row.goal }]
    }),
    ...cross.map((c) => ({ label: c.what, r: c.value, goal: c.goal }))
  ]
  if (!WRITE) return
  const geminiText =
    geminiProblem === undefined
      ? `Gemini CLI's core (\`@google/gemini-cli-core\` ${geminiVersion}, pinned in \`bench/gemini/\`, installed there by this command) is loaded in the "+ Gemini CLI" workers, which dispatch through its own \`HookSystem\` (\`fireBeforeToolEvent\` with one matching \`true\` command hook, and a tool that matches nothing) beside ours; loading it adds about 150 MB to the host's resident memory, so those workers are bigger hosts than their heap alone says. Gemini runs a hook as \`bash -c\`, ours as \`sh -c\` (on Debian \`sh\` is dash, which starts faster than bash): each engine is measured as it runs hooks for its users.`
      : `**Gemini CLI's HookSystem was not measured in this run**: its package ${geminiProblem}.`
  const doc = `# Performance

Measured by \`npm run bench -- perf\` (\`bench/perf.ts\`${QUICK ? ", `--quick`" : ""}) on ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC,
node ${process.versions.node}${bunVersion ? `, bun ${bunVersion}` : ""}${denoVersion ? `, deno ${denoVersion}` : ""}. **Load average (1, 5, 15 min): ${loadStart} at the start, ${loadEnd} at the end**
(a shared 2-core VM: expect ±20 % between runs, far more when it is busy).

How: one worker process per row group below (the "worker" column), started one after the other.
In a worker, ${ROUNDS} rounds × ${N} samples, interleaved: each round takes one sample of every row in
turn (CLI start-up rows: ${Math.max(3, Math.ceil(N / 4))} per round; rows far below a millisecond: the mean of a batch
of calls per sample). A row's figure is the median over rounds of its round median; a ratio
between two rows of one worker is the median over rounds of their per-round ratio, so both sides
of a ratio saw the same load. Every hook row goes through the Promise facade
(\`createHookEngine\` … \`dispatch\`) with \`sh -c true\` hooks; the yardstick is a raw spawn of
the same \`sh -c true\` with the same payload in the same process (\`child_process.spawn\` on Node,
\`Bun.spawn\` on Bun, \`Deno.Command\` on Deno). "(auto)" is the default \`spawnHelper: "auto"\`, "(direct)" \`false\`,
"(helper)" \`true\`, "(helper on bun)" \`{ use: true, runtime: "bun" }\` (the helper run by Bun instead of Node).
"config load" is \`Plan.make\` of 100 hooks in 3 files (the config of \`bench/plan.ts\`: its matchers name
no real tool and its scripts do not exist, so load's checks for both are in the figure), beside
reading and parsing the same files; "CLI start-up" is \`agent-hooks run\` (\`packages/cli/dist/bin.js\`)
with one \`true\` hook, beside a bare start of the same runtime that spawns \`true\` once.
"+800 MB" workers hold that much live heap (arrays of doubles); the RSS column is the worker's
resident memory when measuring started. ${geminiText}

![ratios](performance.svg)

${table}

${crossTable}

Goals not met in this run:${missed.length === 0 ? " none." : `\n\n${missed.map((m) => `- ${m}`).join("\n")}`}
${skipped.length === 0 ? "" : `\nWorkers that did not run:\n\n${skipped.map((m) => `- ${m}`).join("\n")}\n`}
## Five at once against one

${floorSummary}

## Where the spawn helper starts to win

One hook through the helper against one hook spawned straight from the host, per host heap, each
heap in its own small process (the \`threshold\` workers: alike but for the heap, nothing loaded
but the engine). "helper start" is what a new engine's first hook costs more through the helper
than straight from the host (the helper's own start), and "hooks to repay it" that cost over
the per-hook gain. "auto" takes the helper when the host's resident memory is above
\`NodeProcessSpawner.defaultHelperThresholdBytes\` (${THRESHOLD_MB} MB).

${thresholdTable}

${thresholdSummary}

## Which runtime runs the helper

The helper script (\`packages/node/src/internal/spawnHelperMain.ts\`, only \`node:*\` imports) also
runs under Bun, where it spawns with \`Bun.spawn\` (\`vfork\`) instead of \`node:child_process\`. Same host process, same hooks, the helper run by Node (\`spawnHelper: true\`)
or by Bun (\`spawnHelper: { use: true, runtime: "bun", executable }\` with the toolchain's \`bun\`; the
bench checks that the helper really is a \`bun\` process):

${bunTable}

${bunSummary}

## A policy rule as cedar, module or command

The same rule (deny \`rm -rf\` in Bash, allow the rest) as a \`cedar\` hook (a Cedar policy,
evaluated in-process on \`@cedar-policy/cedar-wasm\`), a \`module\` hook and \`command\` hooks,
dispatched through \`createHookEngine\` on Node (\`node bench/module-hooks.ts\`, N=100 per round,
3 interleaved rounds, 2026-11-26, 2 × Intel Xeon, other jobs on the machine): module 38 µs,
cedar 537 µs (14× module), \`sh\` script 11 296 µs (295×), Node script 156 031 µs. A cedar
hook re-reads its files and evaluates with a preparsed policy set each call (about 200 µs of
that is Cedar's own \`statefulIsAuthorized\`, request and entities included); the first cedar
hook of a process also pays for compiling the Cedar code it reaches. In a one-shot \`agent-hooks run\`
that is about 0.24 s of CPU (2026-11-26, median of 7 interleaved runs, a machine at load 15-19 on 2
cores: cedar 430 ms of CPU against 190 ms for the module guard, 2.3 s against 1.1 s of wall time
under that load; the earlier "1.5 s" was such a loaded wall time), paid only by a run whose event
runs the cedar hook: a run of another event of the same settings no longer loads Cedar (180 ms of
CPU, as without cedar; 370 ms before). \`serve\` and in-process hosts pay it once. Details:
[module-hooks.md](benchmarks/module-hooks.md).

Reproduce: \`npm run bench -- perf\` (a short check: \`node bench/perf.ts --quick\` after \`npm run build\`;
knobs: \`BENCH_N\`, \`BENCH_ROUNDS\`, \`BENCH_HEAP_MB\`, \`BENCH_BIG\`, \`BENCH_THRESHOLDS\`, \`BENCH_GEMINI\`, \`BENCH_WRITE\`).
This page and \`docs/performance.svg\` are written by that command; edit \`bench/perf.ts\`, not them.
${NOTES()}`
  const docs = join(ROOT, "docs")
  writeFileSync(join(docs, "performance.svg"), chart(bars) + "\n")
  writeFileSync(join(docs, "performance.md"), doc)
  console.log(`\nwrote docs/performance.svg and docs/performance.md`)
}

/** The prose of the page that does not come from this run's numbers. */
const NOTES = () => `
## Five hooks on Bun

The "5 raw spawns at once, as hooks are spawned" row (Bun) spawns \`sh -c true\` as every hook
must be spawned: in the hook's environment and working directory, in a process group of its own,
both pipes read to their end, the group killed after. Its ratio to the bare raw spawns is the part
of the five-hook row that any hook runner pays on Bun; the five-hook row over it is the engine's own
part. Where the engine's part goes (side measurements, not this harness): the engine's JavaScript
for five hooks is about 80-130 µs of host CPU when no process is involved (a spawner whose
processes exit at once), and JavaScriptCore keeps compiling the engine's code on a thread of its own
for about the first 2 000 dispatches of a process (about 1.3 s of compile time over the first
4 000): on this 2-core machine that thread takes CPU from the hooks themselves. A long-lived Bun
host that ran 2 400 dispatches measured 1.13-1.18× five raw spawns after them, 1.20-1.27× in its
first 200.
## The spawn helper

On Node, \`createHookEngine\` / \`NodeHookEngine.layer\` take \`spawnHelper: true | false | "auto"\`
(default \`"auto"\`). With the helper, a small Node process (no dependencies, its own small heap;
\`packages/node/src/internal/spawnHelperMain.ts\`), started on the first hook and kept for the
engine's life, spawns the hooks and relays stdin, stdout, stderr, exit and signals over its pipes.
It drops output past the cap itself, so a hook printing 1 GiB costs the host almost nothing
(the "RSS rise" rows). It dies with the host (EOF on its stdin, also after a SIGKILL of the host:
it then kills every hook group it started) and is started again if it dies (a hook it was starting when it died is not started twice: it fails, visibly). The spawner
conformance suite runs through it in every test lane. The helper runs with a 1 MB young generation
(\`--max-semi-space-size=1\`): with V8's default it grew its heap to fit the garbage every hook makes
and never gave it back (75 MB resident at the start, 183 MB after 12 000 hooks), and as a fork copies
the page tables of that memory, its hooks got slower as a session went on (five at once: 2.9× one
hook at the start, 3.4× after 12 000 hooks); with the flag it stays at 69 to 76 MB. \`"auto"\` spawns through the helper when
the host's resident memory is above \`NodeProcessSpawner.defaultHelperThresholdBytes\` (${THRESHOLD_MB} MB),
below it straight from the host: the helper's start is paid on the first hook (the "helper start"
column above), which a small, short-lived host such as the CLI (one dispatch per process) would
pay on every call. A pool of two helpers (one per core) was tried for the five-hook row and
measured no better on this shared VM, so there is one. \`spawnHelper: { runtime: "bun" }\` runs the
same script on Bun instead (the "(helper on bun)" rows and the table above).

## The audit trail on a call no hook matches

With the [audit trail](audit.md) off, a tool call that no hook matches is answered from the plan's
index, synchronously (the "no-match dispatch" row). With it on, the same call is recorded: its
tool, arguments (redacted) and outcome go through the redaction patterns, a SHA-256, and one
\`write\` of a line to the log before the outcome is returned. Measured by
\`npm run bench -- audit --cost\` (\`bench/audit.ts\`, part 3): one Node engine per column
(\`createHookEngine\`, the Promise facade), a \`PreToolUse\` for \`Bash\` that the one hook (on \`Write\`)
does not match, rounds of 2000 dispatches per engine, interleaved; the figure is the median over
rounds of the mean per dispatch, and of the difference to the trail off in the same round.

| run (2026-11-25, Node 24.21.0, 2 cores) | load (1 min) | trail off | trail on, no key | trail on, with key |
|---|---:|---:|---:|---:|
| 5 rounds | 17.1 | 0.4 µs | 152 µs (+152 µs; rounds +105 to +504) | 276 µs (+275 µs; rounds +167 to +1172) |
| 7 rounds | 16.5 | 0.3 µs | 277 µs (+276 µs; rounds +64 to +529) | 412 µs (+411 µs; rounds +210 to +548) |

The machine was shared with eight builds and test runs (load 16-18 on 2 cores): the spread between
rounds is the load, and the lowest rounds (+64 µs, +167 µs) are closer to what a quiet machine pays;
a side run of 5000 dispatches in one process measured 74 µs per recorded call. The hash and the
\`write\` each wait on the runtime's thread pool, which is what a busy machine delays. With a key, a
signed checkpoint and a head file update (a write and a rename) every 100 records add to the mean.
Against the calls themselves: one hook that runs costs 2.5-4 ms on Node (the rows above), a tool
call far more; a recorded call costs 0.1-0.3 ms here, the price of a record that is in the file
before the agent goes on.

## Host mode per call

What an agent pays per event for \`agent-hooks hook --host claude\` as [\`agent-hooks install\`](cli/install.md)
writes it (\`node …/dist/bin.js hook …\`: one policy hook \`true\` that matches), against a bare
\`node -e 0\` and a bare \`sh -c true\`, interleaved in one run (\`node bench/hook-cost.ts\`). On Node a
call is answered by the [per-user daemon](cli/hook.md#the-daemon) when one runs: the process the
agent starts is then a small client of Node's own modules, and the program stays loaded in the
daemon. "Warm" is every call after the first in the same \`HOME\` (the compile cache filled, the
daemon started by the first call); "cold" is the first call, with an empty compile cache and no
daemon (it runs in-process and starts the daemon). Wall time is what the agent waits; CPU time
(user + system, per call, from \`times\` over a batch of calls) is what the call costs the machine,
and what a busy machine's wall time hides. The daemon row's CPU is the client's, plus the daemon's
own for the same calls (from \`/proc\`).

Two runs on 2026-11-26 on the shared 2-core build machine, other builds and tests running
(\`BENCH_N=10 BENCH_ROUNDS=3\` each). Under a load average of 7:

| call | wall ms | / node -e 0 | / sh -c true | CPU ms | CPU / node -e 0 |
| --- | ---: | ---: | ---: | ---: | ---: |
| sh -c true | 2.1 | 0.04x | 1.0x | < 1 | |
| node -e 0 | 50.4 | 1.00x | 23.6x | 24 | 1.00x |
| agent-hooks hook --host claude, answered by the daemon (warm) | 109.3 | 2.17x | 51.2x | 36 (+ 6 in the daemon) | 1.50x |
| agent-hooks hook --host claude, in-process (warm: compile cache filled) | 242.3 | 4.81x | 113.5x | 121 | 5.04x |
| agent-hooks hook --host claude, in-process, compile cache off | 283.8 | 5.63x | 132.9x | 156 | 6.50x |
| agent-hooks hook --host claude, in-process, cold (first call, empty compile cache) | 162.2 | 3.22x | 76.0x | | |

Under a load average of 21 (a bare \`node -e 0\` took 216 ms of wall time):

| call | wall ms | / node -e 0 | / sh -c true | CPU ms | CPU / node -e 0 |
| --- | ---: | ---: | ---: | ---: | ---: |
| sh -c true | 13.5 | 0.06x | 1.0x | < 1 | |
| node -e 0 | 216.2 | 1.00x | 16.0x | 29 | 1.00x |
| agent-hooks hook --host claude, answered by the daemon (warm) | 290.0 | 1.34x | 21.4x | 43 (+ 7 in the daemon) | 1.48x |
| agent-hooks hook --host claude, in-process (warm: compile cache filled) | 848.2 | 3.92x | 62.7x | 158 | 5.45x |
| agent-hooks hook --host claude, in-process, compile cache off | 1233.0 | 5.70x | 91.2x | 201 | 6.93x |
| agent-hooks hook --host claude, in-process, cold (first call, empty compile cache) | 1482.2 | 6.86x | 109.6x | | |

(The cold row is one call: its figure is noisy, and the first run's warm in-process rows took longer
than its cold call.)

The goal for a warm call on Node, at most 1.5x a bare \`node -e 0\`, is met in CPU time through the
daemon (1.50x and 1.48x), and in wall time only under the heavy load (1.34x), not under the lighter
one (2.17x). Where the wall time goes (side measurement, load 5, timestamps in the client): about
28-36 ms from the process's start until the client connects (a bare Node start and the client's
modules), 1-2 ms until the daemon accepts, then 10-15 ms until its answer: the daemon reads the
settings, builds the engine and spawns the policy's hook (\`sh -c true\`) for every call, and each
hand-over between the two processes waits for a core. Side runs of 40 calls per batch: the client
47-53 ms of CPU against 31-33 ms for \`node -e 0\` (1.5-1.65x); a client reduced to the socket alone
took 39 ms (1.23x). In-process the goal is not met (4-5x wall, 5-5.5x CPU): almost all of such a
call is loading and evaluating the program's JavaScript (Effect, its Schema, every preset's
settings reader, re2js: about 1.4 MB), not the policy. The compile cache saves a sixth to a third
of an in-process call; it lives in a per-user folder (\`$XDG_CACHE_HOME\` or \`~/.cache\`, then
\`agent-hooks/node-compile-cache\`) instead of Node's default under the shared temp folder, where
another user's folder means no cache at all. The folder is made 0700 (one of the user's own that
others could only read is narrowed to 0700): compiled code that another user could write would run
as this one, so a folder others may write to, a symlink or another user's folder means no cache.

The goal for the single-file executable or a warm daemon, at most 3x a bare \`sh -c true\` spawn, is
**not met, and cannot be with a client that Node starts**: \`node -e 0\` alone is 16x and 24x \`sh -c true\`
in these runs (about 30x on a quieter machine: 2.8 ms against 88 ms in an earlier run), and the daemon's
client costs a bare Node start and then some. The single-file executable (Bun, \`bun build
--compile\`) runs the whole program in-process and was not measured here. What would meet it: a
client that is itself native (a few hundred lines of C, Rust or Go, 1-2 ms to start and connect)
speaking the daemon's protocol (a JSON line and the payload in; \`accepted\`, \`go\`, \`done\` out), or an
agent that sends its hook to the daemon itself.

### Inside the real agents

The hook command's own wall time inside the real agents (\`node bench/hook-cost-agents.ts\`; the
agents from the npm registry, headless, against the scripted model server on 127.0.0.1), against
a native \`sh\` hook doing the same check (\`case "$input" in *'rm -rf'*) … exit 2\`) in the same run:
both wired on UserPromptSubmit, PreToolUse, PostToolUse and Stop, each wrapped in the same
\`date +%s%N\` pair; agent-hooks runs the same check script as its policy's one PreToolUse hook.
Each run has a fresh \`HOME\`: its first agent-hooks call is cold (no daemon, empty compile cache:
it runs in-process and starts the daemon), the later ones warm. Claude Code runs an event's hooks
at once, so both sides of a pair share the machine. 2 runs per agent and mode, medians, on
2026-11-26, the same shared machine. Under a load average of 5 to 6:

| agent | agent-hooks | calls | n | agent-hooks hook ms | native sh hook ms | difference ms (median of pairs) |
| --- | --- | --- | ---: | ---: | ---: | ---: |
| Claude Code | daemon | cold (first call in the HOME) | 2 | 440 | 10 | 437 |
| Claude Code | daemon | warm (later calls) | 6 | 215 | 17 | 180 |
| Claude Code | in-process | cold (first call in the HOME) | 2 | 394 | 24 | 381 |
| Claude Code | in-process | warm (later calls) | 6 | 214 | 7 | 210 |
| Codex | daemon | cold (first call in the HOME) | 2 | 451 | 65 | 386 |
| Codex | daemon | warm (later calls) | 6 | 165 | 10 | 159 |
| Codex | in-process | cold (first call in the HOME) | 2 | 466 | 14 | 456 |
| Codex | in-process | warm (later calls) | 6 | 251 | 12 | 248 |
| Gemini CLI | daemon | cold (first call in the HOME) | 2 | 269 | 26 | 243 |
| Gemini CLI | daemon | warm (later calls) | 6 | 238 | 14 | 190 |
| Gemini CLI | in-process | cold (first call in the HOME) | 2 | 325 | 32 | 301 |
| Gemini CLI | in-process | warm (later calls) | 6 | 252 | 21 | 235 |
| Qwen Code | daemon | cold (first call in the HOME) | 2 | 367 | 12 | 355 |
| Qwen Code | daemon | warm (later calls) | 8 | 220 | 18 | 201 |
| Qwen Code | in-process | cold (first call in the HOME) | 2 | 432 | 14 | 429 |
| Qwen Code | in-process | warm (later calls) | 8 | 264 | 13 | 239 |

Under a load average of 21 to 22:

| agent | agent-hooks | calls | n | agent-hooks hook ms | native sh hook ms | difference ms (median of pairs) |
| --- | --- | --- | ---: | ---: | ---: | ---: |
| Claude Code | daemon | cold (first call in the HOME) | 2 | 2204 | 56 | 2147 |
| Claude Code | daemon | warm (later calls) | 6 | 896 | 26 | 853 |
| Claude Code | in-process | cold (first call in the HOME) | 2 | 2403 | 74 | 2380 |
| Claude Code | in-process | warm (later calls) | 6 | 1229 | 26 | 1211 |
| Codex | daemon | cold (first call in the HOME) | 2 | 1522 | 20 | 1502 |
| Codex | daemon | warm (later calls) | 6 | 763 | 23 | 740 |
| Codex | in-process | cold (first call in the HOME) | 2 | 2036 | 20 | 2015 |
| Codex | in-process | warm (later calls) | 6 | 1175 | 16 | 1167 |
| Gemini CLI | daemon | cold (first call in the HOME) | 2 | 2840 | 55 | 2796 |
| Gemini CLI | daemon | warm (later calls) | 6 | 1047 | 114 | 932 |
| Gemini CLI | in-process | cold (first call in the HOME) | 2 | 2537 | 99 | 2437 |
| Gemini CLI | in-process | warm (later calls) | 6 | 2005 | 90 | 1943 |
| Qwen Code | daemon | cold (first call in the HOME) | 2 | 1699 | 48 | 1651 |
| Qwen Code | daemon | warm (later calls) | 8 | 728 | 58 | 640 |
| Qwen Code | in-process | cold (first call in the HOME) | 2 | 1702 | 48 | 1661 |
| Qwen Code | in-process | warm (later calls) | 8 | 1364 | 58 | 1308 |

Warm, the daemon's calls took 0.5 to 0.75 of the in-process ones under the heavy load, and 0.65
to 1.0 under the lighter one: inside an agent, the agent itself and (Claude Code) the native hook
beside it compete for the two cores, and a warm row can mix calls the daemon answered with calls
that ran in-process (the second call of a run can come while the daemon the first one started is
still starting; this bench does not tell them apart). The difference to a native hook stays a Node start at the least (the goal
above): 160-200 ms warm on this machine under a load of 5 to 6, where a quiet machine's Node start
is 25-40 ms. A policy that must cost no more than a shell script is a native hook.
`

const at = argv.indexOf("--worker")
if (at >= 0) await worker(argv[at + 1] as WorkerSet, Number(argv[at + 2] ?? 0))
else await main()
