/**
 * The flags of `agent-hooks run`: the one grammar both readers of its command line follow.
 * `Cli.ts` builds its effect/cli flags from this table (the reference parser, with help and
 * errors), and the fast path (`runArgs.ts`) reads the plain forms by it without loading effect/cli.
 * Imports nothing, so that the fast path stays light.
 *
 * @internal
 */

/**
 * How a flag takes its value: `repeatable` (a list, zero or more), `single` (at most once),
 * `boolean` (alone, no value).
 *
 * @internal
 */
export type RunFlagKind = "repeatable" | "single" | "boolean"

/** @internal */
export interface RunFlag {
  readonly name: string
  readonly kind: RunFlagKind
  readonly metavar?: string
  readonly description: string
  /** The value when the flag is absent (a `single` flag without one is optional). */
  readonly default?: string
}

/** @internal */
export const runFlags = {
  settings: {
    name: "settings",
    kind: "repeatable",
    metavar: "FILE",
    description: "A settings file to read (repeatable). When given, only these files are read: no discovery."
  },
  projectDir: {
    name: "project-dir",
    kind: "single",
    metavar: "DIR",
    description:
      "The project root, for discovery and AGENT_HOOKS_PROJECT_DIR / CLAUDE_PROJECT_DIR. Default: the current directory (without --settings: the nearest folder above it with the preset's project settings or a .git)."
  },
  plugin: {
    name: "plugin",
    kind: "repeatable",
    metavar: "DIR",
    description: "A plugin folder whose hooks/hooks.json is loaded, with CLAUDE_PLUGIN_ROOT set to it (repeatable)."
  },
  managedDir: {
    name: "managed-dir",
    kind: "single",
    metavar: "DIR",
    description:
      "The managed (policy) settings folder. Default: $AGENT_HOOKS_MANAGED_DIR, else the preset's (/etc/agent-hooks; claude: /etc/claude-code)."
  },
  // Cli.ts adds the list of presets to this description.
  preset: {
    name: "preset",
    kind: "single",
    metavar: "NAME",
    description: "The config dialect and discovery to use.",
    default: "agent-hooks"
  },
  agent: {
    name: "agent",
    kind: "single",
    metavar: "NAME",
    description: "The agent, for presets whose dialect has agents (wingman: .wingman/agents/<NAME>/agent.json); ignored by the others."
  },
  failClosed: {
    name: "fail-closed",
    kind: "boolean",
    description:
      "Any hook failure (spawn failure, timeout, crash) on a blocking event blocks it, except on Stop-like events and async hooks (engine option failClosed)."
  },
  strict: {
    name: "strict",
    kind: "boolean",
    description:
      "A handler that does not decode fails the whole load instead of being skipped with a warning (engine option strict; also AGENT_HOOKS_STRICT=1)."
  },
  quiet: {
    name: "quiet",
    kind: "boolean",
    description: "No settings warnings on stderr. The lines about hooks that failed or could not run are always shown."
  },
  json: { name: "json", kind: "boolean", description: "JSON output (for run and serve it is the only output, accepted for uniformity)." }
} as const satisfies Record<string, RunFlag>

/**
 * `--log-level`, effect/cli's global flag: the fast path reads it too (a `single` flag).
 *
 * @internal
 */
export const logLevelFlag: RunFlag = { name: "log-level", kind: "single", description: "" }
