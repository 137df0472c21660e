/**
 * Codex CLI: `hooks.json` and `[hooks]` in `config.toml`, in `~/.codex` (`$CODEX_HOME`) and
 * `<project>/.codex`; managed `[hooks]` and `allow_managed_hooks_only` in `/etc/codex/requirements.toml`, and the
 * system layer's `/etc/codex/hooks.json` and `config.toml` `[hooks]` (managed too). Claude Code's shape
 * with Codex's events (Claude Code's names plus `Interrupt`) and handler keys: `commandWindows` (the
 * command on Windows), `timeout` in seconds (alias `timeout_sec`, 600 by default, at least 1),
 * `additionalContextLimit`. Answers are read strictly, as Codex reads them: an unknown key,
 * `permissionDecision: "ask"` or a bare `allow` fails the hook, which fails open.
 */
import * as Effect from "effect/Effect"
import type { CustomEvent } from "../../HookEvent.ts"
import type { Preset, PresetFile } from "../../Preset.ts"
import { codex as codexAgent } from "../agents/codex.ts"
import { decodeTranslated, formatPath, hooksObject, isRecord, join, nonEmpty } from "./common.ts"
import type { JsonPath } from "./common.ts"
import { CODEX_VARIANTS, pickCommand, platformOf } from "./peerCommon.ts"

/** Codex's events: the catalog's rules, answers read strictly; `Interrupt` cannot block. */
export const events: ReadonlyArray<CustomEvent> = [
  ...Object.keys(codexAgent.events).filter((name) => name !== "Interrupt").map((name) => ({ name, outputDialect: "codex" as const })),
  { name: "Interrupt", blocking: "none" as const, matcherField: undefined, outputDialect: "codex" as const }
]
const NAMES = events.map((event) => event.name)

/** One Codex handler as a canonical one: the platform's command, `timeout_sec` as `timeout`, Codex-only keys taken off. */
const handler = (raw: unknown, path: JsonPath, file: string, platform: string, warnings: Array<string>): unknown => {
  if (!isRecord(raw)) return raw
  const picked = raw["type"] === "command" || raw["type"] === undefined
    ? pickCommand(raw, CODEX_VARIANTS, platform, file, path, warnings)
    : { rest: { ...raw }, command: undefined }
  const { timeout_sec, additionalContextLimit, ...rest } = picked.rest
  if (additionalContextLimit !== undefined && !(typeof additionalContextLimit === "number" && additionalContextLimit >= 0)) {
    warnings.push(`${file} at ${formatPath([...path, "additionalContextLimit"])}: expected a number of tokens (0 or more), got ${JSON.stringify(additionalContextLimit)}; ignored`)
  }
  const timeout = rest["timeout"] ?? timeout_sec
  return {
    ...rest,
    ...(picked.command === undefined ? {} : { command: picked.command }),
    // Codex's minimum timeout is 1 s
    ...(typeof timeout === "number" ? { timeout: Math.max(1, timeout) } : timeout === undefined ? {} : { timeout })
  }
}

/**
 * An installed plugin's hooks file, `$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>/hooks/hooks.json`:
 * its plugin folder, or `undefined` for any other file.
 */
const pluginRootOf = (file: PresetFile): string | undefined =>
  file.kind === "plugin" && file.path.endsWith("/hooks/hooks.json") ? file.path.slice(0, -"/hooks/hooks.json".length) : undefined

/** Codex's plugin variables as the engine's own plugin placeholders (`${PLUGIN_ROOT}` is `${CLAUDE_PLUGIN_ROOT}`). */
const pluginPlaceholders = (command: unknown): unknown =>
  typeof command === "string" ? command.replace(/\$\{PLUGIN_(ROOT|DATA)\}/g, (_, which: string) => `\${CLAUDE_PLUGIN_${which}}`) : command

const decode: Preset["decode"] = (document, file, context) =>
  Effect.map(decodeFile(document, file, context), (decoded) => {
    const root = pluginRootOf(file)
    // A plugin's hooks get its folder as CLAUDE_PLUGIN_ROOT (and PLUGIN_ROOT), as Codex gives both
    return root === undefined ? decoded : { ...decoded, entries: decoded.entries.map((entry) => ({ ...entry, pluginRoot: root })) }
  })

const decodeFile: Preset["decode"] = (document, file, context) =>
  Effect.gen(function*() {
    const plugin = pluginRootOf(file) !== undefined
    const toml = file.format === "toml"
    // config.toml and requirements.toml hold much else; only [hooks] (without its [hooks.state]
    // trust table), [features].hooks and allow_managed_hooks_only are about hooks
    const rawHooks = isRecord(document) && toml && isRecord(document["hooks"])
      ? Object.fromEntries(Object.entries(document["hooks"]).filter(([key]) => key !== "state"))
      : undefined
    const hooks = toml ? rawHooks : yield* hooksObject(document, file.path)
    const warnings: Array<string> = []
    const platform = platformOf(context)
    const out: Record<string, unknown> = {}
    const paths = new Map<string, string>()
    for (const [event, groups] of Object.entries(hooks ?? {})) {
      if (!NAMES.includes(event)) {
        warnings.push(`${file.path} at ${formatPath(["hooks", event])}: unknown Codex event "${event}"; expected one of ${NAMES.join(", ")}; skipped`)
        continue
      }
      out[event] = !Array.isArray(groups) ? groups : groups.map((group: unknown, index) => {
        paths.set(formatPath(["hooks", event, index]), formatPath(["hooks", event, index]))
        if (!isRecord(group) || !Array.isArray(group["hooks"])) return group
        return {
          ...group,
          hooks: group["hooks"].map((raw: unknown, h) => {
            const translated = handler(raw, ["hooks", event, index, "hooks", h], file.path, platform, warnings)
            if (!plugin || !isRecord(translated)) return translated
            return {
              ...translated,
              command: pluginPlaceholders(translated["command"]),
              env: { PLUGIN_ROOT: "${CLAUDE_PLUGIN_ROOT}", PLUGIN_DATA: "${CLAUDE_PLUGIN_DATA}", ...(isRecord(translated["env"]) ? translated["env"] : {}) }
            }
          })
        }
      })
    }
    const features = isRecord(document) && isRecord(document["features"]) ? document["features"] : undefined
    // [features].hooks = false turns hooks off (the deprecated codex_hooks too); in requirements.toml for everyone
    const off = features !== undefined && (features["hooks"] === false || (features["hooks"] === undefined && features["codex_hooks"] === false))
    const allowManagedOnly = isRecord(document) && document["allow_managed_hooks_only"] === true
    if (allowManagedOnly && file.kind !== "requirements") {
      warnings.push(`${file.path} at allow_managed_hooks_only: read in requirements.toml only (as Codex reads it); ignored here`)
    }
    return yield* decodeTranslated(
      {
        document: { hooks: out },
        paths,
        warnings,
        overrides: {
          ...(off ? { disableAllHooks: true } : {}),
          ...(allowManagedOnly && file.kind === "requirements" ? { allowManagedHooksOnly: true } : {})
        }
      },
      file.path,
      file.scope,
      context.events ?? events
    )
  })

const codexHome = (context: Parameters<Preset["discover"]>[0]): string | undefined => {
  const explicit = context.env["CODEX_HOME"]
  if (nonEmpty(explicit)) return explicit
  const home = context.env["HOME"]
  return nonEmpty(home) ? join(home, ".codex") : undefined
}

/** @internal */
export const codex: Preset = {
  name: "codex",
  description: "Codex CLI: hooks.json and config.toml [hooks] in ~/.codex ($CODEX_HOME) and .codex, /etc/codex/requirements.toml; Claude Code's shape, commandWindows, Interrupt; strict answers, ask fails open",
  discover: (context) => {
    const files: Array<PresetFile> = []
    const home = codexHome(context)
    if (home !== undefined) {
      files.push({ path: join(home, "hooks.json"), scope: "user", required: false })
      files.push({ path: join(home, "config.toml"), scope: "user", required: false, format: "toml", kind: "config" })
    }
    // Installed plugins' hooks (each plugin folder in the cache, at its version): plugin hooks, not managed
    if (home !== undefined) files.push({ path: join(home, "plugins", "cache", "*", "*", "*", "hooks", "hooks.json"), scope: "plugin", required: false, kind: "plugin" })
    files.push({ path: join(context.projectDir, ".codex", "hooks.json"), scope: "project", required: false })
    files.push({ path: join(context.projectDir, ".codex", "config.toml"), scope: "project", required: false, format: "toml", kind: "config" })
    // The system folder (managed): requirements.toml, whose [hooks] run whatever the other files say and
    // whose allow_managed_hooks_only drops theirs; and the system config layer, hooks.json and
    // config.toml [hooks], which Codex also runs as managed hooks (its discovery's System layer).
    const managed = context.env["AGENT_HOOKS_MANAGED_DIR"]
    const system = nonEmpty(managed) ? managed : "/etc/codex"
    files.push({ path: join(system, "requirements.toml"), scope: "managed", required: false, format: "toml", kind: "requirements" })
    files.push({ path: join(system, "hooks.json"), scope: "managed", required: false })
    files.push({ path: join(system, "config.toml"), scope: "managed", required: false, format: "toml", kind: "config" })
    return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index)
  },
  decode,
  events,
  projectDirEnv: [],
  toolNames: codexAgent.toolNames
}
