/**
 * The verdicts: what one hook's run decided (`HookVerdict`, read from its `RawRun`) and what the
 * hooks of one event decided together (a `HookResult` per hook, the aggregated `Outcome`).
 *
 * The bottom floor of the core, beside `Capabilities`: this module imports no other module of the
 * package, so the output readers, the aggregation and the engine's stages can name these types
 * without importing the modules that interpret and aggregate. `HookOutput` and `Outcome`
 * re-export every name.
 *
 * @since 0.2.0
 */
/**
 * How a hook's run was classified (Claude Code's vocabulary):
 * - `success`: exit 0 (or valid JSON output with any exit code other than 2);
 * - `blocking-error`: exit 2 (or a failure of a fail-closed hook);
 * - `non-blocking-error`: any other exit code, a hook that could not start, invalid JSON output;
 * - `cancelled`: timed out (its output is discarded);
 * - `detached` (since 0.2.0): started detached under `agent-hooks run` (engine option
 *   `detachAsync`) and still running: how it ends is not known to the engine (exit code `null`);
 *   its launcher appends that to the execution log when it ends.
 *
 * @since 0.1.0
 * @category models
 */
export type HookStatus = "success" | "blocking-error" | "non-blocking-error" | "cancelled" | "detached"

/**
 * A permission decision (PreToolUse and the like) or a block on other events.
 *
 * @since 0.1.0
 * @category models
 */
export type Decision = "allow" | "deny" | "ask" | "defer" | "block"

/**
 * How the process ended and what it wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface RawRun {
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  /** Seconds, for messages. */
  readonly timeout: number
  readonly stdout: string
  readonly stderr: string
  /** Set when the process could not be started. */
  readonly spawnError?: string | undefined
}

/**
 * One hook's verdict, before aggregation.
 *
 * @since 0.1.0
 * @category models
 */
export interface HookVerdict {
  readonly status: HookStatus
  readonly decision: Decision | null
  /** The reason for `decision` (JSON reason, else stderr on exit 2). */
  readonly reason: string | null
  /** `false` when the hook asked the agent to stop entirely. */
  readonly continue: boolean
  readonly stopReason: string | null
  readonly systemMessage: string | null
  /** A valid `terminalSequence` (OSC 0/1/2/9/99/777 or BEL), for the host's terminal; else `null`. */
  readonly terminalSequence?: string | null | undefined
  readonly additionalContext: ReadonlyArray<string>
  readonly updatedInput: Record<string, unknown> | null
  /** Other `hookSpecificOutput` fields the event accepts (`updatedToolOutput`, `sessionTitle`, `watchPaths`...). */
  readonly hookSpecificOutput: Record<string, unknown> | null
  /** Where `reason` came from: the hook's JSON, or its stderr on exit 2. */
  readonly reasonFrom: "json" | "stderr" | null
  /** On an event that cannot block, the stderr of an exit 2 (shown to whoever the event's rules name). */
  readonly stderrNotice?: string | null | undefined
  /** Why it was classified so, or what was wrong with its output. */
  readonly messages: ReadonlyArray<string>
  /**
   * The hook's answer could not be read (stdout looked like a JSON object but did not parse), so
   * whatever it decided was dropped. `onFailure: "block"` and fail-closed engines treat it as a failure.
   */
  readonly answerDropped?: boolean | undefined
  /**
   * The parts of the hook's answer that change nothing on this event, one line each naming the
   * field and why (`"decision" is ignored on Notification: it cannot block`); also in `messages`.
   * The result is Claude Code's; these lines only make the dropped part visible (the engine says
   * them through `onWarning`).
   *
   * @since 0.2.0
   */
  readonly ignored?: ReadonlyArray<string> | undefined
}

/**
 * One hook's run, in config order.
 *
 * @since 0.1.0
 * @category models
 */
export interface HookResult {
  /** The command as configured (exec form: the command and its args joined with spaces). */
  readonly command: string
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly durationMs: number
  readonly stdout: string
  readonly stderr: string
  readonly status: HookStatus
  /** The settings file the hook came from (`null` for programmatic hooks). */
  readonly source: string | null
  /** The decision this hook made, if any (before aggregation). */
  readonly decision: Decision | null
  /** Why the run was classified as it was, or what was wrong with its output; empty when all went well. */
  readonly messages: ReadonlyArray<string>
}

/**
 * The aggregated outcome of one event.
 *
 * @since 0.1.0
 * @category models
 */
export interface Outcome {
  readonly event: string
  /** The event's action must not go ahead as planned (see the CLI contract for each event). */
  readonly blocked: boolean
  readonly decision: Decision | null
  /** The blocking reason: the JSON reason when a hook gave one, else the blocking hook's stderr. */
  readonly reason: string | null
  /** `false` when a hook asked the agent to stop entirely (`"continue": false`). */
  readonly continue: boolean
  readonly stopReason: string | null
  /** The tool input to use instead of the original, merged in config order; `null` when no hook changed it. */
  readonly updatedInput: Record<string, unknown> | null
  readonly additionalContext: ReadonlyArray<string>
  readonly systemMessages: ReadonlyArray<string>
  readonly hooks: ReadonlyArray<HookResult>
  /**
   * Other `hookSpecificOutput` fields the event accepts (`updatedToolOutput`, `sessionTitle`, `watchPaths`,
   * `worktreePath`...), merged in config order; `null` when none.
   */
  readonly hookSpecificOutput: Record<string, unknown> | null
  /**
   * What the host must show the model, in order (Claude Code's rules of who sees what): the block reason
   * where the model receives it, and every `additionalContext`.
   */
  readonly toModel: ReadonlyArray<string>
  /**
   * What the host must show the user, in order: `systemMessage`s, the `stopReason` when
   * `continue` is false, the block or ask reason where the user receives it, and one
   * `<hook> hook error: ...` notice per failed hook.
   */
  readonly toUser: ReadonlyArray<string>
  /** `terminalSequence`s the hooks returned (OSC 0/1/2/9/99/777 or BEL only), for an interactive host to write to its terminal. */
  readonly terminalSequences: ReadonlyArray<string>
  /** Hooks started in the background (`async`); their results arrive later (`takeAsyncResults`). */
  readonly asyncHooks: ReadonlyArray<string>
  /** Problems worth showing to whoever maintains the hooks (bad JSON output, config warnings). */
  readonly warnings: ReadonlyArray<string>
  /**
   * The `permissions` rule that decided this tool call (PreToolUse, PermissionRequest): its list
   * (`deny`: blocked before any hook ran; `ask`; `allow`: no objection, the decision is the hooks'),
   * the rule as written, its file, scope and JSON path, and the named set it came from. Absent when
   * no rule matched.
   *
   * @since 0.2.0
   */
  readonly permission?: PermissionMatch | undefined
}

/**
 * A `permissions` rule that matched a tool call, as an Outcome names it (the same fields as
 * `Settings.PermissionEntry`).
 *
 * @since 0.2.0
 * @category models
 */
export interface PermissionMatch {
  readonly list: "deny" | "ask" | "allow"
  /** The rule as written (`Bash(rm -rf:*)`). */
  readonly rule: string
  /** The settings file it was read from. */
  readonly source: string
  readonly scope: "user" | "project" | "local" | "explicit" | "plugin" | "managed"
  /** Its JSON path in the file (`permissions.deny[0]`, `extends[0]`). */
  readonly path: string
  /** The named set and rule id it came from (`agent-hooks:recommended#rm-root`). */
  readonly from?: string | undefined
  /** What the call does that the rule names (``runs `rm -rf /` (in `sudo rm -rf /`)``), or why it could not be judged. */
  readonly detail?: string | undefined
}
