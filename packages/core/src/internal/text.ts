/** A JSON path inside a settings document: `["hooks", "PreToolUse", 0]`. @internal */
export type JsonPath = ReadonlyArray<string | number>

/** How a wrong value reads in a message: `nothing`, `null`, `an array`, `an object`, `number 5`. @internal */
export const describe = (value: unknown): string =>
  value === undefined
    ? "nothing"
    : value === null
      ? "null"
      : Array.isArray(value)
        ? "an array"
        : typeof value === "object"
          ? "an object"
          : `${typeof value} ${JSON.stringify(value)}`

/** @internal */
export const nonEmpty = (value: string | undefined): value is string => value !== undefined && value !== ""

/** Levenshtein distance between two strings (case-sensitive). @internal */
export const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * The candidate nearest to `name`: equal ignoring case, `_` and `-` first, else the one at the
 * smallest edit distance (case ignored) when that distance is at most a third of the name's length
 * (at least 1, at most 3). `undefined` when nothing is near.
 * @internal
 */
export const nearest = (name: string, candidates: Iterable<string>): string | undefined => {
  const fold = (text: string) => text.toLowerCase().replace(/[_-]/g, "")
  const folded = fold(name)
  let best: string | undefined
  let bestDistance = Math.min(3, Math.max(1, Math.floor(name.length / 3)))
  for (const candidate of candidates) {
    if (candidate === name) continue
    if (fold(candidate) === folded) return candidate
    const distance = editDistance(folded, fold(candidate))
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

/** `1`, `true`, `yes` or `on` (any case). @internal */
export const truthyEnv = (env: Readonly<Record<string, string | undefined>>, name: string): boolean => {
  const value = env[name]
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim())
}

/** A located warning as one line: `file at path: message` (the text every warning list shows). */
export const render = (warning: {
  readonly file: string | undefined
  readonly path: string | undefined
  readonly message: string
}): string =>
  warning.file === undefined
    ? warning.path === undefined
      ? warning.message
      : `${warning.path}: ${warning.message}`
    : `${warning.file}${warning.path === undefined ? "" : ` at ${warning.path}`}: ${warning.message}`

/**
 * Reads a warning line back into its parts, for lines that arrive as text (a preset's own
 * warnings, a log-path verdict) from a file whose path is known: `file at path: message`,
 * `file: message`, or a message that names no file.
 */
export const locate = (
  file: string,
  line: string
): { readonly file: string | undefined; readonly path: string | undefined; readonly message: string } => {
  if (line.startsWith(`${file} at `)) {
    const rest = line.slice(file.length + 4)
    const colon = rest.indexOf(": ")
    if (colon > 0) return { file, path: rest.slice(0, colon), message: rest.slice(colon + 2) }
  }
  if (line.startsWith(`${file}: `)) return { file, path: undefined, message: line.slice(file.length + 2) }
  return { file: undefined, path: undefined, message: line }
}
