/**
 * Matchers: the filter of a matcher group, compiled once when settings load.
 *
 * The rule is Claude Code's (its hooks documentation):
 * - empty, missing or `"*"` matches every value;
 * - a matcher made only of letters, digits, `_`, `-`, `,`, `|` and spaces is an exact,
 *   case-sensitive list, split on `|` and `,` with each part trimmed (`"Write|Edit"`, `"Bash, Read"`);
 *   on `FileChanged` and `StopFailure` the exact set is narrower (letters, digits, `_`, `|`; split on `|`);
 * - anything else is an unanchored regular expression (`"mcp__memory__.*"`, `"^Notebook"`), run
 *   on RE2 (the `re2js` engine: linear time, so no matcher can make a dispatch hang);
 * - a pattern RE2 cannot compile but JavaScript can (lookahead, lookbehind, backreferences) is an
 *   error in files that may come from a cloned repository (project, local, plugin: origin
 *   `"untrusted"`) and matches nothing there; in the user's own files (user, managed, `--settings`,
 *   engine options: origin `"trusted"`) it runs on JavaScript's RegExp;
 * - an invalid regular expression matches nothing, and a warning says so.
 *
 * The tool name `Task` and its successor `Agent` are treated as the same tool.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/matcher.ts"

/**
 * A compiled matcher.
 *
 * @since 0.1.0
 * @category models
 */
export interface Matcher {
  /** The matcher as written (`undefined` when the group had none). */
  readonly source: string | undefined
  readonly kind: "all" | "exact" | "regex" | "invalid"
  readonly test: (value: string | undefined) => boolean
}

/**
 * Where a matcher comes from: `"trusted"` (user and managed settings, files given with
 * `--settings`, engine options) or `"untrusted"` (project, local and plugin files, which may come
 * from a cloned repository).
 *
 * @since 0.2.0
 * @category models
 */
export type Origin = "trusted" | "untrusted"

/**
 * The origin of a settings scope (`user`, `managed`, `explicit`, `options` are trusted; `project`,
 * `local`, `plugin` and anything else are not).
 *
 * @since 0.2.0
 * @category constructors
 */
export const originOf: (scope: string) => Origin = internal.originOf

/**
 * What {@link compile} returns: the matcher, a `warning` when it can never match (an invalid
 * regular expression), and an `error` when the file's origin may not use it (then it matches nothing).
 *
 * @since 0.2.0
 * @category models
 */
export interface Compiled {
  readonly matcher: Matcher
  readonly warning: string | undefined
  readonly error: string | undefined
}

/**
 * Compiles a matcher for an event. `origin` defaults to `"untrusted"`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile: (source: string | undefined, event?: string, origin?: Origin) => Compiled = internal.compile
