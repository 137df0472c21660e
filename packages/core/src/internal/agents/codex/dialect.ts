/**
 * Codex CLI: `hooks.json` and `[hooks]` in `config.toml`, in `~/.codex` (`$CODEX_HOME`) and
 * `<project>/.codex`; managed `[hooks]` and `allow_managed_hooks_only` in `/etc/codex/requirements.toml`, and the
 * system layer's `/etc/codex/hooks.json` and `config.toml` `[hooks]` (managed too). Claude Code's shape
 * with Codex's events (Claude Code's names plus `Interrupt`) and handler keys: `commandWindows` (the
 * command on Windows), `timeout` in seconds (alias `timeout_sec`, 600 by default, at least 1),
 * `additionalContextLimit`. Answers are read strictly, as Codex reads them: an unknown key,
 * `permissionDecision: "ask"` or a bare `allow` fails the hook, which fails open. Plugins as Codex
 * loads them (`expand`): those the user's config.toml turns on, at their active version, with their
 * manifest's hooks; `enabled = false` in the user's `[hooks.state]` turns one hook off.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../../HookEvent.ts"
import type { Preset, PresetContext, PresetExpansion, PresetFile, PresetIO } from "../../../PresetModel.ts"
import { parse as parseToml } from "smol-toml"
import { codex as codexAgent } from "./host.ts"
import { decodeTranslated, formatPath, hooksObject, isRecord, join, nonEmpty } from "../../presets/common.ts"
import type { JsonPath } from "../../presets/common.ts"
import { pluginPolicy } from "./policy.ts"
import { CODEX_VARIANTS, pickCommand, platformOf } from "../../presets/peerCommon.ts"

/** Codex's events: the catalog's rules, answers read strictly; `Interrupt` cannot block. */
export const events: ReadonlyArray<CustomEvent> = [
  ...Object.keys(codexAgent.events)
    .filter((name) => name !== "Interrupt")
    .map((name) => ({ name, outputDialect: "codex" as const })),
  { name: "Interrupt", blocking: "none" as const, matcherField: undefined, outputDialect: "codex" as const }
]
const NAMES = events.map((event) => event.name)

/** One Codex handler as a canonical one: the platform's command, `timeout_sec` as `timeout`, Codex-only keys taken off. */
const handler = (raw: unknown, path: JsonPath, file: string, platform: string, warnings: Array<string>): unknown => {
  if (!isRecord(raw)) return raw
  const picked =
    raw["type"] === "command" || raw["type"] === undefined
      ? pickCommand(raw, CODEX_VARIANTS, platform, file, path, warnings)
      : { rest: { ...raw }, command: undefined }
  const { timeout_sec, additionalContextLimit, ...rest } = picked.rest
  if (additionalContextLimit !== undefined && !(typeof additionalContextLimit === "number" && additionalContextLimit >= 0)) {
    warnings.push(
      `${file} at ${formatPath([...path, "additionalContextLimit"])}: expected a number of ` +
        `tokens (0 or more), got ${JSON.stringify(additionalContextLimit)}; ignored`
    )
  }
  const timeout = rest["timeout"] ?? timeout_sec
  return {
    ...rest,
    ...(picked.command === undefined ? {} : { command: picked.command }),
    // Codex's minimum timeout is 1 s
    ...(typeof timeout === "number" ? { timeout: Math.max(1, timeout) } : timeout === undefined ? {} : { timeout })
  }
}

/** A plugin file's facts, from `expand`: its id (`<plugin>@<marketplace>`), folder, data folder and hooks file as Codex names it. */
interface PluginFacts {
  readonly id: string
  readonly root: string
  readonly data: string
  readonly relative: string
}
const pluginOf = (file: PresetFile): PluginFacts | undefined => {
  const facts = file.facts?.["plugin"]
  return isRecord(facts) && typeof facts["id"] === "string" ? (facts as unknown as PluginFacts) : undefined
}
/** The `[hooks.state]` keys the user's config.toml turns off (`enabled = false`), from `expand`. */
const offOf = (file: PresetFile): ReadonlyArray<string> => {
  const off = file.facts?.["off"]
  return Array.isArray(off) ? off.filter((key): key is string => typeof key === "string") : []
}

/** Codex's plugin variables as the engine's own plugin placeholders (`${PLUGIN_ROOT}` is `${CLAUDE_PLUGIN_ROOT}`). */
const pluginPlaceholders = (command: unknown): unknown =>
  typeof command === "string" ? command.replace(/\$\{PLUGIN_(ROOT|DATA)\}/g, (_, which: string) => `\${CLAUDE_PLUGIN_${which}}`) : command

/** The event's label in a `[hooks.state]` key: `PreToolUse` is `pre_tool_use`. */
const stateLabel = (event: string): string => event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase()

const decode: Preset["decode"] = (document, file, context) =>
  Effect.map(decodeFile(document, file, context), (decoded) => {
    const plugin = pluginOf(file)
    // A plugin's hooks get its folder as CLAUDE_PLUGIN_ROOT (and PLUGIN_ROOT), and Codex's data folder
    // for it as CLAUDE_PLUGIN_DATA (and PLUGIN_DATA), as Codex gives them
    return plugin === undefined
      ? decoded
      : { ...decoded, entries: decoded.entries.map((entry) => ({ ...entry, pluginRoot: plugin.root, pluginData: plugin.data })) }
  })

const decodeFile: Preset["decode"] = (document, file, context) =>
  Effect.gen(function* () {
    const plugin = pluginOf(file)
    const toml = file.format === "toml"
    const warnings: Array<string> = []
    // config.toml and requirements.toml hold much else; only [hooks] (without its [hooks.state]
    // table), [features].hooks and allow_managed_hooks_only are about hooks
    const rawHooks =
      isRecord(document) && toml && isRecord(document["hooks"])
        ? Object.fromEntries(Object.entries(document["hooks"]).filter(([key]) => key !== "state"))
        : undefined
    // The hook files this document holds, each with its JSON path and its name in [hooks.state] keys:
    // one, or a plugin manifest's inline hooks (`"hooks": {...}` or `[{...}, ...]`)
    const sources: Array<{ readonly hooks: unknown; readonly at: JsonPath; readonly key: string }> = []
    if (file.kind === "plugin-inline" && plugin !== undefined && isRecord(document)) {
      const inline = document["hooks"]
      const list = Array.isArray(inline) ? inline : [inline]
      list.forEach((entry, index) => {
        const at: JsonPath = Array.isArray(inline) ? ["hooks", index] : ["hooks"]
        if (!isRecord(entry) || (entry["hooks"] !== undefined && !isRecord(entry["hooks"]))) {
          warnings.push(`${file.path} at ${formatPath(at)}: expected an object with "hooks" (Codex's hooks file shape); skipped`)
          return
        }
        sources.push({ hooks: entry["hooks"] ?? {}, at: [...at, "hooks"], key: `${plugin.id}:plugin.json#hooks[${index}]` })
      })
    } else {
      const hooks = toml ? rawHooks : yield* hooksObject(document, file.path)
      sources.push({ hooks: hooks ?? {}, at: ["hooks"], key: plugin === undefined ? file.path : `${plugin.id}:${plugin.relative}` })
    }
    // A cloned repository's config.toml cannot turn the user's hooks off: only the user's [hooks.state] counts
    if (toml && file.scope !== "user" && isRecord(document) && isRecord(document["hooks"]) && isRecord(document["hooks"]["state"])) {
      for (const [key, state] of Object.entries(document["hooks"]["state"])) {
        if (isRecord(state) && state["enabled"] === false) {
          warnings.push(
            `${file.path} at ${formatPath(["hooks", "state", key, "enabled"])}: read only in the ` +
              `user's config.toml (a ${file.scope} file cannot turn hooks off); ignored`
          )
        }
      }
    }
    // Which plugins run is the user's choice too: a project's or the system's [plugins] turns none on or off,
    // and its [marketplaces] cannot vouch for a marketplace under the managed policy
    if (toml && file.scope !== "user" && file.kind === "config" && isRecord(document) && isRecord(document["plugins"])) {
      warnings.push(
        `${file.path} at plugins: read only in the user's config.toml (a ${file.scope} file cannot turn plugins on or off); ignored`
      )
    }
    if (toml && file.scope !== "user" && file.kind === "config" && isRecord(document) && isRecord(document["marketplaces"])) {
      warnings.push(
        `${file.path} at marketplaces: read only in the user's config.toml ` +
          `(a ${file.scope} file cannot declare where plugins come from); ignored`
      )
    }
    const off = new Set(offOf(file))
    const platform = platformOf(context)
    const out: Record<string, unknown> = {}
    const paths = new Map<string, string>()
    for (const source of sources) {
      for (const [event, groups] of Object.entries(isRecord(source.hooks) ? source.hooks : {})) {
        if (!NAMES.includes(event)) {
          warnings.push(
            `${file.path} at ${formatPath([...source.at, event])}: unknown Codex event "${event}"; ` +
              `expected one of ${NAMES.join(", ")}; skipped`
          )
          continue
        }
        if (!Array.isArray(groups)) {
          // decodeTranslated reports the shape error at its path
          out[event] = groups
          continue
        }
        const list: Array<unknown> = Array.isArray(out[event]) ? out[event] : (out[event] = [])
        groups.forEach((group: unknown, index) => {
          paths.set(formatPath(["hooks", event, list.length]), formatPath([...source.at, event, index]))
          if (!isRecord(group) || !Array.isArray(group["hooks"])) {
            list.push(group)
            return
          }
          const kept: Array<unknown> = []
          group["hooks"].forEach((raw: unknown, h) => {
            const where = [...source.at, event, index, "hooks", h]
            const key = `${source.key}:${stateLabel(event)}:${index}:${h}`
            if (off.has(key)) {
              // Codex: a managed hook is always on; another one is off when the user's [hooks.state] says so
              if (file.scope === "managed") {
                warnings.push(
                  `${file.path} at ${formatPath(where)}: [hooks.state."${key}"] enabled = false cannot turn a managed hook off; it runs`
                )
              } else {
                warnings.push(
                  `${file.path} at ${formatPath(where)}: off ([hooks.state."${key}"] enabled = false in the ` +
                    `user's config.toml); it does not run`
                )
                return
              }
            }
            const translated = handler(raw, where, file.path, platform, warnings)
            if (plugin === undefined || !isRecord(translated)) {
              kept.push(translated)
              return
            }
            kept.push({
              ...translated,
              command: pluginPlaceholders(translated["command"]),
              env: {
                PLUGIN_ROOT: "${CLAUDE_PLUGIN_ROOT}",
                PLUGIN_DATA: "${CLAUDE_PLUGIN_DATA}",
                ...(isRecord(translated["env"]) ? translated["env"] : {})
              }
            })
          })
          list.push({ ...group, hooks: kept })
        })
      }
    }
    const features = isRecord(document) && isRecord(document["features"]) ? document["features"] : undefined
    // [features].hooks = false turns hooks off (the deprecated codex_hooks too); in requirements.toml for everyone
    const disabled =
      features !== undefined && (features["hooks"] === false || (features["hooks"] === undefined && features["codex_hooks"] === false))
    const allowManagedOnly = isRecord(document) && document["allow_managed_hooks_only"] === true
    if (allowManagedOnly && file.kind !== "requirements") {
      warnings.push(`${file.path} at allow_managed_hooks_only: read in requirements.toml only (as Codex reads it); ignored`)
    }
    return yield* decodeTranslated(
      {
        document: { hooks: out },
        paths,
        warnings,
        overrides: {
          ...(disabled ? { disableAllHooks: true } : {}),
          ...(allowManagedOnly && file.kind === "requirements" ? { allowManagedHooksOnly: true } : {})
        }
      },
      file.path,
      file.scope,
      context.events ?? events
    )
  })

/** The system folder: requirements.toml and the system config layer (`AGENT_HOOKS_MANAGED_DIR` in tests). */
const managedDir = (context: Parameters<Preset["discover"]>[0]): string => {
  const managed = context.env["AGENT_HOOKS_MANAGED_DIR"]
  return nonEmpty(managed) ? managed : "/etc/codex"
}

const codexHome = (context: Parameters<Preset["discover"]>[0]): string | undefined => {
  const explicit = context.env["CODEX_HOME"]
  if (nonEmpty(explicit)) return explicit
  const home = context.env["HOME"]
  return nonEmpty(home) ? join(home, ".codex") : undefined
}

/** A plugin version folder's name, as Codex accepts it (letters, digits, `.`, `+`, `_`, `-`; not `.` or `..`). */
const VERSION = /^[A-Za-z0-9._+-]+$/
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/
/** Codex's order of versions: by semantic version when both are one, else by their text. */
const compareVersions = (left: string, right: string): number => {
  const a = SEMVER.exec(left)
  const b = SEMVER.exec(right)
  if (a === null || b === null) return left < right ? -1 : left > right ? 1 : 0
  for (const i of [1, 2, 3]) {
    const d = Number(a[i]) - Number(b[i])
    if (d !== 0) return d
  }
  if (a[4] === b[4]) return 0
  if (a[4] === undefined) return 1
  if (b[4] === undefined) return -1
  return a[4] < b[4] ? -1 : 1
}

/** A manifest's hooks path as Codex takes it: `./` then a path that stays in the plugin folder. */
const manifestPath = (value: unknown): string | undefined => {
  if (typeof value !== "string" || !value.startsWith("./")) return undefined
  const parts = value
    .slice(2)
    .split("/")
    .filter((part) => part !== "" && part !== ".")
  return parts.length === 0 || parts.includes("..") ? undefined : parts.join("/")
}

const parseUserConfig = (text: string | undefined): Record<string, unknown> => {
  if (text === undefined) return {}
  try {
    const parsed: unknown = parseToml(text)
    return isRecord(parsed) ? parsed : {}
  } catch {
    // the config.toml file itself is read as a settings file too, and its TOML error is said there
    return {}
  }
}

/**
 * Codex's plugins and `[hooks.state]`: each file gets the user's turned-off hooks; the plugin cache
 * becomes the hook files of each plugin that config.toml turns on, at its active version, as its
 * manifest names them.
 */
const expand = (file: PresetFile, context: PresetContext, io: PresetIO): Effect.Effect<PresetExpansion> =>
  Effect.gen(function* () {
    const home = codexHome(context)
    const userConfigPath = home === undefined ? undefined : join(home, "config.toml")
    const userConfig = parseUserConfig(userConfigPath === undefined ? undefined : yield* io.read(userConfigPath))
    const state = isRecord(userConfig["hooks"]) && isRecord(userConfig["hooks"]["state"]) ? userConfig["hooks"]["state"] : {}
    const off = Object.entries(state)
      .filter(([, value]) => isRecord(value) && value["enabled"] === false)
      .map(([key]) => key)
    if (file.kind !== "plugins" || home === undefined) return { files: [{ ...file, facts: { ...file.facts, off } }], warnings: [] }
    const configured = isRecord(userConfig["plugins"]) ? userConfig["plugins"] : {}
    // The managed requirements' plugin policy: what the user's config turns on loads only within it
    const requirementsPath = join(managedDir(context), "requirements.toml")
    const policy = pluginPolicy(parseUserConfig(yield* io.read(requirementsPath)), requirementsPath, `${userConfigPath}`)
    const declared = isRecord(userConfig["marketplaces"]) ? userConfig["marketplaces"] : {}
    const files: Array<PresetFile> = []
    const warnings: Array<{ file: string; message: string }> = []
    const visible = (names: ReadonlyArray<string>) => [...names].filter((name) => !name.startsWith(".")).sort()
    for (const marketplace of visible(yield* io.list(file.path))) {
      for (const name of visible(yield* io.list(join(file.path, marketplace)))) {
        const base = join(file.path, marketplace, name)
        const versions = visible(yield* io.list(base)).filter((version) => VERSION.test(version))
        if (versions.length === 0) continue
        const id = `${name}@${marketplace}`
        const config = configured[id]
        // Codex loads the plugins config.toml names under [plugins], unless enabled = false
        if (!isRecord(config)) {
          warnings.push({
            file: base,
            message:
              `plugin "${id}" is installed but not turned on in ${userConfigPath} ([plugins."${id}"]): ` +
              `Codex does not load it, and its hooks do not run`
          })
          continue
        }
        if (config["enabled"] === false) {
          warnings.push({
            file: base,
            message: `plugin "${id}" is off ([plugins."${id}"] enabled = false in ${userConfigPath}): its hooks do not run`
          })
          continue
        }
        const refused = policy(marketplace, declared[marketplace])
        if (refused !== undefined) {
          warnings.push({ file: base, message: `plugin "${id}" does not load: ${refused}; its hooks do not run` })
          continue
        }
        // The active version: "local", else the highest
        const active = versions.includes("local") ? "local" : [...versions].sort(compareVersions).at(-1)!
        const others = versions.filter((version) => version !== active)
        if (others.length > 0) {
          warnings.push({
            file: base,
            message: `plugin "${id}": only its active version "${active}" runs, not ${others.map((v) => `"${v}"`).join(", ")}`
          })
        }
        const root = join(base, active)
        const manifestFile = [join(root, ".codex-plugin", "plugin.json"), join(root, ".claude-plugin", "plugin.json")]
        let manifest: { path: string; text: string } | undefined
        for (const path of manifestFile) {
          const text = yield* io.read(path)
          if (text !== undefined) {
            manifest = { path, text }
            break
          }
        }
        if (manifest === undefined) {
          warnings.push({
            file: root,
            message: `plugin "${id}" has no .codex-plugin/plugin.json: Codex does not load it, and its hooks do not run`
          })
          continue
        }
        let parsed: unknown
        try {
          parsed = JSON.parse(manifest.text)
        } catch (error) {
          warnings.push({
            file: manifest.path,
            message:
              `not valid JSON (${error instanceof Error ? error.message : String(error)}): Codex does ` +
              `not load plugin "${id}", and its hooks do not run`
          })
          continue
        }
        const data = join(home, "plugins", "data", `${name}-${marketplace}`)
        const facts = (relative: string) => ({ off, plugin: { id, root, data, relative } })
        const hooks = isRecord(parsed) ? parsed["hooks"] : undefined
        if (hooks === undefined) {
          // no manifest entry: the default hooks/hooks.json
          files.push({
            path: join(root, "hooks", "hooks.json"),
            scope: "plugin",
            required: false,
            kind: "plugin",
            facts: facts("hooks/hooks.json")
          })
          continue
        }
        const entries = Array.isArray(hooks) ? hooks : [hooks]
        if (entries.every((entry) => isRecord(entry))) {
          files.push({ path: manifest.path, scope: "plugin", required: false, kind: "plugin-inline", facts: facts("plugin.json") })
          continue
        }
        entries.forEach((entry, index) => {
          const at = Array.isArray(hooks) ? `hooks[${index}]` : "hooks"
          const relative = manifestPath(entry)
          if (relative === undefined) {
            warnings.push({
              file: manifest.path,
              message:
                `at ${at}: expected a path starting with "./" that stays in the plugin folder, or hooks ` +
                `inline, got ${JSON.stringify(entry)}; ignored, as Codex ignores it`
            })
            return
          }
          files.push({ path: join(root, relative), scope: "plugin", required: false, kind: "plugin", facts: facts(relative) })
        })
      }
    }
    for (const hooksFile of files) {
      if (hooksFile.kind === "plugin" && (yield* io.read(hooksFile.path)) === undefined && hooksFile.facts?.["plugin"] !== undefined) {
        const relative = (hooksFile.facts["plugin"] as PluginFacts).relative
        if (relative !== "hooks/hooks.json")
          warnings.push({ file: hooksFile.path, message: `named by the plugin's manifest, but there is no such file: no hook of it runs` })
      }
    }
    return { files, warnings }
  })

/** @internal */
export const codex: Preset = {
  name: "codex",
  description:
    "Codex CLI: hooks.json and config.toml [hooks] in ~/.codex ($CODEX_HOME) and .codex, " +
    "/etc/codex/requirements.toml; Claude Code's shape, commandWindows, Interrupt; strict " +
    "answers, ask fails open",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = codexHome(context)
    if (home !== undefined) {
      files.push({ path: join(home, "hooks.json"), scope: "user", required: false })
      files.push({ path: join(home, "config.toml"), scope: "user", required: false, format: "toml", kind: "config" })
    }
    // Installed plugins' hooks (each plugin folder in the cache, at its version): plugin hooks, not managed
    // (expand finds each one: turned on in config.toml, at its active version, with its manifest's hooks)
    if (home !== undefined) files.push({ path: join(home, "plugins", "cache"), scope: "plugin", required: false, kind: "plugins" })
    files.push({ path: join(context.projectDir, ".codex", "hooks.json"), scope: "project", required: false })
    files.push({
      path: join(context.projectDir, ".codex", "config.toml"),
      scope: "project",
      required: false,
      format: "toml",
      kind: "config"
    })
    // The system folder (managed): requirements.toml, whose [hooks] run whatever the other files say and
    // whose allow_managed_hooks_only drops theirs; and the system config layer, hooks.json and
    // config.toml [hooks], which Codex also runs as managed hooks (its discovery's System layer).
    const system = managedDir(context)
    files.push({ path: join(system, "requirements.toml"), scope: "managed", required: false, format: "toml", kind: "requirements" })
    files.push({ path: join(system, "hooks.json"), scope: "managed", required: false })
    files.push({ path: join(system, "config.toml"), scope: "managed", required: false, format: "toml", kind: "config" })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  expand: (file, context, io) => expand(file, context, io),
  events,
  projectDirEnv: [],
  toolNames: codexAgent.toolNames
}
