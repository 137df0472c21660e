/**
 * Placeholders in handler strings (`${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and the like).
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
import type { LoadedSettings } from "./SettingsModel.ts"
import type * as ShellLexer from "./ShellLexer.ts"

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
 * while each expansion still yields exactly the value (after the NUL rule) as one piece of text,
 * wherever the placeholder stands.
 *
 * The command is lexed with the engine's one shell lexer ({@link ShellLexer}) and each placeholder
 * is replaced by the value as a single-quoted shell word (`'…'`, a `'` in the value written
 * `'\''`), adapted to the quoting context it appears in:
 * - unquoted: `rm ${tool_input.file_path}` → `rm 'x'\''; rm -rf / #'` (one argument);
 *   `${CLAUDE_PROJECT_DIR}/x.sh` → `'/p'/x.sh`;
 * - inside double quotes the quote is closed and reopened around the word:
 *   `"${CLAUDE_PROJECT_DIR}/x.sh"` → `""'/p'"/x.sh"`, so the docs' recommended
 *   `"${CLAUDE_PLUGIN_ROOT}"/scripts/x.sh` works too;
 * - inside single quotes (Claude Code substitutes textually, so `'${CLAUDE_PROJECT_DIR}/x'` works
 *   there): the single quote is closed and reopened the same way; likewise inside `$'…'`;
 * - inside `$(…)` by the context there; inside backticks the backtick text is expanded on its own
 *   (after the shell's backslash pass, `\"` included when the backticks stand in double quotes)
 *   and escaped again for that pass, at any nesting depth.
 *
 * Where a literal word cannot be placed, the placeholder is left exactly as written: in comments,
 * here-document bodies, arithmetic `$((…))` and inside another `${…}` expansion. There the shell
 * expands the well-known variables from the environment; an input placeholder there is refused at
 * load time by {@link checkShell}. `\${…}` (escaped dollar) is left as written. A placeholder
 * after a construct that dash and bash read differently, or in a command that does not parse, is
 * also left as written and refused by {@link checkShell}.
 *
 * `shell`: `"sh"` (the default: `/bin/sh` may be dash or bash, and the result must be one word
 * in both) or `"bash"`.
 *
 * NUL characters are removed from values (no argument, environment string or shell word can hold
 * one): the same rule in every expansion function. For POSIX shells only; PowerShell has different
 * quoting. A value too large for one argument: see {@link expandShellCommand}.
 *
 * @since 0.1.0
 * @category expansion
 */
export const expandShell: (command: string, values: Values, shell?: ShellLexer.Shell) => string = internal.expandShell

/**
 * A shell command ready to spawn: the text for `sh -c`, and the values that travel in files.
 * `files` has the shape of the spawn request's field: the spawner writes each `content` to a fresh
 * 0600 temporary file, sets the environment variable `env` to its path, and removes the file after
 * the process exits.
 *
 * @since 0.2.0
 * @category models
 */
export interface ShellCommand {
  readonly command: string
  readonly files: ReadonlyArray<{ readonly env: string; readonly content: string }>
}

/**
 * The longest argument Linux passes to a program: 128 KiB (`MAX_ARG_STRLEN`) less its NUL, in
 * bytes of UTF-8. The same limit holds for each environment string.
 *
 * @since 0.2.0
 * @category expansion
 */
export const MAX_ARGUMENT_BYTES: number = internal.MAX_ARGUMENT_BYTES

/**
 * {@link expandShell}, for commands whose values may be large. When the expanded text would not
 * fit in one argument ({@link MAX_ARGUMENT_BYTES}), every value over 1 KiB travels in a file
 * instead: the command starts with one line per such value that reads the file (named by the
 * environment variable `AGENT_HOOKS_VALUE_<n>`) into the shell variable `__agent_hooks_value_<n>`
 * byte for byte (trailing newlines kept), and the placeholder becomes `"${__agent_hooks_value_<n>}"`,
 * one word in every quoting context. If the file cannot be read the command exits 126.
 *
 * @since 0.2.0
 * @category expansion
 */
export const expandShellCommand: (command: string, values: Values, shell?: ShellLexer.Shell) => ShellCommand = internal.expandShellCommand

/**
 * A problem {@link checkShell} found: the offset in the command and a message saying what to do.
 *
 * @since 0.2.0
 * @category models
 */
export interface ShellIssue {
  readonly index: number
  readonly message: string
}

/**
 * The load-time check of a shell-form command: the placeholders that {@link expandShell} would
 * leave as written because they cannot be quoted safely. Each is an error for the settings file:
 * - the command does not parse (unbalanced quoting) and holds a placeholder;
 * - a placeholder after a construct dash and bash read differently (`$'…'` holding `\'`, `<<<`,
 *   `((`, `;&`, a `{` or a quote inside `"${…}"`, `$((` that is not plain arithmetic) when `shell`
 *   is `"sh"`;
 * - an input placeholder (`${tool_input.x}`, `${session_id}`) inside another `${…}`, arithmetic
 *   or a here-document body, where the shell would fail with "bad substitution".
 * Comments are never checked. An empty array: every placeholder is substituted safely.
 *
 * @since 0.2.0
 * @category checks
 */
export const checkShell: (command: string, shell?: ShellLexer.Shell) => ReadonlyArray<ShellIssue> = internal.checkShell

/**
 * Exec form (`args` present, no shell): substitutes placeholders in each element verbatim, without
 * any quoting; an element stays one argument whatever the value holds. NUL characters are removed.
 * An element longer than {@link MAX_ARGUMENT_BYTES} cannot be passed to a program: the hook fails
 * to start (the full payload is always on stdin; use shell form for large values).
 * Use {@link expandText} for the `command` (executable) of an exec-form handler.
 *
 * @since 0.1.0
 * @category expansion
 */
export const expandArgs: (args: ReadonlyArray<string>, values: Values) => Array<string> = internal.expandArgs

/**
 * Plain textual substitution, for URLs, headers, environment values, MCP tool input and similar
 * text. NUL characters are removed from values. The result is NOT safe to hand to a shell: use
 * {@link expandShell} for shell commands.
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

/**
 * A placeholder that reaches code a program runs: the field it stands in (`command`, `args[2]`),
 * the program, and what the engine does with it: `quoted` (substituted as one shell word by the
 * lexer, as in shell form) or `refused` (the handler is refused when the settings load).
 *
 * @since 0.2.0
 * @category models
 */
export interface CodePlaceholder {
  readonly field: string
  readonly placeholder: string
  readonly program: string
  readonly handling: "quoted" | "refused"
}

/**
 * Every payload placeholder of a command handler that reaches code. Shell form: each one in
 * `command` (quoted by the lexer). Exec form: one in a shell's `-c` code (`sh`, `bash`, `dash`,
 * `zsh`, … behind `env`, `nice`, `timeout`, `sudo`, `xargs` and other wrappers; quoted by the
 * lexer, so `"args": ["-c", "echo \"${tool_input.command}\""]` echoes the command instead of
 * running it), one in another interpreter's code (`node -e`, `python -c`, `perl -e`, `ruby -e`,
 * `php -r`, an awk program, a sed script, `pwsh -Command`, `watch`, `ssh`; refused, since no
 * quoting keeps a value from being code there), and one that picks the program (refused).
 * `agent-hooks validate` lists them.
 *
 * @since 0.2.0
 * @category inspection
 */
export const inCode: (handler: {
  readonly command: string
  readonly args?: ReadonlyArray<string> | undefined
  readonly shell?: string | undefined
}) => ReadonlyArray<CodePlaceholder> = internal.inCode

/**
 * `agent-hooks validate`'s lines for the placeholders that reach code in loaded settings: one per
 * placeholder, naming the file, the JSON path, the program and how it is handled. (A refused one
 * never loads: the load's warning names it.)
 *
 * @since 0.2.0
 * @category inspection
 */
export const inCodeReport = (settings: LoadedSettings): ReadonlyArray<string> =>
  Object.values(settings.hooks).flatMap((entries) =>
    entries.flatMap((entry) =>
      entry.handler.type !== "command"
        ? []
        : internal
            .inCode(entry.handler)
            .map(
              (site) =>
                `${entry.source} at ${entry.path}.${site.field}: ${site.placeholder} is code for ${site.program} (${
                  site.handling === "quoted" ? "quoted as one shell word" : "refused"
                })`
            )
    )
  )
