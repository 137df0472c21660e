/**
 * The one shell lexer of the engine. `if` rules use it to split a command into simple commands;
 * shell-form placeholders use it to find the quoting context of each `${…}` they replace.
 *
 * It knows enough of the POSIX, bash and PowerShell grammar for both: single and double quotes,
 * `$'…'`, backslash escapes, comments, here-documents (quoted and unquoted bodies), `$(…)`,
 * backticks (whose text goes through the shell's own backslash pass and is lexed again),
 * `${…}`, arithmetic `$((…))`, `case` patterns and `<(…)`.
 *
 * Where dash (`/bin/sh` on Debian and Ubuntu) and bash read a construct differently (`$'…'`
 * holding `\'`, `<<<`, `((`, `;&`, a `{` or a quote inside `"${…}"`, `$((` that is not plain
 * arithmetic), the lexer notes it as an {@link Ambiguity}: a placeholder after it cannot be quoted
 * so that both shells see one word, and shell-form expansion refuses it.
 *
 * @since 0.2.0
 */
import * as internal from "./internal/shellLexer.ts"

/**
 * `posix` (sh, dash, bash) or `powershell`.
 *
 * @since 0.2.0
 * @category models
 */
export type Dialect = "posix" | "powershell"

/**
 * The shell a POSIX command is meant for. `sh` means "any of dash and bash": every construct the
 * two read differently is an {@link Ambiguity}.
 *
 * @since 0.2.0
 * @category models
 */
export type Shell = "sh" | "bash"

/**
 * A word of a simple command.
 *
 * @since 0.2.0
 * @category models
 */
export interface Word {
  /** Dequoted text (expansions kept as written). */
  text: string
  /** The word as written. */
  raw: string
  /** Holds a `$VAR`, `${…}`, `$(…)` or backtick expansion outside single quotes. */
  dynamic: boolean
}

/**
 * A simple command: its words, after redirections, here-document operators and `case` syntax
 * are taken out.
 *
 * @since 0.2.0
 * @category models
 */
export interface SimpleCommand {
  readonly words: ReadonlyArray<Word>
  /**
   * Its redirections with their targets (`> out` is `{ operator: ">", target }`); here-documents
   * are not listed. A command of redirections only (`> file`) has no words.
   *
   * @since 0.3.0
   */
  readonly redirects?: ReadonlyArray<Redirect>
}

/**
 * A redirection of a simple command: the operator as written without its file-descriptor prefix
 * (`>`, `>>`, `>|`, `<`, `<>`, `>&`, `<&`, `&>`, `&>>`, `<<<`) and its target word.
 *
 * @since 0.3.0
 * @category models
 */
export interface Redirect {
  readonly operator: string
  readonly target: Word
}

/**
 * The quoting context of a placeholder: `unquoted`, `dq` (inside `"…"`), `sq` (inside `'…'`),
 * `ansi` (inside `$'…'`), or `fixed`: a place where no literal word can stand (inside another
 * `${…}`, arithmetic, an unquoted here-document body), where the placeholder stays as written.
 *
 * @since 0.2.0
 * @category models
 */
export type PlaceholderContext = "unquoted" | "dq" | "sq" | "ansi" | "fixed"

/**
 * Where the lexer found a placeholder (`${name}`), or a backtick substitution holding some (with
 * the sites of its own text, after the backslash pass). `start`/`end` are offsets in the text lexed.
 *
 * @since 0.2.0
 * @category models
 */
export type Site =
  | {
      readonly _tag: "Placeholder"
      readonly start: number
      readonly end: number
      /** The name inside `${…}`. */
      readonly name: string
      readonly context: PlaceholderContext
      /** Right after a `$` that the shell reads as a literal dollar (`$${x}`). */
      readonly afterDollar: boolean
      /** Set when an earlier construct makes the context uncertain: why. */
      readonly ambiguity: string | undefined
    }
  | {
      readonly _tag: "Backtick"
      readonly start: number
      readonly end: number
      /** The text between the backticks after the shell's backslash pass. */
      readonly inner: string
      readonly inDoubleQuotes: boolean
      readonly sites: ReadonlyArray<Site>
    }

/**
 * The first construct that dash and bash read differently: its offset and why.
 *
 * @since 0.2.0
 * @category models
 */
export interface Ambiguity {
  readonly index: number
  readonly reason: string
}

/**
 * What {@link lex} found.
 *
 * @since 0.2.0
 * @category models
 */
export interface Lexed {
  readonly commands: ReadonlyArray<SimpleCommand>
  readonly sites: ReadonlyArray<Site>
  readonly ambiguity: Ambiguity | undefined
}

/**
 * Lexes a command; `undefined` when it does not parse (an unbalanced quote, `$(`, backtick or `)`).
 *
 * @since 0.2.0
 * @category lexing
 */
export const lex: (text: string, dialect: Dialect, shell?: Shell) => Lexed | undefined = internal.lex

/**
 * The simple commands of a command line (including those inside `$(…)`, backticks and `<(…)`);
 * `undefined` when it does not parse.
 *
 * @since 0.2.0
 * @category lexing
 */
export const split: (command: string, dialect: Dialect) => Array<SimpleCommand> | undefined = internal.split

/**
 * A POSIX single-quoted word holding exactly `value`: `'…'`, each `'` written `'\''`. (A shell
 * word cannot hold NUL; callers remove it first.)
 *
 * @since 0.2.0
 * @category quoting
 */
export const quote: (value: string) => string = internal.quote
