/**
 * The engine: settings loaded once, matchers compiled once, and `dispatch(event, payload)`
 * running every matching hook of that event concurrently into one `Outcome`.
 *
 * **Example** (Effect API)
 *
 * ```ts
 * import { Effect } from "effect"
 * import { HookEngine } from "@agent-hooks/core"
 * import { NodeHookEngine } from "@agent-hooks/node"
 *
 * const program = Effect.gen(function* () {
 *   const engine = yield* HookEngine.HookEngine
 *   const outcome = yield* engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
 *   if (outcome.blocked) console.log("blocked:", outcome.reason)
 * })
 * Effect.runPromise(program.pipe(Effect.provide(NodeHookEngine.layer({ settings: ["./hooks.json"], projectDir: "." }))))
 * ```
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type * as Scope from "effect/Scope"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { OtlpOptions, WriterOptions } from "./Audit.ts"
import * as Capabilities from "./Capabilities.ts"
import type { CedarRuntime, FetchLike, McpCaller, ModelCaller } from "./Capabilities.ts"
import type { HookError } from "./HookError.ts"
import type { LoadedSettings } from "./SettingsModel.ts"
import type { HookResult, Outcome } from "./Outcome.ts"
import type { Plan, PlanOptions } from "./Plan.ts"
import type { ProcessSpawner } from "./ProcessSpawner.ts"
import type { TelemetryOptions } from "./Telemetry.ts"
import * as internal from "./internal/engine.ts"
import * as cedarInternal from "./internal/executors/cedar.ts"

/**
 * Everything `make` takes: what the plan is compiled from (`Plan.PlanOptions`: where the settings
 * come from, the project, the preset, the env) and what the running engine is given (the
 * capabilities of `Capabilities`, async hooks, audit, telemetry, reload).
 *
 * @since 0.1.0
 * @category models
 */
export interface EngineOptions extends PlanOptions {
  /** Receives each warning (a skipped settings entry, an invalid matcher...). Default: collected only. */
  readonly onWarning?: ((warning: string) => void) | undefined
  /** Runs `prompt` and `agent` hooks. Without it those hooks are non-blocking errors. */
  readonly model?: ModelCaller | undefined
  /** Runs `mcp_tool` hooks. Without it those hooks are non-blocking errors. */
  readonly mcp?: McpCaller | undefined
  /** Used by `http` hooks. Default: the runtime's global `fetch`. */
  readonly fetch?: FetchLike | undefined
  /**
   * Runs `cedar` hooks: the runtime packages pass one that loads `@cedar-policy/cedar-wasm` when the
   * settings configure a `cedar` hook (never otherwise). Without it those hooks are non-blocking errors.
   */
  readonly cedar?: CedarRuntime | undefined
  /**
   * Load the Cedar engine and check every `cedar` hook's policies when the engine starts (default
   * `true`), so that a broken policy file is said before any call. A one-shot host that dispatches
   * a single event (`agent-hooks run`, `agent-hooks hook`) passes `false`: an event without a cedar
   * hook then never loads the wasm module, and a cedar hook's own run reports a broken file.
   *
   * @since 0.2.0
   */
  readonly preloadCedar?: boolean | undefined
  /** How many `async` hooks may run at once. Default 4; the rest wait. */
  readonly asyncConcurrency?: number | undefined
  /** Called when an `async` hook finishes (also queued for `takeAsyncResults`, which keeps the last 100). */
  readonly onAsyncResult?: ((result: AsyncResult) => void) | undefined
  /**
   * Called when a hook starts, with its `statusMessage` (for a spinner or a status line). Called
   * synchronously; keep it cheap.
   */
  readonly onHookStart?:
    | ((hook: { readonly event: string; readonly command: string; readonly statusMessage: string | undefined }) => void)
    | undefined
  /**
   * Start `async` command hooks (pigo's `blocking: false`) detached, for a host that exits right
   * after the dispatch (`agent-hooks run` sets it): each runs in a session of its own with the
   * payload on stdin and its output discarded, outlives the host and signals sent to it, and is
   * killed with its process group after its timeout (the cap; 600 s by default). Its result is
   * not collected. Default: off; in-process hosts and `agent-hooks serve` run async hooks as
   * fibers the engine reaps.
   */
  readonly detachAsync?: boolean | undefined
  /**
   * The audit trail (see `Audit`): every hook run and every dispatch (its tool, input and outcome,
   * whether a hook matched or not) is appended to this file before the outcome is returned.
   * Overrides the settings' `auditLog`.
   */
  readonly auditLog?: string | undefined
  /** The HMAC key that signs the audit log's checkpoints. Default: `AGENT_HOOKS_AUDIT_KEY` from `env`. */
  readonly auditKey?: string | undefined
  /**
   * How the audit trail records a dispatch's input: more redaction patterns (added to the settings'
   * `auditRedact` and the defaults), `defaultRedactions: false`, and the size caps (see
   * `Audit.WriterOptions`).
   *
   * @since 0.2.0
   */
  readonly auditOptions?:
    | (Pick<WriterOptions, "redact" | "defaultRedactions" | "maxValueChars" | "maxInputChars"> & {
        /**
         * Also send each record to a collector as an OTLP log record (see `Audit.OtlpOptions`), over
         * `AGENT_HOOKS_AUDIT_OTLP` of `env`; `false`: not whatever `env` says. @since 0.2.0
         */
        readonly otlp?: Partial<OtlpOptions> | false | undefined
      })
    | undefined
  /**
   * OpenTelemetry export (see `Telemetry`): settings over the `OTEL_*` variables of `env`, or
   * `false` to turn it off. Default: on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
   */
  readonly telemetry?: TelemetryOptions | false | undefined
  /**
   * Hot reload: watch the settings files; on a change, decode and compile them and switch to the
   * new hooks between dispatches (dispatches in flight finish on the hooks they started with).
   * `ConfigChange` runs first, on the hooks in force: a block keeps them, except for a change to
   * managed policy. A file that fails to decode keeps the hooks in force. Trust still applies.
   */
  readonly watch?: boolean | undefined
  /** Called after each reload attempt (with `watch`); failures and blocks also go to `onWarning`. */
  readonly onReload?: ((event: ReloadEvent) => void) | undefined
  /**
   * A plan already compiled (`Plan.make`) from these same options: the engine takes it instead of
   * loading and compiling the settings again. The caller answers for it being current (the CLI's
   * daemon keeps plans between calls and checks, before each call, every file each one was read
   * from). Not with `watch`, which always loads the files itself.
   *
   * @since 0.2.0
   */
  readonly plan?: Plan | undefined
}

/**
 * What became of a settings change (with `watch`).
 *
 * @since 0.2.0
 * @category models
 */
export type ReloadEvent =
  | {
      readonly _tag: "Reloaded"
      readonly files: ReadonlyArray<string>
      readonly warnings: ReadonlyArray<string>
      /**
       * The hooks the reload took away (`event: command (file at path)`): a settings file edited or
       * deleted, perhaps by the agent's own tools. Also said through `onWarning` and in the next
       * Outcome's `warnings`.
       * @since 0.2.0
       */
      readonly dropped?: ReadonlyArray<string> | undefined
    }
  | { readonly _tag: "Failed"; readonly files: ReadonlyArray<string>; readonly message: string }
  | { readonly _tag: "Blocked"; readonly files: ReadonlyArray<string>; readonly message: string }

/**
 * The capability types, re-exported from `Capabilities` (their home).
 *
 * @since 0.1.0
 */
export type {
  AbortSignalLike,
  CallbackGroup,
  CedarRuntime,
  CedarWasm,
  FetchLike,
  HookCallback,
  McpCaller,
  ModelCaller,
  ModelRequest
} from "./Capabilities.ts"

/**
 * A `CedarRuntime` from the runtime's `import()` of `@cedar-policy/cedar-wasm` and a file reader
 * (see `Capabilities.cedarRuntime`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const cedarRuntime = Capabilities.cedarRuntime

/**
 * Loads and checks the policy files of every `cedar` hook of a plan (parsed, and validated against
 * their schema when given): one line per hook whose files do not parse or validate. Nothing is
 * loaded when the plan has no cedar hook. What an engine does when it starts, for a tool that
 * starts none (`agent-hooks validate`).
 *
 * @since 0.2.0
 * @category cedar
 */
export const checkCedarPolicies: (plan: Plan, runtime: CedarRuntime) => Promise<ReadonlyArray<string>> = cedarInternal.checkPlan

/**
 * The result of an `async` hook, delivered after the dispatch that started it.
 *
 * @since 0.1.0
 * @category models
 */
export interface AsyncResult {
  readonly event: string
  /**
   * The session of the dispatch that started the hook (its payload's `session_id`, else the
   * engine's): a host running several sessions on one engine gives each its own results.
   *
   * @since 0.2.0
   */
  readonly sessionId: string
  readonly hook: HookResult
  /** For the model, on its next turn: `additionalContext` and `systemMessage`. */
  readonly toModel: ReadonlyArray<string>
  /** `asyncRewake` hook exited 2: wake the agent now with `rewakeMessage`. */
  readonly rewake: boolean
  readonly rewakeMessage: string | null
}

/**
 * The engine service.
 *
 * @since 0.1.0
 * @category tags
 */
export class HookEngine extends Context.Service<
  HookEngine,
  {
    /** The merged settings, with the warnings raised while loading and compiling them. */
    readonly settings: LoadedSettings
    /** The compiled plan every dispatch reads. */
    readonly plan: Plan
    /**
     * The events that have at least one hook (settings and programmatic ones). A host may skip
     * dispatching any other event: nothing would run.
     */
    readonly hookedEvents: ReadonlySet<string>
    /**
     * Runs every hook configured for `event` whose matcher fits `payload`.
     * Fails only for engine errors (a payload that is not an object); hook failures are results.
     */
    readonly dispatch: (event: string, payload: unknown) => Effect.Effect<Outcome, HookError>
    /**
     * The outcome of dispatching `event` when no hook's matcher fits `payload`, computed
     * synchronously from the plan's index (no Effect runtime); `undefined` when some hook may run,
     * or when the payload is not an object: then use `dispatch`.
     */
    readonly unmatched: (event: string, payload: unknown) => Outcome | undefined
    /**
     * Removes and returns the results of `async` hooks that finished since the last call (the last 100 at most: older
     * ones are dropped, said once through `onWarning`).
     */
    readonly takeAsyncResults: Effect.Effect<ReadonlyArray<AsyncResult>>
    /** Waits until every running `async` hook has finished. */
    readonly awaitAsync: Effect.Effect<void>
    /**
     * Records a reload of the settings in the audit trail, when it is on (a reloading engine calls
     * it for each reload). A record that cannot be written is said through `onWarning`.
     * @since 0.2.0
     */
    readonly recordReload?: ((event: ReloadEvent) => Effect.Effect<void>) | undefined
  }
>()("@agent-hooks/core/HookEngine") {}

/**
 * Loads the settings and builds the engine. `async` hooks live in the scope: closing it kills them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  options: EngineOptions
) => Effect.Effect<HookEngine["Service"], HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path | Scope.Scope> = internal.make

/**
 * The engine as a layer. The runtime package provides `ProcessSpawner`, `FileSystem` and `Path`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (options: EngineOptions) => Layer.Layer<HookEngine, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path> = (
  options
) => Layer.effect(HookEngine, internal.make(options))
