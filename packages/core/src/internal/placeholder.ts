import type { ShellCommand, ShellIssue, Values } from "../Placeholder.ts"

import type { Shell, Site } from "../ShellLexer.ts"
import { backtickEscape, lex, PLACEHOLDER_SOURCE, quote, SHELL_PROGRAMS, shellCode, wrappedProgram } from "./shellLexer.ts"

const PLACEHOLDER = new RegExp(PLACEHOLDER_SOURCE, "g")

const PROJECT_DIRS = ["CLAUDE_PROJECT_DIR", "AGENT_HOOKS_PROJECT_DIR"]
const WELL_KNOWN = new Set([...PROJECT_DIRS, "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"])

const own = (record: unknown, key: string): unknown => {
  if (typeof record !== "object" || record === null) return undefined
  if (Array.isArray(record)) return /^(0|[1-9][0-9]*)$/.test(key) ? record[Number(key)] : undefined
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined
}

const envValue = (env: Readonly<Record<string, string>>, key: string): string | undefined => {
  const value = own(env, key)
  return typeof value === "string" ? value : undefined
}

const asText = (value: unknown): string => {
  switch (typeof value) {
    case "string":
      return value
    case "number":
    case "boolean":
    case "bigint":
      return String(value)
    case "object": {
      if (value === null) return ""
      try {
        return JSON.stringify(value) ?? ""
      } catch {
        return ""
      }
    }
    default:
      return ""
  }
}

/** @internal */
export const resolve = (name: string, values: Values): string | undefined => {
  if (WELL_KNOWN.has(name)) {
    const value = envValue(values.env, name)
    if (value !== undefined) return value
    if (PROJECT_DIRS.includes(name)) return envValue(values.env, PROJECT_DIRS.find((other) => other !== name)!)
    return undefined
  }
  if (name.includes(".")) {
    const segments = name.split(".")
    if (segments[0] === "user_config") {
      return envValue(values.env, `CLAUDE_PLUGIN_OPTION_${segments.slice(1).join(".").toUpperCase()}`) ?? ""
    }
    let current: unknown = values.input
    for (const segment of segments) current = own(current, segment)
    return asText(current)
  }
  return Object.hasOwn(values.input, name) ? asText(values.input[name]) : undefined
}

const withoutNul = (text: string): string => text.replace(/\0/g, "")

/** @internal */
export const expandText = (text: string, values: Values): string =>
  text.replace(PLACEHOLDER, (match, name: string) => {
    const value = resolve(name, values)
    return value === undefined ? match : withoutNul(value)
  })

/** @internal */
export const expandArgs = (args: ReadonlyArray<string>, values: Values): Array<string> =>
  args.map((arg) =>
    arg.replace(PLACEHOLDER, (match, name: string) => {
      const value = resolve(name, values)
      return value === undefined ? match : withoutNul(value)
    })
  )

// ---------------------------------------------------------------------------------------------
// Shell form
// ---------------------------------------------------------------------------------------------

/** The longest single argument Linux passes to a program (`MAX_ARG_STRLEN`, 128 KiB with its NUL). */
export const MAX_ARGUMENT_BYTES = 128 * 1024 - 1

/** Values longer than this go to a file when the expanded command would not fit in one argument. */
const FILE_THRESHOLD_BYTES = 1024

/** @internal */
export const utf8Length = (text: string): number => {
  let bytes = 0
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && k + 1 < text.length) {
      bytes += 4
      k++
    } else bytes += 3
  }
  return bytes
}

/** Text that reads as exactly the value in the given quoting context: a quoted word, or a variable reference. */
const placed = (context: "unquoted" | "dq" | "sq" | "ansi", word: string, afterDollar: boolean): string => {
  switch (context) {
    case "unquoted":
      // after a `$`, `'…'` would read as `$'…'` (ANSI-C quoting) in bash: separate them
      return afterDollar ? `""${word}` : word
    case "dq":
      return `"${word}"`
    case "sq":
      return `'${word}'`
    case "ansi":
      return `'${word}$'`
  }
}

/** How many lexed commands are kept: a config's commands, lexed once instead of at every dispatch. */
const LEXED_KEPT = 512
const lexedCommands = new Map<string, ReturnType<typeof lex>>()

/** `lex` of a hook's command, kept (a command is lexed the same every time; nothing changes a result). */
const lexCommand = (command: string, shell: Shell): ReturnType<typeof lex> => {
  const key = `${shell}\u0000${command}`
  const kept = lexedCommands.get(key)
  if (kept !== undefined || lexedCommands.has(key)) return kept
  const lexed = lex(command, "posix", shell)
  if (lexedCommands.size >= LEXED_KEPT) lexedCommands.delete(lexedCommands.keys().next().value!)
  lexedCommands.set(key, lexed)
  return lexed
}

interface Expansion {
  readonly values: Values
  /** Values that go to a file instead of inline (over the threshold), with the files made so far. */
  readonly toFiles: boolean
  readonly files: Array<{ readonly env: string; readonly content: string; readonly variable: string }>
}

const expandSites = (text: string, sites: ReadonlyArray<Site>, expansion: Expansion): string => {
  let out = ""
  let pos = 0
  for (const site of sites) {
    if (site._tag === "Backtick") {
      // the inner text is expanded on its own, then escaped again for the backtick pass
      const inner = expandSites(site.inner, site.sites, expansion)
      if (inner === site.inner) continue
      out += `${text.slice(pos, site.start)}\`${backtickEscape(inner, site.inDoubleQuotes)}\``
      pos = site.end
      continue
    }
    // where no literal word can stand, or after a construct dash and bash read differently, the
    // placeholder stays as written (`checkShell` refuses such templates at load time)
    if (site.context === "fixed" || site.ambiguity !== undefined) continue
    const value = resolve(site.name, expansion.values)
    if (value === undefined) continue
    const clean = withoutNul(value)
    let word: string
    if (expansion.toFiles && utf8Length(clean) > FILE_THRESHOLD_BYTES) {
      const k = expansion.files.length + 1
      const file = { env: `AGENT_HOOKS_VALUE_${k}`, content: clean, variable: `__agent_hooks_value_${k}` }
      expansion.files.push(file)
      word = `"\${${file.variable}}"`
    } else {
      word = quote(clean)
    }
    out += text.slice(pos, site.start)
    // `$${x}` means a dollar and the value; a bare `$` before `""` would be bash's `$"…"`
    if (site.afterDollar && site.context === "unquoted") out = `${out.slice(0, -1)}\\$`
    out += placed(site.context, word, out.endsWith("$"))
    pos = site.end
  }
  return out + text.slice(pos)
}

/** @internal */
export const expandShell = (command: string, values: Values, shell: Shell = "sh"): string => {
  const lexed = lexCommand(command, shell)
  // a command that does not parse gets nothing substituted (`checkShell` refuses it at load time)
  if (lexed === undefined) return command
  return expandSites(command, lexed.sites, { values, toFiles: false, files: [] })
}

/** @internal */
export const expandShellCommand = (command: string, values: Values, shell: Shell = "sh"): ShellCommand => {
  const lexed = lexCommand(command, shell)
  if (lexed === undefined) return { command, files: [] }
  const inline = expandSites(command, lexed.sites, { values, toFiles: false, files: [] })
  if (utf8Length(inline) <= MAX_ARGUMENT_BYTES) return { command: inline, files: [] }
  const expansion: Expansion = { values, toFiles: true, files: [] }
  const body = expandSites(command, lexed.sites, expansion)
  // `$(cat …)` drops trailing newlines: a final "." keeps them, then is taken off
  const reads = expansion.files.map(
    ({ env, variable }) => `${variable}=$(cat -- "$${env}" && printf .) || exit 126; ${variable}=\${${variable}%.}\n`
  )
  return { command: reads.join("") + body, files: expansion.files.map(({ content, env }) => ({ env, content })) }
}

const INPUT_NAME = /^(?:[a-z_][a-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)+)$/

const FIXED_WHERE = "inside another ${…} expansion, an arithmetic expansion or a here-document body"

const checkSites = (sites: ReadonlyArray<Site>, issues: Array<ShellIssue>, offset: (index: number) => number): void => {
  for (const site of sites) {
    if (site._tag === "Backtick") {
      checkSites(site.sites, issues, () => offset(site.start))
      continue
    }
    const written = `\${${site.name}}`
    const isInput = INPUT_NAME.test(site.name) && !WELL_KNOWN.has(site.name)
    if (site.ambiguity !== undefined) {
      issues.push({
        index: offset(site.start),
        message:
          `placeholder ${written} cannot be quoted safely: ${site.ambiguity}; move it before that ` +
          `construct, or pass the value through stdin`
      })
    } else if (site.context === "fixed" && isInput) {
      issues.push({
        index: offset(site.start),
        message:
          `placeholder ${written} stands ${FIXED_WHERE}, where it is not substituted (the shell ` +
          `would fail with "bad substitution"); assign it to a variable first: v=${written}; then ` +
          `use "$v"`
      })
    }
  }
}

/** @internal */
export const checkShell = (command: string, shell: Shell = "sh"): ReadonlyArray<ShellIssue> => {
  const lexed = lexCommand(command, shell)
  if (lexed === undefined) {
    PLACEHOLDER.lastIndex = 0
    const first = PLACEHOLDER.exec(command)
    return first === null
      ? []
      : [
          {
            index: first.index,
            message:
              `the command does not parse as a shell command (an unbalanced quote, backtick, "$(" or ` +
              `")"), so placeholder ${first[0]} cannot be quoted safely; fix the quoting`
          }
        ]
  }
  const issues: Array<ShellIssue> = []
  checkSites(lexed.sites, issues, (index) => index)
  return issues
}

// ---------------------------------------------------------------------------------------------
// Exec form: arguments that are code
// ---------------------------------------------------------------------------------------------

/** The language of an exec-form argument that a program runs as code. @internal */
export type CodeLanguage = "sh" | "bash" | "other"

/** An exec-form argument that is code: its index in `args`, its language and the program that runs it. @internal */
export interface CodeArgument {
  readonly index: number
  readonly language: CodeLanguage
  readonly program: string
}

/** Interpreters whose options name their code: the option letters (a cluster ending in one takes the next word). */
const CODE_OPTIONS: ReadonlyArray<readonly [RegExp, ReadonlyArray<string>, ReadonlyArray<string>]> = [
  // [program, short option letters, long options]
  [/^(?:python|pypy)[0-9.]*$/, ["c"], []],
  [/^(?:node|nodejs|bun)$/, ["e", "p"], ["--eval", "--print"]],
  [/^perl[0-9.]*$/, ["e", "E"], []],
  [/^ruby[0-9.]*$/, ["e"], []],
  [/^php[0-9.]*$/, ["r", "R", "B", "E"], []],
  [/^(?:lua[0-9.]*|luajit|Rscript|osascript|tclsh[0-9.]*|expect)$/, ["e", "c"], []],
  [/^(?:pwsh|powershell)$/, [], []],
  [/^(?:awk|gawk|mawk|nawk)$/, [], ["--source"]],
  [/^(?:sed|gsed)$/, ["e"], ["--expression"]]
]

/** Programs whose remaining words are joined into shell code (`watch ls -l`, `ssh host cmd`). */
const JOINED_CODE: Readonly<Record<string, number>> = { watch: 0, ssh: 1 }
/** Programs whose `-c` value is shell code. */
const DASH_C_SHELL = new Set(["su", "script", "flock", "runuser"])

const baseName = (word: string): string => word.slice(word.lastIndexOf("/") + 1)

/**
 * The exec-form arguments that a program runs as code: a shell's `-c` code (`sh`, `bash`, `dash`,
 * `zsh`, …), an interpreter's (`node -e`, `python -c`, `perl -e`, `ruby -e`, `php -r`, an awk
 * program, a sed script, `pwsh -Command`), behind process wrappers (`env`, `nice`, `timeout`,
 * `sudo`, `xargs`, …). Indexes are into `args`; `-1` is the program itself (a placeholder there
 * picks the program to run).
 * @internal
 */
export const codeArguments = (command: string, args: ReadonlyArray<string>): ReadonlyArray<CodeArgument> => {
  const words = [command, ...args]
  const out: Array<CodeArgument> = []
  let at = 0
  for (let guard = 0; guard < 16 && at < words.length; guard++) {
    const name = baseName(words[at]!)
    const program = wrappedProgram(name, words.slice(at))
    if (program !== undefined) {
      // env -S splits its value into a command line: code of its own
      const split = name === "env" ? words.slice(at + 1, at + program).findIndex((word) => /^(?:-S|--split-string)/.test(word)) : -1
      if (split >= 0) {
        const word = words[at + 1 + split]!
        out.push({ index: at + split + (word === "-S" || word === "--split-string" ? 1 : 0), language: "other", program: "env -S" })
        return out
      }
      at += program
      continue
    }
    if (Object.hasOwn(JOINED_CODE, name)) {
      // every word after the program's options (and ssh's host) is joined into one shell command
      let k = at + 1
      while (k < words.length && words[k]!.startsWith("-")) k++
      for (let j = k + JOINED_CODE[name]!; j < words.length; j++) out.push({ index: j - 1, language: "other", program: name })
      return out
    }
    const shell = SHELL_PROGRAMS.get(name)
    if (shell !== undefined) {
      const code = shellCode(words.slice(at + 1))
      if (typeof code === "number") out.push({ index: at + code, language: shell, program: name })
      return out
    }
    if (DASH_C_SHELL.has(name)) {
      for (let k = at + 1; k < words.length - 1; k++) {
        if (words[k] === "-c" || words[k] === "--command") out.push({ index: k, language: "sh", program: name })
      }
      return out
    }
    const known = CODE_OPTIONS.find(([pattern]) => pattern.test(name))
    if (known === undefined) return out
    const [, letters, longs] = known
    if (name === "pwsh" || name === "powershell") {
      // -Command (any prefix from -c) and -EncodedCommand take code; so does a first word that is not an option
      for (let k = at + 1; k < words.length; k++) {
        const word = words[k]!.toLowerCase()
        if (/^-(?:c|co|com|comm|comma|comman|command|e|ec|en|enc|encodedcommand|commandwithargs|cwa)$/.test(word)) {
          for (let j = k + 1; j < words.length; j++) out.push({ index: j - 1, language: "other", program: name })
          return out
        }
      }
      return out
    }
    const textProgram = /^(?:awk|gawk|mawk|nawk|sed|gsed)$/.test(name)
    let explicit = false
    let k = at + 1
    for (; k < words.length; k++) {
      const word = words[k]!
      if (word === "--" && textProgram) {
        k++
        break
      }
      const long = longs.find((option) => word === option || word.startsWith(`${option}=`))
      if (long !== undefined) {
        explicit = true
        out.push({ index: (word === long ? k + 1 : k) - 1, language: "other", program: name })
        if (word === long) k++
        continue
      }
      if (/^-[A-Za-z]/.test(word)) {
        // a cluster such as -c, -Bc, -ne, or the code attached: -c'print(1)'
        const letter = [...word.slice(1)].findIndex((ch) => letters.includes(ch))
        if (letter >= 0) {
          explicit = true
          const attached = letter + 2 < word.length
          out.push({ index: (attached ? k : k + 1) - 1, language: "other", program: name })
          if (!attached) k++
          // python's -c ends the options: the rest are the program's arguments
          if (/^(?:python|pypy)/.test(name)) return out
          continue
        }
        // awk's -f / sed's -f name a program file: no code in the arguments
        if (textProgram && /^-[A-Za-z]*f$/.test(word)) return out
        if (textProgram && /^(?:awk|gawk|mawk|nawk)$/.test(name) && (word === "-F" || word === "-v")) k++
        continue
      }
      // an interpreter's code option counts wherever it stands (refusing more is the safe side);
      // awk's program and sed's script are the first operand
      if (textProgram) break
    }
    // awk's program and sed's script: the first operand, when no option gave one
    if (!explicit && /^(?:awk|gawk|mawk|nawk|sed|gsed)$/.test(name) && k < words.length)
      out.push({ index: k - 1, language: "other", program: name })
    return out
  }
  return out
}

/** A placeholder that reaches code: where it stands, the program that runs it, and what the engine does. @internal */
export interface CodePlaceholder {
  /** `command` or `args[<n>]`. */
  readonly field: string
  readonly placeholder: string
  readonly program: string
  /** `quoted`: substituted as one shell word by the lexer; `refused`: the handler is refused at load. */
  readonly handling: "quoted" | "refused"
}

/** Whether a placeholder takes its value from the payload (not the engine's well-known folders). */
const fromPayload = (name: string): boolean => !WELL_KNOWN.has(name)
/** A payload placeholder as written to be one (`${tool_input.command}`, `${cwd}`), not shell or template syntax (`${HOME}`). */
const payloadName = (name: string): boolean => fromPayload(name) && INPUT_NAME.test(name)

/**
 * Every placeholder of a command handler that reaches code: in shell form each one in `command`
 * (quoted by the lexer); in exec form a payload placeholder that picks the program, one in a
 * shell's `-c` code (quoted by the lexer) or in another interpreter's code (refused).
 * @internal
 */
export const inCode = (handler: {
  readonly command: string
  readonly args?: ReadonlyArray<string> | undefined
  readonly shell?: string | undefined
}): ReadonlyArray<CodePlaceholder> => {
  const out: Array<CodePlaceholder> = []
  const names = (text: string): Array<string> => [...text.matchAll(new RegExp(PLACEHOLDER_SOURCE, "g"))].map((m) => m[1]!)
  if (handler.args === undefined) {
    if (handler.shell === "powershell") return out
    for (const name of names(handler.command).filter(payloadName))
      out.push({
        field: "command",
        placeholder: `\${${name}}`,
        program: handler.shell === "bash" ? "bash -c" : "sh -c",
        handling: "quoted"
      })
    return out
  }
  for (const name of names(handler.command)) {
    if (payloadName(name)) out.push({ field: "command", placeholder: `\${${name}}`, program: "the program to run", handling: "refused" })
  }
  for (const code of codeArguments(handler.command, handler.args)) {
    if (code.index < 0 || code.index >= handler.args.length) continue
    for (const name of names(handler.args[code.index]!)) {
      if (!payloadName(name)) continue
      out.push({
        field: `args[${code.index}]`,
        placeholder: `\${${name}}`,
        program: code.language === "other" ? code.program : `${code.program} -c`,
        handling: code.language === "other" ? "refused" : "quoted"
      })
    }
  }
  return out
}

/**
 * Exec-form arguments with placeholders substituted: verbatim, except in code. A shell's `-c` code
 * is expanded as shell form is (each value one quoted word, large values through files); another
 * interpreter's code gets only the well-known folders (a payload placeholder there is refused at load).
 * @internal
 */
export const expandExecArgs = (
  command: string,
  args: ReadonlyArray<string>,
  values: Values
): ShellCommand & { readonly args: ReadonlyArray<string> } => {
  const codes = new Map(codeArguments(command, args).map((code) => [code.index, code]))
  let files: ShellCommand["files"] = []
  const out = args.map((arg, index) => {
    const code = codes.get(index)
    if (code === undefined)
      return arg.replace(PLACEHOLDER, (match, name: string) => {
        const value = resolve(name, values)
        return value === undefined ? match : withoutNul(value)
      })
    if (code.language === "other") {
      return arg.replace(PLACEHOLDER, (match, name: string) => {
        const value = fromPayload(name) ? undefined : resolve(name, values)
        return value === undefined ? match : withoutNul(value)
      })
    }
    const expanded = expandShellCommand(arg, values, code.language)
    files = expanded.files
    return expanded.command
  })
  return { command: "", args: out, files }
}

/**
 * The load-time check of an exec-form handler: a payload placeholder that picks the program or
 * stands in an interpreter's code that no lexer quotes, and a shell's `-c` code that `checkShell`
 * refuses, each with the field it stands in and what to do.
 * @internal
 */
export const checkExec = (
  command: string,
  args: ReadonlyArray<string>
): ReadonlyArray<{ readonly field: string; readonly message: string }> => {
  const out: Array<{ field: string; message: string }> = []
  for (const code of codeArguments(command, args)) {
    if (code.language === "other" || code.index < 0 || code.index >= args.length) continue
    for (const issue of checkShell(args[code.index]!, code.language))
      out.push({ field: `args[${code.index}]`, message: `${issue.message} (${code.program} -c code, at character ${issue.index})` })
  }
  for (const site of inCode({ command, args })) {
    if (site.handling !== "refused") continue
    out.push({
      field: site.field,
      message:
        site.field === "command"
          ? `placeholder ${site.placeholder} picks the program to run from the payload; name the ` +
            `program, and pass the value as an argument or through env`
          : `placeholder ${site.placeholder} stands in code that ${site.program} runs, where no ` +
            `quoting can keep a value from being code; pass it as an argument after the code, through ` +
            `env, or read the payload on stdin`
    })
  }
  return out
}
