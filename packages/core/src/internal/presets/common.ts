/**
 * Shared pieces of the dialect decoders: each dialect translates its document into a canonical
 * settings document (keeping a map from canonical JSON paths back to the dialect's own), then the
 * canonical decoder validates the handlers, so every dialect gets the same checks and messages.
 */
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import { formatPath, SettingsError } from "../../HookError.ts"
import type { CustomEvent } from "../../HookEvent.ts"
import * as HookEvent from "../../HookEvent.ts"
import type { DecodedSettings, HookEntry, SettingsScope } from "../../SettingsModel.ts"
import { decode } from "../settings.ts"

import { describe } from "../text.ts"
import type { JsonPath } from "../text.ts"

/** @internal */
export type { JsonPath }
export { describe }
export { nonEmpty } from "../text.ts"
export { join } from "../posixPath.ts"

/** @internal */
export const isRecord: (value: unknown) => value is Record<string, unknown> = Predicate.isObject

/** @internal */
export { formatPath }

/** @internal */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

const WORD = /^[A-Za-z0-9_-]+$/

/**
 * A canonical matcher that matches exactly these names (case-sensitive): Claude Code's exact list
 * (`a|b`) when every name is a plain word, else an anchored regular expression of escaped names.
 *
 * @internal
 */
export const exactNames = (names: ReadonlyArray<string>): string =>
  names.every((name) => WORD.test(name)) ? names.join("|") : `^(?:${names.map(escapeRegex).join("|")})$`

/** Whether `source` compiles as a JavaScript regular expression. @internal */
export const validRegex = (source: string): boolean => {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

/**
 * A canonical matcher that is tested as an unanchored regular expression, even when the canonical
 * rule would read it as an exact list (`write_file` alone is exact in Claude Code's rule).
 *
 * @internal
 */
export const unanchoredRegex = (source: string): string => (/^[A-Za-z0-9_\-,| ]+$/.test(source) ? `(?:${source})` : source)

/** A dialect document translated into the canonical shape. @internal */
export interface Translated {
  /** A canonical settings document (`{"hooks": {...}, ...}`). */
  readonly document: Record<string, unknown>
  /** Canonical group path (`hooks.PreToolUse[3]`) → the dialect's own path of that group or hook. */
  readonly paths: ReadonlyMap<string, string>
  readonly warnings: ReadonlyArray<string>
  readonly overrides?: Partial<Omit<DecodedSettings, "entries" | "warnings">> | undefined
  /** Canonical group path → the matcher as the user wrote it, where the dialect's language differs. */
  readonly patterns?: ReadonlyMap<string, string> | undefined
}

const GROUP_PATH = /(hooks\.[A-Za-z_$][\w$]*\[\d+\]|hooks\["(?:[^"\\]|\\.)*"\]\[\d+\])(\.hooks\[0\])?/g

/**
 * Decodes a translated document with the canonical decoder, then puts the dialect's own paths
 * back into the entries and the warnings.
 *
 * @internal
 */
export const decodeTranslated = (
  translated: Translated,
  file: string,
  scope: SettingsScope,
  events: ReadonlyArray<CustomEvent>,
  singleHandlerGroups = false
): Effect.Effect<DecodedSettings, SettingsError> =>
  Effect.map(decode(translated.document, file, scope, undefined, events), (decoded) => {
    const back = (text: string): string =>
      text.replace(GROUP_PATH, (match, group: string, handler: string | undefined) => {
        const original = translated.paths.get(group)
        if (original === undefined) return match
        return singleHandlerGroups ? original : `${original}${handler ?? ""}`
      })
    const entries: Array<HookEntry> = decoded.entries.map((entry) => {
      const pattern = translated.patterns?.get(entry.path.replace(/\.hooks\[\d+\]$/, ""))
      return { ...entry, path: back(entry.path), ...(pattern === undefined ? {} : { pattern }) }
    })
    return {
      ...decoded,
      ...translated.overrides,
      entries,
      ...(decoded.invalid === undefined ? {} : { invalid: decoded.invalid.map((entry) => ({ ...entry, path: back(entry.path) })) }),
      warnings: [...translated.warnings, ...decoded.warnings.map(back)],
      // A skipped entry is an error in every dialect, as in the canonical decoder (validate exits 1,
      // strict mode fails the load): the dialect's own drops, and the canonical decoder's under
      // the dialect's paths.
      errors: [...translated.warnings.filter(dropped), ...(decoded.errors ?? []).map(back)]
    }
  })

/**
 * A dialect's warning about an entry it dropped: by the decoders' convention such a line ends in
 * "skipped" (`...; skipped`, `...; hook skipped`, `...; plugin skipped`).
 */
const dropped = (line: string): boolean => /\bskipped$/.test(line)

/** The `hooks` object of a dialect document, or a SettingsError like the canonical decoder's. @internal */
export const hooksObject = (
  document: unknown,
  file: string,
  key = "hooks"
): Effect.Effect<Record<string, unknown> | undefined, SettingsError> => {
  if (!isRecord(document)) {
    return Effect.fail(
      new SettingsError({ file, path: [], detail: `expected a JSON object with a "${key}" key, got ${describe(document)}` })
    )
  }
  const hooks = document[key]
  if (hooks === undefined) return Effect.succeed(undefined)
  if (!isRecord(hooks)) {
    return Effect.fail(
      new SettingsError({
        file,
        path: [key],
        detail:
          `expected an object mapping event names to arrays of matcher groups, like {"PreToolUse": ` +
          `[{"matcher": "...", "hooks": [...]}]}, got ${describe(hooks)}`
      })
    )
  }
  return Effect.succeed(hooks)
}

/**
 * Translates timeouts in milliseconds (orchestration, Gemini CLI) into the canonical seconds.
 * A value that looks like seconds is converted all the same (the file's unit is milliseconds), with a
 * warning that says what it now means.
 *
 * @internal
 */
export const millisToSeconds = (value: unknown, path: JsonPath, file: string, warnings: Array<string>): unknown => {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return value
  const seconds = value / 1000
  if (value < 100) {
    warnings.push(
      `${file} at ${formatPath(path)}: timeout ${value} is in milliseconds here (${seconds} s); for ${value} seconds write ${value * 1000}`
    )
  }
  return seconds
}

/** Events of a dialect, with a warning for any other name (naming the dialect's events). @internal */
export const knownEvent = (
  event: string,
  allowed: ReadonlyArray<string>,
  dialect: string,
  path: JsonPath,
  file: string,
  warnings: Array<string>,
  hint?: (event: string) => string | undefined
): boolean => {
  if (allowed.includes(event)) return true
  const lower = event.toLowerCase().replace(/[_-]/g, "")
  const near = allowed.find((name) => name.toLowerCase().replace(/[_-]/g, "") === lower) ?? hint?.(event)
  warnings.push(
    `${file} at ${formatPath(path)}: unknown ${dialect} event ` +
      `"${event}"${near !== undefined ? ` (did you mean "${near}"?)` : ""}; expected one of ` +
      `${allowed.join(", ")}; skipped`
  )
  return false
}

/** The catalog event a dialect's event stands for, for migration. @internal */
export const catalogName = (event: CustomEvent | undefined, name: string): string | undefined =>
  event?.extends ?? (HookEvent.get(name) !== undefined ? name : undefined)
