import type { MatchOptions, PermissionRule, Result } from "../PermissionRule.ts"

// ---------------------------------------------------------------------------------------------
// Shell splitting
// ---------------------------------------------------------------------------------------------

type Dialect = "posix" | "powershell"

interface Word {
  /** Dequoted text (expansions kept as written). */
  text: string
  /** The word as written. */
  raw: string
  /** Holds a `$VAR`, `${…}`, `$(…)` or backtick expansion outside single quotes. */
  dynamic: boolean
}

interface SimpleCommand {
  readonly words: ReadonlyArray<Word>
}

const UNPARSABLE: unique symbol = Symbol("Unparsable")

interface Heredoc {
  readonly delimiter: string
  readonly quoted: boolean
  readonly stripTabs: boolean
}

/**
 * A small shell splitter: enough of the POSIX (and PowerShell) grammar to find every simple
 * command, including those inside substitutions. Throws `UNPARSABLE` on unbalanced quoting.
 */
class Splitter {
  i = 0
  readonly out: Array<SimpleCommand> = []
  private pending: Array<Heredoc> = []
  private readonly posix: boolean

  constructor(
    readonly s: string,
    readonly dialect: Dialect
  ) {
    this.posix = dialect === "posix"
  }

  run(): Array<SimpleCommand> {
    this.list(false)
    return this.out
  }

  /** A command list, up to the end of input or (when `closing`) the `)` closing a substitution. */
  private list(closing: boolean): void {
    const s = this.s
    const n = s.length
    let words: Array<Word> = []
    let word: Word | undefined
    let wordStart = 0
    let redirectNext = false
    let heredocNext: "<<" | "<<-" | undefined
    let depth = 0

    const endWord = (): void => {
      if (word === undefined) return
      word.raw = s.slice(wordStart, this.i)
      if (heredocNext !== undefined) {
        this.pending.push({
          delimiter: word.text,
          quoted: /['"\\]/.test(word.raw),
          stripTabs: heredocNext === "<<-"
        })
        heredocNext = undefined
      } else if (redirectNext) {
        redirectNext = false
      } else {
        words.push(word)
      }
      word = undefined
    }
    const endCommand = (): void => {
      endWord()
      if (words.length > 0) this.out.push({ words })
      words = []
    }
    const startWord = (): Word => {
      if (word === undefined) {
        word = { text: "", raw: "", dynamic: false }
        wordStart = this.i
      }
      return word
    }

    for (;;) {
      if (this.i >= n) {
        if (closing || depth > 0) throw UNPARSABLE
        endCommand()
        return
      }
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === " " || c === "\t" || c === "\r") {
        endWord()
        this.i++
        continue
      }
      if (c === "\n") {
        endCommand()
        this.i++
        this.consumeHeredocs()
        continue
      }
      if (word === undefined && c === "#") {
        while (this.i < n && s[this.i] !== "\n") this.i++
        continue
      }
      if (!this.posix && c === "<" && next === "#") {
        const end = s.indexOf("#>", this.i + 2)
        if (end < 0) throw UNPARSABLE
        endWord()
        this.i = end + 2
        continue
      }
      if (c === ";") {
        endCommand()
        this.i++
        while (s[this.i] === ";" || s[this.i] === "&") this.i++ // ;; ;& ;;&
        continue
      }
      if (c === "|") {
        endCommand()
        this.i += next === "|" || next === "&" ? 2 : 1
        continue
      }
      if (c === "&") {
        if (next === "&") {
          endCommand()
          this.i += 2
          continue
        }
        if (this.posix && next === ">" && word === undefined) {
          // &> and &>> redirect stdout and stderr
          this.i += s[this.i + 2] === ">" ? 3 : 2
          redirectNext = true
          continue
        }
        if (this.posix) {
          endCommand()
          this.i++
          continue
        }
        // PowerShell call operator: a word of its own, removed later
        endWord()
        words.push({ text: "&", raw: "&", dynamic: false })
        this.i++
        continue
      }
      if (!this.posix && (c === "{" || c === "}")) {
        endCommand()
        this.i++
        continue
      }
      if (c === "(") {
        endCommand()
        depth++
        this.i++
        continue
      }
      if (c === ")") {
        endCommand()
        this.i++
        if (depth > 0) {
          depth--
          continue
        }
        if (closing) return
        throw UNPARSABLE
      }
      if (c === "<" || c === ">") {
        if (this.posix && next === "(") {
          // process substitution <(…) / >(…): part of a word
          const w = startWord()
          this.i += 2
          this.list(true)
          w.dynamic = true
          w.text += s.slice(wordStart, this.i)
          continue
        }
        if (word !== undefined && /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\}|\*)$/.test(s.slice(wordStart, this.i))) {
          word = undefined // a file-descriptor prefix (2>, {fd}>, PowerShell *>)
        } else {
          endWord()
        }
        if (this.posix && s.startsWith("<<<", this.i)) {
          this.i += 3
          redirectNext = true
        } else if (this.posix && s.startsWith("<<-", this.i)) {
          this.i += 3
          heredocNext = "<<-"
        } else if (this.posix && s.startsWith("<<", this.i)) {
          this.i += 2
          heredocNext = "<<"
        } else if (next === ">" || next === "&" || next === "|" || (c === "<" && next === ">")) {
          this.i += 2
          redirectNext = true
        } else {
          this.i++
          redirectNext = true
        }
        continue
      }

      // word characters
      const w = startWord()
      if (this.posix && c === "\\") {
        if (next === "\n") {
          this.i += 2
          if (w.text === "" && s.slice(wordStart, this.i) === "\\\n") word = undefined
          continue
        }
        w.text += next ?? "\\"
        this.i += next === undefined ? 1 : 2
        continue
      }
      if (!this.posix && c === "`") {
        w.text += next ?? "`"
        this.i += next === undefined ? 1 : 2
        continue
      }
      if (c === "'") {
        this.singleQuoted(w)
        continue
      }
      if (c === '"') {
        this.i++
        this.doubleQuoted(w, '"')
        continue
      }
      if (
        !this.posix && c === "@" && (next === '"' || next === "'") && w.text === "" &&
        /^\r?\n/.test(s.slice(this.i + 2, this.i + 4))
      ) {
        const close = "\n" + next + "@"
        const end = s.indexOf(close, this.i + 2)
        if (end < 0) throw UNPARSABLE
        const body = s.slice(this.i + 2, end)
        w.text += body
        if (next === '"' && body.includes("$")) w.dynamic = true
        this.i = end + close.length
        continue
      }
      if (c === "$") {
        this.dollar(w, false)
        continue
      }
      if (this.posix && c === "`") {
        this.backtick(w)
        continue
      }
      w.text += c
      this.i++
    }
  }

  private singleQuoted(w: Word): void {
    const s = this.s
    if (this.posix) {
      const end = s.indexOf("'", this.i + 1)
      if (end < 0) throw UNPARSABLE
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

  /** Scans double-quoted text (opening quote consumed) up to `close`, or to `limit` when `close` is `undefined`. */
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
      if (this.posix && c === "\\" && next !== undefined && "$`\"\\\n".includes(next)) {
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
        this.dollar(w, true)
        continue
      }
      if (this.posix && c === "`") {
        this.backtick(w)
        continue
      }
      w.text += c
      this.i++
    }
  }

  /** At a `$`: an expansion, ANSI-C quoting, or a literal dollar. */
  private dollar(w: Word, inDoubleQuotes: boolean): void {
    const s = this.s
    const start = this.i
    const next = s[this.i + 1]
    if (this.posix && next === "'" && !inDoubleQuotes) {
      // $'…' (ANSI-C quoting): literal, with backslash escapes
      this.i += 2
      for (;;) {
        if (this.i >= s.length) throw UNPARSABLE
        const c = s[this.i]!
        if (c === "\\") {
          w.text += s[this.i + 1] ?? ""
          this.i += 2
          continue
        }
        if (c === "'") {
          this.i++
          return
        }
        w.text += c
        this.i++
      }
    }
    if (next === "(") {
      this.i += 2
      this.list(true)
    } else if (next === "{") {
      this.i += 2
      this.braced()
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

  /** The inside of `${…}` (after `${`), up to the matching `}`. */
  private braced(): void {
    const s = this.s
    const scratch: Word = { text: "", raw: "", dynamic: false }
    let depth = 1
    for (;;) {
      if (this.i >= s.length) throw UNPARSABLE
      const c = s[this.i]!
      if (c === "}") {
        this.i++
        if (--depth === 0) return
        continue
      }
      if (c === "{") {
        depth++
        this.i++
      } else if (c === "\\" && this.posix) {
        this.i += 2
      } else if (c === "'") {
        this.singleQuoted(scratch)
      } else if (c === '"') {
        this.i++
        this.doubleQuoted(scratch, '"')
      } else if (c === "$") {
        this.dollar(scratch, false)
      } else if (c === "`" && this.posix) {
        this.backtick(scratch)
      } else {
        this.i++
      }
    }
  }

  /** At a backtick: the old-style command substitution, parsed recursively. */
  private backtick(w: Word): void {
    const s = this.s
    const start = this.i
    this.i++
    let inner = ""
    for (;;) {
      if (this.i >= s.length) throw UNPARSABLE
      const c = s[this.i]!
      const next = s[this.i + 1]
      if (c === "\\" && next !== undefined && "$`\\".includes(next)) {
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
    const nested = splitShell(inner, this.dialect)
    if (nested === undefined) throw UNPARSABLE
    this.out.push(...nested)
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
          this.doubleQuoted(scratch, undefined, lineEnd)
        }
        this.i = Math.max(this.i, Math.min(lineEnd + 1, s.length))
      }
    }
  }
}

const splitShell = (command: string, dialect: Dialect): Array<SimpleCommand> | undefined => {
  try {
    return new Splitter(command, dialect).run()
  } catch (error) {
    if (error === UNPARSABLE) return undefined
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Normalizing a simple command: assignments, keywords, wrappers
// ---------------------------------------------------------------------------------------------

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/
const POSIX_KEYWORDS = new Set(["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"])
const POWERSHELL_KEYWORDS = new Set(["&", "."])

interface Wrapper {
  /** Options that take the next word as their value. */
  readonly argFlags?: ReadonlyArray<string>
  /** Positional words after the options (timeout's duration). */
  readonly positional?: number
  /** `VAR=val` words may follow the options. */
  readonly assignments?: boolean
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  timeout: { argFlags: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  time: { argFlags: ["-f", "--format", "-o", "--output"] },
  nice: { argFlags: ["-n", "--adjustment"] },
  nohup: {},
  stdbuf: { argFlags: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  env: { argFlags: ["-u", "--unset", "-C", "--chdir"], assignments: true },
  command: {},
  builtin: {},
  exec: { argFlags: ["-a"] },
  sudo: {
    argFlags: ["-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout"],
    assignments: true
  },
  doas: { argFlags: ["-u", "-C"] },
  xargs: { argFlags: ["-I", "-n", "-L", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"] }
}

const stripLeading = (words: ReadonlyArray<Word>, dialect: Dialect): ReadonlyArray<Word> => {
  let k = 0
  while (k < words.length) {
    const w = words[k]!
    if (dialect === "posix" ? ASSIGNMENT.test(w.raw) || POSIX_KEYWORDS.has(w.raw) : POWERSHELL_KEYWORDS.has(w.raw)) {
      k++
    } else break
  }
  return k === 0 ? words : words.slice(k)
}

/** Removes one process wrapper (`sudo -u x`, `timeout 10`, …), or returns `undefined`. */
const stripWrapper = (words: ReadonlyArray<Word>): ReadonlyArray<Word> | undefined => {
  const name = words[0]?.text
  if (name === undefined || !Object.hasOwn(WRAPPERS, name)) return undefined
  const wrapper = WRAPPERS[name]!
  let k = 1
  while (k < words.length) {
    const t = words[k]!.text
    if (t === "--") {
      k++
      break
    }
    if (t.startsWith("-") && t.length > 1) {
      k += wrapper.argFlags?.includes(t) ? 2 : 1
      continue
    }
    if (wrapper.assignments === true && ASSIGNMENT.test(t)) {
      k++
      continue
    }
    break
  }
  k += wrapper.positional ?? 0
  return words.slice(k)
}

// ---------------------------------------------------------------------------------------------
// Wildcard patterns (shell commands and plain text)
// ---------------------------------------------------------------------------------------------

const STAR: unique symbol = Symbol("*")
type Token = string | typeof STAR

interface TextPattern {
  readonly tokens: ReadonlyArray<Token>
  /** Also matches without the final ` *` (a single trailing wildcard after a space is optional). */
  readonly optionalTail: boolean
  readonly ignoreCase: boolean
  readonly regex: RegExp
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")

const tokenize = (pattern: string): Array<Token> => {
  const tokens: Array<Token> = []
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === "\\" && (pattern[i + 1] === "*" || pattern[i + 1] === "\\")) {
      tokens.push(pattern[++i]!)
    } else if (c === "*") {
      tokens.push(STAR)
    } else {
      tokens.push(c)
    }
  }
  return tokens
}

const tokensSource = (tokens: ReadonlyArray<Token>): string =>
  tokens.map((t) => (t === STAR ? "[\\s\\S]*" : escapeRegex(t))).join("")

const textPattern = (pattern: string, options: { readonly shell: boolean; readonly ignoreCase: boolean }): TextPattern => {
  let body = pattern
  let legacy = false
  if (options.shell) {
    body = body.replace(/\s+/g, " ").trim()
    if (body.endsWith(":*") && !body.endsWith("\\:*")) {
      legacy = true
      body = body.slice(0, -2).trimEnd()
    }
  }
  const tokens = tokenize(body)
  if (legacy) tokens.push(" ", STAR)
  const stars = tokens.filter((t) => t === STAR).length
  const optionalTail = options.shell && stars === 1 && tokens.length >= 2 && tokens[tokens.length - 1] === STAR &&
    tokens[tokens.length - 2] === " "
  const full = tokensSource(tokens)
  const source = optionalTail ? `(?:${full}|${tokensSource(tokens.slice(0, -2))})` : full
  return { tokens, optionalTail, ignoreCase: options.ignoreCase, regex: new RegExp(`^${source}$`, options.ignoreCase ? "i" : "") }
}

/** Whether some continuation of `prefix` matches the pattern (used for commands with expansions). */
const canStartWith = (pattern: TextPattern, prefix: string): boolean => {
  const { tokens } = pattern
  const fold = (t: string) => (pattern.ignoreCase ? t.toLowerCase() : t)
  const close = (states: Set<number>): Set<number> => {
    for (const st of [...states]) {
      let k = st
      while (tokens[k] === STAR) states.add(++k)
    }
    return states
  }
  let states = close(new Set([0]))
  for (let i = 0; i < prefix.length; i++) {
    const ch = prefix[i]!
    const next = new Set<number>()
    for (const st of states) {
      const t = tokens[st]
      if (t === undefined) continue
      if (t === STAR) next.add(st)
      else if (fold(t) === fold(ch)) next.add(st + 1)
    }
    states = close(next)
    if (states.size === 0) return false
  }
  return true
}

// ---------------------------------------------------------------------------------------------
// Shell rules
// ---------------------------------------------------------------------------------------------

const matchSimpleCommand = (pattern: TextPattern, command: SimpleCommand, dialect: Dialect): boolean => {
  let words = stripLeading(command.words, dialect)
  for (let guard = 0; guard < 16; guard++) {
    if (words.length > 0) {
      if (pattern.regex.test(words.map((w) => w.text).join(" "))) return true
      if (pattern.regex.test(words.map((w) => w.raw).join(" "))) return true
      const k = words.findIndex((w) => w.dynamic)
      if (k === 0) return true // the command name itself is an expansion: fail-open
      if (k > 0 && canStartWith(pattern, words.slice(0, k).map((w) => w.text).join(" ") + " ")) return true
    }
    if (dialect !== "posix") return false
    const inner = stripWrapper(words)
    if (inner === undefined) return false
    words = stripLeading(inner, dialect)
  }
  return false
}

const matchShell = (pattern: TextPattern, dialect: Dialect, command: unknown): boolean => {
  if (typeof command !== "string") return true
  const commands = splitShell(command, dialect)
  if (commands === undefined) return true // cannot be parsed: fail-open
  if (pattern.regex.test(command.trim())) return true
  return commands.some((c) => matchSimpleCommand(pattern, c, dialect))
}

// ---------------------------------------------------------------------------------------------
// File paths
// ---------------------------------------------------------------------------------------------

const DRIVE = /^[A-Za-z]:\//

/** Resolves `.` and `..` segments of an absolute path (or glob over one) and collapses slashes. */
const normalizeSegments = (path: string): string => {
  const drive = DRIVE.test(path) ? path.slice(0, 2) : ""
  const stack: Array<string> = []
  for (const segment of path.slice(drive.length).split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (stack.length > 0 && stack[stack.length - 1] !== "**") stack.pop()
      continue
    }
    stack.push(segment)
  }
  return `${drive}/${stack.join("/")}`
}

const toAbsolute = (path: string, cwd: string): string => {
  const p = path.replace(/\\/g, "/")
  if (p.startsWith("/") || DRIVE.test(p)) return normalizeSegments(p)
  return normalizeSegments(`${cwd.replace(/\\/g, "/")}/${p}`)
}

/** Escapes a literal path for use inside a glob. */
const globLiteral = (text: string): string => text.replace(/[*?[\]{}\\]/g, "\\$&")

/** Converts a glob to a regular-expression source: `**` crosses `/`, `*` and `?` do not. */
const globSource = (glob: string): string => {
  let out = ""
  let braces = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === "\\") {
      const next = glob[++i]
      if (next !== undefined) out += escapeRegex(next)
    } else if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/"
        i++
        while (glob[i + 1] === "*") i++
        if (atSegmentStart && glob[i + 1] === "/") {
          out += "(?:.*/)?"
          i++
        } else if (atSegmentStart && i === glob.length - 1) {
          out += ".*"
        } else {
          out += "[^/]*"
        }
      } else {
        out += "[^/]*"
      }
    } else if (c === "?") {
      out += "[^/]"
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 2)
      if (end < 0) {
        out += "\\["
        continue
      }
      let body = glob.slice(i + 1, end)
      let negate = false
      if (body.startsWith("!") || body.startsWith("^")) {
        negate = true
        body = body.slice(1)
      }
      out += `[${negate ? "^/" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`
      i = end
    } else if (c === "{") {
      braces++
      out += "(?:"
    } else if (c === "}" && braces > 0) {
      braces--
      out += ")"
    } else if (c === "," && braces > 0) {
      out += "|"
    } else {
      out += escapeRegex(c)
    }
  }
  return out + ")".repeat(braces)
}

const pathMatchers = (specifier: string, options: MatchOptions): Array<string> | undefined => {
  let p = specifier
  if (p.endsWith("/")) p += "**"
  const globs: Array<string> = []
  const base = (dir: string) => globLiteral(dir.replace(/\\/g, "/").replace(/\/+$/, ""))
  if (p.startsWith("//")) {
    globs.push(p.slice(1))
  } else if (p === "~" || p.startsWith("~/")) {
    if (options.home === undefined) return undefined
    globs.push(base(options.home) + p.slice(1))
  } else if (p.startsWith("/")) {
    globs.push(base(options.projectDir) + p, p)
  } else if (p.startsWith("./")) {
    globs.push(`${base(options.cwd)}/${p.slice(2)}`)
  } else if (p.startsWith("**/") || p === "**" || !p.includes("/")) {
    return [`^(?:.*/)?${globSource(p.startsWith("**/") ? p.slice(3) : p)}${literalTail(p)}$`]
  } else {
    globs.push(`${base(options.cwd)}/${p}`)
  }
  return globs.map((g) => `^${globSource(normalizeSegments(g))}${literalTail(p)}$`)
}

/** A last segment without wildcards names a file or a directory: also match everything below it. */
const literalTail = (pattern: string): string => {
  const last = pattern.slice(pattern.lastIndexOf("/") + 1)
  return /[*?[{]/.test(last) || last === "" ? "" : "(?:/.*)?"
}

const pathOf = (toolName: string, input: unknown, cwd: string): string | undefined => {
  if (typeof input === "object" && input !== null) {
    const record = input as Record<string, unknown>
    for (const key of ["file_path", "notebook_path", "path"]) {
      const value = record[key]
      if (typeof value === "string" && value !== "") return value
    }
  }
  return toolName === "Glob" || toolName === "Grep" || toolName === "LS" ? cwd : undefined
}

const matchPath = (specifier: string, toolName: string, input: unknown, options: MatchOptions): boolean => {
  const raw = pathOf(toolName, input, options.cwd)
  if (raw === undefined) return true // nothing to judge: fail-open
  const path = toAbsolute(raw, options.cwd)
  const sources = pathMatchers(specifier, options)
  if (sources === undefined) return true
  const flags = DRIVE.test(path) ? "i" : ""
  return sources.some((source) => new RegExp(source, flags).test(path))
}

// ---------------------------------------------------------------------------------------------
// Tool names and other specifiers
// ---------------------------------------------------------------------------------------------

const SHELL_TOOLS: Readonly<Record<string, Dialect>> = { Bash: "posix", PowerShell: "powershell" }
const EDIT_TOOLS = ["Edit", "Write", "MultiEdit", "NotebookEdit"]
const READ_TOOLS = ["Read", "Glob", "Grep", "LS", "NotebookRead"]
const FILE_TOOLS = new Set([...EDIT_TOOLS, ...READ_TOOLS])
const TEXT_FIELDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  Agent: ["subagent_type"],
  Task: ["subagent_type"],
  Skill: ["skill", "command", "name"],
  WebSearch: ["query"]
}
const KNOWN_TOOLS = [
  "Bash", "PowerShell", ...EDIT_TOOLS, ...READ_TOOLS, "WebFetch", "WebSearch", "Agent", "Task", "Skill",
  "TodoWrite", "ExitPlanMode", "AskUserQuestion", "BashOutput", "KillShell"
]
const KNOWN_BY_LOWERCASE = new Map(KNOWN_TOOLS.map((name) => [name.toLowerCase(), name]))

/** Which tool names a rule's tool part covers. */
const toolCovers = (ruleTool: string): ((toolName: string) => boolean) => {
  if (ruleTool === "Task" || ruleTool === "Agent") return (t) => t === "Task" || t === "Agent"
  if (ruleTool === "Edit") return (t) => EDIT_TOOLS.includes(t)
  if (ruleTool === "Read") return (t) => READ_TOOLS.includes(t)
  if (ruleTool.startsWith("mcp__")) {
    if (ruleTool.includes("*")) {
      const regex = new RegExp(`^${ruleTool.split("*").map(escapeRegex).join(".*")}$`)
      return (t) => regex.test(t)
    }
    if (ruleTool.split("__").length === 2) return (t) => t.startsWith(`${ruleTool}__`) // server-wide
  }
  return (t) => t === ruleTool
}

const hostOf = (url: string): string | undefined => {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url.trim())
  if (m === null) return undefined
  let authority = m[1]!
  authority = authority.slice(authority.lastIndexOf("@") + 1)
  const host = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.replace(/:\d*$/, "")
  return host.toLowerCase().replace(/\.$/, "")
}

const field = (input: unknown, keys: ReadonlyArray<string>): string | undefined => {
  if (typeof input !== "object" || input === null) return undefined
  for (const key of keys) {
    const value = (input as Record<string, unknown>)[key]
    if (typeof value === "string") return value
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// parse / matches
// ---------------------------------------------------------------------------------------------

const fail = (message: string): Result => ({ _tag: "Failure", message })

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/
const MCP_NAME = /^mcp__[A-Za-z0-9_.*-]+$/

/** @internal */
export const parse = (rule: string): Result => {
  const text = rule.trim()
  const shown = JSON.stringify(rule)
  if (text === "") {
    return fail(`empty permission rule; write one rule such as "Bash(git push *)" or "Edit(src/**)"`)
  }
  if (text === "*") {
    return fail(`permission rule "*" is not valid; to run the hook on every call leave "if" out, or name a tool such as "Bash"`)
  }
  if (/\)\s*(?:&&|\|\||,)\s*[A-Za-z_][\w]*(?:\(|$)/.test(text) || /^[A-Za-z_]\w*\s*(?:&&|\|\|)/.test(text)) {
    return fail(`permission rule ${shown} combines several rules; "if" takes exactly one, such as "Bash(git push *)" (use one handler per rule)`)
  }
  const open = text.indexOf("(")
  let toolName: string
  let specifier: string | undefined
  if (open < 0) {
    if (text.includes(")")) return fail(`permission rule ${shown} has a ")" without "("; write it like "Bash(npm test)"`)
    toolName = text
  } else {
    if (!text.endsWith(")")) {
      return fail(
        text.lastIndexOf(")") > open
          ? `permission rule ${shown} has text after the closing ")"; write it like "Bash(npm test)"`
          : `permission rule ${shown} is missing its closing ")"; write it like "Bash(git push *)"`
      )
    }
    toolName = text.slice(0, open).trim()
    specifier = text.slice(open + 1, -1).trim()
  }
  if (!(TOOL_NAME.test(toolName) || MCP_NAME.test(toolName))) {
    return fail(
      `permission rule ${shown} does not start with a tool name; write "Tool" or "Tool(specifier)", such as "Bash(git push *)", "Edit(src/**)" or "mcp__github__create_issue"`
    )
  }
  const proper = KNOWN_BY_LOWERCASE.get(toolName.toLowerCase())
  if (proper !== undefined && proper !== toolName) {
    return fail(
      `tool names are case-sensitive: permission rule ${shown} never matches; write ${
        JSON.stringify(specifier === undefined ? proper : `${proper}(${specifier})`)
      }`
    )
  }
  const covers = toolCovers(toolName)
  const make = (
    kind: PermissionRule["kind"],
    spec: string | undefined,
    test: (toolName: string, toolInput: unknown, options: MatchOptions) => boolean
  ): Result => ({
    _tag: "Success",
    rule: { source: rule, toolName, specifier: spec, kind, test: (t, input, options) => covers(t) && test(t, input, options) }
  })

  if (specifier === "") {
    return fail(
      `permission rule ${shown} has empty parentheses; write ${JSON.stringify(toolName)} to match every call, or a pattern such as "Bash(npm test)"`
    )
  }
  if (specifier === undefined || specifier === "*") return make("tool", undefined, () => true)

  const dialect = SHELL_TOOLS[toolName]
  if (dialect !== undefined) {
    const legacy = specifier.indexOf(":*")
    if (legacy >= 0 && legacy !== specifier.length - 2) {
      return fail(
        `permission rule ${shown}: ":*" is only allowed at the end; write ${JSON.stringify(`${toolName}(${specifier.replace(":*", " *")})`)}`
      )
    }
    const pattern = textPattern(specifier, { shell: true, ignoreCase: dialect === "powershell" })
    return make("shell", specifier, (_, input) => matchShell(pattern, dialect, field(input, ["command"])))
  }
  if (FILE_TOOLS.has(toolName)) {
    const spec = specifier
    return make("path", spec, (t, input, options) => matchPath(spec, t, input, options))
  }
  if (toolName === "WebFetch") {
    const m = /^domain:\s*(\S+)$/.exec(specifier)
    if (m === null) {
      return fail(`permission rule ${shown}: WebFetch rules take a domain; write "WebFetch(domain:example.com)"`)
    }
    const pattern = textPattern(m[1]!.toLowerCase().replace(/\.$/, ""), { shell: false, ignoreCase: true })
    return make("domain", specifier, (_, input) => {
      const url = field(input, ["url"])
      const host = url === undefined ? undefined : hostOf(url)
      return host === undefined || pattern.regex.test(host)
    })
  }
  const fields = TEXT_FIELDS[toolName]
  if (fields !== undefined) {
    const pattern = textPattern(specifier, { shell: false, ignoreCase: false })
    return make("text", specifier, (_, input) => {
      const value = field(input, fields)
      return value === undefined || pattern.regex.test(value)
    })
  }
  return make("opaque", specifier, () => true)
}

/** @internal */
export const matches = (rule: PermissionRule, toolName: string, toolInput: unknown, options: MatchOptions): boolean =>
  rule.test(toolName, toolInput, options)
