import * as Presets from "@agent-hooks/core/Presets"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { existsSync, realpathSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { Failed } from "../ExitCode.ts"
import { checkPreset, warnOnStderr, withPlan } from "./engine.ts"

/** Options of `agent-hooks migrate`. */
export interface MigrateOptions {
  readonly from: string
  readonly settings: ReadonlyArray<string>
  readonly projectDir: Option.Option<string>
  readonly agent: Option.Option<string>
  readonly write: Option.Option<string>
  readonly force: boolean
  /** Migrate even hooks whose outcome would change (each named on stderr). */
  readonly lossy: boolean
}

const real = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/**
 * `agent-hooks migrate --from <preset>`: loads the preset's config (the given files, else its
 * discovery), prints the canonical settings JSON on stdout and the migration notes on stderr. With
 * `--write FILE` it also writes the file: never over an existing file without `--force`, and never
 * over a file it read.
 *
 * @internal
 */
export const migrate = (options: MigrateOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function*() {
    const preset = yield* checkPreset(options.from)
    const { settings, notes } = yield* withPlan(
      { settings: options.settings, projectDir: options.projectDir, preset, agent: options.agent },
      warnOnStderr,
      (plan) => {
        const migrated = Presets.toCanonical(plan.settings, preset)
        // An entry the preset could not read (Kiro's agent actions, a hook of an unknown event) is not in the
        // migrated file: the hook is lost, so it is refused like any other hook the canonical format cannot keep.
        const dropped = plan.settings.errors.map((error) => `${error.replace(/; (?:hook |plugin )?skipped$/, "")}: not in the migrated file`)
        return Effect.succeed({ ...migrated, refused: [...migrated.refused, ...dropped], files: plan.settings.files })
      }
    ).pipe(Effect.map((migrated) => {
      const read = migrated.files.filter((file) => file.found).map((file) => file.path)
      return { ...migrated, read }
    }), Effect.flatMap((migrated) =>
      Effect.gen(function*() {
        const text = `${JSON.stringify(migrated.settings, null, 2)}\n`
        for (const note of migrated.notes) process.stderr.write(`agent-hooks: note: ${note}\n`)
        // A migration never changes an outcome silently: hooks the canonical format cannot keep are refused, unless --lossy.
        if (migrated.refused.length > 0) {
          for (const refusal of migrated.refused) process.stderr.write(`agent-hooks: ${options.lossy ? "lossy" : "cannot migrate"}: ${refusal}\n`)
          if (!options.lossy) {
            return yield* Effect.fail(
              new Failed({
                message: `${migrated.refused.length} hook(s) would behave differently in the canonical format (listed above); keep --preset ${preset.name}, or pass --lossy to migrate anyway`
              })
            )
          }
        }
        if (migrated.read.length === 0) process.stderr.write(`agent-hooks: note: no ${preset.name} settings file was found\n`)
        if (Option.isSome(options.write)) {
          const target = resolve(options.write.value)
          if (migrated.read.some((file) => real(file) === real(target))) {
            return yield* Effect.fail(new Failed({ message: `refusing to write ${target}: it is one of the files being migrated` }))
          }
          if (existsSync(target) && !options.force) {
            return yield* Effect.fail(new Failed({ message: `${target} already exists; pass --force to overwrite it` }))
          }
          yield* Effect.try({
            try: () => writeFileSync(target, text),
            catch: (error) => new Failed({ message: `cannot write ${target}: ${error instanceof Error ? error.message : String(error)}` })
          })
          process.stderr.write(`agent-hooks: wrote ${target}\n`)
        }
        return migrated
      })
    ))
    yield* Console.log(JSON.stringify(settings, null, 2))
    void notes
  })
