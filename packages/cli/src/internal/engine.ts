import { HookEngine } from "@agent-hooks/core"
import type { HookError } from "@agent-hooks/core"
import { NodeHookEngine } from "@agent-hooks/node"
import { Effect, Option } from "effect"
import { Failed } from "../ExitCode.ts"

/** Where the settings come from: `--settings` (repeatable) and `--project-dir`. */
export interface SettingsOptions {
  readonly settings: ReadonlyArray<string>
  readonly projectDir: Option.Option<string>
}

/** The presets `run` accepts today. */
export const presets: ReadonlyArray<string> = ["agent-hooks"]

/** @internal */
export const checkPreset = (preset: string): Effect.Effect<void, Failed> =>
  presets.includes(preset)
    ? Effect.void
    : Effect.fail(new Failed({ message: `preset ${preset} is not available yet (available: ${presets.join(", ")})` }))

/** Warnings raised while loading settings, for commands whose stdout is reserved (`run`). */
export const warnOnStderr = (warning: string): void => {
  process.stderr.write(`agent-hooks: warning: ${warning}\n`)
}

const isHookError = (u: unknown): u is HookError.HookError =>
  typeof u === "object" && u !== null &&
  ((u as { _tag?: unknown })._tag === "SettingsError" || (u as { _tag?: unknown })._tag === "PayloadError")

/**
 * Runs `f` with the Node engine built from the command-line options: `--settings` files only
 * when given (else discovery), the project dir defaulting to the current directory. Engine
 * failures (a settings file that cannot be read or decoded, a payload that is not an object)
 * become `Failed` with the engine's message, which names the file and the JSON path.
 *
 * @internal
 */
export const withEngine = <A, E, R>(
  options: SettingsOptions,
  onWarning: ((warning: string) => void) | undefined,
  f: (engine: HookEngine.HookEngine["Service"]) => Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, HookError.HookError> | Failed, R> => {
  const cwd = process.cwd()
  const layer = NodeHookEngine.layer({
    settings: options.settings.length > 0 ? options.settings : undefined,
    projectDir: Option.getOrElse(options.projectDir, () => cwd),
    cwd,
    env: process.env,
    onWarning
  })
  return HookEngine.HookEngine.use(f).pipe(
    Effect.provide(layer),
    Effect.mapError((error) =>
      isHookError(error) ? new Failed({ message: error.message }) : (error as Exclude<E, HookError.HookError>)
    )
  )
}
