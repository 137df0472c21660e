import type { Dialect, Lexed, PlaceholderContext, Redirect, Shell, SimpleCommand, Site, Word } from "../ShellLexer.ts"

/** `${name}` or `${a.b.c}`: the placeholder syntax (a dotted name is never a shell variable). */
export const PLACEHOLDER_SOURCE = String.raw`\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\}`
const PLACEHOLDER_AT = new RegExp(PLACEHOLDER_SOURCE, "y")
const PLACEHOLDER_ALL = new RegExp(PLACEHOLDER_SOURCE, "g")

/** Reserved words after which a word is still in command position (`then case …`). */
const RESERVED = new Set(["!", "{", "if", "then", "else", "elif", "do", "while", "until", "time"])

const UNPARSABLE: unique symbol = Symbol("Unparsable")

interface Heredoc {
  readonly delimiter: string
  readonly quoted: boolean
  readonly stripTabs: boolean
}

/** Where a `case` command is: its subject word, the `in` keyword, a pattern list, or a clause body. */
type CaseState = "subject" | "in" | "pattern" | "body"

/** The state of one command list being lexed (the whole command, or a substitution's). */
interface CommandList {
  /** Inside `$(…)` or `<(…)`: the list ends at its `)`. */
  readonly closing: boolean
  /** The words of the simple command being read. */
  words: Array<Word>
  word: Word | undefined
  wordStart: number
  /** The next word is a redirection's target, not an argument. */
  redirectNext: boolean
  /** The operator of that redirection (`>`, `>>`, `<`, `<>`, `>&`, `<<<`, …). */
  redirectOp: string
  /** The file redirections of the simple command being read. */
  redirects: Array<Redirect>
  /** The next word is a here-document's delimiter. */
  heredocNext: "<<" | "<<-" | undefined
  /** Open subshell parentheses. */
  depth: number
  /** Where each open `case` command is. */
  readonly cases: Array<CaseState>
}

/**
 * One shell lexer for the whole engine: it splits a command into simple commands (for `if` rules)
 * and finds every placeholder with the quoting context it stands in (for shell-form expansion).
 * Enough of the POSIX, bash and PowerShell grammar for both: quotes, `$'…'`, escapes, comments,
 * here-documents, `$(…)`, backticks (lexed again after their own backslash pass), `${…}`,
 * arithmetic, `case` patterns. Throws `UNPARSABLE` on unbalanced quoting.
 *
 * It also notes the first construct that dash and bash read differently (or that this lexer
 * cannot place), so that a placeholder after it is refused instead of guessed.
 */
class Lexer {
  i = 0
  readonly commands: Array<SimpleCommand> = []
  readonly sites: Array<Site> = []
  ambiguity: { readonly index: number; readonly reason: string } | undefined
  private pending: Array<Heredoc> = []
  private readonly posix: boolean
  /** The offset of the last `$` read as a literal dollar before a placeholder (`$${x}`). */
  private bareDollar = -1
  /** Above 0 inside `${…}`, arithmetic and here-document bodies: a placeholder there stays as written. */
  private fixed: number

  constructor(
    readonly s: string,
    readonly dialect: Dialect,
    readonly shell: Shell,
    fixed: boolean
  ) {
    this.posix = dialect === "posix"
    this.fixed = fixed ? 1 : 0
  }

  run(): void {
    this.list(false)
  }

  private ambiguous(index: number, reason: string): void {
    if (this.ambiguity === undefined) this.ambiguity = { index, reason }
  }

  private site(start: number, end: number, name: string, context: PlaceholderContext, ambiguity?: string): void {
    if (!this.posix) return
    this.sites.push({
      _tag: "Placeholder",
      start,
      end,
      name,
      context: this.fixed > 0 ? "fixed" : context,
      // a placeholder that opens the command follows no `$` (bareDollar starts at -1)
      afterDollar: start > 0 && this.bareDollar === start - 1,
      ambiguity: this.ambiguity?.reason ?? ambiguity
    })
  }

  /** Placeholders inside literal text (single quotes, `$'…'`): Claude Code substitutes there too. */
  private literalSites(from: number, to: number, context: PlaceholderContext, ambiguity?: string): void {
    const body = this.s.slice(from, to)
    for (const m of body.matchAll(PLACEHOLDER_ALL)) {
      this.site(from + m.index, from + m.index + m[0].length, m[1]!, context, ambiguity)
    }
  }

  /** A command list, up to the end of input or (when `closing`) the `)` closing a substitution. */
  private list(closing: boolean): void {
    const l: CommandList = {
      closing,
      words: [],
      word: undefined,
      wordStart: 0,
      redirectNext: false,
      redirectOp: "",
      redirects: [],
      heredocNext: undefined,
      depth: 0,
      cases: []
    }
    for (;;) {
      if (this.i >= this.s.length) {
        if (closing || l.depth > 0) throw UNPARSABLE
        this.endCommand(l)
        return
      }
      const c = this.s[this.i]!
      const next = this.s[this.i + 1]
      if (this.separator(l, c, next)) continue
      const operator = this.operator(l, c, next)
      if (operator === "done") return
      if (operator) continue
      if (this.redirection(l, c, next)) continue
      this.wordCharacter(l, c, next)
    }
  }

  /** Whether a finished word is a keyword that `case` parsing consumes. */
  private caseWord(l: CommandList, w: Word): boolean {
    const { cases } = l
    const state = cases[cases.length - 1]
    if (state === "subject") {
      cases[cases.length - 1] = "in"
      return true
    }
    if (state === "in") {
      cases[cases.length - 1] = "pattern"
      return true
    }
    if (state === "pattern") {
      if (w.raw === "esac") cases.pop()
      return true
    }
    const commandPosition = l.words.every((word) => RESERVED.has(word.raw))
    if (commandPosition && w.raw === "case") {
      l.words = []
      cases.push("subject")
      return true
    }
    if (commandPosition && w.raw === "esac" && state === "body") {
      cases.pop()
      return true
    }
    return false
  }

  private endWord(l: CommandList): void {
    const word = l.word
    if (word === undefined) return
    word.raw = this.s.slice(l.wordStart, this.i)
    if (l.heredocNext !== undefined) {
      this.pending.push({
        delimiter: word.text,
        quoted: /['"\\]/.test(word.raw),
        stripTabs: l.heredocNext === "<<-"
      })
      l.heredocNext = undefined
    } else if (l.redirectNext) {
      l.redirectNext = false
      l.redirects.push({ operator: l.redirectOp, target: word })
    } else if (!(this.posix && this.caseWord(l, word))) {
      l.words.push(word)
    }
    l.word = undefined
  }

  private endCommand(l: CommandList): void {
    this.endWord(l)
    if (l.words.length > 0 || l.redirects.length > 0) this.commands.push({ words: l.words, redirects: l.redirects })
    l.words = []
    l.redirects = []
  }

  private startWord(l: CommandList): Word {
    if (l.word === undefined) {
      l.word = { text: "", raw: "", dynamic: false }
      l.wordStart = this.i
    }
    return l.word
  }

  private inPatterns(l: CommandList): boolean {
    const state = l.cases[l.cases.length - 1]
    return state === "pattern" || state === "in"
  }

  /** Blanks, newlines (then pending here-documents), comments and `;` (which also ends a case clause). */
  private separator(l: CommandList, c: string, next: string | undefined): boolean {
    const s = this.s
    if (c === " " || c === "\t" || c === "\r") {
      this.endWord(l)
      this.i++
      return true
    }
    if (c === "\n") {
      this.endCommand(l)
      this.i++
      this.consumeHeredocs()
      return true
    }
    if (l.word === undefined && c === "#") {
      while (this.i < s.length && s[this.i] !== "\n") this.i++
      return true
    }
    if (!this.posix && c === "<" && next === "#") {
      const end = s.indexOf("#>", this.i + 2)
      if (end < 0) throw UNPARSABLE
      this.endWord(l)
      this.i = end + 2
      return true
    }
    if (c === ";") {
      this.endCommand(l)
      this.i++
      // ;; ;& ;;& end a case clause
      const terminator = s[this.i] === ";" || s[this.i] === "&"
      if (terminator && l.cases[l.cases.length - 1] === "body") l.cases[l.cases.length - 1] = "pattern"
      if (s[this.i] === "&" || s.startsWith(";&", this.i)) this.ambiguous(this.i - 1, `";&" ends a case clause only in bash`)
      while (s[this.i] === ";" || s[this.i] === "&") this.i++
      return true
    }
    return false
  }

  /** Pipes, `&&`, `&`, PowerShell blocks, and parentheses (subshells, case patterns); `done` at the `)` closing this list. */
  private operator(l: CommandList, c: string, next: string | undefined): boolean | "done" {
    const s = this.s
    if (c === "|") {
      this.endWord(l)
      if (this.posix && this.inPatterns(l)) {
        this.i++ // pattern alternatives a|b)
        return true
      }
      this.endCommand(l)
      this.i += next === "|" || next === "&" ? 2 : 1
      return true
    }
    if (c === "&") {
      if (next === "&") {
        this.endCommand(l)
        this.i += 2
        return true
      }
      if (this.posix && next === ">" && l.word === undefined) {
        // &> and &>> redirect stdout and stderr
        l.redirectOp = s[this.i + 2] === ">" ? "&>>" : "&>"
        this.i += s[this.i + 2] === ">" ? 3 : 2
        l.redirectNext = true
        return true
      }
      if (this.posix) {
        this.endCommand(l)
        this.i++
        return true
      }
      // PowerShell call operator: a word of its own, removed later
      this.endWord(l)
      l.words.push({ text: "&", raw: "&", dynamic: false })
      this.i++
      return true
    }
    if (!this.posix && (c === "{" || c === "}")) {
      this.endCommand(l)
      this.i++
      return true
    }
    if (c === "(") {
      this.endWord(l)
      if (this.posix && this.inPatterns(l)) {
        this.i++ // the optional "(" before a case pattern
        return true
      }
      if (this.posix && next === "(" && l.words.length === 0) {
        this.ambiguous(this.i, `"((" is arithmetic in bash and two subshells in sh`)
      }
      this.endCommand(l)
      l.depth++
      this.i++
      return true
    }
    if (c === ")") {
      this.endWord(l)
      if (this.posix && this.inPatterns(l)) {
        l.cases[l.cases.length - 1] = "body" // the end of a case pattern list
        this.i++
        return true
      }
      this.endCommand(l)
      this.i++
      if (l.depth > 0) {
        l.depth--
        return true
      }
      if (l.closing) return "done"
      throw UNPARSABLE
    }
    return false
  }

  /** Redirections (with a file-descriptor prefix), here-documents and here-strings, process substitution. */
  private redirection(l: CommandList, c: string, next: string | undefined): boolean {
    const s = this.s
    if (c !== "<" && c !== ">") return false
    if (this.posix && next === "(") {
      // process substitution <(…) / >(…): part of a word
      const w = this.startWord(l)
      this.i += 2
      this.list(true)
      w.dynamic = true
      w.text += s.slice(l.wordStart, this.i)
      return true
    }
    if (l.word !== undefined && /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\}|\*)$/.test(s.slice(l.wordStart, this.i))) {
      l.word = undefined // a file-descriptor prefix (2>, {fd}>, PowerShell *>)
    } else {
      this.endWord(l)
    }
    if (this.posix && s.startsWith("<<<", this.i)) {
      if (this.shell === "sh") this.ambiguous(this.i, `"<<<" is a here-string only in bash`)
      this.i += 3
      l.redirectOp = "<<<"
      l.redirectNext = true
    } else if (this.posix && s.startsWith("<<-", this.i)) {
      this.i += 3
      l.heredocNext = "<<-"
    } else if (this.posix && s.startsWith("<<", this.i)) {
      this.i += 2
      l.heredocNext = "<<"
    } else if (next === ">" || next === "&" || next === "|" || (c === "<" && next === ">")) {
      l.redirectOp = c + next
      this.i += 2
      l.redirectNext = true
    } else {
      l.redirectOp = c
      this.i++
      l.redirectNext = true
    }
    return true
  }

  /** A character of a word: escapes, quotes, PowerShell here-strings, `$` expansions, backticks, or itself. */
  private wordCharacter(l: CommandList, c: string, next: string | undefined): void {
    const s = this.s
    const w = this.startWord(l)
    if (this.posix && c === "\\") {
      if (next === "\n") {
        this.i += 2
        if (w.text === "" && s.slice(l.wordStart, this.i) === "\\\n") l.word = undefined
        return
      }
      w.text += next ?? "\\"
      this.i += next === undefined ? 1 : 2
      return
    }
    if (!this.posix && c === "`") {
      w.text += next ?? "`"
      this.i += next === undefined ? 1 : 2
      return
    }
    if (c === "'") {
      this.singleQuoted(w)
      return
    }
    if (c === '"') {
      this.i++
      this.doubleQuoted(w, '"')
      return
    }
    if (!this.posix && c === "@" && (next === '"' || next === "'") && w.text === "" && /^\r?\n/.test(s.slice(this.i + 2, this.i + 4))) {
      const close = "\n" + next + "@"
      const end = s.indexOf(close, this.i + 2)
      if (end < 0) throw UNPARSABLE
      const body = s.slice(this.i + 2, end)
      w.text += body
      if (next === '"' && body.includes("$")) w.dynamic = true
      this.i = end + close.length
      return
    }
    if (c === "$") {
      this.dollar(w, "unquoted")
      return
    }
    if (this.posix && c === "`") {
      this.backtick(w, false)
      return
    }
    w.text += c
    this.i++
  }

  private singleQuoted(w: Word): void {
    const s = this.s
    if (this.posix) {
      const end = s.indexOf("'", this.i + 1)
      if (end < 0) throw UNPARSABLE
      this.literalSites(this.i + 1, end, "sq")
      w.text += s.slice(this.i + 1, end)
      this.i = end + 1
      return
    }
    this.i++
    for (;;) {
      if (this.i >= s.length) throw UNPARSABLE
      const c = s[this.i]!
      if (c === "'") {
        if (s[this.i + 1] === "'") {
          w.text += "'"
          this.i += 2
          continue
        }
        this.i++
        return
      }
      w.text += c
      this.i++
    }
  }

  /**
   * Scans double-quoted text (opening quote consumed) up to `close`, or, for the body of an
   * unquoted here-document, up to `limit` when `close` is `undefined`.
   */
  private doubleQuoted(w: Word, close: '"' | undefined, limit = this.s.length): void {
    const s = this.s
    for (;;) {
      if (this.i >= limit) {
        if (close !== undefined) throw UNPARSABLE
        return
      }
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === close) {
        if (!this.posix && next === '"') {
          w.text += '"'
          this.i += 2
          continue
        }
        this.i++
        return
      }
      // in a here-document body `\"` keeps its backslash
      if (this.posix && c === "\\" && next !== undefined && (close === undefined ? "$`\\\n" : '$`"\\\n').includes(next)) {
        if (next !== "\n") w.text += next
        this.i += 2
        continue
      }
      if (!this.posix && c === "`" && next !== undefined) {
        w.text += next
        this.i += 2
        continue
      }
      if (c === "$") {
        this.dollar(w, close === undefined ? "fixed" : "dq")
        continue
      }
      if (this.posix && c === "`") {
        this.backtick(w, close !== undefined)
        continue
      }
      w.text += c
      this.i++
    }
  }

  /** At a `$`: a placeholder, an expansion, ANSI-C quoting, or a literal dollar. */
  private dollar(w: Word, context: "unquoted" | "dq" | "fixed"): void {
    const s = this.s
    const start = this.i
    const next = s[this.i + 1]
    if (this.posix) {
      PLACEHOLDER_AT.lastIndex = this.i
      const m = PLACEHOLDER_AT.exec(s)
      if (m !== null) {
        this.site(this.i, this.i + m[0].length, m[1]!, context)
        this.i += m[0].length
        w.dynamic = true
        w.text += m[0]
        return
      }
      // `$${x}`: the dollar is literal before a placeholder (as in textual substitution)
      PLACEHOLDER_AT.lastIndex = this.i + 1
      if (next === "$" && PLACEHOLDER_AT.test(s)) {
        this.bareDollar = this.i
        w.text += "$"
        this.i++
        return
      }
    }
    if (this.posix && next === "'" && context === "unquoted") {
      // $'…' (ANSI-C quoting in bash; in dash a literal `$` before a single-quoted string)
      this.i += 2
      const bodyStart = this.i
      for (;;) {
        if (this.i >= s.length) throw UNPARSABLE
        const c = s[this.i]!
        if (c === "\\") {
          if (s[this.i + 1] === "'" && this.shell === "sh") {
            this.ambiguous(this.i, `"\\'" inside $'…' ends the string in dash but not in bash`)
          }
          w.text += s[this.i + 1] ?? ""
          this.i += 2
          continue
        }
        if (c === "'") {
          this.literalSites(
            bodyStart,
            this.i,
            "ansi",
            this.shell === "sh" ? `$'…' is ANSI-C quoting in bash but a dollar and a single-quoted string in dash` : undefined
          )
          this.i++
          return
        }
        w.text += c
        this.i++
      }
    }
    if (this.posix && s.startsWith("$((", this.i) && this.arithmetic()) {
      // handled
    } else if (next === "(") {
      this.i += 2
      this.list(true)
    } else if (next === "{") {
      this.i += 2
      this.braced(context === "dq")
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      this.i += 2
      while (this.i < s.length && /[A-Za-z0-9_]/.test(s[this.i]!)) this.i++
      if (!this.posix && s[this.i] === ":" && /[A-Za-z_]/.test(s[this.i + 1] ?? "")) {
        this.i++ // $env:NAME
        while (this.i < s.length && /[A-Za-z0-9_]/.test(s[this.i]!)) this.i++
      }
    } else if (next !== undefined && /[0-9@*#?$!_^-]/.test(next)) {
      this.i += 2
    } else {
      w.text += "$"
      this.i++
      return
    }
    w.dynamic = true
    w.text += s.slice(start, this.i)
  }

  /**
   * At `$((`: an arithmetic expansion up to the matching `))`. Returns false (having consumed
   * nothing) when the text reads as a command substitution instead, as bash then does.
   */
  private arithmetic(): boolean {
    const s = this.s
    const snapshot = { i: this.i, sites: this.sites.length, commands: this.commands.length }
    const scratch: Word = { text: "", raw: "", dynamic: false }
    this.i += 3
    this.fixed++
    let depth = 0
    try {
      for (;;) {
        if (this.i >= s.length) break
        const c = s[this.i]!
        if (c === "(") {
          depth++
          this.i++
        } else if (c === ")") {
          if (depth > 0) {
            depth--
            this.i++
          } else if (s[this.i + 1] === ")") {
            this.i += 2
            return true
          } else {
            break
          }
        } else if (c === "$") {
          this.dollar(scratch, "fixed")
        } else if (c === "`") {
          this.backtick(scratch, false)
        } else if (/['"\\;&|\n<>#]/.test(c)) {
          break
        } else {
          this.i++
        }
      }
    } catch (error) {
      if (error !== UNPARSABLE) throw error
    } finally {
      this.fixed--
    }
    this.sites.length = snapshot.sites
    this.commands.length = snapshot.commands
    this.i = snapshot.i
    this.ambiguous(this.i, `"$((" that is not plain arithmetic is read differently by dash and bash`)
    return false
  }

  /** The inside of `${…}` (after `${`), up to the matching `}`. */
  private braced(inDoubleQuotes: boolean): void {
    const s = this.s
    const scratch: Word = { text: "", raw: "", dynamic: false }
    this.fixed++
    for (;;) {
      if (this.i >= s.length) throw UNPARSABLE
      const c = s[this.i]!
      // the first "}" not escaped, quoted or inside a nested expansion closes it; a bare "{" is a letter
      if (c === "}") {
        this.i++
        break
      }
      if (c === "{") {
        this.i++
      } else if (c === "\\" && this.posix) {
        this.i += 2
      } else if (c === "'") {
        if (inDoubleQuotes && this.posix) this.ambiguous(this.i, `a "'" inside "\${…}" is a quote in some shells and a letter in others`)
        this.singleQuoted(scratch)
      } else if (c === '"') {
        if (inDoubleQuotes && this.posix) this.ambiguous(this.i, `a '"' inside "\${…}" is read differently by dash and bash`)
        this.i++
        this.doubleQuoted(scratch, '"')
      } else if (c === "$") {
        this.dollar(scratch, "fixed")
      } else if (c === "`" && this.posix) {
        this.backtick(scratch, inDoubleQuotes)
      } else {
        this.i++
      }
    }
    this.fixed--
  }

  /**
   * At a backtick: the old-style command substitution. Its text goes through the backslash pass
   * the shell applies (`\\`, `` \` ``, `\$`, and `\"` when the backticks stand inside double
   * quotes), then is lexed again as a command of its own.
   */
  private backtick(w: Word, inDoubleQuotes: boolean): void {
    const s = this.s
    const start = this.i
    this.i++
    let inner = ""
    const escapable = inDoubleQuotes ? '$`\\"' : "$`\\"
    for (;;) {
      if (this.i >= s.length) throw UNPARSABLE
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === "\\" && next !== undefined && escapable.includes(next)) {
        inner += next
        this.i += 2
        continue
      }
      if (c === "`") {
        this.i++
        break
      }
      inner += c
      this.i++
    }
    const nested = new Lexer(inner, this.dialect, this.shell, this.fixed > 0)
    if (this.ambiguity !== undefined) nested.ambiguity = this.ambiguity
    nested.run()
    this.commands.push(...nested.commands)
    if (nested.ambiguity !== undefined) this.ambiguous(start, nested.ambiguity.reason)
    if (nested.sites.length > 0) {
      this.sites.push({ _tag: "Backtick", start, end: this.i, inner, inDoubleQuotes, sites: nested.sites })
    }
    w.dynamic = true
    w.text += s.slice(start, this.i)
  }

  /** After a newline: skip the bodies of pending here-documents (scanning unquoted ones for substitutions). */
  private consumeHeredocs(): void {
    const s = this.s
    const pending = this.pending
    this.pending = []
    for (const doc of pending) {
      while (this.i < s.length) {
        let lineEnd = s.indexOf("\n", this.i)
        if (lineEnd < 0) lineEnd = s.length
        const line = s.slice(this.i, lineEnd)
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) {
          this.i = Math.min(lineEnd + 1, s.length)
          break
        }
        if (!doc.quoted) {
          const scratch: Word = { text: "", raw: "", dynamic: false }
          this.fixed++
          try {
            this.doubleQuoted(scratch, undefined, lineEnd)
          } finally {
            this.fixed--
          }
        }
        this.i = Math.max(this.i, Math.min(lineEnd + 1, s.length))
      }
    }
  }
}

/** @internal */
export const lex = (text: string, dialect: Dialect, shell: Shell = "sh"): Lexed | undefined => {
  const lexer = new Lexer(text, dialect, shell, false)
  try {
    lexer.run()
  } catch (error) {
    if (error === UNPARSABLE) return undefined
    throw error
  }
  return { commands: lexer.commands, sites: lexer.sites.sort((a, b) => a.start - b.start), ambiguity: lexer.ambiguity }
}

/** @internal */
export const split = (command: string, dialect: Dialect): Array<SimpleCommand> | undefined => {
  const lexed = lex(command, dialect, "bash")
  return lexed === undefined ? undefined : [...lexed.commands]
}

/**
 * The simple command a command line starts with (the lexer also lists the commands of its
 * substitutions): the one whose first word, as written, is the longest the text starts with.
 * `undefined` when the text does not start with a word (a redirection, `(`) or does not lex.
 *
 * @internal
 */
export const leadingCommand = (command: string, dialect: Dialect): SimpleCommand | undefined => {
  const text = command.trimStart()
  return (split(command, dialect) ?? [])
    .filter((simple) => simple.words[0] !== undefined && simple.words[0].raw !== "" && text.startsWith(simple.words[0].raw))
    .sort((a, b) => b.words[0]!.raw.length - a.words[0]!.raw.length)[0]
}

/** A POSIX single-quoted word: `'…'`, each `'` written `'\''`. */
/** @internal */
export const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`

/** @internal */
export const backtickEscape = (text: string, inDoubleQuotes: boolean): string =>
  text.replace(inDoubleQuotes ? /[\\`$"]/g : /[\\`$]/g, "\\$&")

/** Shells, by the lexer mode their code is read in (`zsh` and the ksh family as `/bin/sh`, the stricter). @internal */
export const SHELL_PROGRAMS: ReadonlyMap<string, Shell> = new Map([
  ...["sh", "dash", "ash", "ksh", "mksh", "yash", "posh", "lksh", "pdksh", "zsh"].map((name) => [name, "sh"] as const),
  ...["bash", "rbash"].map((name) => [name, "bash"] as const)
])

/** Shell options that take the next word as their value (`-o errexit`, `--rcfile f`). */
const SHELL_VALUE_OPTIONS = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])

/**
 * What a shell runs, from the words after its name: the index of its `-c` code, `"script"` when it
 * runs a script file or its stdin (`… | sh`, `sh <<EOF`, `sh x.sh`), `"dynamic"` at an option word
 * the caller says is an expansion, `undefined` for `-c` with no code.
 * @internal
 */
export const shellCode = (
  args: ReadonlyArray<string>,
  dynamic: (index: number) => boolean = () => false
): number | "script" | "dynamic" | undefined => {
  let code = false
  let k = 0
  for (; k < args.length; k++) {
    const word = args[k]!
    if (dynamic(k)) return "dynamic"
    if (word === "--" || word === "-") {
      k++
      break
    }
    if (SHELL_VALUE_OPTIONS.has(word)) {
      k++
      continue
    }
    if (/^[-+][A-Za-z]+$/.test(word)) {
      if (word.startsWith("-") && word.includes("c")) code = true
      continue
    }
    if (word.startsWith("--")) continue
    break
  }
  if (!code) return "script"
  return k < args.length ? k : undefined
}

/** A process wrapper: a program that starts the program named after its options. @internal */
export interface ProcessWrapper {
  /** Options that take the next word as their value. */
  readonly argFlags: ReadonlyArray<string>
  /** Positional words after the options (timeout's duration, taskset's mask). */
  readonly positional?: number
  /** `VAR=val` words may follow the options. */
  readonly assignments?: boolean
}

/**
 * The process wrappers the engine sees through, for `if` rules (`sudo rm -rf /` runs `rm`) and for
 * exec-form code (`env sh -c …` is a shell's code), with the options of each that take a value.
 * @internal
 */
export const PROCESS_WRAPPERS: Readonly<Record<string, ProcessWrapper>> = {
  timeout: { argFlags: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  time: { argFlags: ["-f", "--format", "-o", "--output"] },
  nice: { argFlags: ["-n", "--adjustment"] },
  nohup: { argFlags: [] },
  stdbuf: { argFlags: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  env: { argFlags: ["-u", "--unset", "-C", "--chdir"], assignments: true },
  command: { argFlags: [] },
  builtin: { argFlags: [] },
  exec: { argFlags: ["-a"] },
  sudo: {
    argFlags: [
      "-u",
      "--user",
      "-g",
      "--group",
      "-h",
      "--host",
      "-p",
      "--prompt",
      "-C",
      "--close-from",
      "-D",
      "--chdir",
      "-r",
      "--role",
      "-t",
      "--type",
      "-U",
      "--other-user",
      "-T",
      "--command-timeout"
    ],
    assignments: true
  },
  doas: { argFlags: ["-u", "-C"] },
  xargs: { argFlags: ["-I", "-n", "-L", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"] },
  setsid: { argFlags: [] },
  ionice: { argFlags: ["-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"] },
  chrt: { argFlags: [], positional: 1 },
  // `-c` only says how to read the mask: the mask (or list) is the positional word
  taskset: { argFlags: [], positional: 1 },
  flock: { argFlags: ["-w", "--timeout", "-E", "--conflict-exit-code"], positional: 1 },
  busybox: { argFlags: [] }
}

const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

/**
 * Where the program a process wrapper starts stands: the index in `words` (the wrapper's name
 * first) after the wrapper's options, assignments and positional words; `undefined` when `name`
 * is no wrapper.
 * @internal
 */
export const wrappedProgram = (name: string, words: ReadonlyArray<string>): number | undefined => {
  if (!Object.hasOwn(PROCESS_WRAPPERS, name)) return undefined
  const wrapper = PROCESS_WRAPPERS[name]!
  let k = 1
  while (k < words.length) {
    const word = words[k]!
    if (word === "--") {
      k++
      break
    }
    if (word.startsWith("-") && word.length > 1) {
      k += wrapper.argFlags.includes(word) ? 2 : 1
      continue
    }
    if (wrapper.assignments === true && ASSIGNMENT_WORD.test(word)) {
      k++
      continue
    }
    break
  }
  return k + (wrapper.positional ?? 0)
}
