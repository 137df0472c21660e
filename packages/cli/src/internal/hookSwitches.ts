/**
 * The switches in an agent's own config (and its administrator's) that skip the entry `install`
 * writes, so that host mode never runs for that agent: per agent, which files and keys, read as
 * that agent reads them (which scope wins). `doctor` says each one it finds, with its file, key and
 * what to do, and never calls the agent protected while one is on. Data per agent: one function
 * each, no agent's rule inside another's.
 */
import type * as HostMode from "@agent-hooks/core/HostMode"
import { readdirSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { parse as parseToml } from "smol-toml"
import { readText } from "./configFile.ts"
import { parse, toValue } from "./jsonc.ts"

/** One switch that is on: where, which key, what it does, and what to do. */
export interface OffSwitch {
  readonly file: string
  readonly key: string
  readonly what: string
  readonly fix: string
}

/** What the switches are read against. */
export interface SwitchContext {
  readonly home: string
  readonly projectDir: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly platform: NodeJS.Platform
  /** The agent's own managed (system) folder, when given (`doctor --agent-managed-dir`); else the agent's documented one. */
  readonly managedDir: string | undefined
  /** The command of the entry doctor checks (Gemini CLI's `hooksConfig.disabled` names hooks by command). */
  readonly command: string | undefined
  /** The file of the entry doctor checks, and its event (Codex's `[hooks.state]` names a hook by file, event and place). */
  readonly entryFile?: string | undefined
  readonly event?: string | undefined
}

type Doc = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Doc => typeof value === "object" && value !== null && !Array.isArray(value)

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value)

/** A JSON (with comments) file as a record; `undefined` when absent or not an object. A file that cannot be parsed is said as such. */
const readJson = (file: string, unreadable: Array<OffSwitch>): Doc | undefined => {
  let text: string | undefined
  try {
    text = readText(file)
  } catch (error) {
    unreadable.push({
      file,
      key: "(the file)",
      what: `cannot be read (${(error as Error).message}), so whether it turns hooks off cannot be told`,
      fix: "make it a readable settings file, or remove it"
    })
    return undefined
  }
  if (text === undefined) return undefined
  try {
    const value = toValue(parse(text))
    return isRecord(value) ? value : undefined
  } catch {
    unreadable.push({
      file,
      key: "(the file)",
      what: "is not JSON, so whether it turns hooks off cannot be told",
      fix: "fix the file"
    })
    return undefined
  }
}

const readToml = (file: string, unreadable: Array<OffSwitch>): Doc | undefined => {
  let text: string | undefined
  try {
    text = readText(file)
  } catch {
    return undefined
  }
  if (text === undefined) return undefined
  try {
    return parseToml(text) as Doc
  } catch {
    unreadable.push({ file, key: "(the file)", what: "is not TOML, so whether it turns hooks off cannot be told", fix: "fix the file" })
    return undefined
  }
}

/** `doc.a.b` for a path `a.b`. */
const at = (doc: Doc | undefined, path: string): unknown => {
  let value: unknown = doc
  for (const key of path.split(".")) value = isRecord(value) ? value[key] : undefined
  return value
}

/** The first of `files` (highest precedence first) that sets `key`, with its value. */
const winner = (
  files: ReadonlyArray<readonly [string, Doc | undefined]>,
  key: string
): { readonly file: string; readonly value: unknown } | undefined => {
  for (const [file, doc] of files) {
    const value = at(doc, key)
    if (value !== undefined) return { file, value }
  }
  return undefined
}

/** A variable's value that turns something on (set, not empty, not `0` or `false`). */
const truthy = (value: string | undefined): boolean =>
  value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false"

const managedOf = (context: SwitchContext, documented: Partial<Record<NodeJS.Platform, string>>, fallback: string): string =>
  context.managedDir ?? documented[context.platform] ?? fallback

/** Claude Code's managed settings: `managed-settings.json`, then `managed-settings.d/*.json` alphabetically (a later file's key wins). */
const claudeManaged = (dir: string, unreadable: Array<OffSwitch>): ReadonlyArray<readonly [string, Doc | undefined]> => {
  const files = [join(dir, "managed-settings.json")]
  try {
    const dropIns = join(dir, "managed-settings.d")
    for (const name of readdirSync(dropIns)
      .filter((name) => name.endsWith(".json"))
      .sort())
      files.push(join(dropIns, name))
  } catch {}
  // highest precedence first: the last drop-in
  return files.map((file) => [file, readJson(file, unreadable)] as const).reverse()
}

const ADMIN = "it is the administrator's: ask them to lift it, or to put the agent-hooks entry into the managed settings"

/**
 * Claude Code: managed `disableAllHooks` (every hook off), `allowManagedHooksOnly` and
 * `strictPluginOnlyCustomization` (hooks only from managed settings and plugins: the user's and the
 * project's entries are skipped); `disableAllHooks` of the user's or the project's files, as the
 * scalar Claude Code reads (managed > local > project > user); `CLAUDE_CODE_SIMPLE` and
 * `CLAUDE_CODE_SAFE_MODE` in the environment or in a settings file's `env`.
 */
const claude = (context: SwitchContext, unreadable: Array<OffSwitch>): ReadonlyArray<OffSwitch> => {
  const found: Array<OffSwitch> = []
  const managedDir = managedOf(
    context,
    { darwin: "/Library/Application Support/ClaudeCode", win32: "C:\\Program Files\\ClaudeCode" },
    "/etc/claude-code"
  )
  const managed = claudeManaged(managedDir, unreadable)
  const userDir = nonEmpty(context.env["CLAUDE_CONFIG_DIR"]) ?? join(context.home, ".claude")
  const own: ReadonlyArray<readonly [string, Doc | undefined]> = [
    join(context.projectDir, ".claude", "settings.local.json"),
    join(context.projectDir, ".claude", "settings.json"),
    join(userDir, "settings.json")
  ].map((file) => [file, readJson(file, unreadable)] as const)
  const managedOn = (key: string) => {
    const set = winner(managed, key)
    return set !== undefined && set.value === true ? set.file : undefined
  }
  const off = managedOn("disableAllHooks")
  if (off !== undefined) found.push({ file: off, key: "disableAllHooks", what: "managed settings turn every hook off", fix: ADMIN })
  const managedOnly = managedOn("allowManagedHooksOnly")
  if (managedOnly !== undefined)
    found.push({
      file: managedOnly,
      key: "allowManagedHooksOnly",
      what: "only managed hooks run: the user's and the project's entries, where install writes, are skipped",
      fix: ADMIN
    })
  const strict = winner(managed, "strictPluginOnlyCustomization")
  if (strict !== undefined && (strict.value === true || (Array.isArray(strict.value) && strict.value.includes("hooks"))))
    found.push({
      file: strict.file,
      key: "strictPluginOnlyCustomization",
      what: "hooks come only from plugins and managed settings: the user's and the project's entries are skipped",
      fix: ADMIN
    })
  // a scalar: the highest scope that sets it wins (a managed false too)
  const all = winner([...managed, ...own], "disableAllHooks")
  if (all !== undefined && all.value === true && off === undefined)
    found.push({
      file: all.file,
      key: "disableAllHooks",
      what: "every hook but the managed ones is off",
      fix: `remove the key (or set it to false) in ${all.file}`
    })
  for (const name of ["CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"]) {
    if (truthy(context.env[name]))
      found.push({
        file: "the environment",
        key: name,
        what: "Claude Code started with it skips the settings files' hooks",
        fix: `unset ${name}`
      })
    for (const [file, doc] of [...managed, ...own]) {
      const value = at(doc, `env.${name}`)
      if (typeof value === "string" && truthy(value))
        found.push({
          file,
          key: `env.${name}`,
          what: "sets a variable under which Claude Code skips the settings files' hooks",
          fix: `remove env.${name} from ${file}`
        })
    }
  }
  return found
}

/** Gemini CLI and Qwen Code: settings files, system (`$…_SYSTEM_SETTINGS_PATH`) > project > user. */
const settingsLayers = (
  context: SwitchContext,
  folder: string,
  systemVariable: string,
  system: string,
  unreadable: Array<OffSwitch>
): ReadonlyArray<readonly [string, Doc | undefined]> =>
  [
    context.managedDir !== undefined ? join(context.managedDir, "settings.json") : (nonEmpty(context.env[systemVariable]) ?? system),
    join(context.projectDir, folder, "settings.json"),
    join(context.home, folder, "settings.json")
  ].map((file) => [file, readJson(file, unreadable)] as const)

/** Gemini CLI: `hooksConfig.enabled: false` (older: `tools.enableHooks: false`), and the entry's command in `hooksConfig.disabled` (older: `hooks.disabled`). */
const gemini = (context: SwitchContext, unreadable: Array<OffSwitch>): ReadonlyArray<OffSwitch> => {
  const layers = settingsLayers(context, ".gemini", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/etc/gemini-cli/settings.json", unreadable)
  const found: Array<OffSwitch> = []
  for (const key of ["hooksConfig.enabled", "tools.enableHooks"]) {
    const set = winner(layers, key)
    if (set !== undefined && set.value === false)
      found.push({ file: set.file, key, what: "Gemini CLI's hooks are off", fix: `set ${key} to true (or remove it) in ${set.file}` })
  }
  for (const [file, doc] of layers) {
    for (const key of ["hooksConfig.disabled", "hooks.disabled"]) {
      const list = at(doc, key)
      if (Array.isArray(list) && context.command !== undefined && list.includes(context.command))
        found.push({
          file,
          key,
          what: "lists the agent-hooks entry's command: that hook does not run",
          fix: `remove it from ${key} in ${file}`
        })
    }
  }
  return found
}

/** Qwen Code: `disableAllHooks` (system > project > user). */
const qwen = (context: SwitchContext, unreadable: Array<OffSwitch>): ReadonlyArray<OffSwitch> => {
  const layers = settingsLayers(context, ".qwen", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "/etc/qwen-code/settings.json", unreadable)
  const set = winner(layers, "disableAllHooks")
  return set !== undefined && set.value === true
    ? [
        {
          file: set.file,
          key: "disableAllHooks",
          what: "Qwen Code's hooks are off",
          fix: `remove the key (or set it to false) in ${set.file}`
        }
      ]
    : []
}

/**
 * Codex: `[features] hooks = false` (the deprecated `codex_hooks` too) in the managed
 * `requirements.toml` or in a config layer (the project's over the user's), and the managed
 * `allow_managed_hooks_only = true` (the user's and the project's hooks skipped).
 */
const codex = (context: SwitchContext, unreadable: Array<OffSwitch>): ReadonlyArray<OffSwitch> => {
  const system = managedOf(context, {}, "/etc/codex")
  const requirements = join(system, "requirements.toml")
  const required = readToml(requirements, unreadable)
  const found: Array<OffSwitch> = []
  const featureOff = (doc: Doc | undefined): string | undefined => {
    const hooks = at(doc, "features.hooks")
    if (hooks === false) return "[features] hooks"
    if (hooks === undefined && at(doc, "features.codex_hooks") === false) return "[features] codex_hooks"
    return undefined
  }
  const requiredOff = featureOff(required)
  if (requiredOff !== undefined)
    found.push({ file: requirements, key: requiredOff, what: "Codex's hooks are off for everyone", fix: ADMIN })
  if (at(required, "allow_managed_hooks_only") === true)
    found.push({
      file: requirements,
      key: "allow_managed_hooks_only",
      what: "only managed hooks run: the user's and the project's entries, where install writes, are skipped",
      fix: ADMIN
    })
  const home = resolve(nonEmpty(context.env["CODEX_HOME"]) ?? join(context.home, ".codex"))
  const userConfig = join(home, "config.toml")
  // the user's [hooks.state."<file>:<event>:<group>:<hook>"] enabled = false turns that one hook off
  const state = at(readToml(userConfig, unreadable), "hooks.state")
  if (isRecord(state) && context.entryFile !== undefined && context.event !== undefined && context.command !== undefined) {
    const entries = context.entryFile.endsWith(".toml")
      ? at(readToml(context.entryFile, unreadable), `hooks`)
      : at(readJson(context.entryFile, unreadable), "hooks")
    const groups = isRecord(entries) ? entries[context.event] : undefined
    const label = context.event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase()
    if (Array.isArray(groups)) {
      groups.forEach((group: unknown, g) => {
        const hooks = isRecord(group) ? group["hooks"] : undefined
        if (!Array.isArray(hooks)) return
        hooks.forEach((hook: unknown, h) => {
          const key = `${context.entryFile}:${label}:${g}:${h}`
          const set = state[key]
          if (isRecord(hook) && hook["command"] === context.command && isRecord(set) && set["enabled"] === false)
            found.push({
              file: userConfig,
              key: `[hooks.state."${key}"] enabled`,
              what: "turns the agent-hooks entry off",
              fix: `remove that table (or set enabled = true) in ${userConfig}`
            })
        })
      })
    }
  }
  // config layers, highest first: the project's over the user's over the system's
  for (const file of [join(context.projectDir, ".codex", "config.toml"), join(home, "config.toml"), join(system, "config.toml")]) {
    const doc = readToml(file, unreadable)
    const hooks = at(doc, "features.hooks") ?? at(doc, "features.codex_hooks")
    if (hooks === undefined) continue
    const off = featureOff(doc)
    if (off !== undefined) found.push({ file, key: off, what: "Codex's hooks are off", fix: `set it to true (or remove it) in ${file}` })
    break
  }
  return found
}

/**
 * Copilot CLI: `disableAllHooks` in the repository's `.github/copilot/settings.json` and
 * `settings.local.json` and the user's `~/.copilot/settings.json` and `config.json`
 * (`$COPILOT_HOME`): every hook but the policy's off.
 */
const copilot = (context: SwitchContext, unreadable: Array<OffSwitch>): ReadonlyArray<OffSwitch> => {
  const home = nonEmpty(context.env["COPILOT_HOME"]) ?? join(context.home, ".copilot")
  const files = [
    join(context.projectDir, ".github", "copilot", "settings.local.json"),
    join(context.projectDir, ".github", "copilot", "settings.json"),
    join(home, "settings.json"),
    join(home, "config.json")
  ]
  const found: Array<OffSwitch> = []
  for (const file of files) {
    if (readJson(file, unreadable)?.["disableAllHooks"] === true)
      found.push({
        file,
        key: "disableAllHooks",
        what: "Copilot CLI's hooks (but the policy's) are off",
        fix: `remove the key (or set it to false) in ${file}`
      })
  }
  return found
}

/**
 * VS Code: `chat.useChatHooks: false` in the user's or the workspace's settings, and
 * `chat.hookFilesLocations` turning the entry's folder off.
 */
const vscode = (context: SwitchContext, unreadable: Array<OffSwitch>): ReadonlyArray<OffSwitch> => {
  const user =
    context.platform === "darwin"
      ? join(context.home, "Library", "Application Support", "Code", "User", "settings.json")
      : context.platform === "win32"
        ? join(nonEmpty(context.env["APPDATA"]) ?? join(context.home, "AppData", "Roaming"), "Code", "User", "settings.json")
        : join(nonEmpty(context.env["XDG_CONFIG_HOME"]) ?? join(context.home, ".config"), "Code", "User", "settings.json")
  const found: Array<OffSwitch> = []
  for (const file of [join(context.projectDir, ".vscode", "settings.json"), user]) {
    const doc = readJson(file, unreadable)
    if (doc?.["chat.useChatHooks"] === false)
      found.push({
        file,
        key: "chat.useChatHooks",
        what: "VS Code's agent hooks are off",
        fix: `set chat.useChatHooks to true (or remove it) in ${file}`
      })
    const locations = doc?.["chat.hookFilesLocations"]
    if (isRecord(locations)) {
      for (const [folder, on] of Object.entries(locations)) {
        if (on === false && [".github/hooks", "~/.copilot/hooks"].includes(folder.replace(/\/+$/, "")))
          found.push({
            file,
            key: `chat.hookFilesLocations["${folder}"]`,
            what: "VS Code does not read the folder where install writes its entry",
            fix: `remove it (or set it to true) in ${file}`
          })
      }
    }
  }
  return found
}

/** Per agent, the switches that skip its entries. */
export const SWITCHES: Readonly<
  Partial<Record<HostMode.HostName, (context: SwitchContext, unreadable: Array<OffSwitch>) => ReadonlyArray<OffSwitch>>>
> = {
  claude,
  gemini,
  qwen,
  codex,
  copilot,
  vscode
}

/** The switches that are on for `agent`, and the files whose state cannot be told (as switches: never "protected" over them). */
export const offSwitches = (
  agent: HostMode.Agent,
  context: Omit<SwitchContext, "home" | "platform"> & { readonly home?: string; readonly platform?: NodeJS.Platform }
): ReadonlyArray<OffSwitch> => {
  const unreadable: Array<OffSwitch> = []
  const full: SwitchContext = {
    ...context,
    home: context.home ?? nonEmpty(context.env["HOME"]) ?? homedir(),
    platform: context.platform ?? process.platform
  }
  const found = SWITCHES[agent.name]?.(full, unreadable) ?? []
  return [...found, ...unreadable]
}

/** One switch as doctor says it. */
export const describeSwitch = (agent: HostMode.Agent, off: OffSwitch): string =>
  `not protected: ${off.file}: ${off.key}: ${off.what} (${agent.displayName} skips the agent-hooks entry). To fix: ${off.fix}`
