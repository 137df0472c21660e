import * as Option from "effect/Option"
import type * as LogLevel from "effect/LogLevel"
import type { RunOptions } from "./run.ts"
import { logLevelFlag, type RunFlagKind, runFlags } from "./runFlags.ts"

/** `agent-hooks run` as read by `parseRunArgs`: the command's options and `--log-level`. */
export interface RunArgs {
  readonly options: RunOptions
  readonly logLevel: LogLevel.LogLevel | undefined
}

/** `--log-level` values, as the full parser (effect/cli's global flag) reads them. @internal */
export const logLevels: Readonly<Record<string, LogLevel.LogLevel>> = {
  all: "All",
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  warning: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None"
}

// The grammar is run's flag table, the one Cli.ts builds the full parser's flags from.
const kindOf: ReadonlyMap<string, RunFlagKind> = new Map(
  [...Object.values(runFlags), logLevelFlag].map((flag): [string, RunFlagKind] => [flag.name, flag.kind])
)

/**
 * Reads `agent-hooks run <Event> [flags]` without the full command-line parser, so a host that
 * calls `run` per event does not pay for loading it (its help, completions and prompts). Only the
 * plain forms are read here: `--flag VALUE`, `--flag=VALUE`, a boolean flag alone, one event. Any
 * other command line (help, version, an unknown or repeated flag, a value that looks like a flag,
 * `--`, no event or two) gives `undefined`, and the full parser reads it: its results and errors are
 * the reference, and this reader accepts nothing it would refuse.
 *
 * @internal
 */
export const parseRunArgs = (argv: ReadonlyArray<string>): RunArgs | undefined => {
  if (argv[0] !== "run") return undefined
  const values = new Map<string, Array<string>>()
  const flags = new Set<string>()
  let event: string | undefined
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith("-")) {
      if (event !== undefined) return undefined
      event = arg
      continue
    }
    if (!arg.startsWith("--") || arg === "--") return undefined
    const eq = arg.indexOf("=")
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    const kind = kindOf.get(name)
    if (kind === undefined) return undefined
    if (kind === "boolean") {
      if (eq !== -1 || flags.has(name)) return undefined
      flags.add(name)
      continue
    }
    let value: string
    if (eq !== -1) {
      value = arg.slice(eq + 1)
    } else {
      const next = argv[i + 1]
      if (next === undefined) return undefined
      value = next
      i++
    }
    if (value === "" || value.startsWith("-")) return undefined
    const seen = values.get(name)
    if (seen !== undefined && kind !== "repeatable") return undefined
    values.set(name, [...(seen ?? []), value])
  }
  if (event === undefined) return undefined
  const one = (name: string): Option.Option<string> => Option.fromUndefinedOr(values.get(name)?.[0])
  const level = values.get(logLevelFlag.name)?.[0]
  const logLevel = level === undefined ? undefined : logLevels[level]
  if (level !== undefined && logLevel === undefined) return undefined
  return {
    options: {
      event,
      settings: values.get(runFlags.settings.name) ?? [],
      projectDir: one(runFlags.projectDir.name),
      plugin: values.get(runFlags.plugin.name) ?? [],
      managedDir: one(runFlags.managedDir.name),
      preset: values.get(runFlags.preset.name)?.[0] ?? runFlags.preset.default,
      agent: one(runFlags.agent.name),
      failClosed: flags.has(runFlags.failClosed.name),
      strict: flags.has(runFlags.strict.name),
      quiet: flags.has(runFlags.quiet.name)
    },
    logLevel
  }
}
