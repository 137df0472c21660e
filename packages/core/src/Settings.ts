/**
 * Settings: the canonical model that every config dialect decodes into, and the loader that
 * finds, decodes and merges settings files.
 *
 * A settings file is a JSON object whose `hooks` key maps an event name to matcher groups:
 *
 * ```json
 * { "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh", "timeout": 10 } ] } ] } }
 * ```
 *
 * **Discovery** (when no explicit files are given), in this order:
 * 1. user: `$AGENT_HOOKS_HOME/settings.json`, else `~/.agent-hooks/settings.json`
 * 2. project: `<project>/.agent-hooks/settings.json`
 * 3. local: `<project>/.agent-hooks/settings.local.json`
 *
 * Then each plugin's `hooks/hooks.json` (`options.plugins`), then managed policy settings
 * (`options.managedDir`: `managed-settings.json`, then `managed-settings.d/*.json` alphabetically).
 *
 * A file may declare events under `"events"` (`[{"name": "turn_start", "defaultTimeout": 10}]`,
 * `[{"name": "Stop", "blocking": "none"}]`): the rules apply to that file's own hooks only, may take
 * blocking away from a catalog event but never add it, and a bad declaration fails the file.
 *
 * Hook arrays concatenate in that order; a handler identical to one already loaded from another
 * file runs once. A file that cannot be read or is not a JSON object is an error naming the file;
 * an unknown event or a malformed entry is skipped with a warning naming the file and JSON path.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type { SettingsError } from "./HookError.ts"
import type { CustomEvent } from "./HookEvent.ts"
import type { Preset } from "./PresetModel.ts"
import type { DecodedSettings, LoadedSettings, SettingsScope } from "./SettingsModel.ts"
import * as internal from "./internal/settings.ts"
import * as loader from "./internal/load.ts"

/**
 * The settings data model, defined in `SettingsModel` (its home), re-exported here.
 *
 * @since 0.1.0
 */
export type {
  CallbackHandler,
  CedarHandler,
  CommandHandler,
  DecodedSettings,
  Handler,
  HandlerCommon,
  HookEntry,
  HttpHandler,
  LoadedSettings,
  McpToolHandler,
  ModuleHandler,
  PermissionEntry,
  PlanWarning,
  PromptHandler,
  SettingsFile,
  SettingsScope
} from "./SettingsModel.ts"

/**
 * Options for loading.
 *
 * @since 0.1.0
 * @category models
 */
export interface LoadOptions {
  /** Explicit files (resolved against `cwd`); discovery is off when given. */
  readonly settings?: ReadonlyArray<string> | undefined
  /** Absolute project directory. */
  readonly projectDir: string
  /** Absolute directory for relative `settings` paths. */
  readonly cwd: string
  /** For `AGENT_HOOKS_HOME` and `HOME`. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Plugin folders; each one's `hooks/hooks.json` is loaded after the other settings. */
  readonly plugins?: ReadonlyArray<string> | undefined
  /** Folder of `managed-settings.json` and `managed-settings.d/*.json` (policy; read even with explicit files). */
  readonly managedDir?: string | undefined
  /** Events the host declares; settings may configure hooks for them. */
  readonly events?: ReadonlyArray<CustomEvent> | undefined
  /** The config dialect: where its files are and how they decode. Default: the `agent-hooks` preset. */
  readonly preset?: Preset | undefined
  /** For presets with agents (Wingman): the agent whose own hooks are added. */
  readonly agent?: string | undefined
  /** Hold back project and local files whose content was not approved (see `Trust`). */
  readonly requireTrust?: boolean | undefined
  /** Fail the load when an entry cannot be decoded, instead of skipping it with a warning. */
  readonly strict?: boolean | undefined
  /**
   * Fail closed: a settings file that is not valid JSON fails the load even for a dialect that would
   * go on without it (pigo). @since 0.2.0
   */
  readonly failClosed?: boolean | undefined
  /**
   * The files of other dialects (`.claude/settings.json` beside the agent-hooks preset): `warn` (the
   * default) says when one holds hooks that this preset does not run; `ignore` says nothing (host
   * mode: the agent runs its own files, and agent-hooks is its one hook there). @since 0.3.0
   */
  readonly otherDialects?: "warn" | "ignore" | undefined
}

/**
 * Decodes one settings document (already parsed JSON) into entries and warnings.
 * Fails only when the document as a whole is unusable (not an object, `hooks` not an object).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode: (
  document: unknown,
  file: string,
  scope: SettingsScope,
  pluginRoot?: string,
  events?: ReadonlyArray<CustomEvent>
) => Effect.Effect<DecodedSettings, SettingsError> = internal.decode

/**
 * Finds, reads, decodes and merges settings files.
 *
 * @since 0.1.0
 * @category loading
 */
export const load: (options: LoadOptions) => Effect.Effect<LoadedSettings, SettingsError, FileSystem.FileSystem | Path.Path> = loader.load
