import type { MatchOptions, PermissionRule, Result } from "../PermissionRule.ts"
import type { Dialect, Word } from "../ShellLexer.ts"
import picomatch from "picomatch"
import { RE2JS } from "re2js"
import { codeArguments } from "./placeholder.ts"
import { SHELL_PROGRAMS, shellCode, split as splitShell, wrappedProgram } from "./shellLexer.ts"

// ---------------------------------------------------------------------------------------------
// Normalizing a simple command: assignments, keywords, wrappers
// ---------------------------------------------------------------------------------------------

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/
const POSIX_KEYWORDS = new Set(["!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "coproc"])
const POWERSHELL_KEYWORDS = new Set(["&", "."])

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
  const k =
    name === undefined
      ? undefined
      : wrappedProgram(
          name,
          words.map((w) => w.text)
        )
  return k === undefined ? undefined : words.slice(k)
}

// ---------------------------------------------------------------------------------------------
// Wildcard patterns (shell commands and plain text)
// ---------------------------------------------------------------------------------------------

const STAR: unique symbol = Symbol("*")
type Token = string | typeof STAR

/** @internal */
export interface TextPattern {
  readonly tokens: ReadonlyArray<Token>
  /** Also matches without the final ` *` (a single trailing wildcard after a space is optional). */
  readonly optionalTail: boolean
  readonly ignoreCase: boolean
  /** Runs on RE2: linear time whatever the rule and the command (a rule may come from a cloned repository). */
  readonly regex: { readonly test: (text: string) => boolean }
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

const tokensSource = (tokens: ReadonlyArray<Token>): string => tokens.map((t) => (t === STAR ? "[\\s\\S]*" : escapeRegex(t))).join("")

/** @internal */
export const textPattern = (pattern: string, options: { readonly shell: boolean; readonly ignoreCase: boolean }): TextPattern => {
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
  const optionalTail =
    options.shell && stars === 1 && tokens.length >= 2 && tokens[tokens.length - 1] === STAR && tokens[tokens.length - 2] === " "
  const full = tokensSource(tokens)
  const source = optionalTail ? `(?:${full}|${tokensSource(tokens.slice(0, -2))})` : full
  const regex = RE2JS.compile(`^${source}$`, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0)
  // The literal text every match starts with (up to the first wildcard; the optional tail's space
  // left out): a text that does not start with it cannot match, and saying so costs far less than
  // running RE2, which a policy does for every rule on every program of every call.
  const star = tokens.indexOf(STAR)
  const head = (star < 0 ? tokens : tokens.slice(0, star)).join("")
  const prefix = options.ignoreCase ? "" : optionalTail && star === tokens.length - 1 ? head.slice(0, -1) : head
  return {
    tokens,
    optionalTail,
    ignoreCase: options.ignoreCase,
    regex: { test: (text) => text.startsWith(prefix) && regex.test(text) }
  }
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

/** How deep `eval` / `sh -c` / `find -exec` nest before the call counts as one that cannot be judged. */
const MAX_NESTING = 8

/** The program a word names: `/usr/bin/zap` and `./zap` run `zap` as surely as `zap` does. */
const programName = (word: Word): string => word.text.slice(word.text.lastIndexOf("/") + 1)

/**
 * A command name the shell still rewrites: a glob (`z?p`, `[z]ap`) or a brace expansion
 * (`{zap,-x}` in bash) unquoted in the word as written.
 */
const rewrittenName = (word: Word): boolean => {
  const raw = word.raw
    .replace(/\\./g, "")
    .replace(/'[^']*'/g, "")
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
  return /[*?[]/.test(raw) || /\{[^}]*,[^}]*\}/.test(raw) || /\{[^}]*\.\.[^}]*\}/.test(raw)
}

/** @internal */
export type Judged = boolean | "unknown"

/**
 * What a command runs besides its own program: the code of `eval`, of a shell's `-c`, the command
 * of `find -exec`; `"unknown"` when it runs code this rule cannot see (a shell reading a script
 * file or its stdin, `source`), `undefined` when it runs nothing else.
 */
const innerCode = (
  name: string,
  words: ReadonlyArray<Word>
): { readonly code: string } | { readonly words: ReadonlyArray<Word> } | "unknown" | undefined => {
  const args = words.slice(1)
  if (name === "eval") {
    if (args.some((w) => w.dynamic)) return "unknown"
    return { code: args.map((w) => w.text).join(" ") }
  }
  if (name === "source" || name === ".") return args.length > 0 ? "unknown" : undefined
  if (SHELL_PROGRAMS.has(name)) {
    // a script file or stdin (`| sh`, `sh <<EOF`) is not visible here
    const code = shellCode(
      args.map((w) => w.text),
      (k) => args[k]!.dynamic
    )
    if (code === undefined) return undefined
    if (typeof code !== "number" || args[code]!.dynamic) return "unknown"
    return { code: args[code]!.text }
  }
  if (name === "trap") {
    // trap's first operand is code the shell runs on the signal
    const operand = args.find((w) => !w.text.startsWith("-"))
    if (operand === undefined || args.length < 2) return undefined
    return operand.dynamic ? "unknown" : { code: operand.text }
  }
  if (name === "watch") {
    // watch joins its operands into a command for sh -c
    let k = 0
    while (k < args.length && args[k]!.text.startsWith("-")) k += args[k]!.text === "-n" || args[k]!.text === "--interval" ? 2 : 1
    const rest = args.slice(k)
    return rest.some((w) => w.dynamic) ? "unknown" : { code: rest.map((w) => w.text).join(" ") }
  }
  if (
    name === "su" ||
    name === "script" ||
    name === "runuser" ||
    name === "flock" ||
    (name === "env" && args.some((w) => /^(?:-S|--split-string)/.test(w.text)))
  ) {
    // `su -c CODE`, `script -c CODE`, `flock FILE -c CODE`, `env -S 'cmd args'`
    const at = args.findIndex((w) => ["-c", "--command", "-S", "--split-string"].includes(w.text))
    if (at >= 0 && args[at + 1] !== undefined) return args[at + 1]!.dynamic ? "unknown" : { code: args[at + 1]!.text }
    const attached = args.find((w) => /^(?:-S.|--split-string=)/.test(w.text))
    if (attached !== undefined) return attached.dynamic ? "unknown" : { code: attached.text.replace(/^(?:-S|--split-string=)/, "") }
  }
  // an interpreter's inline code (`python -c`, `node -e`, `perl -e`): it can run anything, unseen here
  if (
    codeArguments(
      name,
      words.slice(1).map((w) => w.text)
    ).some((code) => code.language === "other")
  )
    return "unknown"
  if (name === "find") {
    const at = args.findIndex((w) => ["-exec", "-execdir", "-ok", "-okdir"].includes(w.text))
    if (at < 0) return undefined
    const rest = args.slice(at + 1)
    const end = rest.findIndex((w) => w.text === ";" || w.text === "+")
    return { words: end < 0 ? rest : rest.slice(0, end) }
  }
  return undefined
}

const matchWords = (pattern: TextPattern, start: ReadonlyArray<Word>, dialect: Dialect, depth: number): boolean => {
  let words = stripLeading(start, dialect)
  for (let guard = 0; guard < 16; guard++) {
    if (words.length > 0) {
      if (pattern.regex.test(words.map((w) => w.text).join(" "))) return true
      if (pattern.regex.test(words.map((w) => w.raw).join(" "))) return true
      const k = words.findIndex((w) => w.dynamic)
      if (k === 0) return true // the command name itself is an expansion: fail-open
      if (
        k > 0 &&
        canStartWith(
          pattern,
          words
            .slice(0, k)
            .map((w) => w.text)
            .join(" ") + " "
        )
      )
        return true
    }
    if (dialect !== "posix") return false
    if (words.length === 0) return false
    const first = words[0]!
    if (rewrittenName(first)) return true // the shell picks the program: cannot be judged
    const name = programName(first)
    if (name !== first.text) {
      // `/usr/bin/zap x` runs what `zap x` runs
      const named = [{ ...first, text: name, raw: name }, ...words.slice(1)]
      if (pattern.regex.test(named.map((w) => w.text).join(" "))) return true
      const k = named.findIndex((w) => w.dynamic)
      if (
        k > 0 &&
        canStartWith(
          pattern,
          named
            .slice(0, k)
            .map((w) => w.text)
            .join(" ") + " "
        )
      )
        return true
      words = named
    }
    const inner = innerCode(name, words)
    if (inner !== undefined) {
      if (inner === "unknown" || depth >= MAX_NESTING) return true // a call that cannot be judged runs the hook
      if ("code" in inner) return judge(pattern, dialect, inner.code, depth + 1) !== false
      if (matchWords(pattern, inner.words, dialect, depth + 1)) return true
    }
    const unwrapped = stripWrapper(words)
    if (unwrapped === undefined) return false
    words = stripLeading(unwrapped, dialect)
  }
  return false
}

/** Whether a command (at any nesting: `eval`, `sh -c`) may run what the pattern names; `"unknown"` when it does not parse. */
/** @internal */
export const judge = (pattern: TextPattern, dialect: Dialect, command: string, depth: number): Judged => {
  const commands = splitShell(command, dialect)
  if (commands === undefined) return "unknown"
  if (pattern.regex.test(command.trim())) return true
  return commands.some((c) => matchWords(pattern, c.words, dialect, depth))
}

const matchShell = (pattern: TextPattern, dialect: Dialect, command: unknown): boolean => {
  if (typeof command !== "string") return true
  // a command that cannot be parsed cannot be judged: the hook runs
  return judge(pattern, dialect, command, 0) !== false
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

/** Escapes a literal path for use inside a glob (picomatch also reads `(`, `!`, `+`, `@` as syntax). */
const globLiteral = (text: string): string => text.replace(/[*?[\]{}()!+@\\]/g, "\\$&")

const GLOB_OPTIONS = { dot: true, windows: false } as const

/**
 * The absolute globs a path specifier stands for: `**` crosses directories, `*` and `?` do not,
 * `[!x]` is a negated class; a last segment without wildcards also covers everything below it.
 */
/** @internal */
export const pathGlobs = (specifier: string, options: MatchOptions): Array<string> | undefined => {
  let p = specifier.replace(/\[!/g, "[^")
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
    // a pattern without "/" matches the file name at any depth (gitignore's rule)
    globs.push(`/**/${p.startsWith("**/") ? p.slice(3) : p}`)
  } else {
    globs.push(`${base(options.cwd)}/${p}`)
  }
  const last = p.slice(p.lastIndexOf("/") + 1)
  const literalTail = !/[*?[{]/.test(last) && last !== ""
  return globs.map((g) => (g.startsWith("/**/") ? g : normalizeSegments(g))).flatMap((g) => (literalTail ? [g, `${g}/**`] : [g]))
}

/** @internal */
export const pathOf = (toolName: string, input: unknown, cwd: string): string | undefined => {
  if (typeof input === "object" && input !== null) {
    const record = input as Record<string, unknown>
    for (const key of ["file_path", "notebook_path", "path"]) {
      const value = record[key]
      if (typeof value === "string" && value !== "") return value
    }
  }
  return toolName === "Glob" || toolName === "Grep" || toolName === "LS" ? cwd : undefined
}

/**
 * picomatch's guards against `.` and `..` segments and empty segments: no-ops for the normalised
 * absolute paths matched here (they have neither), and the only lookarounds of its output, which
 * RE2 cannot run.
 */
const NO_OP_GUARDS = ["(?!\\.{1,2}(?:\\/|$))", "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))", "(?=.)"]

/**
 * A glob as an RE2 program: picomatch parses it, RE2 runs it in linear time (a backtracking
 * engine takes seconds on `a*a*a*a*a*b` against a 200-character path). `undefined` when the glob
 * needs backtracking (a negated extglob `!(…)`).
 */
/** @internal */
export const globRegex = (globs: ReadonlyArray<string>, nocase: boolean): ((path: string) => boolean) | undefined => {
  const sources = globs.map((glob) =>
    NO_OP_GUARDS.reduce((source, guard) => source.replaceAll(guard, ""), picomatch.makeRe(glob, GLOB_OPTIONS).source)
  )
  try {
    // DOTALL: a newline in a file name must not let a path slip past "**"
    const regex = RE2JS.compile(sources.map((s) => `(?:${s})`).join("|"), RE2JS.DOTALL | (nocase ? RE2JS.CASE_INSENSITIVE : 0))
    return (path) => regex.test(path)
  } catch {
    return undefined
  }
}

/** A path rule: its globs depend on the session's directories, so the last few compilations are kept. */
const pathRule = (specifier: string) => {
  const cache = new Map<string, ((path: string) => boolean) | undefined>()
  const compiled = (options: MatchOptions, nocase: boolean) => {
    const key = `${nocase}\0${options.cwd}\0${options.projectDir}\0${options.home ?? ""}`
    if (cache.has(key)) return cache.get(key)
    const globs = pathGlobs(specifier, options)
    const test = globs === undefined ? undefined : globRegex(globs, nocase)
    if (cache.size >= 16) cache.delete(cache.keys().next().value!)
    cache.set(key, test)
    return test
  }
  return (toolName: string, input: unknown, options: MatchOptions): boolean => {
    const raw = pathOf(toolName, input, options.cwd)
    if (raw === undefined) return true // nothing to judge: fail-open
    const path = toAbsolute(raw, options.cwd)
    const test = compiled(options, DRIVE.test(path))
    return test === undefined || test(path)
  }
}

// ---------------------------------------------------------------------------------------------
// Tool names and other specifiers
// ---------------------------------------------------------------------------------------------

/** @internal */
export const SHELL_TOOLS: Readonly<Record<string, Dialect>> = { Bash: "posix", PowerShell: "powershell" }
/** @internal */
export const EDIT_TOOLS = ["Edit", "Write", "MultiEdit", "NotebookEdit"]
/** @internal */
export const READ_TOOLS = ["Read", "Glob", "Grep", "LS", "NotebookRead"]
const FILE_TOOLS = new Set([...EDIT_TOOLS, ...READ_TOOLS])
const TEXT_FIELDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  Agent: ["subagent_type"],
  Task: ["subagent_type"],
  Skill: ["skill", "command", "name"],
  WebSearch: ["query"]
}
const KNOWN_TOOLS = [
  "Bash",
  "PowerShell",
  ...EDIT_TOOLS,
  ...READ_TOOLS,
  "WebFetch",
  "WebSearch",
  "Agent",
  "Task",
  "Skill",
  "TodoWrite",
  "ExitPlanMode",
  "AskUserQuestion",
  "BashOutput",
  "KillShell"
]
const KNOWN_BY_LOWERCASE = new Map(KNOWN_TOOLS.map((name) => [name.toLowerCase(), name]))

/** Which tool names a rule's tool part covers. */
/** @internal */
export const toolCovers = (ruleTool: string): ((toolName: string) => boolean) => {
  if (ruleTool === "Task" || ruleTool === "Agent") return (t) => t === "Task" || t === "Agent"
  if (ruleTool === "Edit") return (t) => EDIT_TOOLS.includes(t)
  if (ruleTool === "Read") return (t) => READ_TOOLS.includes(t)
  if (ruleTool.startsWith("mcp__")) {
    if (ruleTool.includes("*")) {
      const regex = RE2JS.compile(`^${ruleTool.split("*").map(escapeRegex).join(".*")}$`)
      return (t) => regex.test(t)
    }
    if (ruleTool.split("__").length === 2) return (t) => t.startsWith(`${ruleTool}__`) // server-wide
  }
  return (t) => t === ruleTool
}

/** @internal */
export const hostOf = (url: string): string | undefined => {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url.trim())
  if (m === null) return undefined
  let authority = m[1]!
  authority = authority.slice(authority.lastIndexOf("@") + 1)
  const host = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.replace(/:\d*$/, "")
  return host.toLowerCase().replace(/\.$/, "")
}

/** @internal */
export const field = (input: unknown, keys: ReadonlyArray<string>): string | undefined => {
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

/** The longest `if` rule (4 KiB of text): longer ones are refused when settings load. */
export const MAX_RULE_CHARS = 4096

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/
const MCP_NAME = /^mcp__[A-Za-z0-9_.*-]+$/

/**
 * Parsed rules by their text: settings repeat the same `if` rule on many hooks, and every load
 * compiles them again. A rule is immutable once parsed (its matchers run on RE2, which keeps no
 * state between matches), so one parse serves every hook with that text.
 */
const CACHE_SIZE = 512
const cache = new Map<string, Result>()

/** @internal */
export const parse = (rule: string): Result => {
  const known = cache.get(rule)
  if (known !== undefined) return known
  const result = parseUncached(rule)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
  cache.set(rule, result)
  return result
}

const parseUncached = (rule: string): Result => {
  if (rule.length > MAX_RULE_CHARS) {
    return fail(
      `permission rule of ${rule.length} characters is longer than ${MAX_RULE_CHARS}; write a shorter rule (one tool and one pattern)`
    )
  }
  const text = rule.trim()
  const shown = JSON.stringify(rule)
  if (text === "") {
    return fail(`empty permission rule; write one rule such as "Bash(git push *)" or "Edit(src/**)"`)
  }
  if (text === "*") {
    return fail(`permission rule "*" is not valid; to run the hook on every call leave "if" out, or name a tool such as "Bash"`)
  }
  if (/\)\s*(?:&&|\|\||,)\s*[A-Za-z_][\w]*(?:\(|$)/.test(text) || /^[A-Za-z_]\w*\s*(?:&&|\|\|)/.test(text)) {
    return fail(
      `permission rule ${shown} combines several rules; "if" takes exactly one, such as "Bash(git push *)" (use one handler per rule)`
    )
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
      `permission rule ${shown} does not start with a tool name; write "Tool" or ` +
        `"Tool(specifier)", such as "Bash(git push *)", "Edit(src/**)" or ` +
        `"mcp__github__create_issue"`
    )
  }
  const proper = KNOWN_BY_LOWERCASE.get(toolName.toLowerCase())
  if (proper !== undefined && proper !== toolName) {
    return fail(
      `tool names are case-sensitive: permission rule ${shown} never matches; write ${JSON.stringify(
        specifier === undefined ? proper : `${proper}(${specifier})`
      )}`
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
      `permission rule ${shown} has empty parentheses; write ${JSON.stringify(toolName)} to ` +
        `match every call, or a pattern such as "Bash(npm test)"`
    )
  }
  if (specifier === undefined || specifier === "*") return make("tool", undefined, () => true)

  const dialect = SHELL_TOOLS[toolName]
  if (dialect !== undefined) {
    const legacy = specifier.indexOf(":*")
    if (legacy >= 0 && legacy !== specifier.length - 2) {
      return fail(
        `permission rule ${shown}: ":*" is only allowed at the end; write ` +
          `${JSON.stringify(`${toolName}(${specifier.replace(":*", " *")})`)}`
      )
    }
    const pattern = textPattern(specifier, { shell: true, ignoreCase: dialect === "powershell" })
    return make("shell", specifier, (_, input) => matchShell(pattern, dialect, field(input, ["command"])))
  }
  if (FILE_TOOLS.has(toolName)) {
    if (globRegex(pathGlobs(specifier, { cwd: "/c", projectDir: "/p", home: "/h" }) ?? [], false) === undefined) {
      return fail(
        `permission rule ${shown}: the pattern needs a backtracking matcher (a negated "!(…)" ` +
          `group), which is not supported; list the paths to match instead`
      )
    }
    return make("path", specifier, pathRule(specifier))
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
