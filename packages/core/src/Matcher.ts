/**
 * Matchers: the filter of a matcher group, compiled once when settings load.
 *
 * The rule is Claude Code's (compatibility reference §4.1):
 * - empty, missing or `"*"` matches every value;
 * - a matcher made only of letters, digits, `_`, `-`, `,`, `|` and spaces is an exact,
 *   case-sensitive list, split on `|` and `,` with each part trimmed (`"Write|Edit"`, `"Bash, Read"`);
 *   on `FileChanged` and `StopFailure` the exact set is narrower (letters, digits, `_`, `|`; split on `|`);
 * - anything else is an unanchored JavaScript regular expression (`"mcp__memory__.*"`, `"^Notebook"`);
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
 * Compiles a matcher for an event. `warning` is set when the matcher can never match
 * (an invalid regular expression).
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile: (
  source: string | undefined,
  event?: string
) => { readonly matcher: Matcher; readonly warning: string | undefined } = internal.compile
