#!/usr/bin/env node
// The `agents` step of `npm test`: the real Claude Code, Codex, Gemini CLI and Qwen Code (pinned in
// agents/package.json and agents/package-lock.json, installed here into agents/node_modules) run
// headless against a scripted model server on 127.0.0.1, once with their own native hook config
// (the control) and once with `agent-hooks hook --host <agent>` as their one hook; then the install
// scenario once per agent (lib/installScenario.mjs: `agent-hooks install`, doctor, the agent stopped,
// `uninstall` byte for byte). See agents/README.md.
//
//   node agents/run.mjs [--agent claude,codex] [--scenario block-exit2,ask] [--mode native|agent-hooks]
//                       [--jobs 2] [--keep] [--verbose] [--record DIR] [--result FILE]
//
// Run after a build (`npm test` builds first), with Node 24 (the toolchain's, .tools). Prints one
// line per run, a table per agent and scenario, and `N passed, N failed, N skipped` last; exit 1
// when anything failed. FILE gets {"passed", "failed", "skipped", "rows"}.
import { spawn } from "node:child_process"
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { AGENT_NAMES, AGENTS, agentEnv } from "./lib/agents.mjs"
import { ensureAgents } from "./lib/install.mjs"
import { installScenario } from "./lib/installScenario.mjs"
import { MODES, SCENARIOS, SECRET_CONTENT, finished, sideOf } from "./lib/scenarios.mjs"
import { startModelServer } from "./lib/server.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..")
const TOOLS_BIN = join(ROOT, ".tools", "node_modules", ".bin")
const CLI = join(ROOT, "packages", "cli", "dist", "bin.js")
const PROMPT = "Please create the marker file in this folder."
const RUN_TIMEOUT_MS = Number(process.env.AGENT_HOOKS_AGENT_TIMEOUT_S ?? 120) * 1000

// ---- arguments ---------------------------------------------------------------------------------
const argv = process.argv.slice(2)
const opt = (name) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const flag = (name) => argv.includes(`--${name}`)
const list = (name, known) => {
  const raw = opt(name)
  if (raw === undefined) return known
  const want = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = want.filter((w) => !known.includes(w))
  if (unknown.length > 0) {
    process.stderr.write(`--${name}: unknown ${unknown.join(", ")} (known: ${known.join(", ")})\n`)
    process.exit(2)
  }
  return known.filter((k) => want.includes(k))
}
const agentNames = list("agent", AGENT_NAMES)
/** The install scenario: agent-hooks only (an install has no native side), once per agent. */
const INSTALL = { id: "install" }
const scenarioIds = list("scenario", [...SCENARIOS.map((s) => s.id), INSTALL.id])
const modes = list("mode", [...MODES])
// Runs share nothing (each its own HOME, project, model server port): 3 at a time keep 2 cores busy
// while most runs wait on their agent's model round trips and hooks
const jobs = Math.max(1, Number(opt("jobs") ?? process.env.AGENT_HOOKS_AGENTS_JOBS ?? 3))
const keep = flag("keep")
const verbose = flag("verbose")
const resultFile = opt("result")
const recordDir = opt("record")

const log = (s) => process.stderr.write(`[agents] ${s}\n`)
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`

// ---- one run -----------------------------------------------------------------------------------
/**
 * @param {import("./lib/agents.mjs").AGENTS[keyof typeof AGENTS]} agent
 * @param {import("./lib/scenarios.mjs").Scenario} scenario
 * @param {"native" | "agent-hooks"} mode
 */
async function runOne(agent, scenario, mode) {
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), `agent-hooks-agents-${agent.name}-${scenario.id}-${mode}-`))
  const home = join(dir, "home")
  const project = join(dir, "project")
  const state = join(dir, "state")
  const hooksDir = join(dir, "hooks")
  for (const d of [home, project, state, hooksDir]) mkdirSync(d, { recursive: true })
  const secret = join(project, "secret.txt")
  writeFileSync(secret, `${SECRET_CONTENT}\n`)
  const server = await startModelServer({ call: scenario.call, readPath: secret })
  // Every hook's timeout in the agent's config, in seconds (60 unless the scenario says).
  const hookTimeout = scenario.hookTimeout ?? 60
  try {
    /** @type {import("./lib/agents.mjs").HookEntry[]} */
    const hooks = []
    const scriptFile = (name, text) => {
      const file = join(hooksDir, name)
      writeFileSync(file, text)
      chmodSync(file, 0o755)
      return file
    }
    if (mode === "native") {
      const side = sideOf(agent, scenario, mode)
      side.hooks.forEach((h, i) => {
        const text = h.script(state)
        // An empty script stands for a hook whose program is missing (the broken controls: the
        // shell answers 127; Claude Code, Codex and Qwen Code go on, Gemini CLI blocks).
        if (text === "") hooks.push({ event: h.event, command: join(hooksDir, "missing-policy-hook") })
        else
          hooks.push({
            event: h.event,
            command: `sh ${scriptFile(`${i}-${h.event}.sh`, text)}`,
            matcher: h.tool === "read" ? agent.readMatcher : undefined
          })
      })
    } else {
      // The policy, written once against Claude Code's names, in agent-hooks' settings format.
      const policy = join(dir, "policy.json")
      if (scenario.policy === "broken") {
        writeFileSync(policy, `{ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ `)
      } else {
        const settings = { hooks: {}, ...(scenario.permissions === undefined ? {} : { permissions: scenario.permissions }) }
        scenario.policy.forEach((h, i) => {
          const file = scriptFile(`policy-${i}-${h.event}.sh`, h.script(state))
          const group = { hooks: [{ type: "command", command: `sh ${file}` }] }
          if (h.event === "PreToolUse" || h.event === "PostToolUse") group.matcher = h.tool === "read" ? "Read" : "Bash"
          ;(settings.hooks[h.event] ??= []).push(group)
        })
        writeFileSync(policy, JSON.stringify(settings, null, 2))
      }
      const command = `${JSON.stringify(join(TOOLS_BIN, "node"))} ${JSON.stringify(CLI)} hook --host ${agent.host ?? agent.name} --timeout ${hookTimeout} --settings ${JSON.stringify(policy)}`
      // The one hook, for every tool, on every event a user would wire it to (--timeout: the
      // seconds the agent's config gives it, so that host mode answers within its budget below).
      for (const event of scenario.wire ?? ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]) {
        hooks.push({ event, command, matcher: null })
      }
    }
    agent.setup({ home, project, url: server.url, hooks, timeout: hookTimeout })
    const env = agentEnv(agent, { home, url: server.url, pathPrefix: TOOLS_BIN })
    const bin = join(HERE, "node_modules", ".bin", agent.bin)
    const proc = await exec(bin, agent.command(PROMPT), { cwd: project, env, timeoutMs: RUN_TIMEOUT_MS })
    const observation = {
      marker: existsSync(join(project, "MARKER")),
      rewritten: existsSync(join(project, "REWRITTEN")),
      toolCalls: server.toolCalls,
      mainRequests: server.mainRequests(),
      sentAfterTool: server.sentAfterToolCall(),
      sentToModel: server.sentToModel(),
      secretSent: server.sentAfterToolCall().includes(SECRET_CONTENT),
      output: proc.out,
      exitCode: proc.code,
      timedOut: proc.timedOut
    }
    const side = sideOf(agent, scenario, mode)
    const expect = side.expect
    const problems = [...finished(observation), ...expect(observation)]
    if (recordDir) record(state, join(recordDir, agent.name, mode, scenario.id))
    if (keep) writeFileSync(join(dir, "model-requests.json"), JSON.stringify({ requests: server.requests, stray: server.stray }, null, 1))
    if (keep) writeFileSync(join(dir, "agent-output.txt"), proc.out)
    if (server.stray.length > 0)
      problems.push(`the agent tried to reach the network (refused): ${[...new Set(server.stray)].slice(0, 3).join(", ")}`)
    return { ok: problems.length === 0, problems, note: side.note, ms: Date.now() - started, dir, output: proc.out, observation, server }
  } finally {
    await server.close()
    if (!keep) removeRunFolder(dir)
  }
}

/**
 * Removes a run's folder. An agent's own leftover process (Kilo's, writing its log) may still add
 * files while it goes: retried, and a folder that still cannot be removed is said, never a failed
 * scenario (what the run observed is already decided).
 */
function removeRunFolder(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  } catch (error) {
    process.stderr.write(`note: ${dir} not removed: ${error.message}\n`)
  }
}

/** Copies what each hook received (state/<n>-<name>.json) as fixtures: DIR/<agent>/<mode>/<scenario>/. */
function record(state, to) {
  mkdirSync(to, { recursive: true })
  for (const f of readdirSync(state)) copyFileSync(join(state, f), join(to, f))
}

/** Runs the agent in its own process group; kills the group at the time limit. */
function exec(cmd, args, { cwd, env, timeoutMs }) {
  return new Promise((resolvePromise) => {
    let out = ""
    let child
    try {
      child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    } catch (error) {
      resolvePromise({ code: null, out: String(error), timedOut: false })
      return
    }
    running.add(child)
    let timedOut = false
    const kill = (sig) => {
      try {
        process.kill(-child.pid, sig)
      } catch {}
    }
    const timer = setTimeout(() => {
      timedOut = true
      kill("SIGTERM")
      setTimeout(() => kill("SIGKILL"), 3000).unref()
    }, timeoutMs)
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    child.on("error", (e) => (out += `\n${e.message}`))
    child.on("close", (code) => {
      clearTimeout(timer)
      running.delete(child)
      kill("SIGKILL") // leftovers (an MCP server, a hook still running)
      resolvePromise({ code, out, timedOut })
    })
  })
}
const running = new Set()
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    for (const c of running) {
      try {
        process.kill(-c.pid, "SIGKILL")
      } catch {}
    }
    process.exit(130)
  })
}

// ---- main --------------------------------------------------------------------------------------
const started = Date.now()
const agents = agentNames.map((n) => AGENTS[n])
const nameWidth = Math.max(6, ...agents.map((a) => a.name.length))
const install = await ensureAgents({ dir: HERE, pathPrefix: TOOLS_BIN, agents, log })
if (Object.keys(install.broken).length === 0)
  log(install.installed ? `agents installed in ${secs(install.ms)}` : `agents already installed (checked in ${secs(install.ms)})`)

/** @type {{ agent: string, scenario: string, mode: string, status: "passed" | "failed" | "skipped", note: string, ms?: number }[]} */
const rows = []
let failed = 0
let passed = 0
let skipped = 0

/**
 * Each agent's lines, printed together once its last run ended (so that runs of several agents at
 * once do not interleave), then its time: the sum of its runs and its wall time.
 */
const pending = new Map(agents.map((a) => [a.name, { left: 0, lines: [], ms: 0, first: Infinity, last: 0 }]))
const say = (agent, text) => pending.get(agent).lines.push(text)
const flush = (name) => {
  const p = pending.get(name)
  if (p.left > 0 || p.lines === null) return
  const timing =
    p.last > 0 ? `\n      ${name}: ${secs(p.ms)} in its runs, ${secs(p.last - p.first)} from its first start to its last end` : ""
  process.stdout.write(p.lines.join("\n") + timing + (p.lines.length > 0 || timing ? "\n" : ""))
  p.lines = null
}

for (const [name, why] of Object.entries(install.broken)) {
  failed++
  rows.push({ agent: name, scenario: "(install)", mode: "-", status: "failed", note: why })
  say(name, `FAIL  ${name}: cannot be driven: ${why}`)
}
if (modes.includes("agent-hooks") && !existsSync(CLI)) {
  process.stdout.write(`FAIL  agent-hooks is not built (${CLI} is missing): run \`npm run build\` first\n`)
}

/** The queue: agents interleaved, so that the runs going at once are different agents. */
const queue = []
for (const scenario of SCENARIOS.filter((s) => scenarioIds.includes(s.id))) {
  for (const mode of modes) {
    for (const agent of agents) {
      if (install.broken[agent.name]) continue
      const side = sideOf(agent, scenario, mode)
      if ("skip" in side) {
        skipped++
        rows.push({ agent: agent.name, scenario: scenario.id, mode, status: "skipped", note: side.skip })
        say(agent.name, `skip  ${agent.name.padEnd(nameWidth)} ${scenario.id.padEnd(14)} ${mode.padEnd(11)} ${side.skip}`)
        continue
      }
      queue.push({ agent, scenario, mode })
    }
  }
}

if (scenarioIds.includes(INSTALL.id) && modes.includes("agent-hooks")) {
  for (const agent of agents) if (!install.broken[agent.name]) queue.push({ agent, scenario: INSTALL, mode: "agent-hooks" })
}
for (const job of queue) pending.get(job.agent.name).left++
// agents whose every row is a skip (or that cannot be driven) are printed now
for (const a of agents) flush(a.name)

/** The install scenario as one run's result. */
const runInstall = async (agent) => {
  const started = Date.now()
  const { problems, dir, output } = await installScenario(agent, { keep })
  return {
    ok: problems.length === 0,
    problems,
    ms: Date.now() - started,
    output: output ?? "",
    dir: problems.length > 0 || keep ? dir : undefined
  }
}

async function worker() {
  for (;;) {
    const job = queue.shift()
    if (!job) return
    const { agent, scenario, mode } = job
    let result
    const began = Date.now()
    try {
      if (mode === "agent-hooks" && !existsSync(CLI)) throw new Error(`agent-hooks is not built (${CLI} is missing)`)
      result = scenario === INSTALL ? await runInstall(agent) : await runOne(agent, scenario, mode)
    } catch (e) {
      result = { ok: false, problems: [`the harness failed: ${e?.stack ?? e}`], ms: 0, output: "" }
    }
    const control = mode === "native" && !result.ok ? " (control failure: the agent's own hook did not behave as expected)" : ""
    if (result.ok) passed++
    else failed++
    rows.push({
      agent: agent.name,
      scenario: scenario.id,
      mode,
      status: result.ok ? "passed" : "failed",
      note: result.problems.join("; ") + control,
      ms: result.ms
    })
    const line = `${result.ok ? "ok  " : "FAIL"}  ${agent.name.padEnd(nameWidth)} ${scenario.id.padEnd(14)} ${mode.padEnd(11)} ${secs(result.ms)}${control}`
    const details = [
      ...(result.note ? [`      note: ${result.note}`] : []),
      ...(result.ok && !verbose
        ? []
        : [
            ...result.problems.map((p) => `      - ${p}`),
            ...(result.ok
              ? []
              : [
                  `      agent output (last lines):`,
                  ...result.output
                    .trim()
                    .split("\n")
                    .slice(-12)
                    .map((l) => `        ${l.slice(0, 300)}`)
                ]),
            ...(keep && result.dir ? [`      kept: ${result.dir}`] : [])
          ])
    ].join("\n")
    const p = pending.get(agent.name)
    p.ms += result.ms
    p.first = Math.min(p.first, began)
    p.last = Math.max(p.last, Date.now())
    p.left--
    say(agent.name, `${line}${details ? `\n${details}` : ""}`)
    flush(agent.name)
  }
}
await Promise.all(Array.from({ length: jobs }, worker))

// The peers' own engines as oracles of their presets (agents/oracles.mjs), unless scenarios were chosen.
const oracleAgents = ["qwen", "gemini", "codex"].filter((name) => agentNames.includes(name) && !install.broken[name])
if (opt("scenario") === undefined && oracleAgents.length > 0) {
  const file = join(mkdtempSync(join(tmpdir(), "agent-hooks-oracles-result-")), "result.json")
  const child = spawn(
    process.execPath,
    [join(HERE, "oracles.mjs"), "--agent", oracleAgents.join(","), "--result", file, ...(verbose ? ["--verbose"] : [])],
    { stdio: ["ignore", "inherit", "inherit"] }
  )
  await new Promise((done) => child.on("close", done))
  const result = existsSync(file)
    ? JSON.parse(readFileSync(file, "utf8"))
    : {
        passed: 0,
        failed: 1,
        rows: [{ agent: "oracles", scenario: "oracle:(run)", mode: "-", status: "failed", note: "agents/oracles.mjs wrote no result" }]
      }
  rmSync(dirname(file), { recursive: true, force: true })
  passed += result.passed
  failed += result.failed
  rows.push(...result.rows)
}

// ---- summary -----------------------------------------------------------------------------------
const cell = (agent, scenario, mode) => {
  const r = rows.find((x) => x.agent === agent && x.scenario === scenario && x.mode === mode)
  return r === undefined
    ? "-"
    : r.status === "passed"
      ? "pass"
      : r.status === "failed"
        ? mode === "native"
          ? "CONTROL FAIL"
          : "FAIL"
        : "skip"
}
const table = [["agent", "scenario", "native (control)", "agent-hooks"]]
for (const a of agents) {
  if (install.broken[a.name]) {
    table.push([a.name, "(cannot be driven)", "FAIL", "FAIL"])
    continue
  }
  for (const s of [...SCENARIOS, INSTALL].filter((x) => scenarioIds.includes(x.id))) {
    table.push([
      a.name,
      s.id,
      modes.includes("native") ? cell(a.name, s.id, "native") : "-",
      modes.includes("agent-hooks") ? cell(a.name, s.id, "agent-hooks") : "-"
    ])
  }
}
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)))
const fmt = (r) =>
  r
    .map((v, i) => v.padEnd(widths[i]))
    .join("  ")
    .trimEnd()
const out = ["", fmt(table[0]), fmt(widths.map((w) => "-".repeat(w))), ...table.slice(1).map(fmt)]
const skips = rows.filter((r) => r.status === "skipped")
if (skips.length > 0) {
  out.push("", "skipped (the agent has no such event or feature):")
  for (const r of skips) out.push(`  ${r.agent} ${r.scenario} ${r.mode}: ${r.note}`)
}
out.push("", "time per agent (its runs, summed; wall from its first start to its last end):")
for (const a of agents) {
  const p = pending.get(a.name)
  if (p.last > 0) out.push(`  ${a.name.padEnd(15)} ${secs(p.ms).padStart(7)}  ${secs(p.last - p.first).padStart(7)} wall`)
}
out.push("", `agents step: ${secs(Date.now() - started)} wall, ${jobs} at a time`, `${passed} passed, ${failed} failed, ${skipped} skipped`)
process.stdout.write(out.join("\n") + "\n")
if (resultFile) writeFileSync(resultFile, JSON.stringify({ passed, failed, skipped, ms: Date.now() - started, rows }, null, 2))
process.exitCode = failed > 0 ? 1 : 0
