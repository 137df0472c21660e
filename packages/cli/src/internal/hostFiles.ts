/**
 * Where each agent reads its hooks, per scope, and which shape install writes there
 * (`hostConfig.ts`): the change install or uninstall makes to each file, and the entries install
 * wrote that doctor finds. Every file is read and written through `configFile.ts` (never through a
 * symlink that leaves its folder; atomically).
 */
import type * as HostMode from "@agent-hooks/core/HostMode"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { parse as parseToml } from "smol-toml"
import { readText, target } from "./configFile.ts"
import type * as Agents from "@agent-hooks/core/Agents"
import type { ConfigEntry, FailClosed, InstallPlan, JsonForm, OwnEntry, OwnFile } from "./hostConfig.ts"
import { wiringOf } from "./agentProfile.ts"
import { pluginConfig, readPlugin, renderPlugin } from "./pluginFile.ts"
import {
  addEntries,
  addOwn,
  byEvent,
  addTomlBlock,
  clineScript,
  ConfigError,
  entriesOf,
  flatForm,
  nestedForm,
  ownEntries,
  removeOwn,
  removeTomlBlock,
  tomlOwnEntries,
  eventsFile,
  triggersFile
} from "./hostConfig.ts"

/** Where an install goes: the user's config, or the project's shared one. */
export type Scope = "user" | "project"

/** How install wires an agent for one scope. */
export type Layout =
  /** A JSON (with comments) config shared with the user's entries, edited in place. */
  | { readonly kind: "json"; readonly file: string; readonly form: JsonForm }
  /** `hooks.json`, or the `[hooks]` tables of `config.toml` when that is where the layer keeps its hooks (Codex). */
  | { readonly kind: "layered"; readonly json: string; readonly toml: string }
  /** A file of install's own in a folder the agent reads every file of. */
  | { readonly kind: "own"; readonly file: string; readonly format: OwnFile }
  /** One executable per event, named after it (Cline). */
  | { readonly kind: "scripts"; readonly folder: string }
  /** agent-hooks' plugin, a file of install's own in the agent's plugin folder (pi, opencode, Kilo). */
  | { readonly kind: "plugin"; readonly file: string }

/** The layered config's `hooks.json` shape: Claude Code's nested one. */
const nested = nestedForm("hooks")

/** The CLI's writer for a JSON shape of an agent's profile. */
const jsonForm = (shape: Agents.JsonShape): JsonForm => {
  const failClosed =
    shape.failClosed === undefined
      ? undefined
      : { key: shape.failClosed.key, value: shape.failClosed.value, events: new Set(shape.failClosed.events) }
  return shape.shape === "nested"
    ? nestedForm(shape.group, failClosed)
    : flatForm({
        ...(shape.head === undefined ? {} : { head: shape.head }),
        timeout: shape.timeout,
        matcher: shape.matcher,
        ...(failClosed === undefined ? {} : { failClosed })
      })
}

/** The CLI's writer for a file shape of an agent's profile that install owns whole. */
const ownFormat = (shape: Agents.OwnFileShape): OwnFile =>
  shape.shape === "triggers" ? triggersFile : eventsFile(shape.head, shape.commandKey, shape.timeoutKey, shape.matcher)

/** The agent's config for a scope: where its profile says (`wiring.place`), in the shape it names. */
export const layoutOf = (
  agent: HostMode.Agent,
  scope: Scope,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>
): Layout => {
  const home = env["HOME"] !== undefined && env["HOME"] !== "" ? env["HOME"] : homedir()
  const place = wiringOf(agent).place({
    scope,
    home,
    projectDir,
    env,
    join: (...parts) => join(...parts),
    resolve: (path) => resolve(path)
  })
  switch (place.kind) {
    case "json":
      return { kind: "json", file: place.file, form: jsonForm(place.shape) }
    case "own":
      return { kind: "own", file: place.file, format: ownFormat(place.shape) }
    case "layered":
    case "scripts":
      return place
    case "plugin":
      return { kind: "plugin", file: place.file }
  }
}

/** The agent's switch that makes host mode's entries block when agent-hooks cannot start (Claude Code's, Cursor's), if it has one. */
export const failClosedOf = (agent: HostMode.Agent): FailClosed | undefined => {
  const layout = layoutOf(agent, "project", "/", { HOME: "/" })
  return layout.kind === "json" ? layout.form.failClosed : undefined
}

/** Whether the agent's entries have a matcher it reads (a bare `migrate --to --lossy` entry keeps its own there). */
export const readsMatchers = (agent: HostMode.Agent): boolean => {
  const layout = layoutOf(agent, "project", "/", { HOME: "/" })
  switch (layout.kind) {
    case "json":
      return layout.form.matchers
    case "own":
      return layout.format.matchers
    case "layered":
      return nested.matchers
    case "scripts":
      return clineScript.matchers
    case "plugin":
      // the plugin sends every call: the policy's matchers choose
      return false
  }
}

/** The files of a layout, as the agent names them (a Cline folder: one per event). */
export const filesOf = (layout: Layout, events: ReadonlyArray<string>): ReadonlyArray<string> => {
  switch (layout.kind) {
    case "json":
    case "own":
    case "plugin":
      return [layout.file]
    case "layered":
      return [layout.json, layout.toml]
    case "scripts":
      return events.map((event) => join(layout.folder, event))
  }
}

/** One file's change: its name, the file written (its in-folder symlink's target), its text before and after (`undefined`: no file). */
export interface Change {
  readonly file: string
  readonly real: string
  readonly before: string | undefined
  readonly after: string | undefined
  /** The mode of a file install creates. */
  readonly mode?: number | undefined
}

/** A file as read safely: `target` refuses a symlink out of its folder (and, for a project, out of the project). */
const reader =
  (scope: Scope, projectDir: string) =>
  (file: string): { readonly file: string; readonly real: string; readonly text: string | undefined } => {
    const real = target(file, scope === "project" ? projectDir : undefined)
    return { file, real, text: readText(real) }
  }

/** The hooks a `config.toml` defines (`[hooks]` minus Codex's own `[hooks.state]` trust records). */
const tomlHooks = (text: string, file: string): ReadonlyArray<string> => {
  let document: Record<string, unknown>
  try {
    document = parseToml(text) as Record<string, unknown>
  } catch (error) {
    throw new ConfigError(`${file}: not TOML (${(error as Error).message.split("\n")[0]}); fix the file, then run the command again`)
  }
  const hooks = document["hooks"]
  return typeof hooks === "object" && hooks !== null ? Object.keys(hooks).filter((key) => key !== "state") : []
}

/**
 * Which of Codex's two files install writes: `config.toml` when install's block is already there,
 * or when the layer keeps its hooks in `config.toml` and has no `hooks.json` (Codex warns when one
 * layer has both); `hooks.json` otherwise.
 */
export const codexTarget = (
  agent: HostMode.Agent,
  json: { readonly file: string; readonly text: string | undefined },
  toml: { readonly file: string; readonly text: string | undefined }
): "json" | "toml" => {
  if (toml.text !== undefined && tomlOwnEntries(agent, toml.text).length > 0) return "toml"
  if (json.text !== undefined) return "json"
  return toml.text !== undefined && tomlHooks(toml.text, toml.file).length > 0 ? "toml" : "json"
}

/** Install's changes for a scope (files that stay as they are are left out). */
export const installChanges = (layout: Layout, plan: InstallPlan, scope: Scope, projectDir: string): ReadonlyArray<Change> => {
  const read = reader(scope, projectDir)
  const changed = (changes: ReadonlyArray<Change>) => changes.filter((change) => change.after !== change.before)
  switch (layout.kind) {
    case "json": {
      const at = read(layout.file)
      return changed([{ ...at, before: at.text, after: addOwn(layout.form, plan, at.text, layout.file) }])
    }
    case "layered": {
      const json = read(layout.json)
      const toml = read(layout.toml)
      if (codexTarget(plan.agent, json, toml) === "json") {
        return changed([{ ...json, before: json.text, after: addOwn(nested, plan, json.text, layout.json) }])
      }
      const after = addTomlBlock(plan, toml.text!)
      let defined: ReadonlyArray<string> = []
      try {
        defined = tomlHooks(after, layout.toml)
      } catch {}
      if (plan.events.some((event) => !defined.includes(event))) {
        throw new ConfigError(
          `${layout.toml}: its hooks are written in a form install's [[hooks.<Event>]] tables cannot join (an inline array or table under [hooks]): nothing written. Write them as [[hooks.<Event>]] tables, or move them to ${layout.json} (install then writes there)`
        )
      }
      return changed([{ ...toml, before: toml.text, after }])
    }
    case "own": {
      const at = read(layout.file)
      if (at.text !== undefined && layout.format.entries(plan.agent, at.text) === undefined) {
        throw new ConfigError(
          `${layout.file} exists and is not the file agent-hooks install writes: not overwritten. Move it away, or add the hook command to it by hand`
        )
      }
      return changed([{ ...at, before: at.text, after: layout.format.render(entriesOf(plan)) }])
    }
    case "scripts": {
      const changes = entriesOf(plan).map((entry) => {
        const at = read(join(layout.folder, entry.event))
        if (at.text !== undefined && clineScript.entries(plan.agent, at.text) === undefined) {
          throw new ConfigError(
            `${at.file} exists and is not a hook agent-hooks install wrote: not overwritten (nothing was written). Move it away, or call \`agent-hooks hook --host cline\` from it yourself`
          )
        }
        return {
          ...at,
          before: at.text,
          after: clineScript.render([entry]),
          mode: 0o755
        }
      })
      return changed(changes)
    }
    case "plugin": {
      const at = read(layout.file)
      if (at.text !== undefined && readPlugin(at.text) === undefined) {
        throw new ConfigError(
          `${layout.file} exists and is not the plugin agent-hooks install writes: not overwritten (nothing was written). Move it away, then run install again`
        )
      }
      // one command for every event: the plugin names the event in the payload
      const after = renderPlugin(pluginConfig(plan.agent, plan.command(plan.events[0]!), plan.timeout))
      return changed([{ ...at, before: at.text, after }])
    }
  }
}

/** A file `newFiles` writes: its path, its text, whether it is an executable (Cline's). */
export interface NewFile {
  readonly path: string
  readonly text: string
  readonly executable: boolean
}

/**
 * The files of a layout holding `entries`, written from nothing (`migrate --to`), by the renderers
 * install writes with: host mode's entries as install writes them (Claude Code's onFailure, Cursor's
 * failClosed on the events that guard), a source hook's own command beside them. Codex: `hooks.json`.
 */
export const newFiles = (layout: Layout, agent: HostMode.Agent, entries: ReadonlyArray<ConfigEntry>): ReadonlyArray<NewFile> => {
  if (entries.length === 0) return []
  switch (layout.kind) {
    case "json":
      return [{ path: layout.file, text: addEntries(layout.form, agent, entries, undefined, layout.file), executable: false }]
    case "layered":
      return [{ path: layout.json, text: addEntries(nested, agent, entries, undefined, layout.json), executable: false }]
    case "own":
      return [{ path: layout.file, text: layout.format.render(entries), executable: false }]
    case "scripts":
      // Cline runs one executable per event: the event's first entry
      return byEvent(entries).map(([event, list]) => ({
        path: join(layout.folder, event),
        text: clineScript.render(list),
        executable: true
      }))
    case "plugin":
      throw new ConfigError(
        `${agent.displayName} has no hook config to migrate hooks into: it runs agent-hooks through its plugin. Run agent-hooks install --host ${agent.name}, and keep the hooks in agent-hooks' settings (migrate --to claude writes them in Claude Code's shape, which agent-hooks reads)`
      )
  }
}

/** Uninstall's changes: install's entries (any path, any timeout) out, and the files install created removed. */
export const uninstallChanges = (layout: Layout, agent: HostMode.Agent, scope: Scope, projectDir: string): ReadonlyArray<Change> => {
  const read = reader(scope, projectDir)
  const present = (file: string) => {
    const at = read(file)
    return at.text === undefined ? [] : [{ ...at, before: at.text }]
  }
  const changes: Array<Change> = []
  switch (layout.kind) {
    case "json":
      for (const at of present(layout.file)) changes.push({ ...at, after: removeOwn(layout.form, agent, at.before, layout.file) })
      break
    case "layered":
      for (const at of present(layout.json)) changes.push({ ...at, after: removeOwn(nested, agent, at.before, layout.json) })
      for (const at of present(layout.toml)) changes.push({ ...at, after: removeTomlBlock(at.before) })
      break
    case "own":
      for (const at of present(layout.file))
        changes.push({ ...at, after: layout.format.entries(agent, at.before) === undefined ? at.before : undefined })
      break
    case "scripts":
      for (const event of Object.keys(agent.events)) {
        for (const at of present(join(layout.folder, event)))
          changes.push({ ...at, after: clineScript.entries(agent, at.before) === undefined ? at.before : undefined })
      }
      break
    case "plugin":
      for (const at of present(layout.file))
        changes.push({ ...at, after: readPlugin(at.before)?.host === agent.name ? undefined : at.before })
      break
  }
  return changes.filter((change) => change.after !== change.before)
}

/** The entries install wrote, per event, and the file each is in. */
export const wiredEntries = (
  layout: Layout,
  agent: HostMode.Agent,
  scope: Scope,
  projectDir: string
): Map<string, OwnEntry & { readonly file: string }> => {
  const read = reader(scope, projectDir)
  const found = new Map<string, OwnEntry & { readonly file: string }>()
  const add = (file: string, event: string, entry: OwnEntry) => {
    if (!found.has(event)) found.set(event, { ...entry, file })
  }
  const fromJson = (file: string, form: JsonForm) => {
    const at = read(file)
    if (at.text !== undefined) for (const entry of ownEntries(form, agent, at.text, file)) add(file, entry.event, entry.entries[0]!)
  }
  switch (layout.kind) {
    case "json":
      fromJson(layout.file, layout.form)
      break
    case "layered": {
      fromJson(layout.json, nested)
      const toml = read(layout.toml)
      if (toml.text !== undefined) for (const entry of tomlOwnEntries(agent, toml.text)) add(layout.toml, entry.event, entry)
      break
    }
    case "own": {
      const at = read(layout.file)
      if (at.text !== undefined) for (const entry of layout.format.entries(agent, at.text) ?? []) add(layout.file, entry.event, entry)
      break
    }
    case "scripts":
      for (const event of Object.keys(agent.events)) {
        const at = read(join(layout.folder, event))
        const own = at.text === undefined ? undefined : clineScript.entries(agent, at.text)
        if (own !== undefined) add(at.file, event, own[0]!)
      }
      break
    case "plugin": {
      const at = read(layout.file)
      const config = at.text === undefined ? undefined : readPlugin(at.text)
      if (config !== undefined && config.host === agent.name)
        for (const event of config.events ?? Object.keys(agent.events))
          add(layout.file, event, { command: config.command, timeout: config.timeout })
      break
    }
  }
  return found
}
