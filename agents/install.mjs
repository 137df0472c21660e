#!/usr/bin/env node
// The install scenario alone (lib/installScenario.mjs; the agents step, agents/run.mjs, runs it with
// the other scenarios): `node agents/install.mjs [--agent a,b] [--keep]` after `npm run build`.
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { AGENT_NAMES, AGENTS } from "./lib/agents.mjs"
import { ensureAgents } from "./lib/install.mjs"
import { installScenario } from "./lib/installScenario.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const TOOLS_BIN = join(resolve(HERE, ".."), ".tools", "node_modules", ".bin")
const argv = process.argv.slice(2)
const pick = argv.indexOf("--agent") >= 0 ? argv[argv.indexOf("--agent") + 1].split(",") : AGENT_NAMES
const keep = argv.includes("--keep")
const log = (s) => process.stderr.write(`[install] ${s}\n`)

const agents = pick.map((name) => AGENTS[name])
const install = await ensureAgents({ dir: HERE, pathPrefix: TOOLS_BIN, agents, log })
let failed = 0
for (const agent of agents) {
  if (install.broken[agent.name]) {
    failed++
    process.stdout.write(`FAIL  ${agent.name} install: cannot be driven: ${install.broken[agent.name]}\n`)
    continue
  }
  const started = Date.now()
  const { problems, dir } = await installScenario(agent, { keep })
  if (problems.length > 0) failed++
  process.stdout.write(
    `${problems.length === 0 ? "ok  " : "FAIL"}  ${agent.name.padEnd(6)} install  ${((Date.now() - started) / 1000).toFixed(1)}s${problems.length > 0 ? `  (kept ${dir})\n      ${problems.join("\n      ")}` : ""}\n`
  )
}
process.stdout.write(`${agents.length - failed} passed, ${failed} failed\n`)
process.exitCode = failed > 0 ? 1 : 0
