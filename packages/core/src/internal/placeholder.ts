import type { Values } from "../Placeholder.ts"

const NAME = String.raw`\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\}`
const PLACEHOLDER = new RegExp(NAME, "g")
const PLACEHOLDER_AT = new RegExp(NAME, "y")

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
  text.replace(PLACEHOLDER, (match, name: string) => resolve(name, values) ?? match)

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

/** A POSIX single-quoted word: `'…'`, each `'` written `'\''`. */
const singleQuoted = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`

type Frame =
  | { readonly kind: "cmd"; readonly sub: "top" | "subst" | "bt"; parens: number; cases: number }
  | { readonly kind: "dq" }
  | { readonly kind: "sq" }
  | { readonly kind: "ansi" }
  | { readonly kind: "param"; braces: number }
  | { readonly kind: "arith"; parens: number }

interface Heredoc {
  readonly delimiter: string
  readonly stripTabs: boolean
}

const WORD_BREAK = /[\s;&|()<>`]/
const CASE = /case(?=\s)/y
const ESAC = /esac(?=[\s;&|)]|$)/y

/** @internal */
export const expandShell = (command: string, values: Values): string => {
  const s = command
  const n = s.length
  const stack: Array<Frame> = [{ kind: "cmd", sub: "top", parens: 0, cases: 0 }]
  let heredocs: Array<Heredoc> = []
  let nestedBacktick = false
  let out = ""
  let i = 0

  const copy = (count: number): void => {
    out += s.slice(i, i + count)
    i += count
  }
  const inBacktick = (): boolean => stack.some((f) => f.kind === "cmd" && f.sub === "bt")
  /** Contexts where a literal word cannot be placed: leave the placeholder as written. */
  const uncertain = (): boolean => nestedBacktick || stack.some((f) => f.kind === "param" || f.kind === "arith")
  const wordStart = (at: number): boolean => at === 0 || WORD_BREAK.test(s[at - 1]!)

  const backtick = (): void => {
    if (inBacktick()) {
      while (stack.length > 1) {
        const f = stack.pop()!
        if (f.kind === "cmd" && f.sub === "bt") break
      }
      nestedBacktick = false
    } else {
      stack.push({ kind: "cmd", sub: "bt", parens: 0, cases: 0 })
    }
    copy(1)
  }

  /** At `$`: a placeholder in the given context. Returns false when there is none here. */
  const placeholder = (context: "cmd" | "dq" | "sq" | "ansi"): boolean => {
    PLACEHOLDER_AT.lastIndex = i
    const m = PLACEHOLDER_AT.exec(s)
    if (m === null) return false
    const value = uncertain() ? undefined : resolve(m[1]!, values)
    if (value === undefined) {
      copy(m[0].length)
      return true
    }
    const word = singleQuoted(withoutNul(value))
    let text: string
    switch (context) {
      case "cmd":
        // after a bare `$`, `'…'` would read as `$'…'` (ANSI-C quoting): separate them
        text = out.endsWith("$") ? `""${word}` : word
        break
      case "dq":
        text = `"${word}"`
        break
      case "sq":
        text = `'${word}'`
        break
      case "ansi":
        text = `'${word}$'`
        break
    }
    if (inBacktick()) text = text.replace(/[\\`$]/g, "\\$&")
    out += text
    i += m[0].length
    return true
  }

  /** At `$`: opens `$((`, `$(` or `${`. Returns false for anything else. */
  const dollarOpen = (): boolean => {
    if (s.startsWith("$((", i)) {
      stack.push({ kind: "arith", parens: 0 })
      copy(3)
    } else if (s.startsWith("$(", i)) {
      stack.push({ kind: "cmd", sub: "subst", parens: 0, cases: 0 })
      copy(2)
    } else if (s.startsWith("${", i)) {
      stack.push({ kind: "param", braces: 0 })
      copy(2)
    } else {
      return false
    }
    return true
  }

  /** At `<<` (not `<<<`): copies the operator and delimiter word, and remembers the here-document. */
  const heredoc = (): void => {
    let j = i + 2
    const stripTabs = s[j] === "-"
    if (stripTabs) j++
    while (s[j] === " " || s[j] === "\t") j++
    let delimiter = ""
    while (j < n && !/[\s;&|()<>]/.test(s[j]!)) {
      const c = s[j]!
      if (c === "'" || c === '"') {
        const end = s.indexOf(c, j + 1)
        if (end < 0) break
        delimiter += s.slice(j + 1, end)
        j = end + 1
      } else if (c === "\\") {
        delimiter += s[j + 1] ?? ""
        j += 2
      } else {
        delimiter += c
        j++
      }
    }
    if (delimiter !== "") heredocs.push({ delimiter, stripTabs })
    copy(Math.min(j, n) - i)
  }

  /** After a newline: copies pending here-document bodies verbatim. */
  const heredocBodies = (): void => {
    const pending = heredocs
    heredocs = []
    for (const doc of pending) {
      while (i < n) {
        const newline = s.indexOf("\n", i)
        const end = newline < 0 ? n : newline
        const line = s.slice(i, end)
        copy(end - i + (newline < 0 ? 0 : 1))
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break
      }
    }
  }

  while (i < n) {
    const f = stack[stack.length - 1]!
    const c = s[i]!
    const next = s[i + 1]

    // Inside backticks a backslash before \ ` $ belongs to the backtick pass, in every quoting context.
    if (c === "\\" && inBacktick() && (next === "\\" || next === "`" || next === "$")) {
      if (next === "`") nestedBacktick = !nestedBacktick
      copy(2)
      continue
    }

    switch (f.kind) {
      case "sq": {
        if (c === "'") {
          stack.pop()
          copy(1)
        } else if (c === "`" && inBacktick()) {
          backtick()
        } else if (!(c === "$" && placeholder("sq"))) {
          copy(1)
        }
        continue
      }
      case "ansi": {
        if (c === "\\") {
          copy(2)
        } else if (c === "'") {
          stack.pop()
          copy(1)
        } else if (c === "`" && inBacktick()) {
          backtick()
        } else if (!(c === "$" && placeholder("ansi"))) {
          copy(1)
        }
        continue
      }
      case "dq": {
        if (c === "\\") {
          copy(2)
        } else if (c === '"') {
          stack.pop()
          copy(1)
        } else if (c === "`") {
          backtick()
        } else if (!(c === "$" && (placeholder("dq") || dollarOpen()))) {
          copy(1)
        }
        continue
      }
      case "param":
      case "arith": {
        if (c === "\\") {
          copy(2)
        } else if (c === "'") {
          stack.push({ kind: "sq" })
          copy(1)
        } else if (c === '"') {
          stack.push({ kind: "dq" })
          copy(1)
        } else if (c === "`") {
          backtick()
        } else if (c === "$" && (placeholder("cmd") || dollarOpen())) {
          // handled
        } else if (f.kind === "param") {
          if (c === "{") f.braces++
          if (c === "}" && f.braces-- === 0) stack.pop()
          copy(1)
        } else {
          if (c === "(") f.parens++
          if (c === ")") {
            if (f.parens > 0) {
              f.parens--
            } else {
              stack.pop()
              copy(next === ")" ? 2 : 1)
              continue
            }
          }
          copy(1)
        }
        continue
      }
      case "cmd": {
        if (c === "\\") {
          copy(2)
        } else if (c === "'") {
          stack.push({ kind: "sq" })
          copy(1)
        } else if (c === '"') {
          stack.push({ kind: "dq" })
          copy(1)
        } else if (c === "`") {
          backtick()
        } else if (c === "$") {
          if (next === "'") {
            stack.push({ kind: "ansi" })
            copy(2)
          } else if (!(placeholder("cmd") || dollarOpen())) {
            copy(1)
          }
        } else if (c === "#" && wordStart(i)) {
          // a comment: copied verbatim up to the newline (or the end of the backtick text)
          let j = i
          while (j < n && s[j] !== "\n" && !(s[j] === "`" && inBacktick())) j++
          copy(j - i)
        } else if (c === "\n") {
          copy(1)
          if (heredocs.length > 0) heredocBodies()
        } else if (c === "<" && next === "<" && s[i + 2] !== "<") {
          heredoc()
        } else if (c === "(") {
          f.parens++
          copy(1)
        } else if (c === ")") {
          if (f.parens > 0) f.parens--
          else if (f.sub === "subst" && f.cases === 0) stack.pop()
          copy(1)
        } else if (wordStart(i) && (CASE.lastIndex = i, CASE.test(s))) {
          f.cases++
          copy(4)
        } else if (wordStart(i) && (ESAC.lastIndex = i, ESAC.test(s))) {
          if (f.cases > 0) f.cases--
          copy(4)
        } else {
          copy(1)
        }
        continue
      }
    }
  }
  return out
}
