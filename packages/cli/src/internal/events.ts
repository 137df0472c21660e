import * as HookEvent from "@agent-hooks/core/HookEvent"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type { Preset } from "@agent-hooks/core/Preset"

/**
 * The events a dispatch may name: the catalog, the preset's declared events, the settings' declared events and every
 * event the settings hook.
 */
export const knownEvents = (engine: HookEngine.HookEngine["Service"], preset: Preset | undefined): ReadonlyArray<string> => {
  const names = new Set<string>(HookEvent.catalog.map((spec) => spec.name))
  for (const event of preset?.events ?? []) names.add(event.name)
  for (const event of Object.keys(engine.settings.hooks)) names.add(event)
  // Events a settings file declares under "events" (a migrated pigo config's turn_end), with or without hooks.
  for (const spec of engine.settings.events ?? []) names.add(spec.name)
  for (const event of engine.hookedEvents) names.add(event)
  return [...names]
}

/**
 * `undefined` when `event` is known; else the message "unknown event X (did you mean Y?)", Y the
 * known name the settings' own check would suggest (`HookEvent.suggest`: one rule for "did you
 * mean" everywhere). A dispatch of an event nothing knows would run no hook and say nothing: a typo
 * must not switch a guard off in silence.
 *
 * @internal
 */
export const unknownEvent = (event: string, known: ReadonlyArray<string>): string | undefined => {
  if (known.includes(event)) return undefined
  const suggestion = HookEvent.suggest(event, known)
  return `unknown event ${event}${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}`
}
