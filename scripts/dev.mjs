#!/usr/bin/env node
// The single entry behind the root package.json scripts: `npm run demo|build|typecheck|bench`
// and `npm test`. Plain JavaScript for the machine's own Node (20 or later), no dependencies.
//
// Every command first bootstraps (idempotent, about 0.1 s when nothing changed):
//   1. the toolchain in .tools (node 24, pnpm, bun, deno from the npm registry), installed with
//      the machine's npm when .tools/node_modules/.bin/* is missing or .tools/package.json
//      changed (stamp: .tools/.installed);
//   2. the pnpm workspace (`pnpm install --frozen-lockfile`) when node_modules/.modules.yaml is
//      missing or the lockfile or a package.json changed (stamp: node_modules/.agent-hooks-stamp).
// Children run with .tools/node_modules/.bin first on PATH.
//
// Commands:
//   build                 tsc -b (project references), chmod +x packages/cli/dist/bin.js, the CLI bundle
//                         (scripts/bundle-cli.mjs: packages/cli/dist/agent-hooks.mjs)
//   typecheck             tsc -b, then tsc -p tsconfig.test.json (tests and examples)
//   lint [--write]        biome ci (format and lint rules, biome.json); --write formats and fixes
//   demo [args]           build, then node examples/demo.ts [args] and examples/langchain/agent.ts on Node 24
//   bench [files] [--x]   build, then each bench/*.ts (default: all) on Node 24; --flags go to each file
//   test [-- vitest args] build + typecheck, then the vitest lanes node, bun, deno in sequence,
//                         then the pack step (scripts/pack-check.mjs) and the agents step (agents/run.mjs:
//                         the real Claude Code, Codex, Gemini CLI and Qwen Code against a scripted
//                         model server, agent-hooks as their hook) when no vitest args are given.
//                         AGENT_HOOKS_LANES=node,bun runs a subset. The last line of output is
//                         `N passed, N failed` over all lanes (typecheck failure counts as 1).
//   test:fast [-- args]   the fast lane (AGENT_HOOKS_LANES=fast): Node only, no build, no type-check,
//                         without the files vitest.config.ts lists as slow or needing the build.
//   changeset [args]      the changesets CLI on Node 24 (`npm run changeset`, `pnpm changeset status`)
//   docs:build            the documentation site (VitePress, docs/): generated pages, then
//                         `vitepress build docs`, which fails on dead links; output docs/.vitepress/dist.
//                         `npm test` runs it too (a row of its own in the summary) unless the vitest
//                         arguments select test files outside docs/.
//   docs:dev [args]       the documentation site's dev server (vitepress dev docs)
//   docs:preview [args]   serves the built site (docs/.vitepress/dist, after docs:build) as it will be
//                         published (vitepress preview docs; http://localhost:4173, --port N)
//   bootstrap             only the bootstrap
//
// Environment: AGENT_HOOKS_LANES (test lanes and steps, default node,bun,deno,pack,agents; naming
//              only steps skips docs:build; `fast` alone is the fast lane),
//              AGENT_HOOKS_LANE_TIMEOUT_MIN (minutes before a lane is killed, default 25),
//              AGENT_HOOKS_WORKERS (vitest workers per lane, default 3: vitest.config.ts).

import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { withLock as withLockAt } from "./lock.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const TOOLS = join(ROOT, ".tools")
const BIN = join(TOOLS, "node_modules", ".bin")
const TOOLS_STAMP = join(TOOLS, ".installed")
const WS_STAMP = join(ROOT, "node_modules", ".agent-hooks-stamp")
const TOOL_BINS = ["node", "pnpm", "bun", "deno"]
const LANES = ["node", "bun", "deno"]
// Steps that are not vitest lanes: "pack" (scripts/pack-check.mjs: pack, publint, attw, install
// the tarballs into an empty folder and run them) and "agents" (agents/run.mjs: the real agents
// from the npm registry, installed into agents/node_modules, with agent-hooks as their hook). On by
// default, off when AGENT_HOOKS_LANES does not name them or when vitest arguments select a subset.
const STEPS = ["pack", "agents"]
// The developers' lane: Node only, no build and no type-check; vitest.config.ts leaves out the
// slow files and those that need the build when AGENT_HOOKS_FAST=1. It runs alone.
const FAST = "fast"

class Fatal extends Error {}

const log = (msg) => process.stderr.write(`[agent-hooks] ${msg}\n`)
const rel = (p) => relative(process.cwd(), p) || "."
const sha256 = (...parts) => {
  const h = createHash("sha256")
  for (const p of parts) h.update(p).update("\0")
  return h.digest("hex")
}
const readOr = (file, fallback) => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return fallback
  }
}
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`

// ---------------------------------------------------------------------------------------------
// Environment for children: the toolchain first on PATH. `npm test --silent` exports
// npm_config_loglevel=silent, which pnpm and npm would inherit and then hide their own errors.

const childEnv = (() => {
  const env = { ...process.env }
  delete env.npm_config_loglevel
  delete env.NPM_CONFIG_LOGLEVEL
  env.PATH = [BIN, env.PATH ?? ""].join(delimiter)
  return env
})()
const systemEnv = (() => {
  const env = { ...process.env }
  delete env.npm_config_loglevel
  delete env.NPM_CONFIG_LOGLEVEL
  return env
})()

// Children of the current command, so a signal to us reaches them (they run in their own process
// group so that a lane that hangs can be killed with everything it started).
const running = new Set()
let interrupted = null
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    interrupted = sig
    for (const child of running) killTree(child, sig)
    // A second signal, or children that don't go: leave anyway.
    setTimeout(() => process.exit(130), 5000).unref()
  })
}

function killTree(child, sig = "SIGTERM") {
  try {
    process.kill(-child.pid, sig)
  } catch {
    try {
      child.kill(sig)
    } catch {}
  }
}

/**
 * Runs a command with inherited stdio (its output streams to the console). Resolves with
 * { code, signal, timedOut, error }; never rejects.
 */
function run(cmd, args, { env = childEnv, cwd = ROOT, timeoutMs = 0, stdin = "ignore", detached = true } = {}) {
  return new Promise((resolvePromise) => {
    let child
    try {
      child = spawn(cmd, args, { cwd, env, stdio: [stdin, "inherit", "inherit"], detached })
    } catch (error) {
      resolvePromise({ code: null, signal: null, timedOut: false, error })
      return
    }
    running.add(child)
    let timedOut = false
    let timer
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true
        killTree(child, "SIGTERM")
        setTimeout(() => killTree(child, "SIGKILL"), 5000).unref()
      }, timeoutMs)
    }
    let error = null
    child.on("error", (e) => {
      error = e
    })
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      running.delete(child)
      // Leftover grandchildren of a finished lane (for example a worker that never exited).
      if (detached) {
        try {
          process.kill(-child.pid, "SIGKILL")
        } catch {}
      }
      resolvePromise({ code, signal, timedOut, error })
    })
  })
}

const describeExit = (r) =>
  r.error
    ? `could not start: ${r.error.message}`
    : r.timedOut
      ? "timed out and was killed"
      : r.signal
        ? `killed by ${r.signal}`
        : `exit code ${r.code}`
const ok = (r) => !r.error && !r.timedOut && r.code === 0

// ---------------------------------------------------------------------------------------------
// Locking: two commands started at once in the same checkout must not install concurrently.

const withLock = (name, fn) =>
  withLockAt(
    join(ROOT, `.agent-hooks-tmp`, `${name}.lock`),
    {
      onWait: (pid) => log(`waiting for another agent-hooks command (pid ${pid}) to finish ${name} ...`)
    },
    fn
  )

// ---------------------------------------------------------------------------------------------
// Bootstrap

function toolsHash() {
  return sha256(readOr(join(TOOLS, "package.json"), ""))
}

function toolsReady() {
  return TOOL_BINS.every((b) => existsSync(join(BIN, b))) && readOr(TOOLS_STAMP, "").trim() === toolsHash()
}

async function bootstrapTools() {
  if (toolsReady()) return
  await withLock("tools", async () => {
    if (toolsReady()) return
    const pkg = JSON.parse(readOr(join(TOOLS, "package.json"), "null") ?? "null")
    if (!pkg) throw new Fatal(`${rel(join(TOOLS, "package.json"))} is missing or not JSON`)
    const want = pkg.devDependencies ?? {}
    log(`installing toolchain (node ${want.node}, pnpm ${want.pnpm}, bun ${want.bun}, deno ${want.deno}) into .tools ...`)
    const started = Date.now()
    // `npm install`, not `npm ci`: the registry has only the linux deno platform package, so a
    // lockfile from another platform cannot be satisfied exactly. Exact pins keep it reproducible.
    const npm = process.platform === "win32" ? "npm.cmd" : "npm"
    const r = await run(npm, ["install", "--prefix", TOOLS, "--no-audit", "--no-fund", "--loglevel=error"], {
      env: systemEnv
    })
    if (!ok(r)) {
      throw new Fatal(
        `installing the toolchain into .tools failed (npm install: ${describeExit(r)}).\n` +
          `  It needs npm on PATH and access to the npm registry (registry: ${process.env.npm_config_registry ?? "see `npm config get registry`"}).\n` +
          `  Retry with: npm install --prefix .tools --no-audit --no-fund`
      )
    }
    const missing = TOOL_BINS.filter((b) => !existsSync(join(BIN, b)))
    if (missing.length > 0) {
      throw new Fatal(
        `npm installed .tools but these binaries are missing: ${missing.join(", ")} ` +
          `(their install scripts must run; check that npm does not run with --ignore-scripts)`
      )
    }
    const version = await capture(join(BIN, "node"), ["--version"])
    if (want.node && version.trim() !== `v${want.node}`) {
      throw new Fatal(`.tools/node_modules/.bin/node reports ${version.trim() || "nothing"}, expected v${want.node}`)
    }
    writeFileSync(TOOLS_STAMP, toolsHash() + "\n")
    log(`toolchain ready in ${seconds(Date.now() - started)}`)
  })
}

function capture(cmd, args) {
  return new Promise((res) => {
    let out = ""
    try {
      const child = spawn(cmd, args, { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "ignore"] })
      child.stdout.on("data", (d) => (out += d))
      child.on("error", () => res(""))
      child.on("close", () => res(out))
    } catch {
      res("")
    }
  })
}

/** The workspace package folders, from the `packages:` list of pnpm-workspace.yaml (globs `dir/*` and plain dirs). */
function workspaceDirs() {
  const yaml = readOr(join(ROOT, "pnpm-workspace.yaml"), "")
  const dirs = []
  let inPackages = false
  for (const line of yaml.split("\n")) {
    if (/^packages:\s*$/.test(line)) {
      inPackages = true
      continue
    }
    if (inPackages) {
      const m = /^\s+-\s+["']?([^"'#]+?)["']?\s*$/.exec(line)
      if (m) {
        const pattern = m[1]
        if (pattern.startsWith("!")) continue
        if (pattern.endsWith("/*") || pattern.endsWith("/**")) {
          const base = join(ROOT, pattern.replace(/\/\*+$/, ""))
          try {
            for (const name of readdirSync(base).sort()) dirs.push(join(base, name))
          } catch {}
        } else {
          dirs.push(join(ROOT, pattern))
        }
      } else if (/^\S/.test(line)) {
        inPackages = false
      }
    }
  }
  return dirs
}

function workspaceHash() {
  const files = [
    join(ROOT, "package.json"),
    join(ROOT, "pnpm-lock.yaml"),
    join(ROOT, "pnpm-workspace.yaml"),
    ...workspaceDirs().map((d) => join(d, "package.json"))
  ]
  return sha256(toolsHash(), ...files.map((f) => `${relative(ROOT, f)}\n${readOr(f, "<none>")}`))
}

function workspaceReady() {
  return existsSync(join(ROOT, "node_modules", ".modules.yaml")) && readOr(WS_STAMP, "").trim() === workspaceHash()
}

async function bootstrapWorkspace() {
  if (workspaceReady()) return
  await withLock("workspace", async () => {
    if (workspaceReady()) return
    const hash = workspaceHash()
    log("installing workspace dependencies (pnpm install --frozen-lockfile) ...")
    const started = Date.now()
    const r = await run(join(BIN, "pnpm"), ["install", "--frozen-lockfile", "--config.confirmModulesPurge=false"])
    if (!ok(r)) {
      throw new Fatal(
        `pnpm install --frozen-lockfile failed (${describeExit(r)}).\n` +
          `  If pnpm said the lockfile is out of date, a package.json changed without pnpm-lock.yaml:\n` +
          `  run \`PATH="$PWD/.tools/node_modules/.bin:$PATH" pnpm install\` and commit pnpm-lock.yaml.\n` +
          `  Otherwise check access to the npm registry.`
      )
    }
    writeFileSync(WS_STAMP, hash + "\n")
    log(`workspace ready in ${seconds(Date.now() - started)}`)
  })
}

async function bootstrap() {
  await bootstrapTools()
  await bootstrapWorkspace()
}

// ---------------------------------------------------------------------------------------------
// Build, typecheck

const node24 = () => join(BIN, "node")
const tscJs = () => join(ROOT, "node_modules", "typescript", "bin", "tsc")

async function build() {
  log("building (tsc -b) ...")
  const started = Date.now()
  const r = await run(node24(), [tscJs(), "-b"])
  const bin = join(ROOT, "packages", "cli", "dist", "bin.js")
  if (existsSync(bin)) chmodSync(bin, 0o755)
  if (!ok(r)) {
    log(`build failed (tsc -b: ${describeExit(r)})`)
    return false
  }
  // The CLI's one-file bundle (packages/cli/dist/agent-hooks.mjs), loaded by bin.js.
  const bundled = await run(node24(), [join("scripts", "bundle-cli.mjs")])
  if (!ok(bundled)) {
    log(`build failed (scripts/bundle-cli.mjs: ${describeExit(bundled)})`)
    return false
  }
  log(`built in ${seconds(Date.now() - started)}`)
  return true
}

// The formatter and linter: Biome (one native binary for TypeScript and JavaScript, configured in
// biome.json). `lint` checks formatting and lint rules without writing; `lint --write` applies the
// formatting and the safe fixes.
const biomeJs = () => join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome")

async function lint(args = []) {
  const write = args.includes("--write")
  log(write ? "formatting and fixing (biome check --write) ..." : "checking format and lint rules (biome ci) ...")
  const started = Date.now()
  const r = await run(node24(), [biomeJs(), ...(write ? ["check", "--write"] : ["ci"]), "--max-diagnostics=50", "."])
  if (ok(r)) log(`lint ok in ${seconds(Date.now() - started)}`)
  else log(`lint failed (biome: ${describeExit(r)}); \`npm run lint -- --write\` formats and applies the safe fixes`)
  return ok(r)
}

async function typecheckTests() {
  log("type-checking tests and examples (tsc -p tsconfig.test.json) ...")
  const started = Date.now()
  const r = await run(node24(), [tscJs(), "-p", "tsconfig.test.json"])
  if (ok(r)) log(`type-checked in ${seconds(Date.now() - started)}`)
  else log(`type-check failed (tsc -p tsconfig.test.json: ${describeExit(r)})`)
  return ok(r)
}

// ---------------------------------------------------------------------------------------------
// Test lanes

function laneCommand(lane, resultFile, vitestArgs) {
  const vitest = join("node_modules", "vitest", "vitest.mjs")
  const reporters = ["--reporter=default", "--reporter=json", `--outputFile.json=${resultFile}`]
  switch (lane) {
    case "node":
    case FAST:
      return [node24(), [vitest, "run", ...reporters, ...vitestArgs]]
    case "bun":
      // Bun needs the threads pool: the default forks pool fails (`child.channel?.unref is not a function`).
      return [join(BIN, "bun"), ["--bun", vitest, "run", "--pool=threads", ...reporters, ...vitestArgs]]
    case "deno":
      // Deno needs the default forks pool: threads fail (`parentPort.removeAllListeners`).
      // --no-lock: don't write a deno.lock into the repository.
      return [join(BIN, "deno"), ["run", "-A", "--no-lock", vitest, "run", ...reporters, ...vitestArgs]]
  }
  throw new Fatal(`unknown lane ${lane}`)
}

/**
 * Counts a vitest JSON report (jest-compatible format). A file that failed to load or crashed
 * outside any test has no failed assertion: it counts as one failure.
 */
function countReport(report) {
  let passed = 0
  let failed = 0
  let skipped = 0
  const notes = []
  for (const file of report.testResults ?? []) {
    let fileFailed = 0
    for (const a of file.assertionResults ?? []) {
      if (a.status === "passed") passed++
      else if (a.status === "failed") fileFailed++
      else skipped++ // pending, skipped, todo, disabled
    }
    if (file.status === "failed" && fileFailed === 0) {
      fileFailed = 1
      const first =
        String(file.message ?? "")
          .split("\n")
          .find((l) => l.trim() !== "") ?? "failed outside any test"
      notes.push(`${relative(ROOT, file.name ?? "?")}: ${first.trim().slice(0, 140)}`)
    }
    failed += fileFailed
  }
  return { passed, failed, skipped, notes }
}

async function runLane(lane, vitestArgs, tmp) {
  const resultFile = join(tmp, `${lane}.json`)
  const [cmd, args] = laneCommand(lane, resultFile, vitestArgs)
  process.stderr.write(`\n`)
  log(`── ${lane} lane: ${relative(ROOT, cmd) || cmd} ${args.join(" ")}`)
  const started = Date.now()
  const timeoutMin = Number(process.env.AGENT_HOOKS_LANE_TIMEOUT_MIN ?? 25)
  const env = lane === FAST ? { ...childEnv, AGENT_HOOKS_FAST: "1" } : childEnv
  const r = await run(cmd, args, { env, timeoutMs: timeoutMin > 0 ? timeoutMin * 60_000 : 0 })
  const ms = Date.now() - started
  const text = readOr(resultFile, null)
  if (text === null) {
    return { lane, passed: 0, failed: 1, skipped: 0, ms, note: `no result file (${describeExit(r)})` }
  }
  let report
  try {
    report = JSON.parse(text)
  } catch (e) {
    return { lane, passed: 0, failed: 1, skipped: 0, ms, note: `unreadable result file (${e.message}; ${describeExit(r)})` }
  }
  const counts = countReport(report)
  const notes = []
  let failed = counts.failed
  if (!ok(r) && failed === 0) {
    // For example unhandled errors after the tests, or a worker that crashed.
    failed = 1
    notes.push(`vitest failed with no failed test (${describeExit(r)}); see its output above`)
  } else if (!ok(r) && (r.timedOut || r.signal || r.error)) {
    notes.push(describeExit(r))
  }
  if (counts.notes.length > 0) {
    notes.push(`${counts.notes.length} file${counts.notes.length === 1 ? "" : "s"} failed outside any test`)
  }
  if (ok(r) && counts.passed + counts.failed + counts.skipped === 0) notes.push("no test files matched")
  return { lane, passed: counts.passed, failed, skipped: counts.skipped, ms, note: notes.join("; "), details: counts.notes }
}

/**
 * Runs a step's script with `--result FILE`; the script writes `{passed, failed, skipped?, ...}`
 * there. No result file, or a failed exit with no failure counted, is one failure.
 */
async function runStepScript(lane, script, timeoutMs = 0) {
  process.stderr.write(`\n`)
  log(`── ${lane} step: node ${script}`)
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), `agent-hooks-${lane}-result-`))
  const resultFile = join(dir, "result.json")
  const r = await run(node24(), [script, "--result", resultFile], { timeoutMs })
  const result = readOr(resultFile, null)
  rmSync(dir, { recursive: true, force: true })
  let counts = null
  try {
    counts = result === null ? null : JSON.parse(result)
  } catch {}
  let failed = counts?.failed ?? 1
  if (!ok(r) && failed === 0) failed = 1
  const row = {
    lane,
    passed: counts?.passed ?? 0,
    failed,
    skipped: counts?.skipped ?? 0,
    ms: Date.now() - started,
    note: counts === null ? `no result file (${describeExit(r)})` : ""
  }
  return { row, counts }
}

// The "pack" step: its own script prints one line per check and `N passed, N failed` last.
const runPackStep = async () => (await runStepScript("pack", join("scripts", "pack-check.mjs"))).row

// The "agents" step: one line per agent, scenario and mode, a table, `N passed, N failed, N skipped`
// last. An agent that cannot be installed or started counts as failed.
async function runAgentsStep() {
  const timeoutMin = Number(process.env.AGENT_HOOKS_LANE_TIMEOUT_MIN ?? 25)
  const { row, counts } = await runStepScript("agents", join("agents", "run.mjs"), timeoutMin > 0 ? timeoutMin * 60_000 : 0)
  const cannot = (counts?.rows ?? []).filter((r) => r.scenario === "(install)").map((r) => r.agent)
  if (cannot.length > 0) row.note = `cannot be driven: ${cannot.join(", ")} (see above)`
  else if (counts !== null)
    row.note = `${new Set((counts.rows ?? []).filter((r) => r.agent !== "oracles").map((r) => r.agent)).size} real agent runs, native hooks vs agent-hooks, and install`
  return row
}

function selectedLanes() {
  const raw = process.env.AGENT_HOOKS_LANES
  if (raw === undefined || raw.trim() === "") return [...LANES, ...STEPS]
  const lanes = raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  const known = [...LANES, ...STEPS, FAST]
  const unknown = lanes.filter((l) => !known.includes(l))
  if (unknown.length > 0) throw new Fatal(`AGENT_HOOKS_LANES: unknown lane(s) ${unknown.join(", ")} (known: ${known.join(", ")})`)
  if (lanes.includes(FAST) && lanes.length > 1) throw new Fatal(`AGENT_HOOKS_LANES: ${FAST} runs alone (got ${raw})`)
  return known.filter((l) => lanes.includes(l))
}

function printSummary(rows) {
  const out = []
  for (const r of rows) {
    if (!r.details || r.details.length === 0) continue
    out.push("", `${r.lane} lane, files that failed outside any test (each counts as 1 failure):`)
    for (const d of r.details) out.push(`  ${d}`)
  }
  const header = ["step", "passed", "failed", "skipped", "time", "note"]
  const cells = rows.map((r) => [
    r.lane,
    r.passed === undefined ? "-" : String(r.passed),
    String(r.failed),
    r.skipped === undefined ? "-" : String(r.skipped),
    r.ms === undefined ? "-" : seconds(r.ms),
    r.note ?? ""
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)))
  const fmt = (c) =>
    c
      .map((v, i) => (i === 0 || i === 5 ? v.padEnd(widths[i]) : v.padStart(widths[i])))
      .join("  ")
      .trimEnd()
  out.push("", "Summary", fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...cells.map(fmt))
  const passed = rows.reduce((n, r) => n + (r.passed ?? 0), 0)
  const failed = rows.reduce((n, r) => n + r.failed, 0)
  out.push("", `${passed} passed, ${failed} failed`)
  process.stdout.write(out.join("\n") + "\n")
  return failed
}

async function test(args) {
  const vitestArgs = args[0] === "--" ? args.slice(1) : args
  const rows = []
  try {
    const lanes = selectedLanes()
    await bootstrap()
    if (lanes[0] === FAST) {
      const tmp = mkdtempSync(join(tmpdir(), "agent-hooks-lanes-"))
      try {
        rows.push(await runLane(FAST, vitestArgs, tmp))
      } finally {
        rmSync(tmp, { recursive: true, force: true })
      }
      if (interrupted) rows.push({ lane: "interrupted", failed: 1, note: `received ${interrupted}` })
      return printSummary(rows) > 0 ? 1 : 0
    }
    const started = Date.now()
    const built = await build()
    const typed = built && (await typecheckTests())
    rows.push({
      lane: "typecheck",
      failed: typed ? 0 : 1,
      ms: Date.now() - started,
      note: typed ? "tsc -b, tsc -p tsconfig.test.json" : built ? "tsc -p tsconfig.test.json failed" : "tsc -b failed"
    })
    const lintStarted = Date.now()
    const linted = await lint()
    rows.push({
      lane: "lint",
      failed: linted ? 0 : 1,
      ms: Date.now() - lintStarted,
      note: linted ? "biome ci: format and lint rules" : "biome ci failed (see above)"
    })
    if (typed && lanes.some((l) => LANES.includes(l)) && testsIncludeDocs(vitestArgs)) {
      const docsStarted = Date.now()
      const docsOk = await docsBuild()
      rows.push({
        lane: "docs:build",
        failed: docsOk ? 0 : 1,
        ms: Date.now() - docsStarted,
        note: docsOk ? "vitepress build docs, dead links checked" : "vitepress build failed (see above)"
      })
    }
    const tmp = mkdtempSync(join(tmpdir(), "agent-hooks-lanes-"))
    try {
      for (const lane of lanes) {
        if (interrupted) break
        if (lane === "pack") {
          if (vitestArgs.length === 0) rows.push(await runPackStep())
          continue
        }
        if (lane === "agents") {
          if (vitestArgs.length === 0) rows.push(await runAgentsStep())
          continue
        }
        rows.push(await runLane(lane, vitestArgs, tmp))
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
    if (interrupted) rows.push({ lane: "interrupted", failed: 1, note: `received ${interrupted}` })
    const laneRows = rows.filter((r) => lanes.includes(r.lane))
    if (laneRows.length > 0 && laneRows.every((r) => r.passed + r.failed + r.skipped === 0)) {
      rows.push({ lane: "no tests", failed: 1, note: "no lane ran a single test (check the filter or vitest.config.ts)" })
    }
  } catch (e) {
    log(e instanceof Fatal ? e.message : (e?.stack ?? String(e)))
    rows.push({ lane: "setup", failed: 1, note: "see the error above" })
  }
  const failed = printSummary(rows)
  return failed > 0 ? 1 : 0
}

// ---------------------------------------------------------------------------------------------
// Documentation site

const vitepressJs = () => join(ROOT, "docs", "node_modules", "vitepress", "bin", "vitepress.js")

/** Regenerates the generated pages (events, API reference), then builds the site (dead links fail it). */
async function docsBuild() {
  log("building the documentation site (docs/): the API reference with TypeDoc, then vitepress build ...")
  const started = Date.now()
  const gen = await run(node24(), [join(ROOT, "docs", "scripts", "generate.ts")])
  if (!ok(gen)) {
    log(`docs: generating pages failed (docs/scripts/generate.ts: ${describeExit(gen)})`)
    return false
  }
  const r = await run(node24(), [vitepressJs(), "build", "docs"])
  if (ok(r)) log(`docs built in ${seconds(Date.now() - started)} (docs/.vitepress/dist)`)
  else log(`docs build failed (vitepress build: ${describeExit(r)}); a dead link is named above`)
  return ok(r)
}

async function docsPreview(args) {
  await bootstrap()
  if (!existsSync(join(ROOT, "docs", ".vitepress", "dist", "index.html"))) {
    log("no built site in docs/.vitepress/dist: run `npm run docs:build` first")
    return 1
  }
  const r = await run(node24(), [vitepressJs(), "preview", "docs", ...(args[0] === "--" ? args.slice(1) : args)], {
    stdin: "inherit",
    detached: false
  })
  return r.code ?? 1
}

async function docsDev(args) {
  await bootstrap()
  // The API reference takes a while to generate: the dev server reuses it when it exists
  // (docs:build always regenerates it).
  if (!existsSync(join(ROOT, "docs", "reference", "index.md"))) {
    log("generating the API reference (TypeDoc; half a minute or more) ...")
    const gen = await run(node24(), [join(ROOT, "docs", "scripts", "generate.ts")])
    if (!ok(gen)) return 1
  }
  const r = await run(node24(), [vitepressJs(), "dev", "docs", ...(args[0] === "--" ? args.slice(1) : args)], {
    stdin: "inherit",
    detached: false
  })
  return r.code ?? 1
}

/** `npm test` builds the site unless the vitest arguments name only test files outside docs/. */
const testsIncludeDocs = (vitestArgs) => {
  const filters = vitestArgs.filter((a) => !a.startsWith("-"))
  return filters.length === 0 || filters.some((f) => f.replace(/^\.\//, "").startsWith("docs"))
}

// ---------------------------------------------------------------------------------------------
// demo, bench

async function demo(args) {
  const file = join(ROOT, "examples", "demo.ts")
  if (!existsSync(file)) {
    log("examples/demo.ts does not exist yet: there is no demo to run.")
    return 1
  }
  await bootstrap()
  if (!(await build())) return 1
  const r = await run(node24(), [file, ...(args[0] === "--" ? args.slice(1) : args)], { stdin: "inherit", detached: false })
  if (!ok(r) && (r.error || r.timedOut || r.signal)) log(`demo: ${describeExit(r)}`)
  if (!ok(r)) return r.code ?? 1
  // Then the same kind of session inside a LangChain agent (createAgent with an offline fake model).
  const agent = join(ROOT, "examples", "langchain", "agent.ts")
  if (!existsSync(agent)) return 0
  process.stdout.write("\n")
  const l = await run(node24(), [agent], { stdin: "inherit", detached: false })
  if (!ok(l) && (l.error || l.timedOut || l.signal)) log(`demo (LangChain agent): ${describeExit(l)}`)
  return l.code ?? 1
}

async function bench(args) {
  await bootstrap()
  if (!(await build())) return 1
  const dir = join(ROOT, "bench")
  const given = args[0] === "--" ? args.slice(1) : args
  // Flags (`--quick`) go to every bench file; the other arguments name the files.
  const flags = given.filter((a) => a.startsWith("--"))
  const names = given.filter((a) => !a.startsWith("--"))
  let files
  if (names.length === 0) {
    files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
          .sort()
          .map((f) => join(dir, f))
      : []
    if (files.length === 0) {
      log("no bench/*.ts files to run")
      return 1
    }
  } else {
    files = names.map((n) => {
      const candidates = [resolve(n), join(dir, n), join(dir, `${n}.ts`)]
      const found = candidates.find((c) => existsSync(c) && statSync(c).isFile())
      if (!found) throw new Fatal(`bench: no such file: ${n} (looked for ${candidates.map(rel).join(", ")})`)
      return found
    })
  }
  let failures = 0
  for (const file of files) {
    if (interrupted) return 130
    log(`── bench ${relative(ROOT, file)}`)
    const r = await run(node24(), [file, ...flags])
    if (!ok(r)) {
      failures++
      log(`bench ${relative(ROOT, file)}: ${describeExit(r)}`)
    }
  }
  return failures > 0 ? 1 : 0
}

async function changeset(args) {
  await bootstrap()
  const r = await run(join(ROOT, "node_modules", ".bin", "changeset"), args[0] === "--" ? args.slice(1) : args, {
    stdin: "inherit",
    detached: false
  })
  if (r.error) log(`changeset: ${describeExit(r)}`)
  return r.code ?? 1
}

// ---------------------------------------------------------------------------------------------

const USAGE = `usage: node scripts/dev.mjs <command> [args]
  bootstrap             install .tools and the workspace if needed
  build                 tsc -b
  typecheck             tsc -b and tsc -p tsconfig.test.json
  lint [--write]        biome: check formatting and lint rules (--write: format and apply safe fixes)
  demo [args]           run examples/demo.ts on Node 24
  bench [files]         run bench/*.ts (default: all) on Node 24
  changeset [args]      the changesets CLI (no args: add a changeset; \`status\`, \`version\`)
  docs:build            generate pages, then build the documentation site (dead links fail it)
  docs:dev [args]       the documentation site's dev server
  docs:preview [args]   serve the built site (after docs:build) on http://localhost:4173
  test [-- vitest args] typecheck, then the node, bun and deno vitest lanes, the pack and agents steps
                        (AGENT_HOOKS_LANES=node,bun or =agents)
  test:fast [-- args]   the fast lane: Node only, no build or type-check, the quick test files`

async function main() {
  const [cmd, ...args] = process.argv.slice(2)
  switch (cmd) {
    case "test":
      return test(args)
    case "test:fast":
      process.env.AGENT_HOOKS_LANES = FAST
      return test(args)
    case "bootstrap":
      await bootstrap()
      return 0
    case "build":
      await bootstrap()
      return (await build()) ? 0 : 1
    case "typecheck":
      await bootstrap()
      return (await build()) && (await typecheckTests()) ? 0 : 1
    case "lint":
      await bootstrap()
      return (await lint(args[0] === "--" ? args.slice(1) : args)) ? 0 : 1
    case "demo":
      return demo(args)
    case "bench":
      return bench(args)
    case "changeset":
      return changeset(args)
    case "docs:build":
      await bootstrap()
      return (await docsBuild()) ? 0 : 1
    case "docs:preview":
      return docsPreview(args)
    case "docs:dev":
      return docsDev(args)
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE + "\n")
      return 0
    default:
      process.stderr.write(`${cmd ? `unknown command: ${cmd}\n` : ""}${USAGE}\n`)
      return 2
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (e) => {
    log(e instanceof Fatal ? e.message : (e?.stack ?? String(e)))
    process.exitCode = 1
  }
)
