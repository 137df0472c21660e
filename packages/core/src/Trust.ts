/**
 * Approval of project hooks (Claude Code's workspace trust). A project's settings files
 * travel with the repository, so opening a cloned repository must not run the commands it ships.
 * When trust is required, the hooks of the `project` and `local` settings files run only if the
 * file's exact content was approved before; a new or changed file is held back, with a warning that
 * says how to approve it (`agent-hooks trust`). User, explicit, plugin and managed files are the
 * user's or the administrator's own and are not held back.
 *
 * Trust is required when the engine option `requireTrust` is true, when `AGENT_HOOKS_REQUIRE_TRUST`
 * is `1`, `true`, `yes` or `on` (any case; `0`, `false`, `no`, `off` or empty leave it off, and any
 * other value is an error, so that a typo cannot switch the check off), or when managed settings
 * set `"requireProjectTrust": true` (which a user cannot turn off). Approvals are SHA-256
 * fingerprints, kept per absolute path in `trusted-settings.json` in the agent-hooks home folder
 * (`$AGENT_HOOKS_HOME`, else `~/.agent-hooks`); approving never changes the settings files
 * themselves.
 *
 * A fingerprint covers the file's content and every file inside the project that its hooks name
 * (see {@link namedFiles}): the scripts a command runs (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`,
 * `node hooks/check.mjs`) and the modules of `module` hooks. Changing such a script, or creating
 * one that was missing, holds the file's hooks back until it is approved again.
 *
 * What runs is what was approved: each named file is read once, for the fingerprint, and an
 * approved file's hooks run a copy of those bytes (kept in `pinned/<sha256>/<name>` beside the
 * approvals; `HookEntry.pinned` is the handler that names the copies), never the project file as it
 * is when the hook starts, so a script swapped by a rename after the check does not run.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type { SettingsError } from "./HookError.ts"
import * as internal from "./internal/trust.ts"

/**
 * The SHA-256 of a file's text, hex-encoded.
 *
 * @since 0.1.0
 * @category fingerprints
 */
export const fingerprint: (text: string) => Effect.Effect<string> = internal.fingerprint

/**
 * Where approvals are kept, from the environment (`AGENT_HOOKS_HOME`, else `HOME`).
 *
 * @since 0.1.0
 * @category store
 */
export const storePath: (env: Readonly<Record<string, string | undefined>>, path: Path.Path) => string | undefined = internal.storePath

/**
 * The approved fingerprints, by absolute settings-file path (empty when there is no store yet).
 *
 * @since 0.1.0
 * @category store
 */
export const approved: (store: string) => Effect.Effect<ReadonlyMap<string, string>, SettingsError, FileSystem.FileSystem> =
  internal.approved

/**
 * Records the current content of `files` as approved (files that do not exist are skipped) and
 * returns what was recorded. Other approvals in the store are kept. With `projectDir`, each
 * fingerprint also covers the project files the hooks name ({@link fingerprintFile}); the load
 * step checks that form.
 *
 * @since 0.1.0
 * @category store
 */
export const approve: (
  store: string,
  files: ReadonlyArray<string>,
  projectDir?: string
) => Effect.Effect<
  ReadonlyArray<{ readonly path: string; readonly fingerprint: string }>,
  SettingsError,
  FileSystem.FileSystem | Path.Path
> = internal.approve

/**
 * Reads `AGENT_HOOKS_REQUIRE_TRUST`: `1`, `true`, `yes`, `on` (any case) → true; unset, empty,
 * `0`, `false`, `no`, `off` → false; anything else is a failure with a message to show.
 *
 * @since 0.2.0
 * @category environment
 */
export const requireTrustFromEnv: (
  value: string | undefined
) => { readonly _tag: "Success"; readonly value: boolean } | { readonly _tag: "Failure"; readonly message: string } =
  internal.requireTrustFromEnv

/**
 * The files inside `projectDir` that a settings document's hooks name, sorted: the `module` of
 * module hooks (relative to the settings file), and each word of a `command` (each element of
 * `command` and `args` in exec form) that is a path with a `/` or a script name (`x.sh`, `x.mjs`,
 * `x.py`, …), after `$CLAUDE_PROJECT_DIR` and `$AGENT_HOOKS_PROJECT_DIR` are replaced by the
 * project folder and relative paths are resolved against it. Words holding other expansions are
 * skipped; files outside the project are not covered (they are the user's own).
 *
 * @since 0.2.0
 * @category fingerprints
 */
export const namedFiles: (document: unknown, settingsFile: string, projectDir: string) => ReadonlyArray<string> = internal.namedFiles

/**
 * The approval fingerprint of a settings file: the SHA-256 of its text when its hooks name no
 * project file, else of its text with the path and SHA-256 of each named file (`absent` for one
 * that does not exist).
 *
 * @since 0.2.0
 * @category fingerprints
 */
export const fingerprintFile: (file: string, text: string, projectDir: string) => Effect.Effect<string, never, FileSystem.FileSystem> =
  internal.fingerprintFile
