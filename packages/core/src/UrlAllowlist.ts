/**
 * The `allowedHttpHookUrls` allowlist: which URLs `http` hooks may call.
 *
 * A URL is read the way `fetch` reads it (the WHATWG URL parser) and matched on its parts after
 * normalisation: the scheme, the host (lowercased, IDN as punycode, IPv4 and IPv6 in canonical
 * form, a trailing dot ignored), the port (the scheme's default when none is written), and the
 * path with its query (`.`, `..` and `%2e%2e` segments resolved). Patterns are read the same way.
 *
 * A URL that could mean one thing here and another to a server or proxy is refused before any
 * pattern is tried: a backslash, whitespace or control characters, a user name or password
 * (`http://allowed.example@evil.example/`), an encoded dot, slash or backslash in the path (`%2e`,
 * `%2f`, `%5c`) or an encoded percent sign (`%25`), a scheme other than http and https, and
 * anything that does not parse.
 *
 * Pattern syntax: `scheme://host[:port][/path]`. `*` is a wildcard: in the host it matches letters,
 * digits, dots and hyphens only (never `/`, `:` or `@`), so `https://*.corp.example/*` admits
 * `https://hooks.corp.example/v1` and not `https://evil.test/x.corp.example/y`; in the path it
 * matches anything; `:*` admits any port. Without a path a pattern admits only `/`.
 *
 * @since 0.2.0
 */
import * as internal from "./internal/urlAllowlist.ts"

/**
 * The verdict on one URL: allowed (with the normalised URL to request, and the pattern that
 * admitted it), or refused with a message for the hook's stderr.
 *
 * @since 0.2.0
 * @category models
 */
export type Verdict =
  | { readonly _tag: "Allowed"; readonly url: string; readonly pattern: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/**
 * A compiled allowlist. `errors` lists the patterns that are not valid (by index in the list,
 * for a located settings error); they admit nothing.
 *
 * @since 0.2.0
 * @category models
 */
export interface Allowlist {
  readonly patterns: ReadonlyArray<string>
  readonly errors: ReadonlyArray<{ readonly index: number; readonly message: string }>
  readonly check: (url: string) => Verdict
}

/**
 * Compiles an `allowedHttpHookUrls` list.
 *
 * @since 0.2.0
 * @category constructors
 */
export const compile: (patterns: ReadonlyArray<string>) => Allowlist = internal.compile

/**
 * Whether one pattern of `bound` admits every URL that `pattern` admits (same scheme and port, host
 * and path within the bound's wildcards). This is how a project or local file's `allowedHttpHookUrls`
 * is checked against the user's or the managed list: an entry that is not covered would widen the
 * allowlist and is dropped. An invalid pattern is never covered.
 *
 * @since 0.2.0
 * @category checks
 */
export const covers: (bound: ReadonlyArray<string>, pattern: string) => boolean = internal.covers
