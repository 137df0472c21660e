/** The `allowedHttpHookUrls` policy: which URLs `http` hooks may POST to. */

/** `scheme://host[:port]` and the rest (path, query). */
const splitUrl = (url: string): readonly [string, string] => {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url)
  return match === null ? [url, ""] : [match[1]!.replace(/\.(?=:\d+$|$)/, ""), match[2]!]
}

const escapeRegex = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&")

/**
 * An `allowedHttpHookUrls` pattern: `*` is a wildcard that never crosses into another part of the
 * URL (in the scheme and host it stays within the host; in the path it matches anything). Scheme
 * and host compare case-insensitively, a trailing dot on the host is ignored, the path is exact.
 */
export const urlAllowed = (url: string, patterns: ReadonlyArray<string> | undefined): boolean => {
  if (patterns === undefined) return true
  const [origin, rest] = splitUrl(url)
  return patterns.some((pattern) => {
    const [patternOrigin, patternRest] = splitUrl(pattern)
    const originRe = new RegExp(`^${patternOrigin.split("*").map(escapeRegex).join("[^/?#]*")}$`, "i")
    const restRe = new RegExp(`^${patternRest.split("*").map(escapeRegex).join(".*")}$`)
    return originRe.test(origin) && restRe.test(rest)
  })
}
