#!/usr/bin/env node
// The peers' own engines as oracles of their presets, part of the `agents` step (agents/run.mjs runs
// it after the scenarios; agents/README.md):
//   qwen    Qwen Code's HookSystem (lib/oracle-qwen.mjs): a table of hooks and calls, the same
//           decision, reason and context as `--preset qwen`, or the difference docs/presets/qwen.md lists;
//   gemini  Gemini CLI's HookSystem (lib/oracle-gemini.mjs): generated configs run the same hooks as
//           often as `--preset gemini`, and the same calls run their hooks in order or in parallel;
//   codex   the real `codex` binary (lib/oracle-codex.mjs): a sample of cases, the same block, reason
//           and context as `--preset codex` for the payload Codex sent.
//
//   node agents/oracles.mjs [--agent qwen,gemini,codex] [--verbose] [--result FILE]
//
// Needs the build (packages/cli/dist/bin.js) and the agents installed in agents/node_modules (run.mjs
// installs them). One line per case; `N passed, N failed, N skipped` last; exit 1 when one failed.
import { spawn } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { AGENTS, agentEnv } from "./lib/agents.mjs"
import { CODEX_CASES, compareCodex } from "./lib/oracle-codex.mjs"
import { SEQUENTIAL_CASES, dedupCases, fireGemini, loadGeminiHookSystem, readLog } from "./lib/oracle-gemini.mjs"
import { runQwenOracle } from "./lib/oracle-qwen.mjs"
import { startModelServer } from "./lib/server.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..")
const MODULES = join(HERE, "node_modules")
const TOOLS_BIN = join(ROOT, ".tools", "node_modules", ".bin")
const CLI = join(ROOT, "packages", "cli", "dist", "bin.js")
export const ORACLE_AGENTS = ["qwen", "gemini", "codex"]

const argv = process.argv.slice(2)
const opt = (name) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined)
const only =
  opt("agent")
    ?.split(",")
    .map((s) => s.trim())
    .filter((s) => ORACLE_AGENTS.includes(s)) ?? ORACLE_AGENTS
const verbose = argv.includes("--verbose")
const resultFile = opt("result")

// The engines log to the console (Gemini CLI's and Qwen Code's debug loggers): this script writes
// its lines to stdout directly.
const say = (line) => process.stdout.write(`${line}\n`)
for (const key of ["log", "debug", "warn", "info", "error"]) console[key] = () => {}

const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-oracles-")))
const home = join(root, "home")
mkdirSync(home, { recursive: true })
const started = Date.now()
const rows = []
const report = (agent, id, ok, note, details = []) => {
  rows.push({ agent, scenario: `oracle:${id}`, mode: `--preset ${agent}`, status: ok ? "passed" : "failed", note })
  say(`${ok ? "ok  " : "FAIL"}  ${agent.padEnd(6)} oracle ${id}${note ? `  ${note}` : ""}`)
  if (!ok || verbose) for (const line of details) say(`      ${line}`)
}

/** `agent-hooks run <event> --preset <name> …` with a payload on stdin: its Outcome (JSON). */
const ours = (args, payload, env) =>
  new Promise((done, fail) => {
    const child = spawn(join(TOOLS_BIN, "node"), [CLI, "run", ...args, "--project-dir", env.PROJECT ?? root], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: root, ...env },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("error", fail)
    child.on("close", (code) => {
      try {
        done(JSON.parse(out))
      } catch {
        fail(new Error(`agent-hooks run ${args.join(" ")} exited ${code} without an Outcome: ${err.trim().slice(0, 400)}`))
      }
    })
    child.stdin.end(JSON.stringify(payload))
  })

let n = 0
const settingsFile = (document) => {
  const file = join(root, `settings-${n++}.json`)
  writeFileSync(file, JSON.stringify(document))
  return file
}

/** The events of `--preset <name>`, as `agent-hooks presets` lists them. */
const presetEventsOf = async (name) => {
  const { byName } = await import(pathToFileURL(join(ROOT, "packages", "core", "dist", "Presets.js")).href)
  const preset = byName(name)
  if (preset === undefined) throw new Error(`no preset ${name} in the build`)
  return preset.events.map((event) => event.name)
}

async function qwenOracle() {
  const results = await runQwenOracle({
    agentsModules: MODULES,
    cwd: root,
    ours: (c, event) =>
      ours(
        [event, "--preset", "qwen", "--settings", settingsFile({ hooks: c.hooks })],
        c.payload ?? {
          tool_name: c.tool,
          tool_input: c.input,
          ...(c.response === undefined ? {} : { tool_response: c.response })
        },
        {}
      ),
    presetEvents: await presetEventsOf("qwen"),
    // host mode as Qwen Code's hook (Qwen Code gives its hooks this process's environment): no daemon, the policy file named
    hostCommand: (policy) => {
      process.env.AGENT_HOOKS_DAEMON = "0"
      process.env.AGENT_HOOKS_HOME = join(home, ".agent-hooks")
      return `'${join(TOOLS_BIN, "node")}' '${CLI}' hook --host qwen --timeout 60 --settings '${settingsFile(policy)}'`
    }
  })
  for (const row of results) {
    report("qwen", row.id, row.same, row.documented ? "(a documented difference)" : "", [
      `Qwen Code:     ${JSON.stringify(row.qwen)}`,
      `--preset qwen: ${JSON.stringify(row.ours)}`
    ])
  }
}

async function geminiOracle() {
  const HookSystem = await loadGeminiHookSystem(MODULES)
  const log = join(root, "gemini.log")
  const read = () => (existsSync(log) ? readFileSync(log, "utf8") : "")
  const cases = [...dedupCases(12).map((c) => ({ ...c, timed: false })), ...SEQUENTIAL_CASES.map((c) => ({ ...c, timed: true }))]
  for (const c of cases) {
    rmSync(log, { force: true })
    process.env.ORACLE_LOG = log
    await fireGemini(HookSystem, c.hooks, root, c.tool, c.input)
    const theirs = readLog(read(), c.timed)
    rmSync(log, { force: true })
    await ours(
      ["BeforeTool", "--preset", "gemini", "--settings", settingsFile({ hooks: c.hooks })],
      { tool_name: c.tool, tool_input: c.input },
      { ORACLE_LOG: log }
    )
    const mine = readLog(read(), c.timed)
    report("gemini", c.id, theirs === mine, "", [
      `Gemini CLI:      ${theirs}`,
      `--preset gemini: ${mine}`,
      `hooks: ${JSON.stringify(c.hooks)}`
    ])
  }
}

async function codexOracle() {
  const agent = AGENTS.codex
  for (const c of CODEX_CASES) {
    const dir = join(root, `codex-${c.id}`)
    const caseHome = join(dir, "home")
    const project = join(dir, "project")
    mkdirSync(caseHome, { recursive: true })
    mkdirSync(project, { recursive: true })
    // The hook keeps its stdin (the payload Codex sent) beside itself, then answers.
    const script = join(dir, "hook.sh")
    writeFileSync(script, `#!/bin/sh\ninput=$(cat)\n[ -f "$0.payload" ] || printf '%s' "$input" > "$0.payload"\n${c.script}\n`)
    chmodSync(script, 0o755)
    const server = await startModelServer({})
    try {
      agent.setup({ home: caseHome, project, url: server.url, hooks: [{ event: c.event, command: `sh ${script}` }], timeout: 30 })
      const env = agentEnv(agent, { home: caseHome, url: server.url, pathPrefix: TOOLS_BIN })
      const code = await new Promise((done) => {
        const child = spawn(join(MODULES, ".bin", agent.bin), agent.command("Please create the marker file in this folder."), {
          cwd: project,
          env,
          stdio: ["ignore", "ignore", "ignore"]
        })
        const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
        child.on("close", (status) => {
          clearTimeout(timer)
          done(status)
        })
      })
      const observed = { marker: existsSync(join(project, "MARKER")), sentAfterToolCall: server.sentAfterToolCall() }
      if (!existsSync(`${script}.payload`)) {
        report("codex", c.id, false, `codex (exit ${code}) never ran the hook`)
        continue
      }
      const payload = JSON.parse(readFileSync(`${script}.payload`, "utf8"))
      // The same HOME, so that the preset finds ~/.codex/hooks.json where Codex found it.
      const outcome = await ours([c.event, "--preset", "codex"], payload, {
        HOME: caseHome,
        CODEX_HOME: join(caseHome, ".codex"),
        PROJECT: project
      })
      const problems = compareCodex(c, observed, outcome)
      report("codex", c.id, problems.length === 0, "", [
        ...problems,
        `codex: ${observed.marker ? "ran the tool" : "blocked the tool"}; agent-hooks: ${JSON.stringify({ blocked: outcome.blocked, reason: outcome.reason, additionalContext: outcome.additionalContext, warnings: outcome.warnings })}`
      ])
    } finally {
      await server.close()
    }
  }
}

const oracles = { qwen: qwenOracle, gemini: geminiOracle, codex: codexOracle }
try {
  if (!existsSync(CLI)) throw new Error(`agent-hooks is not built (${CLI} is missing): run \`npm run build\` first`)
  // The three at once: most of the time is spent waiting for hook processes and agent-hooks runs.
  const took = []
  await Promise.all(
    only.map((name) =>
      oracles[name]()
        .catch((error) =>
          report(name, "(engine)", false, `the oracle could not run: ${error?.message ?? error}`, [String(error?.stack ?? error)])
        )
        .finally(() => took.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)}s`))
    )
  )
  say(`oracles done: ${took.join(", ")}`)
} catch (error) {
  report("oracles", "(setup)", false, String(error?.message ?? error))
} finally {
  rmSync(root, { recursive: true, force: true })
}
const passed = rows.filter((r) => r.status === "passed").length
const failed = rows.filter((r) => r.status === "failed").length
say(`oracles: ${((Date.now() - started) / 1000).toFixed(1)}s`)
say(`${passed} passed, ${failed} failed, 0 skipped`)
if (resultFile) writeFileSync(resultFile, JSON.stringify({ passed, failed, skipped: 0, ms: Date.now() - started, rows }, null, 2))
process.exit(failed > 0 ? 1 : 0)
