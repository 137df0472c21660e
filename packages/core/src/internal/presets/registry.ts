/**
 * The built-in presets by name: `createHookEngine({ preset: "wingman" })` resolves here, as `--preset` does.
 */
import * as Effect from "effect/Effect"
import { SettingsError } from "../../HookError.ts"
import type { Preset } from "../../PresetModel.ts"
import { profiles } from "../agents/profiles.ts"
import { dialects } from "../dialects/profiles.ts"
import { agentHooks, claude } from "../preset.ts"

/** @internal */
export const all: ReadonlyArray<Preset> = [
  // the engine's own dialects, then those of no agent, then each agent's (from its folder)
  agentHooks,
  claude,
  ...dialects.map((profile) => profile.dialect),
  ...profiles.flatMap((profile) => (profile.dialect === undefined || profile.dialect === claude ? [] : [profile.dialect]))
]

/** @internal */
export const byName = (name: string): Preset | undefined => all.find((preset) => preset.name === name)

/**
 * A preset given by name or as an object. An unknown name (or something that is neither) is a
 * settings error naming the option, what was given and the names that exist.
 *
 * @internal
 */
export const resolve = (preset: Preset | string | undefined): Effect.Effect<Preset, SettingsError> => {
  if (preset === undefined) return Effect.succeed(agentHooks)
  if (typeof preset === "string") {
    const found = byName(preset)
    return found !== undefined
      ? Effect.succeed(found)
      : Effect.fail(
          new SettingsError({
            file: "engine options",
            path: ["preset"],
            detail:
              `unknown preset ${JSON.stringify(preset)}; expected one of ` +
              `${all.map((known) => JSON.stringify(known.name)).join(", ")}, or a Preset object`
          })
        )
  }
  const value: unknown = preset
  if (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as Preset).events) &&
    typeof (value as Preset).decode === "function"
  ) {
    return Effect.succeed(preset)
  }
  return Effect.fail(
    new SettingsError({
      file: "engine options",
      path: ["preset"],
      detail: `expected a preset name (${all.map((known) => JSON.stringify(known.name)).join(", ")}) or a Preset object, got ${
        value === null
          ? "null"
          : Array.isArray(value)
            ? "an array"
            : typeof value === "object"
              ? "an object without events and decode"
              : typeof value
      }`
    })
  )
}
