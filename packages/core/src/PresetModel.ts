/**
 * The preset interface: what a config dialect supplies (`Preset`: where its files are, how they
 * decode, its events) and what discovery and decoding are given (`PresetContext`, `PresetFile`,
 * `PresetIO`, `DispatchContext`).
 *
 * A bottom floor of the core: this module imports only types of the modules below it (the
 * settings data model, `HookError`, `HookEvent`), so the presets and the loader can name these
 * types without importing the loader or the presets' registry. `Preset` re-exports every name.
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type { SettingsError } from "./HookError.ts"
import type { CustomEvent } from "./HookEvent.ts"
import type { DecodedSettings, SettingsScope } from "./SettingsModel.ts"

/**
 * What discovery and decoding may depend on.
 *
 * @since 0.1.0
 * @category models
 */
export interface PresetContext {
  /** Absolute project directory. */
  readonly projectDir: string
  /** Absolute working directory. */
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** The agent, for dialects that have agents (Wingman's `--agent`). */
  readonly agent?: string | undefined
  /** Every declared event (the preset's and the host's), for decoding hooks on them. */
  readonly events?: ReadonlyArray<CustomEvent> | undefined
}

/**
 * A file a preset reads.
 *
 * @since 0.1.0
 * @category models
 */
export interface PresetFile {
  /** Absolute path. */
  readonly path: string
  readonly scope: SettingsScope
  /** A missing required file is an error; a missing discovered file is skipped. */
  readonly required: boolean
  /** For dialects with several file shapes (Wingman's `agent` files). */
  readonly kind?: string | undefined
  /**
   * `path` is a folder: each file in it whose name ends with `suffix` (`""`: every file) is read as
   * a file of its own, alphabetically (Kiro's `.kiro/hooks/*.json`, Cline's hook scripts).
   */
  readonly folder?: { readonly suffix: string } | undefined
  /** The file is not JSON: the decoder gets `{ "text": <its text> }` (Cline's hook scripts). */
  readonly raw?: boolean | undefined
  /**
   * How the file is written: JSON (the default) or TOML (Codex's `config.toml` and `requirements.toml`).
   *
   * @since 0.2.0
   */
  readonly format?: "json" | "toml" | undefined
  /**
   * What the preset's `expand` found for its decoder (Codex: the plugin's id, folder and data
   * folder; the hooks turned off in the user's config).
   *
   * @since 0.2.0
   */
  readonly facts?: Readonly<Record<string, unknown>> | undefined
}

/**
 * What a preset's `expand` may read: a file's text (`undefined` when there is none) and a folder's
 * entries (none when it cannot be listed).
 *
 * @since 0.2.0
 * @category models
 */
export interface PresetIO {
  readonly read: (path: string) => Effect.Effect<string | undefined>
  readonly list: (dir: string) => Effect.Effect<ReadonlyArray<string>>
}

/**
 * The files one discovered file stands for, and what was left out, each said with its file.
 *
 * @since 0.2.0
 * @category models
 */
export interface PresetExpansion {
  readonly files: ReadonlyArray<PresetFile>
  readonly warnings: ReadonlyArray<{ readonly file: string; readonly message: string }>
}

/**
 * What a preset's per-dispatch rule sees.
 *
 * @since 0.1.0
 * @category models
 */
export interface DispatchContext {
  /** Absolute project directory. */
  readonly projectDir: string
  /** The host's environment (the engine's `env` option). */
  readonly env: Readonly<Record<string, string | undefined>>
}

/**
 * What a preset adds to one dispatch: input fields its dialect always writes (the host's values
 * win), environment variables its scripts read, and files whose absence is reported.
 *
 * @since 0.1.0
 * @category models
 */
export interface DispatchAdditions {
  /** Input fields set when the host's payload lacks them. */
  readonly input?: Readonly<Record<string, unknown>> | undefined
  /** Environment variables for every hook of this dispatch (a handler's own `env` wins). */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Files that should exist; each missing one adds its warning to the outcome. */
  readonly expectFiles?: ReadonlyArray<{ readonly path: string; readonly warning: string }> | undefined
}

/**
 * A config dialect.
 *
 * @since 0.1.0
 * @category models
 */
export interface Preset {
  readonly name: string
  /** One line for `--help` and the docs. */
  readonly description: string
  /** The files to read when no explicit files are given, in merge order. */
  readonly discover: (context: PresetContext) => ReadonlyArray<PresetFile>
  /** Turns one parsed JSON document into the canonical model. */
  readonly decode: (document: unknown, file: PresetFile, context: PresetContext) => Effect.Effect<DecodedSettings, SettingsError>
  /** The dialect's own event names and semantics (accepted by `run`, used when decoding). */
  readonly events: ReadonlyArray<CustomEvent>
  /** Extra environment variables set to the project directory (`WAVE_PROJECT_DIR`, `GEMINI_PROJECT_DIR`). */
  readonly projectDirEnv: ReadonlyArray<string>
  /** The managed-settings folder, when the dialect has one. */
  readonly managedDir?: ((context: PresetContext) => string | undefined) | undefined
  /**
   * The dialect's own base input fields and environment for one dispatch (Gemini CLI's `timestamp`,
   * Wave's derived `transcript_path`). `input` is the payload as the host sent it, with
   * `hook_event_name`, `session_id` and `cwd` filled in.
   */
  readonly dispatch?: ((event: string, input: Readonly<Record<string, unknown>>, context: DispatchContext) => DispatchAdditions) | undefined
  /** Folders besides `<project>/.agent-hooks/logs` where this dialect's project files may keep their log (Wingman's `.wingman`). */
  readonly logFolders?: ((context: PresetContext) => ReadonlyArray<string>) | undefined
  /**
   * The built-in tool names of the dialect's agent, so that a matcher naming one of them in another
   * case (`bash` for `Bash`) is reported as never matching. Default: Claude Code's (`Bash`, `Edit`,
   * `Write`...). An agent whose tools have other names gives its own (Gemini CLI's
   * `run_shell_command`...), or `[]` when the list is not known (no such warning then).
   *
   * @since 0.2.0
   */
  readonly toolNames?: ReadonlyArray<string> | undefined
  /**
   * What a config file of the dialect that is not valid JSON does: `"fail"` (the default) fails the
   * load; `"warn"` (pigo: "warn at startup, don't block agent") reports it as an error, runs no hook
   * from that file and goes on, unless strict mode or fail-closed is on.
   *
   * @since 0.2.0
   */
  readonly unreadableConfig?: "fail" | "warn" | undefined
  /**
   * Turns one discovered file into the files to read, with facts for the decoder, by reading
   * other files first (Codex: which installed plugins `config.toml` turns on, their active
   * version and manifest). Not called for explicit settings files.
   *
   * @since 0.2.0
   */
  readonly expand?: ((file: PresetFile, context: PresetContext, io: PresetIO) => Effect.Effect<PresetExpansion>) | undefined
}
