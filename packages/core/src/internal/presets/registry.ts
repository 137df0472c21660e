/**
 * The built-in presets by name: `createHookEngine({ preset: "wingman" })` resolves here, as `--preset` does.
 */
import * as Effect from "effect/Effect"
import { SettingsError } from "../../HookError.ts"
import type { Preset } from "../../PresetModel.ts"
import { agentHooks, claude } from "../preset.ts"
import { codex } from "../agents/codex/dialect.ts"
import { copilot } from "../agents/copilot/dialect.ts"
import { cursor } from "../agents/cursor/dialect.ts"
import { gemini } from "../agents/gemini/dialect.ts"
import { orchestration } from "../dialects/orchestration/dialect.ts"
import { pigo } from "../dialects/pigo/dialect.ts"
import { qwen } from "../agents/qwen/dialect.ts"
import { vscode } from "../agents/vscode/dialect.ts"
import { wave } from "../dialects/wave/dialect.ts"
import { wingman } from "../dialects/wingman/dialect.ts"
import { antigravity, antigravity10 } from "../agents/antigravity/dialect.ts"
import { cline } from "../agents/cline/dialect.ts"
import { kiro } from "../agents/kiro/dialect.ts"
import { windsurf } from "../agents/windsurf/dialect.ts"

/** @internal */
export const all: ReadonlyArray<Preset> = [
  agentHooks,
  claude,
  wingman,
  orchestration,
  pigo,
  wave,
  gemini,
  kiro,
  windsurf,
  cline,
  antigravity,
  antigravity10,
  codex,
  cursor,
  copilot,
  vscode,
  qwen
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
