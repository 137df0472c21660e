/**
 * agent-hooks' plugin for the agents without command hooks (pi, opencode, Kilo): the file install
 * writes into the folder the agent loads plugins from. It is one file shipped beside this module
 * (`plugins/agentHooksPlugin.js`, built beside the CLI bundle: `scripts/run-time-files.mjs`), with
 * one line filled in by install: the agent, host mode's command and its timeout. That line is also
 * how uninstall and doctor know the file is install's, and which command it runs.
 */
import type * as HostMode from "@agent-hooks/core/HostMode"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { ConfigError } from "./hostConfig.ts"

/** What install fills in. */
export interface PluginConfig {
  readonly host: string
  readonly command: string
  readonly timeout: number
  /** The variable host mode reads the project folder from (the agent's `projectDirEnv`). */
  readonly projectDirEnv: string
  /** Only these events (Claude Code's names) run host mode; install writes none: every event. */
  readonly events?: ReadonlyArray<string> | undefined
}

const PLACEHOLDER = `"@@agent-hooks-plugin-config@@"`

/** The plugin's source as shipped: beside this module (the sources), or beside the bundle that holds it. */
const templateUrl = () =>
  new URL(import.meta.url.endsWith(".ts") ? "./plugins/agentHooksPlugin.js" : "./agentHooksPlugin.js", import.meta.url)

let cached: string | undefined

/** The shipped plugin's text, with its one line to fill in. */
export const template = (): string => {
  if (cached !== undefined) return cached
  let text: string
  try {
    text = readFileSync(fileURLToPath(templateUrl()), "utf8")
  } catch (error) {
    throw new ConfigError(
      `agent-hooks' plugin file is missing from this install (${fileURLToPath(templateUrl())}: ${(error as Error).message}): reinstall @agent-hooks/cli`
    )
  }
  if (text.split(PLACEHOLDER).length !== 2)
    throw new ConfigError(
      `agent-hooks' plugin file ${fileURLToPath(templateUrl())} is not the one this CLI ships: reinstall @agent-hooks/cli`
    )
  cached = text
  return text
}

/** The plugin file for this agent and command. */
export const renderPlugin = (config: PluginConfig): string =>
  `${HEADER(config.host)}\n${template().replace(PLACEHOLDER, JSON.stringify(config))}`

/** The file's first line: what it is, for whoever opens the agent's plugin folder. */
const HEADER = (host: string) =>
  `// agent-hooks plugin: written by \`agent-hooks install --host ${host}\`, removed by \`agent-hooks uninstall --host ${host}\`; \`agent-hooks doctor --host ${host}\` checks it. Do not edit: install writes it again.`

/** The config of a plugin file install wrote (`undefined`: not one of install's). */
export const readPlugin = (text: string): PluginConfig | undefined => {
  const line = /^(?:const|let|var) CONFIG = (\{.*\});?$/m.exec(text)
  if (line === null || !text.startsWith("// agent-hooks plugin: ")) return undefined
  try {
    const config: unknown = JSON.parse(line[1]!)
    if (typeof config !== "object" || config === null) return undefined
    const { host, command, timeout, projectDirEnv } = config as Record<string, unknown>
    if (typeof host !== "string" || typeof command !== "string" || typeof timeout !== "number" || typeof projectDirEnv !== "string")
      return undefined
    const events = (config as Record<string, unknown>)["events"]
    return {
      host,
      command,
      timeout,
      projectDirEnv,
      ...(Array.isArray(events) && events.every((event) => typeof event === "string") ? { events } : {})
    }
  } catch {
    return undefined
  }
}

/** The plugin file's config for the agent's plugin (the variable host mode reads its project folder from). */
export const pluginConfig = (agent: HostMode.Agent, command: string, timeout: number): PluginConfig => ({
  host: agent.name,
  command,
  timeout,
  projectDirEnv: agent.projectDirEnv[0] ?? "CLAUDE_PROJECT_DIR"
})

/**
 * Why the plugin file at `file` is not the one this agent-hooks writes for its own config line (an
 * older agent-hooks', or edited by hand), or `undefined` when it is.
 */
export const pluginStale = (file: string): string | undefined => {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (error) {
    return `cannot be read (${(error as Error).message})`
  }
  const config = readPlugin(text)
  if (config === undefined) return "is not the plugin agent-hooks install writes"
  try {
    return renderPlugin(config) === text ? undefined : "differs from the plugin this agent-hooks ships (an older version, or edited)"
  } catch (error) {
    return (error as Error).message
  }
}
