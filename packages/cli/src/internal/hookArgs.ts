import * as HostMode from "@agent-hooks/core/HostMode"
import * as Option from "effect/Option"
import type * as LogLevel from "effect/LogLevel"
import { FOREIGN_MODES, type ForeignMode } from "./foreignPayload.ts"
import type { HookOptions } from "./hook.ts"
import { logLevels } from "./runArgs.ts"

const repeatable = new Set(["settings", "plugin"])
const single = new Set([
  "host",
  "project-dir",
  "managed-dir",
  "home",
  "preset",
  "agent",
  "ask",
  "rewrite",
  "timeout",
  "log-level",
  "event",
  "payload",
  "foreign"
])
const booleans = new Set(["fail-closed", "strict", "quiet", "fail-open"])

/**
 * Reads `agent-hooks hook --host <agent> [flags]`. An agent's config calls it, so a command line it
 * cannot read is not a usage error to print and forget: it is an `error`, answered as a block (exit 2,
 * the reason on stderr, which every agent reads). `--help` (or `-h`) gives `"help"`: the full parser
 * shows it.
 *
 * @internal
 */
export const parseHookArgs = (
  argv: ReadonlyArray<string>
): { readonly options: HookOptions; readonly logLevel: LogLevel.LogLevel | undefined } | "help" | { readonly error: string } => {
  const values = new Map<string, Array<string>>()
  const flags = new Set<string>()
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "--help" || arg === "-h") return "help"
    if (!arg.startsWith("--")) return { error: `unexpected argument "${arg}"` }
    const eq = arg.indexOf("=")
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    if (booleans.has(name)) {
      if (eq !== -1) return { error: `--${name} takes no value` }
      flags.add(name)
      continue
    }
    if (!repeatable.has(name) && !single.has(name)) return { error: `unknown flag --${name}` }
    let value: string | undefined
    if (eq !== -1) value = arg.slice(eq + 1)
    else value = argv[++i]
    if (value === undefined || value === "") return { error: `--${name} needs a value` }
    const seen = values.get(name)
    if (seen !== undefined && !repeatable.has(name)) return { error: `--${name} given twice` }
    values.set(name, [...(seen ?? []), value])
  }
  const one = (name: string): string | undefined => values.get(name)?.[0]
  const host = one("host")
  const names = HostMode.agents.map((agent) => agent.name).join(", ")
  if (host === undefined) return { error: `--host is required (one of ${names})` }
  if (HostMode.byName(host) === undefined) return { error: `unknown --host ${host} (one of ${names})` }
  const ask = one("ask")
  if (ask !== undefined && ask !== "host" && ask !== "deny") return { error: `--ask must be host or deny, got ${ask}` }
  const rewrite = one("rewrite")
  if (rewrite !== undefined && rewrite !== "host" && rewrite !== "deny" && rewrite !== "original") {
    return { error: `--rewrite must be host, deny or original, got ${rewrite}` }
  }
  const payload = one("payload")
  if (payload !== undefined && HostMode.byName(payload) === undefined) return { error: `unknown --payload ${payload} (one of ${names})` }
  const foreign = one("foreign")
  if (foreign !== undefined && !(FOREIGN_MODES as ReadonlyArray<string>).includes(foreign)) {
    return { error: `--foreign must be one of ${FOREIGN_MODES.join(", ")}, got ${foreign}` }
  }
  const timeoutText = one("timeout")
  const timeout = timeoutText === undefined ? undefined : Number(timeoutText)
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout >= 1)) {
    return { error: `--timeout must be the agent's hook timeout in seconds (1 or more), got ${timeoutText}` }
  }
  const level = one("log-level")
  const logLevel = level === undefined ? undefined : logLevels[level]
  if (level !== undefined && logLevel === undefined)
    return { error: `--log-level must be one of ${Object.keys(logLevels).join(", ")}, got ${level}` }
  return {
    logLevel,
    options: {
      host: host as HostMode.HostName,
      settings: values.get("settings") ?? [],
      projectDir: Option.fromUndefinedOr(one("project-dir")),
      plugin: values.get("plugin") ?? [],
      managedDir: Option.fromUndefinedOr(one("managed-dir")),
      home: Option.fromUndefinedOr(one("home")),
      preset: one("preset") ?? "agent-hooks",
      agent: Option.fromUndefinedOr(one("agent")),
      failClosed: flags.has("fail-closed"),
      strict: flags.has("strict"),
      quiet: flags.has("quiet"),
      ask,
      rewrite,
      timeout,
      failOpen: flags.has("fail-open"),
      ...(one("event") === undefined ? {} : { event: one("event") }),
      ...(payload === undefined ? {} : { payload }),
      ...(foreign === undefined ? {} : { foreign: foreign as ForeignMode })
    }
  }
}
