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
}

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
  for (const [event, entries] of Object.entries(settings.hooks)) {
    const custom = declared.get(event)
    const catalog = custom === undefined ? event : custom.extends ?? (HookEvent.get(event) !== undefined ? event : undefined)
    const target = catalog ?? event
    const spec = custom === undefined ? HookEvent.get(event) : HookEvent.custom(custom)
    const base = HookEvent.get(target)
    if (catalog === undefined) {
      noteOnce(event, `${event}: no catalog event corresponds; kept by name (declare it with the engine's "events" option, or keep --preset ${preset.name})`)
    } else if (catalog !== event) {
      noteOnce(event, `${event} → ${catalog}`)
    }
    if (spec !== undefined && base !== undefined && catalog !== undefined) {
      if (spec.blocking !== base.blocking) {
        noteOnce(
          `${event}:blocking`,
          `${event}: ${spec.blocking === "none" ? `cannot block in ${preset.name}, while ${target} can (exit 2 or a JSON decision blocks it in the canonical format)` : `blocks as "${spec.blocking}", ${target} as "${base.blocking}"`}`
        )
      }
      if (spec.outputDialect === "gemini") {
        noteOnce(
          `${event}:output`,
          `${event}: hooks answer in Gemini CLI's format in ${preset.name} (top-level "decision": "deny", any exit code above 1 denies); in the canonical format a script must answer as Claude Code expects (exit 2, or hookSpecificOutput.permissionDecision)`
        )
      }
      if (spec.nonZeroBlocks && !base.nonZeroBlocks) {
        noteOnce(`${event}:nonzero`, `${event}: any non-zero exit blocks in ${preset.name}; ${target} blocks on exit 2 (hooks that blocked on failure carry onFailure: "block")`)
      }
    }
    for (const entry of entries) {
      let handler = handlerJson(entry.handler, entry, extraEnv)
      if (entry.handler.type === "callback") {
        noteOnce(`callback:${entry.source}`, `programmatic hooks cannot be written to a file; left out`)
        continue
      }
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
  const out: Record<string, unknown> = {}
  if (settings.disableAllHooks) out["disableAllHooks"] = true
  if (settings.sequential) out["sequential"] = true
  if (!settings.dedupe) out["dedupe"] = false
  if (settings.allowedCommands !== undefined) out["allowedCommands"] = settings.allowedCommands
  if (settings.executionLog !== undefined) out["executionLog"] = settings.executionLog
  if (settings.allowedHttpHookUrls !== undefined) out["allowedHttpHookUrls"] = settings.allowedHttpHookUrls
  out["hooks"] = Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [event, groups.map(({ key: _key, ...group }) => group)])
  )
  return { settings: out, notes }
}
