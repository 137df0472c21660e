import type { Allowlist, Verdict } from "../UrlAllowlist.ts"

interface WhatwgUrl {
  readonly protocol: string
  readonly username: string
  readonly password: string
  readonly hostname: string
  readonly port: string
  readonly pathname: string
  readonly search: string
  readonly href: string
}
const URL_ = (globalThis as unknown as { readonly URL: new (url: string) => WhatwgUrl }).URL

const parse = (text: string): WhatwgUrl | undefined => {
  try {
    return new URL_(text)
  } catch {
    return undefined
  }
}

const SCHEMES = new Set(["http:", "https:"])
const DEFAULT_PORT: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" }

/** The reasons a URL is refused before any pattern is tried: each is a way to make one URL mean two things. */
const ambiguity = (text: string, url: WhatwgUrl | undefined): string | undefined => {
  if (url === undefined) return "it is not a valid URL"
  if (!SCHEMES.has(url.protocol)) return `only http and https URLs are allowed, got ${url.protocol.slice(0, -1)}`
  // WHATWG reads "\" as "/" in http URLs; other parsers do not
  if (text.includes("\\")) return `it holds a backslash, which parsers read differently`
  if (/[\u0000-\u0020\u007f]/.test(text)) return "it holds whitespace or control characters"
  if (url.username !== "" || url.password !== "") return "it holds a user name or password (user@host), which hides the real host"
  // an encoded dot, slash or backslash can become a path separator or a ".." after the check
  if (/%(?:2e|2f|5c)/i.test(url.pathname)) return "its path holds an encoded dot, slash or backslash (%2e, %2f, %5c)"
  if (/%(?:25)/i.test(url.pathname)) return "its path holds an encoded percent sign (%25), which can decode twice"
  return undefined
}

/** What `*` matches in a host: letters, digits, dots and hyphens (a host after normalisation). */
const HOST_STAR = "[a-z0-9.-]*"
const HOST_CHAR = /^[a-z0-9.-]$/

const escapeRegex = (text: string): string => text.replace(/[.+?^${}()|[\]\\/-]/g, "\\$&")
const wildcard = (pattern: string, star: string): RegExp => new RegExp(`^${pattern.split("*").map(escapeRegex).join(star)}$`)

interface CompiledPattern {
  readonly source: string
  readonly scheme: string
  readonly host: RegExp
  readonly port: string | "*"
  readonly path: RegExp
  /** The host and path as written after normalisation, `*` the wildcard: what {@link covers} compares. */
  readonly hostGlob: string
  readonly pathGlob: string
}

const PATTERN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^#]*)$/

/** A pattern: `scheme://host[:port][/path]`, `*` a wildcard within the host (never across `/` or `:`) or the path. */
const compilePattern = (pattern: string): CompiledPattern | string => {
  const m = PATTERN.exec(pattern.trim())
  if (m === null) return `${JSON.stringify(pattern)} is not a URL pattern; write it like "https://hooks.example.com/*"`
  const scheme = `${m[1]!.toLowerCase()}:`
  if (!SCHEMES.has(scheme)) return `${JSON.stringify(pattern)}: only http and https URLs can be allowed`
  const authority = m[2]!
  if (authority.includes("@") || authority.includes("\\")) return `${JSON.stringify(pattern)}: a pattern's host cannot hold "@" or "\\"`
  const portMatch = /^(.*?)(?::(\d+|\*))?$/.exec(authority)!
  let host = portMatch[1]!.toLowerCase().replace(/\.$/, "")
  const port = portMatch[2] ?? ""
  if (host === "") return `${JSON.stringify(pattern)} has no host`
  if (!host.includes("*")) {
    // the same normalisation as the URL side: IDN to punycode, IPv6 compression, 127.1 to 127.0.0.1
    const normal = parse(`${scheme}//${host}/`)
    if (normal === undefined) return `${JSON.stringify(pattern)}: ${JSON.stringify(host)} is not a valid host`
    host = normal.hostname.replace(/\.$/, "")
  }
  let path = m[3]! === "" ? "/" : m[3]!
  if (!path.includes("*")) {
    const normal = parse(`${scheme}//x${path}`)
    if (normal !== undefined) path = normal.pathname + normal.search
  }
  return {
    source: pattern,
    scheme,
    // a host after normalisation is letters, digits, dots and hyphens (IPv6 hosts match literally)
    host: wildcard(host, HOST_STAR),
    port: port === "" ? "" : port,
    path: wildcard(path, "[\\s\\S]*"),
    hostGlob: host,
    pathGlob: path
  }
}

const portOf = (url: WhatwgUrl): string => (url.port === "" ? DEFAULT_PORT[url.protocol]! : url.port)

/**
 * Whether every string the glob `inner` matches is matched by the glob `outer` (`*` the wildcard in
 * both; `starTakes` the characters a star may stand for). An outer star may absorb inner literals it
 * could match and inner stars; a literal only matches the same literal. This can answer "no" for an
 * inclusion that holds in some odd cases, never "yes" for one that does not: an unproven entry is dropped.
 */
const globCovers = (outer: string, inner: string, starTakes: (char: string) => boolean): boolean => {
  const memo = new Map<number, boolean>()
  const go = (a: number, b: number): boolean => {
    const key = a * (inner.length + 1) + b
    const known = memo.get(key)
    if (known !== undefined) return known
    let result: boolean
    if (a === outer.length) result = b === inner.length
    else if (outer[a] === "*") result = go(a + 1, b) || (b < inner.length && (inner[b] === "*" || starTakes(inner[b]!)) && go(a, b + 1))
    else result = b < inner.length && inner[b] !== "*" && inner[b] === outer[a] && go(a + 1, b + 1)
    memo.set(key, result)
    return result
  }
  return go(0, 0)
}

const patternCovers = (outer: CompiledPattern, inner: CompiledPattern): boolean => {
  if (outer.scheme !== inner.scheme) return false
  if (outer.port !== "*") {
    if (inner.port === "*") return false
    const port = (p: CompiledPattern) => (p.port === "" ? DEFAULT_PORT[p.scheme]! : p.port)
    if (port(outer) !== port(inner)) return false
  }
  return (
    globCovers(outer.hostGlob, inner.hostGlob, (char) => HOST_CHAR.test(char)) && globCovers(outer.pathGlob, inner.pathGlob, () => true)
  )
}

/** @internal */
export const covers = (bound: ReadonlyArray<string>, pattern: string): boolean => {
  const inner = compilePattern(pattern)
  if (typeof inner === "string") return false
  return bound.some((source) => {
    const outer = compilePattern(source)
    return typeof outer !== "string" && patternCovers(outer, inner)
  })
}

/** @internal */
export const compile = (patterns: ReadonlyArray<string>): Allowlist => {
  const compiled: Array<CompiledPattern> = []
  const errors: Array<{ readonly index: number; readonly message: string }> = []
  patterns.forEach((pattern, index) => {
    const result = compilePattern(pattern)
    if (typeof result === "string") errors.push({ index, message: result })
    else compiled.push(result)
  })
  const check = (text: string): Verdict => {
    const url = parse(text)
    const why = ambiguity(text, url)
    if (why !== undefined) return { _tag: "Refused", reason: `URL ${text} is refused: ${why}` }
    const u = url!
    const host = u.hostname.replace(/\.$/, "")
    const rest = u.pathname + u.search
    for (const p of compiled) {
      if (p.scheme !== u.protocol) continue
      if (!p.host.test(host)) continue
      if (p.port !== "*" && (p.port === "" ? DEFAULT_PORT[p.scheme]! : p.port) !== portOf(u)) continue
      if (!p.path.test(rest)) continue
      return { _tag: "Allowed", url: u.href, pattern: p.source }
    }
    return { _tag: "Refused", reason: `URL ${text} is not allowed by allowedHttpHookUrls` }
  }
  return { patterns, errors, check }
}
