/**
 * The event catalog, as data: every Claude Code hook event (as Claude Code documents them), with
 * the input field its matcher is tested against, how it can block, whether a hook's plain stdout
 * reaches the model's context, and its default timeout.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/hookEvent.ts"

/**
 * How an event can stop or steer the action it announces:
 * - `permission`: a permission decision (`allow` / `deny` / `ask` / `defer`); exit 2 denies (PreToolUse);
 * - `permission-request`: `hookSpecificOutput.decision.behavior`; exit 2 is ignored (PermissionRequest);
 * - `decision`: exit 2 or `decision: "block"` blocks (UserPromptSubmit, Stop, PostToolUse, PreCompact, ...);
 * - `none`: the event cannot block, whatever its hooks do (Notification, SessionEnd, ...).
 *
 * @since 0.1.0
 * @category models
 */
export type BlockingRule = "permission" | "permission-request" | "decision" | "none"

/**
 * One event of the catalog.
 *
 * @since 0.1.0
 * @category models
 */
/**
 * How a hook's output is read: Claude Code's rules (`claude`), or an agent's own (its preset's
 * docs page says which).
 *
 * @since 0.2.0
 * @category models
 */
export type OutputDialect =
  | "claude"
  | "gemini"
  | "gemini-source"
  | "exit-code"
  | "cline"
  | "antigravity"
  | "antigravity-1.0"
  | "cursor"
  | "copilot"
  | "codex"
  | "vscode"

export interface HookEventSpec {
  readonly name: string
  /** The payload field the matcher is tested against; `undefined` when the event ignores matchers. */
  readonly matcherField: string | undefined
  readonly blocking: BlockingRule
  /** A hook's plain (non-JSON) stdout on exit 0 is added to the model's context. */
  readonly plainStdoutToContext: boolean
  /** Seconds, for command, http and mcp_tool hooks (prompt hooks default to 30 s, agent hooks to 60 s). */
  readonly defaultTimeout: number
  /** Who is shown a hook's stderr when it exits 2. */
  readonly exit2StderrTo: Audience
  /** Who is shown the reason of a `decision: "block"`. */
  readonly reasonTo: Audience
  /** The fields `hookSpecificOutput` may carry on this event; empty: none (its presence is an error). */
  readonly specificOutput: ReadonlyArray<string>
  /** `continue: false` is honoured (it is discarded on some events). */
  readonly continueHonored: boolean
  /**
   * A hook's `systemMessage` is shown (Claude Code discards it, with the rest of the JSON answer
   * but `terminalSequence`, on Notification, StopFailure, InstructionsLoaded, WorktreeRemove,
   * SessionEnd and PostCompact).
   */
  readonly systemMessageShown: boolean
  /** `prompt` and `agent` handlers may run on this event. */
  readonly promptHandlers: boolean
  /** `true` for events declared by the host rather than taken from the catalog. */
  readonly custom: boolean
  /** Any non-zero exit (not only 2) of a command hook blocks, with stderr as the reason (pigo's `tool_start`). */
  readonly nonZeroBlocks: boolean
  /**
   * The catalog event whose special rules apply (`if` on tool events, the Stop loop guard, where
   * `onFailure` is ignored, WorktreeCreate's path...): the event itself, or what a declared event `extends`.
   */
  readonly behavesAs: string
  /**
   * How a hook's output is read: `claude` (Claude Code's rules), `gemini` (Gemini CLI's documented
   * rules: stdout as JSON with a top-level `decision`, or Claude Code's `permissionDecision`, on exit
   * 0; exit 2 blocks with stderr as the reason; any other exit code is a warning) or `gemini-source`
   * (the rules of Gemini CLI's source: stdout, else stderr, as JSON at any exit code; exit 1 warns;
   * any other exit code denies with the text as the reason).
   */
  readonly outputDialect: OutputDialect
}

/**
 * Where a message goes: to the model, to the user, or nowhere (debug log only).
 *
 * @since 0.1.0
 * @category models
 */
export type Audience = "model" | "user" | "none"

/**
 * An event a host declares for itself, e.g. model-level events like Gemini's `BeforeModel`, or a
 * dialect's own name for a catalog event. A declared event with a catalog name replaces the
 * catalog's semantics (Wingman's `Stop` cannot block). Unset fields come from `extends` (or the
 * catalog event of the same name), else from a non-blocking event with no matcher.
 *
 * @since 0.1.0
 * @category models
 */
export interface CustomEvent {
  readonly name: string
  /** A catalog event whose semantics this one starts from (e.g. pigo's `tool_start` extends `PreToolUse`). */
  readonly extends?: string | undefined
  /** Any non-zero exit blocks, with stderr as the reason. */
  readonly nonZeroBlocks?: boolean | undefined
  /**
   * How hook output is read. Default: `claude`. `gemini`: Gemini CLI's documented rules;
   * `gemini-source`: the rules of Gemini CLI's source (see the `gemini` preset's docs page).
   */
  readonly outputDialect?: OutputDialect | undefined
  readonly matcherField?: string | undefined
  readonly blocking?: BlockingRule | undefined
  readonly plainStdoutToContext?: boolean | undefined
  readonly defaultTimeout?: number | undefined
  readonly exit2StderrTo?: Audience | undefined
  readonly reasonTo?: Audience | undefined
  readonly specificOutput?: ReadonlyArray<string> | undefined
}

/**
 * Builds the spec of a host-declared event.
 *
 * @since 0.1.0
 * @category constructors
 */
export const custom: (event: CustomEvent) => HookEventSpec = internal.custom

/**
 * All 33 events, in the reference's order.
 *
 * @since 0.1.0
 * @category catalog
 */
export const catalog: ReadonlyArray<HookEventSpec> = internal.catalog

/**
 * Looks an event up by its exact (case-sensitive) name.
 *
 * @since 0.1.0
 * @category catalog
 */
export const get: (name: string) => HookEventSpec | undefined = internal.get

/**
 * For an unknown name, the known event it was probably meant to be: equal but for case, `_` and
 * `-` (`preToolUse` → `PreToolUse`), else the nearest by edit distance (`PreToolUs` → `PreToolUse`).
 * `declared` adds the names a preset or host declares beside the catalog.
 *
 * @since 0.1.0
 * @category catalog
 */
export const suggest: (name: string, declared?: Iterable<string>) => string | undefined = internal.suggest
