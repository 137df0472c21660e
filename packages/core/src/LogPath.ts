/**
 * The one rule for every log path a settings file names (`executionLog`, and the audit log): where
 * may the engine append text?
 *
 * - User and managed settings, files given with `--settings`, and engine options are the user's or
 *   the administrator's own: they may name any path.
 * - Project, local and plugin files may come from a cloned repository: they may name only a path
 *   inside `<project>/.agent-hooks/logs/` (or a folder the preset declares for its own log, such as
 *   Wingman's `.wingman/`). A path that leaves it (`../../home/u/.bashrc`, an absolute path
 *   elsewhere) is refused with a warning naming the file and key, and nothing is logged there.
 * - Before each write, {@link verify} follows the path as it really is on disk: a symbolic link on
 *   the way that leads out of the folder refuses the write. Folders are created only inside it.
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import * as internal from "./internal/logPath.ts"

/**
 * Who names the log path: the settings scope of the file (`user`, `managed`, `explicit`,
 * `project`, `local`, `plugin`) or `options` for engine options; where (file and key) for messages;
 * the project folder; and any folders the preset allows restricted files to log into.
 *
 * @since 0.2.0
 * @category models
 */
export interface CheckOptions {
  readonly scope: string
  readonly file: string | undefined
  readonly key: string
  readonly projectDir: string
  readonly extraRoots?: ReadonlyArray<string> | undefined
}

/**
 * The verdict: allowed (the normalised path, and the folder it must stay in when the scope is
 * restricted) or refused (a located message for the warnings).
 *
 * @since 0.2.0
 * @category models
 */
export type Verdict =
  | { readonly _tag: "Allowed"; readonly path: string; readonly root: string | undefined }
  | { readonly _tag: "Refused"; readonly message: string }

/**
 * Checks an absolute log path (already resolved against the settings file's folder) against the rule.
 *
 * @since 0.2.0
 * @category checks
 */
export const check: (path: string, options: CheckOptions) => Verdict = internal.check

/**
 * `<project>/.agent-hooks/logs`: where project, local and plugin files may log.
 *
 * @since 0.2.0
 * @category checks
 */
export const projectLogFolder: (projectDir: string) => string = internal.projectLogFolder

/**
 * Follows an allowed restricted path on disk (the `root` of its verdict): a message when a symbolic
 * link on the way leads out of the folder, `undefined` when the write may go ahead.
 *
 * @since 0.2.0
 * @category checks
 */
export const verify: (path: string, root: string, projectDir: string) => Effect.Effect<string | undefined, never, FileSystem.FileSystem> =
  internal.verify

/**
 * {@link verify} for any log path inside a `.agent-hooks/logs/` folder (the folder and its project
 * are read from the path); `undefined` for other paths. The sinks call it before each write.
 *
 * @since 0.2.0
 * @category checks
 */
export const guard: (file: string) => Effect.Effect<string | undefined, never, FileSystem.FileSystem> = internal.guard
