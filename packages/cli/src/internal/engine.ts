import * as HookEngine from "@agent-hooks/core/HookEngine"
import * as Plan from "@agent-hooks/core/Plan"
import * as Presets from "@agent-hooks/core/Presets"
import { isHookError } from "@agent-hooks/core/HookError"
import type * as HookError from "@agent-hooks/core/HookError"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import type { Preset } from "@agent-hooks/core/Preset"
import * as NodeHookEngine from "@agent-hooks/node/NodeHookEngine"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Failed } from "../ExitCode.ts"
import { resolve } from "node:path"
import { projectRoot } from "./projectRoot.ts"
import { runEnvironment } from "./userEnv.ts"

/**
 * Builds the engine layer of the runtime the CLI runs on. The default is `@agent-hooks/node`'s
 * (`node:child_process`, also under Deno); `bin.ts` provides `@agent-hooks/bun`'s under Bun.
 *
 * @internal
 */
export const EngineLayer = Context.Reference<
  (options: HookEngine.EngineOptions) => Layer.Layer<HookEngine.HookEngine, HookError.HookError>
>("@agent-hooks/cli/EngineLayer", { defaultValue: () => NodeHookEngine.layer })

/**
 * What a process that answers many calls (the daemon, `hookDaemon.ts`) adds to each call's engine:
 * `plan` gives the compiled plan for the engine's options (kept between calls while every file it
 * was read from is unchanged, `planCache.ts`), `onHookStart` hears that the call's first hook starts.
 * Empty by default: every command loads its settings itself.
 *
 * @internal
 */
export const EngineHost = Context.Reference<{
  readonly plan?: ((options: HookEngine.EngineOptions) => Effect.Effect<Plan.Plan, HookError.HookError>) | undefined
  readonly onHookStart?: (() => void) | undefined
}>("@agent-hooks/cli/EngineHost", { defaultValue: () => ({}) })

/** Where the settings come from: `--settings` (repeatable), `--project-dir`, and the dialect (`--preset`, `--agent`). */
export interface SettingsOptions {
  readonly settings: ReadonlyArray<string>
  readonly projectDir: Option.Option<string>
  readonly preset?: Preset | undefined
  readonly agent?: Option.Option<string> | undefined
  /** `--plugin DIR` (repeatable): plugin folders whose `hooks/hooks.json` is loaded. */
  readonly plugin?: ReadonlyArray<string> | undefined
  /** `--managed-dir DIR`: the managed-settings folder (default: the preset's, or `$AGENT_HOOKS_MANAGED_DIR`). */
  readonly managedDir?: Option.Option<string> | undefined
  /** Further engine options a command sets itself (`serve`: `onAsyncResult`; `run`: `onHookStart`). */
  readonly engineOptions?: Partial<HookEngine.EngineOptions> | undefined
  /**
   * The environment the settings are read under and the hooks inherit, as the command checked it
   * (host mode: `userEnv.hostEnvironment`). Default: the process's, its location variables checked
   * by `userEnv.runEnvironment`.
   */
  readonly env?: Record<string, string | undefined> | undefined
}

/** The presets `run` and `migrate` accept. */
export const presets: ReadonlyArray<string> = Presets.all.map((preset) => preset.name)

/** @internal */
export const checkPreset = (preset: string): Effect.Effect<Preset, Failed> => {
  const found = Presets.byName(preset)
  return found !== undefined
    ? Effect.succeed(found)
    : Effect.fail(new Failed({ message: `unknown preset ${preset} (available: ${presets.join(", ")})` }))
}

/** Warnings raised while loading settings, for commands whose stdout is reserved (`run`). */
export const warnOnStderr = (warning: string): void => {
  process.stderr.write(`agent-hooks: warning: ${warning}\n`)
}

/**
 * Runs `f` with the engine (see `EngineLayer`) built from the command-line options: `--settings` files only
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
): Effect.Effect<A, Exclude<E, HookError.HookError> | Failed, R> =>
  Effect.flatMap(Effect.all([EngineLayer, EngineHost]), ([engineLayer, host]) => {
    const given = engineOptions(options, onWarning)
    const started = host.onHookStart
    const own = given.onHookStart
    const built: HookEngine.EngineOptions =
      started === undefined
        ? given
        : {
            ...given,
            onHookStart: (hook) => {
              started()
              own?.(hook)
            }
          }
    const plan: Effect.Effect<Plan.Plan | undefined, HookError.HookError> =
      host.plan === undefined ? Effect.succeed(undefined) : host.plan(built)
    return plan.pipe(
      Effect.flatMap((plan) =>
        HookEngine.HookEngine.use(f).pipe(Effect.provide(engineLayer(plan === undefined ? built : { ...built, plan })))
      ),
      Effect.mapError((error) => (isHookError(error) ? new Failed({ message: error.message }) : (error as Exclude<E, HookError.HookError>)))
    )
  })

/** The engine options the command-line options stand for. */
const engineOptions = (options: SettingsOptions, onWarning: ((warning: string) => void) | undefined): HookEngine.EngineOptions => {
  const cwd = process.cwd()
  // without --project-dir: with --settings, the current folder (the files are named); else the
  // project of the current folder, found upward as git finds its repository
  const projectDir = Option.getOrElse(options.projectDir, () =>
    options.settings.length > 0 ? cwd : projectRoot(cwd, options.preset, process.env)
  )
  // the settings' locations never come from a variable the project could set (userEnv.ts)
  let env = options.env
  if (env === undefined) {
    const checked = runEnvironment(process.env, resolve(cwd, projectDir))
    for (const warning of checked.warnings) onWarning?.(warning)
    env = checked.env
  }
  return {
    ...options.engineOptions,
    settings: options.settings.length > 0 ? options.settings : undefined,
    projectDir,
    cwd,
    env,
    onWarning,
    preset: options.preset,
    agent: options.agent === undefined ? undefined : Option.getOrUndefined(options.agent),
    plugins: options.plugin !== undefined && options.plugin.length > 0 ? options.plugin : undefined,
    managedDir: options.managedDir === undefined ? undefined : Option.getOrUndefined(options.managedDir)
  }
}

/**
 * Loads, decodes and compiles the settings the command-line options name, and runs `f` with the
 * plan: no engine, no fiber set, no folders created. Every settings warning goes to `onWarning`;
 * a settings file that cannot be read or decoded becomes `Failed` naming the file and JSON path.
 *
 * @internal
 */
export const withPlan = <A, E, R>(
  options: SettingsOptions,
  onWarning: ((warning: string) => void) | undefined,
  f: (plan: Plan.Plan) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | Failed, R> =>
  Plan.make(engineOptions(options, onWarning)).pipe(
    Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)),
    Effect.mapError((error) => new Failed({ message: error.message })),
    Effect.tap((plan) => Effect.sync(() => plan.settings.warnings.forEach((warning) => onWarning?.(warning)))),
    Effect.flatMap(f)
  )

/**
 * A dispatch-time warning that --quiet may hide: a notice about the payload (a file the preset
 * derived from it does not exist, an unknown event), which the Outcome's warnings keep. Never a
 * line about a hook that did not run or whose answer was dropped (`hook "..."`), nor about a record
 * or log that could not be written: those print at every level.
 */
const isNotice = (warning: string): boolean =>
  !warning.startsWith('hook "') && !warning.startsWith("cannot ") && !warning.startsWith("log path ") && !/\baudit\b/i.test(warning)

/**
 * Where a command's engine warnings go. Before the event is dispatched they are settings warnings,
 * which `quiet` hides. While it is dispatched every line is about this dispatch and prints, --quiet
 * included: a hook that did not run, failed, or whose answer was dropped (`agent-hooks: hook
 * "<cmd>" (<file>): <why>`), or a record that could not be written, is never silent. With
 * `hideNotices`, a notice about the payload is left to the Outcome's warnings.
 *
 * @internal
 */
export const engineWarnings = (quiet: boolean, hideNotices: boolean) => {
  let dispatching = false
  return {
    onWarning: (warning: string): void => {
      if (!dispatching) {
        if (!quiet) warnOnStderr(warning)
      } else if (!hideNotices || !isNotice(warning)) {
        process.stderr.write(warning.startsWith('hook "') ? `agent-hooks: ${warning}\n` : `agent-hooks: warning: ${warning}\n`)
      }
    },
    /** From here on, warnings are about the dispatch. */
    dispatching: (): void => {
      dispatching = true
    }
  }
}
