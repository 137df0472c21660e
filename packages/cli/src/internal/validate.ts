import * as Placeholder from "@agent-hooks/core/Placeholder"
import * as Plan from "@agent-hooks/core/Plan"
import type * as Settings from "@agent-hooks/core/Settings"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Failed } from "../ExitCode.ts"
import { withPlan } from "./engine.ts"
import type { SettingsOptions } from "./engine.ts"
import { permissionLines } from "./list.ts"
import { columns, plural } from "./render.ts"
import * as Debug from "./debug.ts"

/**
 * The report of `agent-hooks validate`: which files were looked at (read or not found), how
 * many hooks each event registered, and every warning.
 *
 * @internal
 */
export const report = (settings: Settings.LoadedSettings, errors: ReadonlyArray<string> = []): string => {
  const lines: Array<string> = []
  lines.push("settings files:")
  lines.push(
    ...(settings.files.length === 0
      ? ["  (none)"]
      : columns(
          settings.files.map((file) => [
            file.scope,
            file.path,
            file.heldBack ? "held back (not approved)" : file.found ? "read" : "not found"
          ])
        ))
  )
  const events = Object.entries(settings.hooks).filter(([, entries]) => entries.length > 0)
  const total = events.reduce((n, [, entries]) => n + entries.length, 0)
  const read = settings.files.filter((file) => file.found && file.heldBack !== true)
  lines.push("")
  lines.push(
    `registered ${plural(total, "hook")} from ${plural(read.length, "file")}` +
      (read.length === 0 ? "" : ` (${read.map((file) => file.path).join(", ")})`)
  )
  if (events.length > 0) lines.push(...columns(events.map(([event, entries]) => [event, String(entries.length)])))
  const rules = settings.permissions ?? []
  if (rules.length > 0)
    lines.push(
      "",
      `${plural(rules.length, "permissions rule")} (deny, then ask; allow is no objection):`,
      ...permissionLines(rules, process.cwd())
    )
  if (settings.disableAllHooks) lines.push("", "disableAllHooks is true: no settings hook runs")
  if (settings.allowManagedHooksOnly) lines.push("", "allowManagedHooksOnly is true: only managed hooks run")
  lines.push("")
  // Each problem once: an error is listed with the errors, not again among the warnings.
  const listed = new Set(errors)
  const warnings = settings.warnings.filter((warning) => !listed.has(warning))
  if (errors.length > 0) lines.push(`${plural(errors.length, "error")}: on stderr, below`)
  if (warnings.length === 0) {
    lines.push("no warnings")
  } else {
    lines.push(`${plural(warnings.length, "warning")}:`)
    lines.push(...warnings.map((warning) => `  ${warning}`))
  }
  // every payload placeholder that reaches code a program runs, and how it is quoted
  const code = Placeholder.inCodeReport(settings)
  if (code.length > 0) lines.push("", `${plural(code.length, "placeholder")} reaching code:`, ...code.map((line) => `  ${line}`))
  return lines.join("\n")
}

/**
 * The problems that make `validate` exit 1: settings entries that could not be decoded (they
 * were skipped), and hooks that cannot work as written (a script that is missing or not executable).
 *
 * @internal
 */
export const errorsOf = (plan: Plan.Plan): ReadonlyArray<string> => [
  ...plan.settings.errors,
  ...plan.warnings.filter((warning) => warning.severity === "error").map(Plan.render)
]

/** Options of `agent-hooks validate`. */
export interface ValidateOptions extends SettingsOptions {
  /** `--json`: the report as one JSON object `{ok, files, hooks, warnings, errors, diagnostics}`. */
  readonly json?: boolean | undefined
  /** `--quiet`: no report; only the errors (stderr) and the exit status. */
  readonly quiet?: boolean | undefined
}

/**
 * `agent-hooks validate`: loads the settings and prints the report on stdout. A settings file
 * that cannot be read fails (exit 1), and so does an entry that was skipped because it could not
 * be decoded, or a hook whose script is missing or not executable; other warnings do not.
 *
 * @internal
 */
export const validate = (options: ValidateOptions): Effect.Effect<void, Failed> =>
  Effect.flatMap(Debug.verbosity, (level) =>
    withPlan(options, undefined, (plan) =>
      Effect.flatMap(
        Effect.promise(() => cedarErrors(plan)),
        (cedarProblems) => {
          if (level.debug) Debug.loaded(plan)
          const errors = [...errorsOf(plan), ...cedarProblems]
          const settings = plan.settings
          const output =
            options.json === true
              ? Console.log(
                  JSON.stringify(
                    {
                      ok: errors.length === 0,
                      files: settings.files.map((file) => ({
                        path: file.path,
                        scope: file.scope,
                        status: file.heldBack ? "held back" : file.found ? "read" : "not found"
                      })),
                      hooks: Object.fromEntries(
                        Object.entries(settings.hooks)
                          .filter(([, entries]) => entries.length > 0)
                          .map(([event, entries]) => [event, entries.length])
                      ),
                      permissions: settings.permissions ?? [],
                      warnings: settings.warnings,
                      codePlaceholders: Placeholder.inCodeReport(settings),
                      errors,
                      // the same warnings as data: file, JSON path, message, and severity "error" for those in errors
                      diagnostics: (settings.diagnostics ?? []).map((d) => ({
                        file: d.file ?? null,
                        path: d.path ?? null,
                        severity: d.severity ?? "warning",
                        message: d.message
                      }))
                    },
                    null,
                    2
                  )
                )
              : // --quiet: nothing on success; the errors below still reach stderr.
                options.quiet === true || level.quiet
                ? Effect.void
                : Console.log(report(settings, errors))
          return Effect.andThen(output, () =>
            errors.length === 0
              ? Effect.void
              : Effect.fail(
                  new Failed({
                    message: `${plural(errors.length, "error")}: the hooks of these settings cannot work as written:\n  ${errors.join("\n  ")}`
                  })
                )
          )
        }
      )
    )
  )

/**
 * The cedar hooks whose policy files do not parse or validate against their schema: a one-shot
 * `run` says so only when the hook runs, so `validate` checks them (loading Cedar only when the
 * settings have a cedar hook).
 */
const cedarErrors = async (plan: Plan.Plan): Promise<ReadonlyArray<string>> => {
  const { checkCedarPolicies } = await import("@agent-hooks/core/HookEngine")
  // the engine's own runtime: its files read as regular files only (a FIFO named as a policy is an error, not a wait)
  const { cedarRuntime } = await import("@agent-hooks/node/NodeHookEngine")
  return checkCedarPolicies(plan, cedarRuntime)
}
