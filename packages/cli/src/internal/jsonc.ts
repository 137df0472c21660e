/**
 * JSON with comments, read with the offsets of every value, so that a file can be edited in place:
 * the text around an edit (comments, whitespace, key order, other entries) stays byte for byte.
 * Agents' settings files may hold `//` and `/* *\/` comments (Gemini CLI and Qwen Code read them)
 * and a trailing comma; a rewrite through `JSON.stringify` would drop them.
 *
 * Kept, not `jsonc-parser`: it takes a key given twice without a word (an edit could change the one
 * the agent ignores) and recovers from errors where a config must be refused, naming line and column.
 */

/** A value of the document and where it is: `[start, end)` in the text. */
export type Node =
  | { readonly kind: "object"; readonly start: number; readonly end: number; readonly members: ReadonlyArray<Member> }
  | { readonly kind: "array"; readonly start: number; readonly end: number; readonly elements: ReadonlyArray<Node> }
  | { readonly kind: "scalar"; readonly start: number; readonly end: number; readonly value: unknown }

/** One `"key": value` of an object; `keyStart` is the offset of its opening quote. */
export interface Member {
  readonly key: string
  readonly keyStart: number
  readonly value: Node
}

/** A text that is not JSON (with comments): where and why. */
export class JsoncError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
    readonly line: number,
    readonly column: number
  ) {
    super(`line ${line} column ${column}: ${reason}`)
  }
}

const position = (text: string, offset: number): { line: number; column: number } => {
  const before = text.slice(0, offset).split("\n")
  return { line: before.length, column: before[before.length - 1]!.length + 1 }
}

/**
 * Reads `text` as one JSON value with comments and trailing commas allowed. Throws `JsoncError` with
 * the line and column of the first problem. A key given twice in one object is an error: readers
 * disagree on which one wins (JSON.parse takes the last), so an edit could change the wrong one.
 */
export const parse = (text: string): Node => {
  let i = 0
  const fail = (reason: string, at: number = i): never => {
    const { column, line } = position(text, at)
    throw new JsoncError(at, reason, line, column)
  }
  const skip = (): void => {
    for (;;) {
      const c = text[i]
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\uFEFF") i++
      else if (c === "/" && text[i + 1] === "/") {
        while (i < text.length && text[i] !== "\n") i++
      } else if (c === "/" && text[i + 1] === "*") {
        const close = text.indexOf("*/", i + 2)
        if (close === -1) fail("a /* comment is not closed")
        i = close + 2
      } else return
    }
  }
  const string = (): string => {
    const start = i
    i++
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++
      else if (text[i] === "\n") fail("a string runs past the end of its line")
      i++
    }
    if (i >= text.length) fail("a string is not closed", start)
    i++
    try {
      return JSON.parse(text.slice(start, i)) as string
    } catch {
      return fail("a string holds an escape JSON does not allow", start)
    }
  }
  const value = (): Node => {
    skip()
    const start = i
    const c = text[i]
    if (c === "{") {
      i++
      const members: Array<Member> = []
      const seen = new Set<string>()
      for (;;) {
        skip()
        if (text[i] === "}") break
        if (text[i] !== '"') fail(members.length === 0 ? "expected a key or }" : "expected a key (after a comma) or }")
        const keyStart = i
        const key = string()
        if (seen.has(key)) fail(`the key "${key}" is given twice in one object`, keyStart)
        seen.add(key)
        skip()
        if (text[i] !== ":") fail(`expected : after the key "${key}"`)
        i++
        members.push({ key, keyStart, value: value() })
        skip()
        if (text[i] === ",") {
          i++
          continue
        }
        if (text[i] !== "}") fail("expected , or } after a value")
        break
      }
      i++
      return { kind: "object", start, end: i, members }
    }
    if (c === "[") {
      i++
      const elements: Array<Node> = []
      for (;;) {
        skip()
        if (text[i] === "]") break
        elements.push(value())
        skip()
        if (text[i] === ",") {
          i++
          continue
        }
        if (text[i] !== "]") fail("expected , or ] after a value")
        break
      }
      i++
      return { kind: "array", start, end: i, elements }
    }
    if (c === '"') return { kind: "scalar", start, end: (string(), i), value: JSON.parse(text.slice(start, i)) }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400))
    if (literal === null)
      return fail(i >= text.length ? "the text ends where a value was expected" : `unexpected ${JSON.stringify(text[i])}`)
    i += literal[0].length
    return { kind: "scalar", start, end: i, value: JSON.parse(literal[0]) }
  }
  const root = value()
  skip()
  if (i < text.length) fail("unexpected text after the value")
  return root
}

/** The plain value of a node. */
export const toValue = (node: Node): unknown => {
  if (node.kind === "scalar") return node.value
  if (node.kind === "array") return node.elements.map(toValue)
  const out: Record<string, unknown> = {}
  for (const member of node.members)
    Object.defineProperty(out, member.key, { value: toValue(member.value), enumerable: true, writable: true, configurable: true })
  return out
}

/** One replacement of `[start, end)` by `text`. */
export interface Edit {
  readonly start: number
  readonly end: number
  readonly text: string
}

/** Applies edits that do not overlap. */
export const apply = (text: string, edits: ReadonlyArray<Edit>): string => {
  let out = text
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  return out
}

/** The whitespace that starts the line holding `offset`. */
export const lineIndent = (text: string, offset: number): string => {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1
  return /^[ \t]*/.exec(text.slice(lineStart))![0]
}

/** The file's indent unit: that of its first indented line, else two spaces. */
export const indentUnit = (text: string): string => {
  const match = /\n([ \t]+)\S/.exec(text)
  return match === null ? "  " : match[1]!.startsWith("\t") ? "\t" : match[1]!
}
