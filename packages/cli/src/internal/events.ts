import * as HookEvent from "@agent-hooks/core/HookEvent"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type { Preset } from "@agent-hooks/core/Preset"

/** Levenshtein distance, case-insensitive (the catalog's names differ from typos mostly in a letter or two). */
const distance = (a: string, b: string): number => {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[y.length]!
}

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
 * closest known name within a third of its length (a dispatch of an event nothing knows would run
 * no hook and say nothing: a typo must not switch a guard off in silence).
 *
 * @internal
 */
export const unknownEvent = (event: string, known: ReadonlyArray<string>): string | undefined => {
  if (known.includes(event)) return undefined
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of known) {
    const d = distance(event, name)
    if (d < bestDistance) {
      best = name
      bestDistance = d
    }
  }
  const suggestion = best !== undefined && bestDistance <= Math.max(2, Math.ceil(best.length / 3)) ? best : undefined
  return `unknown event ${event}${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}`
}
