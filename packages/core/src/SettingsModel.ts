/**
 * The settings data model: the one canonical form every config dialect decodes into (`HookEntry`
 * and its `Handler`, the `DecodedSettings` of one document, the `LoadedSettings` of a load) and the
 * warnings found on the way (`PlanWarning`).
 *
 * A bottom floor of the core: this module imports only types of the modules below it
 * (`Capabilities`, `HookEvent`, `Matcher`, the handler schemas), so presets, the placeholder
 * expansion, the plan and the executors can name these types without importing the loader.
 * `Settings` re-exports every name.
 *
 * @since 0.2.0
 */
import type { HookCallback } from "./Capabilities.ts"
import type { HookEventSpec } from "./HookEvent.ts"
import type * as HandlerSchema from "./internal/handlerSchema.ts"
import type { Matcher } from "./Matcher.ts"

/**
 * A warning found while loading or compiling settings, with the file and JSON path it is about (both `undefined` for
 * warnings about the engine options or programmatic hooks).
 *
 * @since 0.2.0
 * @category models
 */
export interface PlanWarning {
  readonly file: string | undefined
  readonly path: string | undefined
  readonly message: string
  /**
   * `"error"`: the hook cannot work as written (its script is missing or not executable);
   * `agent-hooks validate` exits 1. Absent: a warning.
   */
  readonly severity?: "error" | undefined
}

/** The type a schema decodes to. */
type Type<S extends { readonly Type: unknown }> = S["Type"]

/**
 * Where a settings file sits in the merge order.
 *
 * @since 0.1.0
 * @category models
 */
export type SettingsScope = "user" | "project" | "local" | "explicit" | "plugin" | "managed"

/**
 * Fields every handler type accepts (`timeout`, `statusMessage`, `if`, `onFailure`, `once`).
 *
 * @since 0.1.0
 * @category models
 */
export interface HandlerCommon extends Type<typeof HandlerSchema.Common> {}

/**
 * A `command` handler: shell form (`command` run by `/bin/sh -c`), or exec form when `args` is
 * given (`command` resolved on `PATH`, no shell).
 *
 * @since 0.1.0
 * @category models
 */
export interface CommandHandler extends Type<typeof HandlerSchema.command> {}

/**
 * An `http` handler: the input JSON is POSTed to `url`.
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpHandler extends Type<typeof HandlerSchema.http> {}

/**
 * A `prompt` or `agent` handler: a model, supplied by the host, judges the input.
 *
 * @since 0.1.0
 * @category models
 */
export type PromptHandler = Type<typeof HandlerSchema.prompt> | Type<typeof HandlerSchema.agent>

/**
 * An `mcp_tool` handler: a tool of an MCP server, called through the host.
 *
 * @since 0.1.0
 * @category models
 */
export interface McpToolHandler extends Type<typeof HandlerSchema.mcpTool> {}

/**
 * A `module` handler: a JavaScript or TypeScript module whose export takes the input object and
 * returns the output object (or a Promise of it), run in-process.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModuleHandler extends Omit<Type<typeof HandlerSchema.module>, "export"> {
  /** Absolute path, resolved when the settings load. */
  readonly modulePath: string
  /** The export to call. Default: `"default"`. */
  readonly export: string
}

/**
 * A `cedar` handler: Cedar policies evaluated in-process (`@cedar-policy/cedar-wasm`, loaded by the
 * runtime package when an engine with such a hook loads). Principal: the agent's session; action: the event;
 * resource: the tool's target; context: the input. A cedar hook that could not decide blocks unless
 * its `onFailure` is `"continue"`. See docs/policy-as-code.md.
 *
 * @since 0.2.0
 * @category models
 */
export interface CedarHandler extends Type<typeof HandlerSchema.cedar> {
  /** Absolute paths, resolved against the settings file's folder when the settings load. */
  readonly policiesPath: string
  readonly entitiesPath?: string | undefined
  readonly schemaPath?: string | undefined
}

/**
 * A programmatic hook given to the engine in code (`EngineOptions.hooks`); never read from a file.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallbackHandler extends HandlerCommon {
  readonly type: "callback"
  readonly callback: HookCallback
  /** How results name it: `callback <function name>`. */
  readonly name: string
}

/**
 * Any handler.
 *
 * @since 0.1.0
 * @category models
 */
export type Handler = CommandHandler | HttpHandler | PromptHandler | McpToolHandler | ModuleHandler | CedarHandler | CallbackHandler

/**
 * One handler, ready to run: where it came from and the compiled matcher of its group.
 *
 * @since 0.1.0
 * @category models
 */
export interface HookEntry {
  readonly event: string
  readonly matcher: Matcher
  readonly handler: Handler
  /** The settings file it was read from. */
  readonly source: string
  readonly scope: SettingsScope
  /** The JSON path of the handler inside its file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string
  /** The plugin folder for plugin hooks (`CLAUDE_PLUGIN_ROOT`). */
  readonly pluginRoot?: string | undefined
  /**
   * The plugin's data folder (`CLAUDE_PLUGIN_DATA`) when its dialect names one (Codex's
   * `$CODEX_HOME/plugins/data/<plugin>-<marketplace>`); else agent-hooks' own.
   *
   * @since 0.2.0
   */
  readonly pluginData?: string | undefined
  /**
   * The matcher as the user wrote it in a dialect whose matcher language is translated
   * (orchestration's `Bash(git push:*)`); the execution log records it as `pattern`.
   */
  readonly pattern?: string | undefined
  /**
   * The rules of its event as its own settings file declares them (the file's `"events"` key);
   * `undefined`: the preset's, the host's or the catalog's. A declaration applies to the hooks of
   * the file that makes it, never to another file's.
   */
  readonly spec?: HookEventSpec | undefined
  /**
   * The handler as it runs, when it differs from `handler`: for a project hook approved under
   * required trust, every project file it names replaced by a private copy of the bytes that were
   * approved (see the `Trust` module). `handler` stays as written, for display and matching.
   *
   * @since 0.2.0
   */
  readonly pinned?: Handler | undefined
  /**
   * Why this handler can never run: it could not be decoded (a field of the wrong type, an unknown
   * type, a group whose matcher its file may not use). Its `handler` is then a stand-in that never
   * starts; the entry is kept so that the event still knows a hook of it cannot run (with
   * `failClosed`, the event blocks).
   */
  readonly invalid?: string | undefined
}

/**
 * One rule of a settings file's `permissions` (Claude Code's syntax: `Bash(rm -rf:*)`,
 * `Read(./.env)`, `mcp__srv__tool`), or one a named rule set (`extends`) added, with where it came
 * from. `deny` blocks the tool call before any hook runs; `ask` makes the agent ask the user; `allow`
 * is "no objection" only: it never skips the agent's own permission prompt and never overrides a deny.
 *
 * @since 0.2.0
 * @category models
 */
export interface PermissionEntry {
  readonly list: "deny" | "ask" | "allow"
  /** The rule as written. */
  readonly rule: string
  /** The settings file it was read from. */
  readonly source: string
  readonly scope: SettingsScope
  /** Its JSON path in the file: `permissions.deny[0]`, or `extends[0]` for a named set's rule. */
  readonly path: string
  /** For a rule a named set added: the set and the rule's id (`agent-hooks:recommended#rm-root`). */
  readonly from?: string | undefined
}

/**
 * One settings file as the loader saw it.
 *
 * @since 0.1.0
 * @category models
 */
export interface SettingsFile {
  readonly path: string
  readonly scope: SettingsScope
  /** `false` when a discovered file does not exist (not an error). */
  readonly found: boolean
  /** Trust was required and this project file's content is not approved: its hooks do not run. */
  readonly heldBack?: boolean | undefined
}

/**
 * The merged settings.
 *
 * @since 0.1.0
 * @category models
 */
export interface LoadedSettings {
  readonly files: ReadonlyArray<SettingsFile>
  /** Per event, the handlers in merge order (user, project, local; then file order), deduplicated. */
  readonly hooks: Readonly<Record<string, ReadonlyArray<HookEntry>>>
  /**
   * `disableAllHooks` after precedence: managed settings win, then the user's own files (user,
   * `--settings`). A project or local file's `true` turns off only project and local hooks (with a
   * warning), and its `false` cannot turn the user's `true` off.
   */
  readonly disableAllHooks: boolean
  /** Managed policy: only managed hooks (and programmatic ones) run. */
  readonly allowManagedHooksOnly: boolean
  /**
   * `allowedHttpHookUrls`; `undefined`: every URL is allowed. The managed list bounds the user's, the
   * user's bounds project and local files, which may only narrow it: an entry that admits a URL the
   * bound does not is dropped with a warning (see `UrlAllowlist.covers`).
   */
  readonly allowedHttpHookUrls: ReadonlyArray<string> | undefined
  /**
   * `httpHookAllowedEnvVars`: the outer limit on env vars http headers may use; `undefined`: no limit
   * beyond each hook's `allowedEnvVars`. Narrowed like `allowedHttpHookUrls`: a project or local file
   * cannot add a name the user's (or the managed) list lacks.
   */
  readonly httpHookAllowedEnvVars: ReadonlyArray<string> | undefined
  /** Run the hooks of one event one after another, in config order, instead of concurrently. */
  readonly sequential: boolean
  /** Run an identical handler from two settings files once (default `true`; Wingman: `false`). */
  readonly dedupe: boolean
  /**
   * Command allowlist policy (off when `undefined`): only exec-form command hooks (`args`) whose
   * executable's base name is listed run; shell-form hooks are refused, since a shell can run anything.
   * Narrowed like `allowedHttpHookUrls`: a project or local file cannot add a name the user's list lacks.
   */
  readonly allowedCommands: ReadonlyArray<string> | undefined
  /**
   * A JSONL file that gets one line per hook run (timestamp, event, matcher, command, exit code,
   * duration...). Managed settings win, then the user's own files; a project or local file's log
   * (only inside `<project>/.agent-hooks/logs/`, see `LogPath`) counts only when neither names one.
   */
  readonly executionLog: string | undefined
  /** Input fields a dialect's config supplies when the payload lacks them (pigo's `model`); later files win. */
  readonly inputDefaults?: Readonly<Record<string, unknown>> | undefined
  /**
   * Strict mode: on when the engine options, `AGENT_HOOKS_STRICT` or any settings file turn it on
   * (no file can turn it off). A load in strict mode fails when `errors` is not empty.
   */
  readonly strict: boolean
  /**
   * The audit trail (see `Audit`): a hash-chained JSONL record of every hook run and outcome.
   * Chosen like `executionLog`, by the same `LogPath` rule: managed settings win, then the user's own
   * files; project and local files may only name a file inside `<project>/.agent-hooks/logs/`, and
   * only when no other file names one.
   */
  readonly auditLog?: string | undefined
  /**
   * Redaction patterns the audit trail applies besides its defaults: every file's, in file order (a
   * file can add a pattern, never take one away). @since 0.2.0
   */
  readonly auditRedact?: ReadonlyArray<string> | undefined
  /**
   * Host mode: what becomes of a tool call no table of the agent knows: the strictest any file gives
   * (`deny` over `ask` over `allow`); `undefined`: `allow`, with a warning. @since 0.2.0
   */
  readonly unknownTools?: "allow" | "ask" | "deny" | undefined
  /**
   * Events that only settings files declare (no catalog, preset or host rules), by the first file
   * that declares each: the engine knows them even when no hook is on them.
   */
  readonly events?: ReadonlyArray<HookEventSpec> | undefined
  /** Each of {@link diagnostics} as one line (`file at path: message`), in the same order. */
  readonly warnings: ReadonlyArray<string>
  /**
   * The warnings as data: the file, the JSON path and the message of each, `severity: "error"` for
   * the entries that were skipped (those in {@link errors}). `Plan.render` turns one into its
   * line in `warnings`. Present on everything `load` returns; absent only on hand-made values.
   *
   * @since 0.2.0
   */
  readonly diagnostics?: ReadonlyArray<PlanWarning> | undefined
  /**
   * The entries that were skipped because they could not be decoded (a wrong type such as
   * `"timeout": "10"` or `"once": "false"`, an unknown handler `type`, a missing required field).
   * Each is also in `warnings`. `agent-hooks validate` exits 1 when there is one.
   */
  readonly errors: ReadonlyArray<string>
  /**
   * Settings files that could not be read and whose hooks therefore do not run, for a dialect that
   * goes on without them (pigo: "config parse errors: warn at startup, don't block agent"). Each is
   * also in `errors`, and in the warnings of every dispatch's outcome.
   *
   * @since 0.2.0
   */
  readonly unreadable?: ReadonlyArray<string> | undefined
  /**
   * Settings files of another dialect that this preset does not read, found where that dialect
   * looks (a project with only `.claude/settings.json` under the default preset): their hooks do not
   * run. Each is also in `warnings`, and a dispatch that runs no hook says so in its Outcome's
   * `warnings`. Looked for when the preset found no project or local file of its own.
   * @since 0.2.0
   */
  readonly unread?: ReadonlyArray<{ readonly path: string; readonly preset: string }> | undefined
  /**
   * The `permissions` rules of every file (and those its `extends` adds), managed files' first, then
   * in merge order (user, project, local). Plugins cannot add any. @since 0.2.0
   */
  readonly permissions?: ReadonlyArray<PermissionEntry> | undefined
  /** Project and local files were read only when approved (`requireTrust`, managed `requireProjectTrust`). @since 0.2.0 */
  readonly trustRequired?: boolean | undefined
  /**
   * The handlers that were skipped, as entries that never run (each with `invalid`, the reason;
   * not in `hooks`). The plan keeps them as hooks that never start: a dispatch of their event gets
   * their failure, and with `failClosed` the event blocks.
   * @since 0.2.0
   */
  readonly invalid?: ReadonlyArray<HookEntry> | undefined
}

/**
 * What one settings document holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface DecodedSettings {
  readonly entries: ReadonlyArray<HookEntry>
  readonly disableAllHooks: boolean | undefined
  readonly allowManagedHooksOnly: boolean | undefined
  /** Managed only: project hooks need approval (see `Trust`). */
  readonly requireProjectTrust?: boolean | undefined
  readonly allowedHttpHookUrls: ReadonlyArray<string> | undefined
  readonly httpHookAllowedEnvVars?: ReadonlyArray<string> | undefined
  readonly sequential?: boolean | undefined
  readonly dedupe?: boolean | undefined
  readonly allowedCommands?: ReadonlyArray<string> | undefined
  /** Absolute path of the execution log. */
  readonly executionLog?: string | undefined
  /** Input fields the config supplies when the payload lacks them (pigo's `model`). */
  readonly inputDefaults?: Readonly<Record<string, unknown>> | undefined
  /** `"strict": true` in the file: strict mode for the whole load. */
  readonly strict?: boolean | undefined
  /** Absolute path of the audit log. */
  readonly auditLog?: string | undefined
  /** Redaction patterns for the audit trail's records (regular expressions). @since 0.2.0 */
  readonly auditRedact?: ReadonlyArray<string> | undefined
  /** Host mode: what becomes of a tool call no table of the agent knows. @since 0.2.0 */
  readonly unknownTools?: "allow" | "ask" | "deny" | undefined
  /** The file's declarations of events that have no other rules (its `"events"` key). */
  readonly events?: ReadonlyArray<HookEventSpec> | undefined
  /** The file's `permissions` rules, in list order (deny, ask, allow). @since 0.2.0 */
  readonly permissions?: ReadonlyArray<PermissionEntry> | undefined
  /** The named rule sets its `extends` names (their rules are in `permissions`). @since 0.2.0 */
  readonly extends?: ReadonlyArray<string> | undefined
  readonly warnings: ReadonlyArray<string>
  /** The same warnings as data (file, JSON path, message; `severity: "error"` for skipped entries). @since 0.2.0 */
  readonly diagnostics?: ReadonlyArray<PlanWarning> | undefined
  /** Entries skipped because they could not be decoded (each also in `warnings`). */
  readonly errors?: ReadonlyArray<string> | undefined
  /**
   * The skipped handlers as entries that never run (each with `invalid`, the reason), so that their
   * event still knows one of its hooks cannot run.
   * @since 0.2.0
   */
  readonly invalid?: ReadonlyArray<HookEntry> | undefined
}
