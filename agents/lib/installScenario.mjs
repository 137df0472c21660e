// The install scenario of the agents step (agents/run.mjs runs it once per agent; agents/install.mjs
// runs it alone): `agent-hooks install --host <agent>` wires the real agent, `doctor` says the agent
// is wired and blocks, the agent (against the scripted model server) is stopped by the policy, and
// `uninstall` gives the config back byte for byte.
//
// The policy is agent-hooks' user settings (~/.agent-hooks/settings.json), written once in Claude
// Code's names: PreToolUse Bash, a shell hook that refuses `touch MARKER` with exit 2.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { AGENTS, agentEnv } from "./agents.mjs"
import { startModelServer } from "./server.mjs"

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const ROOT = resolve(HERE, "..")
const TOOLS_BIN = join(ROOT, ".tools", "node_modules", ".bin")
const CLI = process.env.AGENT_HOOKS_CLI ?? join(ROOT, "packages", "cli", "dist", "bin.js")
const TOKEN = "installed-policy-reason-7d1"
const RUN_TIMEOUT_MS = Number(process.env.AGENT_HOOKS_AGENT_TIMEOUT_S ?? 120) * 1000

/** The file install writes for the agent: the project's for Claude Code (its trust is set up), else the user's. */
const configFile = (name, home, project, agent = AGENTS[name]) =>
  agent?.installFile?.(home, project) ??
  {
    claude: join(project, ".claude", "settings.json"),
    codex: join(home, ".codex", "hooks.json"),
    gemini: join(home, ".gemini", "settings.json"),
    qwen: join(home, ".qwen", "settings.json")
  }[name]

/**
 * What `path` holds, to compare before install and after uninstall: a file's text, a folder's files
 * (name and text, sorted) as one text, or null where there is nothing.
 */
const snapshot = (path) => {
  if (!existsSync(path)) return null
  if (!statSync(path).isDirectory()) return readFileSync(path, "utf8")
  return readdirSync(path, { recursive: true })
    .map(String)
    .sort()
    .filter((name) => !statSync(join(path, name)).isDirectory())
    .map((name) => `== ${name}\n${readFileSync(join(path, name), "utf8")}`)
    .join("\n")
}

const run = (cmd, args, { cwd, env, timeoutMs }) =>
  new Promise((done) => {
    let out = ""
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL")
      } catch {}
    }, timeoutMs)
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    child.on("close", (code) => {
      clearTimeout(timer)
      try {
        process.kill(-child.pid, "SIGKILL")
      } catch {}
      done({ code, out })
    })
  })

/**
 * One agent's install scenario: `problems` is empty when it passed; `dir` (the agent's HOME and
 * project) is kept when it failed or with `keep`.
 */
export async function installScenario(agent, { keep = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `agent-hooks-install-${agent.name}-`))
  const home = join(dir, "home")
  const project = join(dir, "project")
  for (const d of [home, project]) mkdirSync(d, { recursive: true })
  const server = await startModelServer({})
  const problems = []
  try {
    agent.setup({ home, project, url: server.url, hooks: [], timeout: 60 })
    mkdirSync(join(home, ".agent-hooks"), { recursive: true })
    writeFileSync(
      join(home, ".agent-hooks", "settings.json"),
      JSON.stringify(
        {
          hooks: {
            PreToolUse: [
              { matcher: "Bash", hooks: [{ type: "command", command: `if grep -q MARKER; then echo "refused: ${TOKEN}" >&2; exit 2; fi` }] }
            ]
          }
        },
        null,
        2
      )
    )
    // the agent's own install place (agent-<name>.mjs), else the file of one of the four
    const file = agent.install?.file({ home, project }) ?? configFile(agent.name, home, project, agent)
    const host = agent.host ?? agent.name
    const before = snapshot(file)
    const env = agentEnv(agent, { home, url: server.url, pathPrefix: TOOLS_BIN })
    const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { cwd: project, env, encoding: "utf8", timeout: 60_000 })
    const scope = agent.install?.scope ?? (agent.name === "claude" ? "--project" : "--user")
    const installed = cli("install", "--host", host, scope)
    if (installed.status !== 0) problems.push(`install exited ${installed.status}: ${installed.stderr}`)
    const installedText = snapshot(file)
    const doctor = cli("doctor", "--host", host, "--test-command", "touch MARKER")
    if (doctor.status !== 0) problems.push(`doctor exited ${doctor.status}: ${doctor.stdout}${doctor.stderr}`)
    const proc = await run(join(HERE, "node_modules", ".bin", agent.bin), agent.command("Please create the marker file in this folder."), {
      cwd: project,
      env,
      timeoutMs: RUN_TIMEOUT_MS
    })
    if (server.toolCalls === 0) problems.push("the model never called the shell tool")
    if (existsSync(join(project, "MARKER"))) problems.push("MARKER exists: the installed hook did not stop the call")
    if (!server.sentAfterToolCall().includes(TOKEN)) problems.push("the policy's reason did not reach the model")
    const rewritten = snapshot(file) !== installedText
    const removed = cli("uninstall", "--host", host, scope)
    if (removed.status !== 0) problems.push(`uninstall exited ${removed.status}: ${removed.stderr}`)
    const after = snapshot(file)
    if (!rewritten && after !== before)
      problems.push(`after uninstall ${file} differs from before install:\n--- before\n${before}\n--- after\n${after}`)
    // Gemini CLI and Qwen Code migrate and reformat their settings file while they run: then the
    // bytes cannot come back, but no agent-hooks entry may stay, and every other hook must
    if (rewritten) {
      const hooks = JSON.parse(after).hooks ?? {}
      if (JSON.stringify(hooks).includes("hook --host"))
        problems.push(`after uninstall ${file} still holds an agent-hooks entry:\n${after}`)
      if (
        JSON.stringify(Object.fromEntries(Object.entries(hooks).filter(([, v]) => v.length > 0))) !==
        JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(before).hooks ?? {}).filter(([, v]) => v.length > 0)))
      ) {
        problems.push(`after uninstall the hooks of ${file} differ from before install`)
      }
      process.stdout.write(
        `note  ${agent.name.padEnd(6)} ${agent.title} rewrote ${file} while it ran (its own settings migration): compared without formatting\n`
      )
    }
    if (problems.length > 0 || keep) writeFileSync(join(dir, "agent-output.txt"), proc.out)
    return { problems, dir, output: proc.out }
  } finally {
    await server.close()
    // an agent's leftover process may still write there: retried, never a failed scenario
    if (problems.length === 0 && !keep) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
      } catch (error) {
        process.stderr.write(`note: ${dir} not removed: ${error.message}\n`)
      }
    }
  }
}
