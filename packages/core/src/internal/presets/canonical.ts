/**
 * Migration: loaded settings of any preset → one canonical settings document.
 */
import * as HookEvent from "../../HookEvent.ts"
import type { Preset } from "../../Preset.ts"
import type { Handler, HookEntry, LoadedSettings } from "../../Settings.ts"

/** @internal */
export interface Migrated {
  readonly settings: Record<string, unknown>
  readonly notes: ReadonlyArray<string>
  /** Hooks whose outcome the canonical format cannot keep: which hook, and why. */
  readonly refused: ReadonlyArray<string>
}

/** The rules of an event that decide an outcome; a dialect event that differs from its catalog event in one cannot be migrated as is. */
const OUTCOME_RULES = [
  ["blocking", "what can block"],
  ["nonZeroBlocks", "which exit codes block"],
  ["outputDialect", "how hook output is read"],
  ["plainStdoutToContext", "whether plain stdout reaches the model"],
  ["exit2StderrTo", "who sees the stderr of exit 2"],
  ["reasonTo", "who sees a block's reason"],
  ["matcherField", "what the matcher is tested against"]
] as const

const describeRule = (spec: HookEvent.HookEventSpec, key: (typeof OUTCOME_RULES)[number][0]): string => JSON.stringify(spec[key] ?? null)

const handlerJson = (handler: Handler, entry: HookEntry, extraEnv: Readonly<Record<string, string>>): Record<string, unknown> => {
  switch (handler.type) {
    case "module": {
      const { modulePath, module: _module, ...rest } = handler
      // Relative module paths are relative to the file they came from: written absolute.
      return { ...rest, module: modulePath }
    }
    case "command": {
      const env = { ...extraEnv, ...handler.env }
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
export const toCanonical = (settings: LoadedSettings, preset: Preset): Migrated => {
  const notes: Array<string> = []
  const refused: Array<string> = []
  const declared = new Map(preset.events.map((event) => [event.name, event]))
  const hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>>; key: string }>> = {}
  const extraEnv: Record<string, string> = {}
  for (const name of preset.projectDirEnv) extraEnv[name] = "${CLAUDE_PROJECT_DIR}"
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
  for (const [event, entries] of Object.entries(settings.hooks)) {
    const custom = declared.get(event)
    const catalog = custom === undefined ? event : custom.extends ?? (HookEvent.get(event) !== undefined ? event : undefined)
    const target = catalog ?? event
    const spec = custom === undefined ? HookEvent.get(event) : HookEvent.custom(custom)
    const base = catalog === undefined ? undefined : HookEvent.get(catalog)
    // Why this event's hooks would behave differently in the canonical format, if they would.
    const differences = spec === undefined || base === undefined
      ? [`${event} has no canonical event (the canonical format would skip it as unknown)`]
      : OUTCOME_RULES.filter(([key]) => JSON.stringify(spec[key] ?? null) !== JSON.stringify(base[key] ?? null)).map(([key, what]) =>
        `${what} differs: ${key} ${describeRule(spec, key)} in ${preset.name}, ${describeRule(base, key)} on ${target}`
      )
    if (catalog !== undefined && catalog !== event) noteOnce(event, `${event} → ${catalog}`)
    for (const entry of entries) {
      if (entry.handler.type === "callback") {
        refused.push(`${entry.source} at ${entry.path}: a programmatic hook cannot be written to a file`)
        continue
      }
      if (skipUser && entry.scope === "user") {
        userFiles.add(entry.source)
        continue
      }
      if (differences.length > 0) {
        refused.push(`${entry.source} at ${entry.path} (${event}): ${differences.join("; ")}`)
      }
      let handler = handlerJson(entry.handler, entry, extraEnv)
      // Timeouts stay explicit when the dialect's default differs from the canonical event's.
      if (handler["timeout"] === undefined && spec !== undefined && base !== undefined && spec.defaultTimeout !== base.defaultTimeout && entry.handler.type !== "prompt" && entry.handler.type !== "agent") {
        handler = { ...handler, timeout: spec.defaultTimeout }
      }
      if (entry.scope === "managed") noteOnce(`managed:${entry.source}`, `hooks from managed settings ${entry.source} are included`)
      const key = `${entry.source}\u0000${groupPath(entry.path)}\u0000${entry.matcher.source ?? ""}`
      const groups = (hooks[target] ??= [])
      const last = groups[groups.length - 1]
      if (last !== undefined && last.key === key) last.hooks.push(handler)
      else groups.push({ ...(entry.matcher.source === undefined ? {} : { matcher: entry.matcher.source }), hooks: [handler], key })
    }
  }
  for (const file of userFiles) {
    notes.push(`user-level hooks of ${file} are not merged into this file; migrate them on their own into ~/.agent-hooks/settings.json (--settings ${file})`)
  }
  if (preset.dispatch !== undefined && Object.keys(hooks).length > 0) {
    notes.push(`${preset.name}'s own input fields and environment (see docs/presets/${preset.name}.md) are given under --preset ${preset.name} only; migrated hooks get what the host passes`)
  }
  const out: Record<string, unknown> = {}
  if (settings.disableAllHooks) out["disableAllHooks"] = true
  if (settings.sequential) out["sequential"] = true
  if (!settings.dedupe) out["dedupe"] = false
  if (settings.allowedCommands !== undefined) out["allowedCommands"] = settings.allowedCommands
  if (settings.executionLog !== undefined) {
    // A path under the home folder would tie the file to one machine: the dialect's default log is left out.
    const home = settings.files.find((file) => file.scope === "user")?.path.replace(/\/\.[^/]+\/[^/]+$/, "")
    if (home !== undefined && settings.executionLog.startsWith(`${home}/`)) {
      notes.push(`the execution log ${settings.executionLog} is in the home folder and is not written into the file; add "executionLog" by hand to keep it`)
    } else out["executionLog"] = settings.executionLog
  }
  if (settings.allowedHttpHookUrls !== undefined) out["allowedHttpHookUrls"] = settings.allowedHttpHookUrls
  out["hooks"] = Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [event, groups.map(({ key: _key, ...group }) => group)])
  )
  return { settings: out, notes, refused }
}
