/**
 * The compiled Plan's figures, in one Node process:
 *
 * 1. **No-match dispatch with 100 matcher groups**: a PreToolUse dispatch whose tool name matches
 *    none of 100 groups (exact matchers `tool_0` ... `tool_99`, and again as regular expressions
 *    `^tool_0$` ...), through `createHookEngine().dispatch` (the Promise facade) and through the
 *    Effect service's `unmatched`; beside Gemini CLI's own no-match dispatch of the same 100 groups
 *    (`HookSystem.fireBeforeToolEvent`, `@google/gemini-cli-core` driven as
 *    `/work/shared/bench/gemini-hook-driver.mjs` does), when that package is installed.
 * 2. **Config load and compile of 100 hooks in 3 files** (`Plan.make`: read, parse, decode, merge,
 *    compile) beside reading and parsing the same files (`readFile` + `JSON.parse`).
 *
 * Run from the repository root after `npm run build`: `node bench/plan.ts`
 * (or `npm run bench -- plan`). Gemini CLI's package is looked up in `GEMINI_CLI_CORE_DIR` (a folder
 * where `npm install @google/gemini-cli-core@0.61.0` was run; default `bench/gemini`, where
 * `npm ci` installs the pinned version and `npm run bench -- perf` does that on demand).
 * Environment: BENCH_N (calls per sample, default 20000), BENCH_ROUNDS (default 5).
 */
import { Plan } from "@agent-hooks/core"
import { createHookEngine } from "@agent-hooks/node"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Effect, Layer } from "effect"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { availableParallelism, cpus, release, tmpdir } from "node:os"
import { join } from "node:path"
import { GEMINI_DIR, GEMINI_ENTRY, geminiHookSystem } from "./geminiHookSystem.ts"

const N = Number(process.env["BENCH_N"] ?? 20_000)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5)
const dir = mkdtempSync(join(tmpdir(), "agent-hooks-bench-plan-"))
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** Median over rounds of the mean µs per call of `n` sequential calls. */
const measure = async (n: number, call: () => unknown): Promise<number> => {
  for (let i = 0; i < Math.min(1000, n); i++) await call()
  const rounds: Array<number> = []
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now()
    for (let i = 0; i < n; i++) await call()
    rounds.push(((performance.now() - t0) * 1000) / n)
  }
  return median(rounds)
}

// --- 1. no-match dispatch ----------------------------------------------------------------------

const GROUPS = 100
const groups = (regex: boolean) =>
  Array.from({ length: GROUPS }, (_, i) => ({
    matcher: regex ? `^tool_${i}$` : `tool_${i}`,
    hooks: [{ type: "command", command: `echo hook ${i}` }]
  }))
const settingsFile = (name: string, document: unknown) => {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(document))
  return file
}

const rows: Array<[string, number]> = []
const payload = { tool_name: "run_shell_command", tool_input: { command: "ls" } }
for (const regex of [false, true]) {
  const kind = regex ? "regex" : "exact"
  const engine = await createHookEngine({
    settings: [settingsFile(`${kind}.json`, { hooks: { PreToolUse: groups(regex) } })],
    projectDir: dir
  })
  const check = await engine.dispatch("PreToolUse", payload)
  if (check.hooks.length !== 0) throw new Error("the no-match payload matched")
  const hit = await engine.dispatch("PreToolUse", { tool_name: "tool_42", tool_input: {} })
  if (hit.hooks.length !== 1) throw new Error("tool_42 did not match its group")
  rows.push([`agent-hooks createHookEngine().dispatch, ${kind} matchers`, await measure(N, () => engine.dispatch("PreToolUse", payload))])
  await engine.close()
}

// The Effect service's synchronous no-match answer.
{
  const plan = await Effect.runPromise(
    Plan.make({ settings: [join(dir, "exact.json")], projectDir: dir }).pipe(
      Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))
    )
  )
  rows.push([
    "agent-hooks Plan.matches (the index lookup alone), exact matchers",
    await measure(N, () => Plan.matches(plan, "PreToolUse", payload))
  ])
}

let geminiNote = ""
if (existsSync(GEMINI_ENTRY)) {
  for (const regex of [false, true]) {
    const system = await geminiHookSystem(
      dir,
      groups(regex).map((group) => ({ ...group, hooks: group.hooks.map((hook) => ({ ...hook, timeout: 5000 })) }))
    )
    rows.push([
      `Gemini CLI HookSystem.fireBeforeToolEvent, ${regex ? "regex" : "exact"} matchers`,
      await measure(N, () => system.fireBeforeToolEvent("run_shell_command", { command: "ls" }))
    ])
  }
  const version = (
    JSON.parse(await readFile(join(GEMINI_DIR, "node_modules", "@google", "gemini-cli-core", "package.json"), "utf8")) as {
      version: string
    }
  ).version
  geminiNote = `Gemini CLI: @google/gemini-cli-core ${version}.`
} else {
  geminiNote = `Gemini CLI: not measured (${GEMINI_ENTRY} not found; run npm ci in ${GEMINI_DIR}).`
}

// --- 2. config load and compile ----------------------------------------------------------------

const HOOKS = 100
const files = [0, 1, 2].map((f) =>
  settingsFile(`load-${f}.json`, {
    hooks: {
      PreToolUse: Array.from({ length: Math.ceil(HOOKS / 3) }, (_, i) => f * 34 + i)
        .filter((i) => i < HOOKS)
        .map((i) => ({
          matcher: i % 2 === 0 ? `tool_${i}` : `^mcp__server_${i}__.*`,
          hooks: [{ type: "command", command: `./hooks/check-${i}.sh`, timeout: 30, ...(i % 5 === 0 ? { if: `Bash(git push:*)` } : {}) }]
        }))
    }
  })
)
const layer = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)
const load = Plan.make({ settings: files, projectDir: dir, managedDir: join(dir, "no-managed") }).pipe(Effect.provide(layer))
const loaded = await Effect.runPromise(load)
const planned = [...loaded.events.values()].reduce((n, event) => n + event.hooks.length, 0)
if (planned !== HOOKS) throw new Error(`expected ${HOOKS} hooks in the plan, got ${planned}`)
const LOADS = Math.max(50, Math.round(N / 100))
const loadUs = await measure(LOADS, () => Effect.runPromise(load))
const readUs = await measure(LOADS, () => Promise.all(files.map(async (file) => JSON.parse(await readFile(file, "utf8")) as unknown)))
const compileUs = await measure(LOADS, () =>
  Plan.compile({ settings: loaded.settings, options: { settings: files, projectDir: dir }, projectDir: dir, cwd: dir })
)

rmSync(dir, { recursive: true, force: true })

const gemini = (kind: string) => rows.find(([name]) => name.startsWith("Gemini") && name.endsWith(`${kind} matchers`))?.[1]
const lines = [
  `Run: \`node bench/plan.ts\` (N=${N} calls per sample, ${ROUNDS} rounds, median of the rounds' means),`,
  `${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${availableParallelism()} cpu(s), ${cpus()[0]?.model ?? "unknown cpu"}, linux ${release()}.`,
  geminiNote,
  "",
  `No-match dispatch, ${GROUPS} matcher groups:`,
  "",
  "| dispatch | µs per call | ratio to Gemini CLI (same matchers) |",
  "|---|---:|---:|",
  ...rows.map(([name, us]) => {
    const kind = name.includes("regex") ? "regex" : "exact"
    const base = gemini(kind)
    return `| ${name} | ${us.toFixed(2)} | ${base === undefined ? "-" : `${(us / base).toFixed(3)}x`} |`
  }),
  "",
  `Config of ${HOOKS} hooks in 3 files (${LOADS} loads per sample):`,
  "",
  "| step | µs per load |",
  "|---|---:|",
  `| read + JSON.parse of the 3 files | ${readUs.toFixed(0)} |`,
  `| Plan.make: load + decode + merge + compile | ${loadUs.toFixed(0)} |`,
  `| Plan.compile alone (over the loaded snapshot) | ${compileUs.toFixed(0)} |`
]
process.stdout.write(`${lines.join("\n")}\n`)
