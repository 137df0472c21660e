/**
 * Placeholders in handler strings (compatibility reference §3.3, §3.4).
 *
 * A placeholder is `${NAME}` or `${a.b.c}`:
 * - `${CLAUDE_PROJECT_DIR}`, `${AGENT_HOOKS_PROJECT_DIR}` (each falls back to the other),
 *   `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`: taken from `values.env`. When the variable is
 *   not there, the placeholder is left as written.
 * - `${user_config.KEY}` (plugin options): `values.env["CLAUDE_PLUGIN_OPTION_<KEY uppercased>"]`, or
 *   empty. (Claude Code refuses it in shell form since 2.1.207; here it is safe in every form.)
 * - A dotted path (`${tool_input.file_path}`, `${tool_input.edits.0.old_string}`, arrays by index):
 *   looked up in `values.input` through own properties only; a missing path gives the empty string.
 *   Dotted names are never shell variables (`${a.b}` is a shell syntax error), so this cannot
 *   capture ordinary shell syntax.
 * - A plain name (`${tool_name}`, `${session_id}`, `${cwd}`) is a placeholder only when the input
 *   has that key; otherwise (`${HOME}`, `${f}` in a shell loop) it is left untouched, as ordinary
 *   shell syntax.
 * - Anything else, and bare `$NAME` without braces, is left untouched (the well-known variables
 *   are also exported, so the shell expands `$CLAUDE_PROJECT_DIR` itself).
 *
 * Values: strings as they are; numbers and booleans as text; objects and arrays JSON-encoded;
 * `null`, `undefined` and missing paths as the empty string. There is no escape syntax for a
 * literal `${…}` in {@link expandArgs} / {@link expandText}; in shell form write `\${…}`.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/placeholder.ts"

/**
 * What placeholders expand to: the handler's environment (for the well-known variables and plugin
 * options) and the hook input object.
 *
 * @since 0.1.0
 * @category models
 */
export interface Values {
  readonly env: Readonly<Record<string, string>>
  readonly input: Readonly<Record<string, unknown>>
}

/**
 * Shell form (`sh -c` / `bash -c`): expands placeholders so that no value can inject shell syntax,
 * while each expansion still yields exactly the value as text, wherever the placeholder stands.
 *
 * The command is scanned with a POSIX shell lexer and each placeholder is replaced by the value
 * as a single-quoted shell word (`'…'`, a `'` in the value written `'\''`), adapted to the quoting
 * context it appears in:
 * - unquoted: `rm ${tool_input.file_path}` → `rm 'x'\''; rm -rf / #'` (one argument);
 *   `${CLAUDE_PROJECT_DIR}/x.sh` → `'/p'/x.sh`;
 * - inside double quotes the quote is closed and reopened around the word:
 *   `"${CLAUDE_PROJECT_DIR}/x.sh"` → `""'/p'"/x.sh"`, so the docs' recommended
 *   `"${CLAUDE_PLUGIN_ROOT}"/scripts/x.sh` works too;
 * - inside single quotes (Claude Code substitutes textually, so `'${CLAUDE_PROJECT_DIR}/x'` works
 *   there): the single quote is closed and reopened the same way; likewise inside `$'…'`;
 * - inside `$(…)` as unquoted; inside backticks the word is additionally backslash-escaped for the
 *   backtick pass.
 *
 * Why not just leave `${CLAUDE_PROJECT_DIR}` for the shell to expand from the exported variable?
 * That is injection-safe, but it only works for exported variables (not for input values), and it
 * is subject to word splitting when unquoted. Inline quoting is self-contained and uniform.
 *
 * Where a literal word cannot be placed safely, the placeholder is left exactly as written: in
 * comments, here-document bodies, arithmetic `$((…))`, inside another `${…}` expansion, and inside
 * nested (escaped) backticks. There the shell expands the well-known variables from the
 * environment, and an input placeholder such as `${tool_input.x}` fails with "bad substitution"
 * rather than being injected. `\${…}` (escaped dollar) is left as written.
 *
 * NUL characters are removed from values (a shell word cannot hold them). For POSIX shells only;
 * PowerShell has different quoting.
 *
 * @since 0.1.0
 * @category expansion
 */
export const expandShell: (command: string, values: Values) => string = internal.expandShell

/**
 * Exec form (`args` present, no shell): substitutes placeholders in each element verbatim, without
 * any quoting; an element stays one argument whatever the value holds. NUL characters are removed.
 * Use {@link expandText} for the `command` (executable) of an exec-form handler.
 *
 * @since 0.1.0
 * @category expansion
 */
export const expandArgs: (args: ReadonlyArray<string>, values: Values) => Array<string> = internal.expandArgs

/**
 * Plain textual substitution, for URLs, headers, MCP tool input and similar text. The result is NOT
 * safe to hand to a shell: use {@link expandShell} for shell commands.
 *
 * @since 0.1.0
 * @category expansion
 */
export const expandText: (text: string, values: Values) => string = internal.expandText

/**
 * The value a placeholder name (`tool_input.file_path`, `CLAUDE_PROJECT_DIR`) expands to, or
 * `undefined` when the name is not a placeholder and stays as written.
 *
 * @since 0.1.0
 * @category expansion
 */
export const resolve: (name: string, values: Values) => string | undefined = internal.resolve
