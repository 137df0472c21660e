import * as HostMode from "@agent-hooks/core/HostMode"
import type { Preset } from "@agent-hooks/core/Preset"
import * as Presets from "@agent-hooks/core/Presets"
import type { LoadedSettings } from "@agent-hooks/core/Settings"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { chmodSync, existsSync, lstatSync, realpathSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"
import { target as safeTarget, UnsafeConfig, writeText } from "./configFile.ts"
import { checkPreset, warnOnStderr, withPlan } from "./engine.ts"
import { commandEvent, hookCommand } from "./hostConfig.ts"
import { layoutOf } from "./hostFiles.ts"
import { runner } from "./install.ts"
import { planTarget, render } from "./migrateTarget.ts"
import type { TargetFile } from "./migrateTarget.ts"

/** Options of `agent-hooks migrate`. */
export interface MigrateOptions {
  readonly from: string
  /** `--to AGENT`: the agent whose config to write (default `agent-hooks`, the canonical settings). */
  readonly to?: Option.Option<string> | undefined
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

/** The canonical settings of what the preset loaded, with the hooks it could not read refused. */
const canonicalOf = (settings: LoadedSettings, preset: Preset) => {
  const migrated = Presets.toCanonical(settings, preset, process.env["HOME"] || undefined)
  // An entry the preset could not read (Kiro's agent actions, a hook of an unknown event) is not in the
  // migrated file: the hook is lost, so it is refused like any other hook the canonical format cannot keep.
  const dropped = settings.errors.map((error) => `${error.replace(/; (?:hook |plugin )?skipped$/, "")}: not in the migrated file`)
  return { ...migrated, refused: [...migrated.refused, ...dropped] }
}

/** Refusals on stderr; a failure unless `--lossy`. */
const refuse = (refused: ReadonlyArray<string>, lossy: boolean, hint: string): Effect.Effect<void, Failed> =>
  Effect.suspend(() => {
    if (refused.length === 0) return Effect.void
    for (const refusal of refused) process.stderr.write(`agent-hooks: ${lossy ? "lossy" : "cannot migrate"}: ${refusal}\n`)
    return lossy
      ? Effect.void
      : Effect.fail(
          new Failed({
            message: `${refused.length} hook(s) would behave differently ${hint} (listed above); pass --lossy to migrate anyway`
          })
        )
  })

/** The nearest folder of `path` that exists, on its real path. */
const existingAncestor = (path: string): string => {
  let folder = path
  for (;;) {
    try {
      return realpathSync(folder)
    } catch {
      const up = dirname(folder)
      if (up === folder) return folder
      folder = up
    }
  }
}

/**
 * Writes the files: none over an existing one without `force`, none over a file being migrated,
 * none through a folder or symlink that leads out of `within` (the project for the agent's files),
 * all checked before the first is written.
 */
const writeAll = (
  files: ReadonlyArray<TargetFile & { readonly within: string }>,
  read: ReadonlyArray<string>,
  force: boolean
): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const checked: Array<{ readonly file: TargetFile; readonly path: string }> = []
    for (const file of files) {
      if (read.some((source) => real(source) === real(file.path))) {
        return yield* Effect.fail(new Failed({ message: `refusing to write ${file.path}: it is one of the files being migrated` }))
      }
      const exists = (() => {
        try {
          lstatSync(file.path)
          return true
        } catch {
          return false
        }
      })()
      if (exists && !force) return yield* Effect.fail(new Failed({ message: `${file.path} already exists; pass --force to overwrite it` }))
      const within = real(file.within)
      const ancestor = existingAncestor(dirname(file.path))
      const rel = relative(within, ancestor)
      if (rel.startsWith("..") || resolve(within, rel) !== ancestor) {
        return yield* Effect.fail(
          new Failed({
            message: `refusing to write ${file.path}: its folder leads out of ${file.within} (it is ${ancestor}); remove the link`
          })
        )
      }
      const path = yield* Effect.try({
        try: () => safeTarget(file.path, file.within),
        catch: (error) =>
          new Failed({ message: error instanceof UnsafeConfig ? error.message : `cannot write ${file.path}: ${String(error)}` })
      })
      checked.push({ file, path })
    }
    for (const { file, path } of checked) {
      yield* Effect.try({
        try: () => {
          writeText(path, file.text)
          if (file.executable) chmodSync(path, 0o755)
        },
        catch: (error) => new Failed({ message: `cannot write ${file.path}: ${error instanceof Error ? error.message : String(error)}` })
      })
      process.stderr.write(`agent-hooks: wrote ${file.path}\n`)
    }
  })

/**
 * `agent-hooks migrate --from <preset>`: loads the preset's config (the given files, else its
 * discovery), prints the canonical settings JSON on stdout and the migration notes on stderr. With
 * `--write FILE` it also writes the file: never over an existing file without `--force`, and never
 * over a file it read. `--to <agent>`: see `migrateTo`.
 *
 * @internal
 */
export const migrate = (options: MigrateOptions): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const preset = yield* checkPreset(options.from)
    const to = options.to === undefined ? "agent-hooks" : Option.getOrElse(options.to, () => "agent-hooks")
    if (to !== "agent-hooks") return yield* migrateTo(options, preset, to)
    const { settings } = yield* withPlan(
      { settings: options.settings, projectDir: options.projectDir, preset, agent: options.agent },
      warnOnStderr,
      (plan) =>
        Effect.succeed({
          ...canonicalOf(plan.settings, preset),
          read: plan.settings.files.filter((file) => file.found).map((file) => file.path)
        })
    ).pipe(
      Effect.flatMap((migrated) =>
        Effect.gen(function* () {
          const text = `${JSON.stringify(migrated.settings, null, 2)}\n`
          for (const note of migrated.notes) process.stderr.write(`agent-hooks: note: ${note}\n`)
          // A migration never changes an outcome silently: hooks the canonical format cannot keep are refused, unless --lossy.
          yield* refuse(migrated.refused, options.lossy, `in the canonical format; keep --preset ${preset.name}, or`)
          if (migrated.read.length === 0) process.stderr.write(`agent-hooks: note: no ${preset.name} settings file was found\n`)
          if (Option.isSome(options.write)) {
            const file = resolve(options.write.value)
            if (!existsSync(dirname(file)))
              return yield* Effect.fail(new Failed({ message: `cannot write ${file}: the folder ${dirname(file)} does not exist` }))
            yield* writeAll([{ path: file, text, executable: false, within: dirname(file) }], migrated.read, options.force)
          }
          return migrated
        })
      )
    )
    yield* Console.log(JSON.stringify(settings, null, 2))
  })

/**
 * `migrate --from <preset> --to <agent>`: the agent's own config calling `agent-hooks hook --host
 * <agent>`, with the hooks kept as agent-hooks settings (the policy: `--write FILE`, else
 * `.agent-hooks/settings.json`), so that each hook keeps the payload and the rules it was written
 * for; every hook that would change is refused (file, JSON path, why) unless `--lossy`, which
 * writes its bare command into the agent's config with a note. Prints every file on stdout; writes
 * them with `--write`.
 */
const migrateTo = (options: MigrateOptions, preset: Preset, to: string): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    const agent = HostMode.byName(to)
    if (agent === undefined) {
      const names = ["agent-hooks", ...HostMode.agents.map((one) => one.name)].join(", ")
      return yield* Effect.fail(
        new Failed({
          message:
            Presets.byName(to) !== undefined
              ? `--to ${to}: agent-hooks reads ${to}'s config (--from ${to}) but has no host mode for it, so it cannot translate hooks into it; write one of ${names}`
              : `unknown --to ${to} (one of ${names})`
        })
      )
    }
    // pi, opencode, Kilo: no hook config to write into, only agent-hooks' plugin (install writes it)
    if (layoutOf(agent, "project", process.cwd(), process.env).kind === "plugin") {
      return yield* Effect.fail(
        new Failed({
          message: `--to ${to}: ${agent.displayName} has no hook config, only plugins: agent-hooks runs there as its plugin. Keep the hooks as agent-hooks settings (--to agent-hooks --write .agent-hooks/settings.json), then agent-hooks install --host ${to}`
        })
      )
    }
    if (agent.name === preset.name) {
      return yield* Effect.fail(
        new Failed({
          message: `--from and --to are both ${to}: the config is already ${agent.displayName}'s; --to agent-hooks gives its canonical settings`
        })
      )
    }
    const run = runner()
    if ("error" in run) return yield* Effect.fail(new Failed({ message: run.error }))
    yield* withPlan({ settings: options.settings, projectDir: options.projectDir, preset, agent: options.agent }, warnOnStderr, (plan) =>
      Effect.gen(function* () {
        const projectDir = plan.projectDir
        const standard = join(projectDir, ".agent-hooks", "settings.json")
        const policyFile = Option.isSome(options.write) ? resolve(options.write.value) : standard
        // install's command (Copilot CLI's and VS Code's name their event); hooks written for another agent's payload
        // keep getting it; host mode reads .agent-hooks/settings.json of the project by itself, another file is named
        const hostCommand = (hostEvent: string, timeout: number, payload: string | undefined) =>
          hookCommand(run, agent, timeout, commandEvent(agent, hostEvent), {
            payload,
            settings: real(policyFile) === real(standard) || policyFile === standard ? undefined : policyFile
          })
        const planned = planTarget({
          settings: plan.settings,
          preset,
          agent,
          lossy: options.lossy,
          platform: process.env["AGENT_HOOKS_PLATFORM"] || process.platform,
          hostCommand
        })
        const policy = canonicalOf(planned.kept, preset)
        // host mode gives hooks of another agent's payload that dialect's own input fields and environment too
        const policyNotes =
          planned.payload === undefined
            ? policy.notes
            : policy.notes.filter((note) => !note.includes(`given under --preset ${preset.name} only`))
        for (const note of [...policyNotes, ...planned.notes]) process.stderr.write(`agent-hooks: note: ${note}\n`)
        yield* refuse([...policy.refused, ...planned.refused], options.lossy, `in ${agent.displayName}`)
        const read = plan.settings.files.filter((file) => file.found).map((file) => file.path)
        if (read.length === 0) process.stderr.write(`agent-hooks: note: no ${preset.name} settings file was found\n`)
        const hasPolicy = planned.entries.some((entry) => entry.hostMode)
        const files = [
          // the policy stays in the project when it is written there; elsewhere, in the folder it names
          ...(hasPolicy
            ? [
                {
                  path: policyFile,
                  text: `${JSON.stringify(policy.settings, null, 2)}\n`,
                  executable: false,
                  within: policyFile.startsWith(`${projectDir}/`) ? projectDir : existingAncestor(dirname(policyFile))
                }
              ]
            : []),
          ...render(agent, projectDir, planned.entries).map((file) => ({ ...file, within: projectDir }))
        ]
        if (files.length === 0) process.stderr.write(`agent-hooks: note: no hook to write for ${agent.displayName}\n`)
        for (const file of files) process.stdout.write(`==> ${file.path} <==\n${file.text}`)
        if (Option.isSome(options.write)) yield* writeAll(files, read, options.force)
      })
    )
  })
