/**
 * What the in-process framework adapters share (`@agent-hooks/ai-sdk`, `@agent-hooks/mastra`): the
 * engine they run on (the project's, once per process), the options, the tool names hooks see, the
 * payloads, the transcript, and the rule that a policy that fails blocks the call. The adapters'
 * own modules build on it; an adapter for another framework can too.
 *
 * @since 0.3.0
 */
import type * as Outcome from "@agent-hooks/core/Outcome"
import type { ProjectEngineOptions } from "./ProjectEngine.ts"
import * as internal from "./internal/frameworkAdapter.ts"

/**
 * The engine the hooks run on: what the adapter needs of it. The engines of `createHookEngine` and
 * `projectEngine` (`@agent-hooks/node`) are ones.
 *
 * @since 0.3.0
 * @category models
 */
export interface AdapterEngine {
  readonly dispatch: (
    event: string,
    payload: Record<string, unknown>,
    context?: { readonly traceparent?: string | undefined }
  ) => Promise<Pick<Outcome.Outcome, "blocked" | "decision" | "reason" | "updatedInput" | "additionalContext" | "warnings">>
  /** The loaded settings (their tool-event matchers decide which name a tool is given). */
  readonly settings?: { readonly hooks: Readonly<Record<string, ReadonlyArray<unknown>>> } | undefined
  /** The preset's tool names (a preset written in its agent's own names sees the tools as named). */
  readonly preset?: { readonly toolNames?: ReadonlyArray<string> | undefined } | undefined
  /** The outcome of a dispatch that would run no hook, at once, else `undefined` (then the transcript is written). */
  readonly unmatched?: ((event: string, payload: Record<string, unknown>) => unknown) | undefined
  /** The engine says its warnings itself: the adapter does not repeat an outcome's warnings. */
  readonly reportsWarnings?: boolean | undefined
  readonly close?: (() => Promise<void>) | undefined
}

/**
 * How a tool appears to hooks.
 *
 * @since 0.3.0
 * @category models
 */
export interface ToolMapping {
  /** The `tool_name` hooks see and matchers test (`Bash`, `Read`, `mcp__github__create_issue`...). */
  readonly name: string
  /** The tool's input as `tool_input`. Default: as it is. */
  readonly toInput?: ((args: Record<string, unknown>) => Record<string, unknown>) | undefined
  /** A hook's `updatedInput` back to the tool's input. Default: as it is. */
  readonly fromInput?: ((toolInput: Record<string, unknown>) => Record<string, unknown>) | undefined
}

/**
 * Options shared by the framework adapters.
 *
 * @since 0.3.0
 * @category models
 */
export interface AdapterOptions {
  /**
   * The engine. Default: `projectEngine({ projectDir })` of `@agent-hooks/node`: the agent-hooks
   * settings of the project folder (every scope: managed, user, project, local; the preset, trust,
   * audit, telemetry, `permissions`), created once per process and shared.
   */
  readonly engine?: AdapterEngine | undefined
  /** The project folder whose settings apply (with the default engine). Default: `cwd`. */
  readonly projectDir?: string | undefined
  /**
   * More options of the default engine (`projectEngine` of `@agent-hooks/node`: `env`, `telemetry`,
   * `auditLog`, `requireTrust`...). Ignored with `engine`.
   */
  readonly engineOptions?: ProjectEngineOptions | undefined
  /** The `cwd` of every payload. Default: `process.cwd()`. */
  readonly cwd?: string | undefined
  /**
   * With the default engine: a hook that crashes, times out or answers unreadably blocks the call
   * (`failClosed` of the engine). Default `true`.
   */
  readonly failClosed?: boolean | undefined
  /**
   * The framework's tool names → the names hooks see. A string renames; a `ToolMapping` also
   * reshapes the input. Merged over `defaultToolNames` (`bash` → `Bash`, `readFile` → `Read`...).
   */
  readonly toolNames?: Readonly<Record<string, string | ToolMapping>> | undefined
  /**
   * Use `defaultToolNames`. Default `true`; a default applies only where the engine's preset uses
   * the name it maps to, and not to a tool that the settings' matchers name by its own name (a
   * matcher may name either: `bash` or `Bash`).
   */
  readonly defaultToolNames?: boolean | undefined
  /** The payloads' `session_id`. Default: a new id per adapter. */
  readonly sessionId?: string | undefined
  /**
   * Where the transcripts are written: `<dir>/<session_id>.jsonl`, the payloads' `transcript_path`:
   * the conversation the framework hands the adapter, as JSONL in Claude Code's line format,
   * written before each tool-call dispatch that may run a hook. Files 0600, folders 0700. Default:
   * `<os tmpdir>/agent-hooks-<uid>/transcripts` (the per-user folder must belong to the user);
   * `false`: none (`transcript_path` is `""`).
   */
  readonly transcriptDir?: string | false | undefined
  /** The payloads' `permission_mode`. Default `"default"`. */
  readonly permissionMode?: string | undefined
  /** The adapter's warnings (a policy that failed). Default: `console.warn`, prefixed `[agent-hooks]`. */
  readonly onWarning?: ((warning: string) => void) | undefined
}

/**
 * One adapter: its engine and the dispatch of each event with the payload in Claude Code's names.
 *
 * @since 0.3.0
 * @category models
 */
export type Adapter = internal.Adapter

/**
 * A tool of the framework as hooks see it: Claude Code's name and input where mapped.
 *
 * @since 0.3.0
 * @category models
 */
export type ResolvedTool = internal.ResolvedTool

/**
 * Common tool names of agents built on a framework, and Claude Code's names for them.
 *
 * @since 0.3.0
 * @category constants
 */
export const defaults: Readonly<Record<string, string | ToolMapping>> = internal.defaults

/**
 * Makes an adapter named `adapterName` (for messages) from its options.
 *
 * @since 0.3.0
 * @category constructors
 */
export const make: (options: AdapterOptions, adapterName: string) => Adapter = internal.make

/**
 * The Outcome of an event no hook ran on.
 *
 * @since 0.3.0
 * @category constructors
 */
export const nothing: (event: string) => Outcome.Outcome = internal.nothing

/**
 * Whether `value` is a plain object.
 *
 * @since 0.3.0
 * @category guards
 */
export const isRecord: (value: unknown) => value is Record<string, unknown> = internal.isRecord

/**
 * The active OpenTelemetry span as a trace parent, if any.
 *
 * @since 0.3.0
 * @category utils
 */
export const currentTrace: () => { readonly traceparent: string } | undefined = internal.currentTrace
