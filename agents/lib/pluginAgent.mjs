// The agents without command hooks (pi, opencode, Kilo): agent-hooks is their plugin, which
// `agent-hooks install --host <agent>` writes. The harness wires them the same way: install writes
// the plugin, then its one config line gets the run's command (the scenario's policy, --timeout)
// and the events the scenario wires, as the harness writes the other agents' configs itself.
// Without hooks (the native side of every scenario) the agent runs bare: the control.
import { spawnSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const CLI = process.env.AGENT_HOOKS_CLI ?? join(ROOT, "packages", "cli", "dist", "bin.js")

/**
 * Writes agent-hooks' plugin for `host` into the project (`install --host <host> --project`), running
 * `command` on `events` (Claude Code's names) with `timeout` seconds.
 * @param {{ host: string, home: string, project: string, command: string, events: string[], timeout: number, file: string }} o
 */
export function wirePlugin({ host, home, project, command, events, timeout, file }) {
  const installed = spawnSync(process.execPath, [CLI, "install", "--host", host, "--project"], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, AGENT_HOOKS_DAEMON: "0" },
    encoding: "utf8",
    timeout: 60_000
  })
  if (installed.status !== 0) throw new Error(`agent-hooks install --host ${host} failed: ${installed.stdout}${installed.stderr}`)
  const text = readFileSync(file, "utf8")
  const line = /^(?:const|let|var) CONFIG = (\{.*\});?$/m.exec(text)
  if (line === null) throw new Error(`${file}: no CONFIG line (is it agent-hooks' plugin?)`)
  const config = { ...JSON.parse(line[1]), command, timeout, events }
  writeFileSync(file, text.replace(line[0], `var CONFIG = ${JSON.stringify(config)};`))
}

/** The hooks of a run are agent-hooks' (one command on every event it is wired to), or none (the bare agent). */
export function pluginHooks(hooks) {
  if (hooks.length === 0) return undefined
  const commands = [...new Set(hooks.map((h) => h.command))]
  if (commands.length !== 1) throw new Error(`a plugin agent runs one command (agent-hooks'), got ${commands.length}`)
  return { command: commands[0], events: [...new Set(hooks.map((h) => h.event))] }
}
