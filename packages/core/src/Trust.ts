/**
 * Approval of project hooks (the reference's §3.1 workspace trust). A project's settings files
 * travel with the repository, so opening a cloned repository must not run the commands it ships.
 * When trust is required, the hooks of the `project` and `local` settings files run only if the
 * file's exact content was approved before; a new or changed file is held back, with a warning that
 * says how to approve it (`agent-hooks trust`). User, explicit, plugin and managed files are the
 * user's or the administrator's own and are not held back.
 *
 * Trust is required when the engine option `requireTrust` is true, when `AGENT_HOOKS_REQUIRE_TRUST`
 * is `1` or `true`, or when managed settings set `"requireProjectTrust": true` (which a user cannot
 * turn off). Approvals are SHA-256 fingerprints of the files' content, kept per absolute path in
 * `trusted-settings.json` in the agent-hooks home folder (`$AGENT_HOOKS_HOME`, else
 * `~/.agent-hooks`); approving never changes the settings files themselves.
 *
 * @since 0.1.0
 */
import type { Effect, FileSystem, Path } from "effect"
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
export const approved: (
  store: string
) => Effect.Effect<ReadonlyMap<string, string>, SettingsError, FileSystem.FileSystem> = internal.approved

/**
 * Records the current content of `files` as approved (files that do not exist are skipped) and
 * returns what was recorded. Other approvals in the store are kept.
 *
 * @since 0.1.0
 * @category store
 */
export const approve: (
  store: string,
  files: ReadonlyArray<string>
) => Effect.Effect<ReadonlyArray<{ readonly path: string; readonly fingerprint: string }>, SettingsError, FileSystem.FileSystem | Path.Path> =
  internal.approve
