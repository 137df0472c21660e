/**
 * Migration: loaded settings of any preset → one canonical settings document.
 */
import * as HookEvent from "../../HookEvent.ts"
import type { Preset } from "../../PresetModel.ts"
import type { Handler, HookEntry, LoadedSettings } from "../../SettingsModel.ts"

/** @internal */
export interface Migrated {
  readonly settings: Record<string, unknown>
  readonly notes: ReadonlyArray<string>
  /** Hooks whose outcome the canonical format cannot keep: which hook, and why. */
  readonly refused: ReadonlyArray<string>
}

/** The rules of an event that decide an outcome, and how a declaration names them. */
const OUTCOME_RULES = [
  "blocking",
  "nonZeroBlocks",
  "outputDialect",
  "plainStdoutToContext",
  "exit2StderrTo",
  "reasonTo",
  "matcherField",
  "defaultTimeout",
  "specificOutput"
] as const

type Rule = (typeof OUTCOME_RULES)[number]

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * The canonical `events` declaration that gives a dialect event its rules in the migrated file:
 * every rule that differs from the catalog event it stands for (`matcherField: null` for "no
 * matcher"), or `undefined` when none differs.
 */
const declaration = (
  name: string,
  spec: HookEvent.HookEventSpec,
  base: HookEvent.HookEventSpec | undefined
): Record<string, unknown> | undefined => {
  // An event of the dialect's own is compared with what a declaration of that name alone gives.
  const from = base ?? HookEvent.custom({ name })
  const differing = OUTCOME_RULES.filter((key: Rule) => !same(spec[key], from[key]))
  if (differing.length === 0 && base?.name === name) return undefined
  const out: Record<string, unknown> = { name }
  if (base !== undefined && base.name !== name) out["extends"] = base.name
  for (const key of differing) out[key] = spec[key] ?? null
  // Rules that follow from the others (a blocking event's audiences) are left out when the declaration gives them anyway.
  const decoded = (declared: Record<string, unknown>) =>
    HookEvent.custom(
      Object.fromEntries(
        Object.entries(declared).map(([key, value]) => [key, value === null ? undefined : value])
      ) as unknown as HookEvent.CustomEvent
    )
  for (const key of differing) {
    const { [key]: _dropped, ...without } = out
    if (OUTCOME_RULES.every((rule) => same(decoded(without)[rule], spec[rule]))) delete out[key]
  }
  return out
}

/** Why a declaration cannot be written for a catalog event (the canonical decoder's safety rule), if it cannot. */
const inexpressible = (spec: HookEvent.HookEventSpec, base: HookEvent.HookEventSpec): string | undefined =>
  spec.blocking !== "none" && spec.blocking !== base.blocking
    ? `what can block differs: blocking ${JSON.stringify(spec.blocking)} here, ` +
      `${JSON.stringify(base.blocking)} on ${base.name}, and a settings file may only take ` +
      `blocking away from a catalog event`
    : base.blocking === "none" && spec.nonZeroBlocks
      ? `non-zero exits block here, but ${base.name} cannot block, and a settings file may not give it a way to`
      : undefined

/**
 * The config's input defaults (pigo's `model`) in a hook's env values: `${model}` becomes
 * `${model-gpt-4o}`, the payload's model, else the config's.
 */
const withDefaults = (env: Readonly<Record<string, string>>, defaults: ReadonlyArray<readonly [string, string]>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).map(([name, template]) => [
      name,
      defaults.reduce((text, [field, value]) => text.split(`\${${field}}`).join(`\${${field}-${value}}`), template)
    ])
  )

const handlerJson = (
  handler: Handler,
  entry: HookEntry,
  extraEnv: Readonly<Record<string, string>>,
  defaults: ReadonlyArray<readonly [string, string]>
): Record<string, unknown> => {
  switch (handler.type) {
    case "module": {
      const { modulePath, module: _module, ...rest } = handler
      // Relative module paths are relative to the file they came from: written absolute.
      return { ...rest, module: modulePath }
    }
    case "command": {
      const env = withDefaults({ ...extraEnv, ...handler.env }, defaults)
      return Object.keys(env).length === 0 ? { ...handler } : { ...handler, env }
    }
    case "callback":
      return { type: "callback", name: handler.name, source: entry.source }
    default:
      return { ...handler }
  }
}

const groupPath = (path: string): string => path.replace(/\.hooks\[\d+\]$/, "")

/** @internal */
export const toCanonical = (settings: LoadedSettings, preset: Preset, userHome?: string): Migrated => {
  const notes: Array<string> = []
  const refused: Array<string> = []
  const declared = new Map(preset.events.map((event) => [event.name, event]))
  const hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>>; key: string }>> = {}
  const extraEnv: Record<string, string> = {}
  for (const name of preset.projectDirEnv) extraEnv[name] = "${CLAUDE_PROJECT_DIR}"
  // An input default that an env value can carry as its fallback (a field name, a value without "}").
  const defaults = Object.entries(settings.inputDefaults ?? {}).flatMap(([name, value]) =>
    /^[a-z_][a-z0-9_]*$/.test(name) && typeof value === "string" && !value.includes("}") ? [[name, value] as const] : []
  )
  const noted = new Set<string>()
  const noteOnce = (key: string, text: string) => {
    if (noted.has(key)) return
    noted.add(key)
    notes.push(text)
  }
  // User-level hooks stay in the user's own file: a project file must not carry them (Wave's
  // ~/.wave/settings.json is not merged into the project's). A user-only config (pigo) is migrated whole.
  const scopes = new Set(Object.values(settings.hooks).flatMap((entries) => entries.map((entry) => entry.scope)))
  const skipUser = scopes.has("user") && [...scopes].some((scope) => scope !== "user")
  const userFiles = new Set<string>()
  const events: Array<Record<string, unknown>> = []
  for (const [event, entries] of Object.entries(settings.hooks)) {
    const custom = declared.get(event)
    const catalog = custom === undefined ? event : (custom.extends ?? (HookEvent.get(event) !== undefined ? event : undefined))
    const spec = custom === undefined ? HookEvent.get(event) : HookEvent.custom(custom)
    const base = catalog === undefined ? undefined : HookEvent.get(catalog)
    // The dialect's rules travel as the file's own declaration of the event; the name stays the dialect's
    // whenever a rule differs (the host keeps sending it), else the event becomes its catalog event.
    const declared_ = spec === undefined ? undefined : declaration(event, spec, base)
    const target = declared_ === undefined ? (catalog ?? event) : event
    const why =
      spec === undefined
        ? `${event} has no rules in ${preset.name} (the canonical format would skip it as unknown)`
        : base !== undefined && base.name === event && declared_ !== undefined
          ? inexpressible(spec, base)
          : undefined
    if (declared_ !== undefined && why === undefined && entries.some((entry) => entry.handler.type !== "callback")) events.push(declared_)
    if (target !== event) noteOnce(event, `${event} → ${target}`)
    for (const entry of entries) {
      if (entry.handler.type === "callback") {
        refused.push(`${entry.source} at ${entry.path}: a programmatic hook cannot be written to a file`)
        continue
      }
      if (skipUser && entry.scope === "user") {
        userFiles.add(entry.source)
        continue
      }
      if (why !== undefined) refused.push(`${entry.source} at ${entry.path} (${event}): ${why}`)
      const handler = handlerJson(entry.handler, entry, extraEnv, defaults)
      if (entry.scope === "managed") noteOnce(`managed:${entry.source}`, `hooks from managed settings ${entry.source} are included`)
      const key = `${entry.source}\u0000${groupPath(entry.path)}\u0000${entry.matcher.source ?? ""}`
      const groups = (hooks[target] ??= [])
      const last = groups[groups.length - 1]
      if (last !== undefined && last.key === key) last.hooks.push(handler)
      else groups.push({ ...(entry.matcher.source === undefined ? {} : { matcher: entry.matcher.source }), hooks: [handler], key })
    }
  }
  for (const file of userFiles) {
    notes.push(
      `user-level hooks of ${file} are not merged into this file; migrate them on their own into ` +
        `~/.agent-hooks/settings.json (--settings ${file})`
    )
  }
  if (preset.dispatch !== undefined && Object.keys(hooks).length > 0) {
    notes.push(
      `${preset.name}'s own input fields and environment (see docs/presets/${preset.name}.md) ` +
        `are given under --preset ${preset.name} only; migrated hooks get what the host passes`
    )
  }
  const out: Record<string, unknown> = {}
  if (settings.disableAllHooks) out["disableAllHooks"] = true
  if (settings.sequential) out["sequential"] = true
  if (!settings.dedupe) out["dedupe"] = false
  if (settings.allowedCommands !== undefined) out["allowedCommands"] = settings.allowedCommands
  if (settings.executionLog !== undefined) {
    // A path under the home folder would tie the file to one machine: the dialect's default log is left out.
    // (the user's file names it; a preset that reads no user file, orchestration, gives the home folder)
    const home = settings.files.find((file) => file.scope === "user")?.path.replace(/\/\.[^/]+\/[^/]+$/, "") ?? userHome
    if (home !== undefined && settings.executionLog.startsWith(`${home}/`)) {
      notes.push(
        `the execution log ${settings.executionLog} is in the home folder and is not written into ` +
          `the file; add "executionLog" by hand to keep it`
      )
    } else out["executionLog"] = settings.executionLog
  }
  if (settings.auditLog !== undefined) {
    // The dialect's own folder (Wingman's .wingman) is not a log folder for a canonical project file.
    notes.push(
      `the audit trail ${settings.auditLog} is not written into the file; add "auditLog": ` +
        `"logs/audit.jsonl" to a file in .agent-hooks/ (or your user settings) to keep recording ` +
        `every tool call`
    )
  }
  if (settings.allowedHttpHookUrls !== undefined) out["allowedHttpHookUrls"] = settings.allowedHttpHookUrls
  // Every event of the dialect's own is declared, so the host's events stay known; a catalog event's
  // declaration is written only for the hooks on it.
  const used = new Set(Object.keys(hooks))
  for (const custom of preset.events) {
    const spec = HookEvent.custom(custom)
    const base = custom.extends === undefined ? undefined : HookEvent.get(custom.extends)
    const own = HookEvent.get(custom.name) === undefined ? declaration(custom.name, spec, base) : undefined
    if (own !== undefined && !used.has(custom.name)) events.push(own)
  }
  const kept = events.filter((event) => HookEvent.get(event["name"] as string) === undefined || used.has(event["name"] as string))
  if (kept.length > 0)
    out["events"] = kept.sort(
      (a, b) => preset.events.findIndex((e) => e.name === a["name"]) - preset.events.findIndex((e) => e.name === b["name"])
    )
  for (const [name, value] of Object.entries(settings.inputDefaults ?? {})) {
    const carried = defaults.some(([field]) => field === name)
    notes.push(
      carried
        ? `${name} ${JSON.stringify(value)} from the config stays the fallback of the hooks' env ` +
            `values (\${${name}-${value}}); the ${name} field of their stdin is what the host passes`
        : `${name} ${JSON.stringify(value)} from the config is given to hooks only under --preset ` +
            `${preset.name} when the payload has no ${name}; migrated hooks get what the host passes`
    )
  }
  out["hooks"] = Object.fromEntries(Object.entries(hooks).map(([event, groups]) => [event, groups.map(({ key: _key, ...group }) => group)]))
  return { settings: out, notes, refused }
}
