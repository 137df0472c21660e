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
 * Hook arrays concatenate in that order; a handler identical to one already loaded from another
 * file runs once. A file that cannot be read or is not a JSON object is an error naming the file;
 * an unknown event or a malformed entry is skipped with a warning naming the file and JSON path.
 *
 * @since 0.1.0
 */
import type { Effect, FileSystem, Path } from "effect"
import type { SettingsError } from "./HookError.ts"
import type { Matcher } from "./Matcher.ts"
import * as internal from "./internal/settings.ts"

/**
 * Where a settings file sits in the merge order.
 *
 * @since 0.1.0
 * @category models
 */
export type SettingsScope = "user" | "project" | "local" | "explicit"

/**
 * A `command` handler: shell form (`command` run by `/bin/sh -c`), or exec form when `args` is
 * given (`command` resolved on `PATH`, no shell).
 *
 * @since 0.1.0
 * @category models
 */
export interface CommandHandler {
  readonly type: "command"
  readonly command: string
  readonly args?: ReadonlyArray<string> | undefined
  /** Seconds. Default: the event's default (600 s for most events). */
  readonly timeout?: number | undefined
  readonly statusMessage?: string | undefined
}

/**
 * Any handler. Only `command` runs in this version; other types are loaded, reported by
 * `list`, and skipped with a warning at dispatch.
 *
 * @since 0.1.0
 * @category models
 */
export type Handler = CommandHandler | { readonly type: string; readonly [key: string]: unknown }

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
  /** `disableAllHooks` after scalar precedence (local > project > user). */
  readonly disableAllHooks: boolean
  readonly warnings: ReadonlyArray<string>
}

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
  scope: SettingsScope
) => Effect.Effect<{ readonly entries: ReadonlyArray<HookEntry>; readonly disableAllHooks: boolean | undefined; readonly warnings: ReadonlyArray<string> }, SettingsError> =
  internal.decode

/**
 * Finds, reads, decodes and merges settings files.
 *
 * @since 0.1.0
 * @category loading
 */
export const load: (
  options: LoadOptions
) => Effect.Effect<LoadedSettings, SettingsError, FileSystem.FileSystem | Path.Path> = internal.load
