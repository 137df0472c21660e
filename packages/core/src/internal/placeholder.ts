import type { ShellCommand, ShellIssue, Values } from "../Placeholder.ts"

import type { Shell, Site } from "../ShellLexer.ts"
import { backtickEscape, lex, PLACEHOLDER_SOURCE, quote } from "./shellLexer.ts"

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
  const reads = expansion.files.map(({ env, variable }) =>
    `${variable}=$(cat -- "$${env}" && printf .) || exit 126; ${variable}=\${${variable}%.}\n`
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
      issues.push({ index: offset(site.start), message: `placeholder ${written} cannot be quoted safely: ${site.ambiguity}; move it before that construct, or pass the value through stdin` })
    } else if (site.context === "fixed" && isInput) {
      issues.push({
        index: offset(site.start),
        message: `placeholder ${written} stands ${FIXED_WHERE}, where it is not substituted (the shell would fail with "bad substitution"); assign it to a variable first: v=${written}; then use "$v"`
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
    return first === null ? [] : [{
      index: first.index,
      message: `the command does not parse as a shell command (an unbalanced quote, backtick, "$(" or ")"), so placeholder ${first[0]} cannot be quoted safely; fix the quoting`
    }]
  }
  const issues: Array<ShellIssue> = []
  checkSites(lexed.sites, issues, (index) => index)
  return issues
}
