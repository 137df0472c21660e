/**
 * The compiled plan: settings loaded and decoded once, then compiled into every per-hook decision
 * the engine needs (matcher, `if` rule, timeout, policy refusal, dedup key, async, once), so that a
 * dispatch only reads it.
 *
 * The pipeline is one-way: **load** (`load`: read the settings files and the trust store) →
 * **decode** (per dialect, in `Settings`) → **compile** (`compile`: pure over the snapshot; every
 * warning is data with its file and JSON path) → dispatch, execute, classify, aggregate (the
 * engine). `agent-hooks validate`, `list` and `migrate` stop after compile: no engine is built.
 *
 * **Example**
 *
 * ```ts
 * import { Effect } from "effect"
 * import { Plan } from "@agent-hooks/core"
 *
 * const program = Effect.gen(function* () {
 *   const plan = yield* Plan.make({ settings: ["./hooks.json"], projectDir: "." })
 *   console.log(JSON.stringify(Plan.toJSON(plan), null, 2))
 *   Plan.matches(plan, "PreToolUse", { tool_name: "Bash" }) // false when no hook could run
 * })
 * ```
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type { CallbackGroup } from "./Capabilities.ts"
import type { SettingsError } from "./HookError.ts"
import type { CustomEvent, HookEventSpec } from "./HookEvent.ts"
import type { PermissionRule } from "./PermissionRule.ts"
import type { Preset } from "./PresetModel.ts"
import type { HookEntry, LoadedSettings, PermissionEntry, PlanWarning, SettingsScope } from "./SettingsModel.ts"
import * as internal from "./internal/plan.ts"

/**
 * What a plan is compiled from: where the settings come from, where the project is, the preset,
 * the environment, programmatic hooks, and the switches that change which hooks run and how.
 * `HookEngine.EngineOptions` extends it with what only a running engine needs.
 *
 * @since 0.2.0
 * @category models
 */
export interface PlanOptions {
  /** Explicit settings files. When given, discovery is off and only these are read. */
  readonly settings?: ReadonlyArray<string> | undefined
  /** The project root (absolute or relative to `cwd`). Default: `cwd`. */
  readonly projectDir?: string | undefined
  /** The directory relative paths are resolved against. Default: the project dir, else `"."`. */
  readonly cwd?: string | undefined
  /**
   * The environment hooks inherit (plus `AGENT_HOOKS_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`).
   * Also read for `AGENT_HOOKS_HOME` and `HOME` during discovery. Default: none; runtime packages pass
   * the process environment.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** Events the host declares beside the catalog (e.g. `BeforeModel`). */
  readonly events?: ReadonlyArray<CustomEvent> | undefined
  /** Programmatic hooks, like the Agent SDK's `hooks` option; they run after the settings hooks of the same event. */
  readonly hooks?: Readonly<Record<string, ReadonlyArray<CallbackGroup>>> | undefined
  /** Consecutive Stop / SubagentStop blocks after which the agent may stop anyway. Default 8; 0 turns the guard off. */
  readonly stopBlockCap?: number | undefined
  /** Plugin folders whose `hooks/hooks.json` is loaded (with `CLAUDE_PLUGIN_ROOT` set to the folder). */
  readonly plugins?: ReadonlyArray<string> | undefined
  /** The folder of managed (policy) settings: `managed-settings.json` and `managed-settings.d/*.json`. Default: the preset's. */
  readonly managedDir?: string | undefined
  /**
   * The config dialect: a `Preset`, or a built-in preset's name (`"wingman"`, as `--preset` takes;
   * an unknown name fails with a `SettingsError` listing the names). Default: `Preset.agentHooks`.
   */
  readonly preset?: Preset | string | undefined
  /** For dialects with agents (Wingman): whose agent hooks are added. */
  readonly agent?: string | undefined
  /**
   * Hold back the hooks of project and local settings files whose content was not approved
   * (`agent-hooks trust`). Also on with `AGENT_HOOKS_REQUIRE_TRUST=1`, or when managed settings set
   * `requireProjectTrust`. Default: off (a host that embeds the engine decides). See `Trust`.
   */
  readonly requireTrust?: boolean | undefined
  /** Run the hooks of each event one after another in config order (overrides the settings' `sequential`). */
  readonly sequential?: boolean | undefined
  /**
   * Strict mode: a settings entry that cannot be decoded fails the load (a `SettingsError`) instead
   * of being skipped with a warning. Also on with `AGENT_HOOKS_STRICT=1` or `"strict": true` in any
   * settings file; nothing turns it off once one of them turns it on.
   */
  readonly strict?: boolean | undefined
  /**
   * Fail closed: every hook on an event that can block behaves as if it had `onFailure: "block"`:
   * a hook that cannot start, crashes, times out or answers with output that cannot be read blocks
   * the action (deny on permission events). Not on Stop, SubagentStop, TaskCompleted, TeammateIdle
   * or for `async` hooks, where blocking means "keep going" and would loop. A handler's own
   * `onFailure: "continue"` still wins. Also on with `AGENT_HOOKS_FAIL_CLOSED=1`. Default: off
   * (Claude Code's behaviour: a failing hook is a non-blocking error).
   */
  readonly failClosed?: boolean | undefined
  /**
   * Files of other dialects (`.claude/settings.json` beside the agent-hooks preset): `warn` (default)
   * says when one holds hooks this preset does not run; `ignore` says nothing (host mode: the agent
   * runs its own files). @since 0.3.0
   */
  readonly otherDialects?: "warn" | "ignore" | undefined
  /**
   * A guard that did not judge blocks: a hook that never ran (it could not start, the engine refused
   * it, its command was not found or not executable: exit 127 or 126), or whose answer was not read
   * (stdout cut at the 32 MiB cap, or starting with `{` and not valid JSON), blocks an event that
   * can block, with a reason that says why, while a command hook that ran and failed (exit 1) stays a
   * non-blocking error (Claude Code's rule). Not on Stop, SubagentStop, TaskCompleted, TeammateIdle
   * or for `async` hooks. A handler's own `onFailure: "continue"` still wins. Host mode
   * (`agent-hooks hook`) turns it on; `failClosed` includes it. Default: off.
   * (`cedar` hooks and `http` hooks with `api: "opa"` are guards by construction: any failure of
   * theirs blocks whatever this says, unless their `onFailure` is `"continue"`.)
   *
   * @since 0.2.0
   */
  readonly blockUnjudged?: boolean | undefined
  /**
   * Resolves the symbolic links of a path that exists (`undefined` when it does not), so that
   * `permissions` path rules judge the file a link leads to (`Read(./.env)` holds for a link to
   * `.env`). The core has no file system: the runtime packages pass theirs (`@agent-hooks/node`:
   * `fs.realpathSync.native`). Without it paths are judged as written, normalized.
   *
   * @since 0.2.0
   */
  readonly realpath?: ((path: string) => string | undefined) | undefined
}

/**
 * What compile reads: the merged settings and the plan options, with the directories resolved.
 *
 * @since 0.2.0
 * @category models
 */
export interface Snapshot {
  readonly settings: LoadedSettings
  readonly options: PlanOptions
  /** Absolute. */
  readonly projectDir: string
  /** Absolute. */
  readonly cwd: string
  /**
   * What load found at each script path a command hook's first word names (absolute path →
   * `"ok" | "missing" | "not-executable" | "not-a-file"`); compile turns the bad ones into errors.
   */
  readonly scripts?: ReadonlyMap<string, "ok" | "missing" | "not-executable" | "not-a-file"> | undefined
  /**
   * Whether each bare command a command hook runs (`jq`, exec form's `command`) is on the hooks'
   * `PATH`; a command not listed is not known (no folder of `PATH` could be read). Compile turns
   * `false` into an error.
   */
  readonly commands?: ReadonlyMap<string, boolean> | undefined
}

/**
 * A warning found while loading or compiling (defined with the settings it is about).
 *
 * @since 0.2.0
 */
export type { PlanWarning } from "./SettingsModel.ts"

/**
 * One hook with every decision that does not depend on the payload already made.
 *
 * @since 0.2.0
 * @category models
 */
export interface PlannedHook {
  /** Position in the plan, unique across events; stable for the same snapshot. */
  readonly id: number
  readonly entry: HookEntry
  /** The parsed `if` rule (tool events only). */
  readonly rule: PermissionRule | undefined
  /** How results and messages name the hook (`./guard.sh`, `POST https://...`, `callback name`). */
  readonly display: string
  /** Seconds: the handler's own timeout, else its type's default on this event. */
  readonly timeout: number
  /** Runs in the background (`async` or `asyncRewake`). */
  readonly async: boolean
  readonly once: boolean
  /**
   * Among the matched hooks of a dispatch, one with this key runs (any group or settings file): the
   * highest scope's, the first in config order among equals; `undefined`: never deduplicated.
   */
  readonly dedupKey: string | undefined
  /**
   * Why this hook never starts (it can never run: policy's `allowedCommands`, a handler that could
   * not be decoded, an `if` rule that does not parse...); its result is then a failure that says so.
   */
  readonly refusal: string | undefined
  /** Environment variables this hook gets beside the engine's (`CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`). */
  readonly extraEnv: Readonly<Record<string, string>> | undefined
}

/**
 * The hooks of one event, in config order, and the index a dispatch consults first.
 *
 * @since 0.2.0
 * @category models
 */
export interface PlannedEvent {
  readonly spec: HookEventSpec
  readonly hooks: ReadonlyArray<PlannedHook>
  /** A group without a matcher (or `*`), or an event without matchers: every dispatch has candidates. */
  readonly always: boolean
  /** For exact matchers: value → ids of the hooks whose matcher names it. */
  readonly exact: ReadonlyMap<string, ReadonlyArray<number>>
  /** Hooks whose matcher is a regular expression, tested one by one. */
  readonly tested: ReadonlyArray<PlannedHook>
}

/**
 * The compiled plan.
 *
 * @since 0.2.0
 * @category models
 */
export interface Plan {
  /** The merged settings; `warnings` includes the compile warnings, rendered. */
  readonly settings: LoadedSettings
  /** The preset the settings were read with (its per-dispatch rules apply). */
  readonly preset: Preset
  readonly events: ReadonlyMap<string, PlannedEvent>
  /** The events the preset and the host declare, for dispatching events that have no hooks. */
  readonly declared: ReadonlyMap<string, HookEventSpec>
  readonly warnings: ReadonlyArray<PlanWarning>
  readonly projectDir: string
  readonly cwd: string
  /** What hooks inherit: the options' env plus `AGENT_HOOKS_PROJECT_DIR`, `CLAUDE_PROJECT_DIR` and the preset's. */
  readonly env: Readonly<Record<string, string>>
  /** `HOME` of the options' env, for `if` rules on paths. */
  readonly home: string | undefined
  readonly sequential: boolean
  /** A failing hook without its own `onFailure` blocks (engine option `failClosed` or `AGENT_HOOKS_FAIL_CLOSED`). */
  readonly failClosed: boolean
  /** A hook that never ran, or whose answer was not read, blocks (engine option `blockUnjudged`, or `failClosed`). @since 0.2.0 */
  /** The options' `realpath`, for permission rules on paths. @since 0.2.0 */
  readonly realpath?: ((path: string) => string | undefined) | undefined
  readonly blockUnjudged?: boolean | undefined
  /** Consecutive Stop blocks after which the agent may stop (0: off). */
  readonly stopBlockCap: number
  /** SessionEnd's whole-event budget from the environment, in seconds; `undefined`: computed from the hooks. */
  readonly sessionEndOverride: number | undefined
  /** Plugin data folders the engine creates when it starts. */
  readonly pluginDataDirs: ReadonlyArray<string>
  /** The events with at least one hook. */
  readonly hookedEvents: ReadonlySet<string>
  /**
   * The merged `permissions` rules, parsed once, in the order they are judged: deny (managed first),
   * ask, allow. `active`: some rule can change a call (a deny or an ask). `undefined`: no rules.
   * Judged in-process on PreToolUse and PermissionRequest, before any hook runs.
   *
   * @since 0.2.0
   */
  readonly permissions?:
    | {
        readonly rules: ReadonlyArray<{ readonly entry: PermissionEntry; readonly rule: PermissionRule }>
        readonly active: boolean
      }
    | undefined
}

/**
 * Resolves the directories and loads the settings (files, trust store), without compiling.
 *
 * @since 0.2.0
 * @category loading
 */
export const load: (options: PlanOptions) => Effect.Effect<Snapshot, SettingsError, FileSystem.FileSystem | Path.Path> = internal.load

/**
 * Compiles a snapshot. Pure: the same snapshot gives the same plan.
 *
 * @since 0.2.0
 * @category constructors
 */
export const compile: (snapshot: Snapshot) => Plan = internal.compile

/**
 * `load`, then `compile`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: (options: PlanOptions) => Effect.Effect<Plan, SettingsError, FileSystem.FileSystem | Path.Path> = internal.make

/**
 * `false` when no hook's matcher fits `payload` on `event`: a dispatch would run nothing. A
 * synchronous lookup in the plan's index.
 *
 * @since 0.2.0
 * @category dispatch
 */
export const matches: (plan: Plan, event: string, payload: Readonly<Record<string, unknown>>) => boolean = internal.matches

/**
 * Why one hook of an event would or would not run for a payload (what `--log-level debug` prints).
 *
 * @since 0.2.0
 * @category models
 */
export interface HookExplanation {
  readonly id: number
  /** How results name the hook (the command as written, `POST https://...`). */
  readonly command: string
  /** The matcher as written; `null` when the group had none. */
  readonly matcher: string | null
  readonly source: string
  /** The hook's JSON path in its file. */
  readonly path: string
  /** The hook starts for this payload (matched, its `if` rule holds, not a duplicate, not refused by policy). */
  readonly runs: boolean
  /** Why, in words: `matched`, `matcher "Edit" does not match "Bash"`, `"if" rule ... does not match`, ... */
  readonly why: string
}

/**
 * Every hook of `event` in config order with whether it runs for `payload` and why: the same
 * selection a dispatch makes (matcher, `if` rule, `once`, deduplication, policy), as data. `ran`
 * holds the ids of `once` hooks that ran already. Costs nothing when not called: dispatch selects
 * without it.
 *
 * @since 0.2.0
 * @category dispatch
 */
export const explain: (
  plan: Plan,
  event: string,
  payload: Readonly<Record<string, unknown>>,
  ran?: ReadonlySet<number>
) => ReadonlyArray<HookExplanation> = internal.explain

/**
 * One hook of the plan as JSON (what `agent-hooks list --json` prints).
 *
 * @since 0.2.0
 * @category models
 */
export interface PlannedHookJson {
  readonly id: number
  readonly event: string
  /** The matcher as written; `null` when the group had none (it matches everything). */
  readonly matcher: string | null
  readonly type: string
  readonly command: string
  /** The timeout as configured; `null` when the default applies. */
  readonly timeout: number | null
  /** The timeout the hook runs with, in seconds. */
  readonly effectiveTimeout: number
  readonly source: string
  readonly scope: SettingsScope
  readonly path: string
  readonly if: string | null
  readonly async: boolean
  readonly once: boolean
  readonly refusal: string | null
  /** A `cedar` hook's request: its files, and how the input maps to principal, action, resource and context. */
  readonly cedar?:
    | {
        readonly policies: string
        readonly entities: string | null
        readonly schema: string | null
        readonly principal: string
        readonly action: string
        readonly resource: string
        readonly context: string
        readonly onNoDecision: "deny" | "no-objection"
      }
    | undefined
}

/**
 * The plan as JSON (no functions, no environment values).
 *
 * @since 0.2.0
 * @category models
 */
export interface PlanJson {
  readonly files: LoadedSettings["files"]
  readonly hooks: ReadonlyArray<PlannedHookJson>
  readonly policy: {
    readonly disableAllHooks: boolean
    readonly allowManagedHooksOnly: boolean
    readonly allowedHttpHookUrls: ReadonlyArray<string> | null
    readonly httpHookAllowedEnvVars: ReadonlyArray<string> | null
    readonly allowedCommands: ReadonlyArray<string> | null
    readonly sequential: boolean
    readonly failClosed: boolean
    readonly strict: boolean
    readonly dedupe: boolean
    readonly stopBlockCap: number
    readonly executionLog: string | null
  }
  /** The `permissions` rules with their files, in the order they are judged (deny, ask, allow). @since 0.2.0 */
  readonly permissions?: ReadonlyArray<PermissionEntry> | undefined
  readonly warnings: ReadonlyArray<PlanWarning>
}

/**
 * The plan as a JSON value.
 *
 * @since 0.2.0
 * @category conversions
 */
export const toJSON: (plan: Plan) => PlanJson = internal.toJSON

/**
 * A plan warning as one line: `file at path: message`.
 *
 * @since 0.2.0
 * @category models
 */
export const render: (warning: PlanWarning) => string = internal.render
