import { describe, expect, it } from "vitest"
import * as UrlAllowlist from "@agent-hooks/core/UrlAllowlist"

const allowlist = UrlAllowlist.compile([
  "https://hooks.corp.example/*",
  "http://127.0.0.1:8788/*",
  "https://*.corp.example/api/*",
  "http://[::1]:9000/hook",
  "https://bücher.example/*",
  "http://localhost:*/ok/*"
])

describe("UrlAllowlist: tricky URLs", () => {
  it.each<[url: string, verdict: "allowed" | "not allowed" | RegExp]>([
    ["https://hooks.corp.example/v1", "allowed"],
    ["HTTPS://HOOKS.CORP.EXAMPLE/v1", "allowed"],
    ["https://hooks.corp.example./v1", "allowed"], // trailing dot on the host
    ["https://hooks.corp.example:443/v1", "allowed"], // the default port written out
    ["https://hooks.corp.example", "allowed"], // path "/"
    ["https://hooks.corp.example/v1#fragment", "allowed"], // the fragment is never sent
    ["https://hooks.corp.example/v1?next=../../admin", "allowed"], // a query is not a path
    ["https://hooks.corp.example:8443/v1", "not allowed"],
    ["http://hooks.corp.example/v1", "not allowed"],
    ["https://evil.test/hooks.corp.example/", "not allowed"],
    ["https://hooks.corp.example.evil.test/", "not allowed"],
    // userinfo hides the real host
    ["https://hooks.corp.example@evil.test/", /user name or password/],
    ["https://evil.test@hooks.corp.example/", /user name or password/],
    ["https://:pw@hooks.corp.example/", /user name or password/],
    // the four bypasses of the old matcher
    ["http://127.0.0.1:8788\\.corp.example/x", /backslash/],
    ["http://127.0.0.1:8788\\@x.corp.example/", /backslash/],
    ["http://localhost:1234/ok/../notok", "not allowed"],
    ["http://localhost:1234/ok/%2e%2e/notok", "not allowed"],
    // more dot segments and encodings
    ["http://localhost:1234/ok/.%2e/notok", "not allowed"],
    ["http://localhost:1234/ok/%2E%2E/notok", "not allowed"],
    ["http://localhost:1234/ok/./x", "allowed"],
    ["http://localhost:1234/ok/x%2f..%2f..%2fnotok", /encoded dot, slash or backslash/],
    ["http://localhost:1234/ok/x%5c..%5cnotok", /encoded dot, slash or backslash/],
    ["http://localhost:1234/ok/%2ehidden", /encoded dot/],
    ["http://localhost:1234/ok/%252e%252e/x", /encoded percent/],
    ["http://localhost:1234/ok/x", "allowed"],
    ["http://localhost/ok/x", "allowed"], // ":*" admits the default port too
    ["http://localhost:1234/okx", "not allowed"],
    // IPv4 spellings are normalised the way fetch connects
    ["http://127.0.0.1:8788/x", "allowed"],
    ["http://127.1:8788/x", "allowed"],
    ["http://0x7f.0.0.1:8788/x", "allowed"],
    ["http://2130706433:8788/x", "allowed"],
    ["http://127.0.0.1:8789/x", "not allowed"],
    ["http://127.0.0.2:8788/x", "not allowed"],
    ["http://127.0.0.1.:8788/x", "allowed"],
    // IPv6
    ["http://[::1]:9000/hook", "allowed"],
    ["http://[0:0:0:0:0:0:0:1]:9000/hook", "allowed"],
    ["http://[::1]:9000/hook/x", "not allowed"],
    ["http://[::ffff:127.0.0.1]:8788/x", "not allowed"],
    ["http://[::1]:9001/hook", "not allowed"],
    // IDN
    ["https://bücher.example/x", "allowed"],
    ["https://xn--bcher-kva.example/x", "allowed"],
    ["https://BÜCHER.example/x", "allowed"],
    ["https://bucher.example/x", "not allowed"],
    // host wildcards stay inside the host
    ["https://a.corp.example/api/v1", "allowed"],
    ["https://a.b.corp.example/api/v1", "allowed"],
    ["https://corp.example/api/v1", "not allowed"],
    ["https://a.corp.example/apix", "not allowed"],
    ["https://a.corp.example/API/v1", "not allowed"], // paths compare exactly
    ["https://evil.test#.corp.example/api/x", "not allowed"],
    ["https://evil.test?.corp.example/api/x", "not allowed"],
    // what cannot be parsed unambiguously
    ["ftp://hooks.corp.example/x", /only http and https/],
    ["javascript:alert(1)", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
    ["not a url", /not a valid URL/],
    ["https://hooks.corp.exa\tmple/v1", /whitespace or control/],
    ["https://hooks.corp.example/v1\n", /whitespace or control/],
    [" https://hooks.corp.example/v1", /whitespace or control/],
    ["https://hooks.corp.example/v 1", /whitespace or control/]
  ])("%j → %s", (url, verdict) => {
    const result = allowlist.check(url)
    if (verdict === "allowed") expect(result._tag).toBe("Allowed")
    else if (verdict === "not allowed")
      expect(result).toEqual({ _tag: "Refused", reason: `URL ${url} is not allowed by allowedHttpHookUrls` })
    else expect(result._tag === "Refused" ? result.reason : "allowed").toMatch(verdict)
  })

  it("requests the normalised URL", () => {
    expect(allowlist.check("HTTP://127.1:8788/a/./b")).toEqual({
      _tag: "Allowed",
      url: "http://127.0.0.1:8788/a/b",
      pattern: "http://127.0.0.1:8788/*"
    })
  })

  it("names the patterns that are not valid", () => {
    const list = UrlAllowlist.compile(["https://ok.example/*", "hooks.example.com", "https://u@x.example/*", "ftp://x/*", "https://a b/"])
    expect(list.errors.map((e) => e.index)).toEqual([1, 2, 3, 4])
    expect(list.errors[0]!.message).toMatch(/write it like "https:\/\/hooks.example.com\/\*"/)
    expect(list.check("https://ok.example/x")._tag).toBe("Allowed")
  })

  it("an empty list refuses every URL", () => {
    expect(UrlAllowlist.compile([]).check("https://hooks.corp.example/")._tag).toBe("Refused")
  })
})

describe("UrlAllowlist.covers: may a project entry stand inside the user's list?", () => {
  const bound = ["https://hooks.corp.example/*", "https://*.corp.example/api/*", "http://localhost:*/ok/*", "http://127.0.0.1:8788/hook"]
  it.each<[pattern: string, covered: boolean]>([
    ["https://hooks.corp.example/*", true],
    ["https://hooks.corp.example/v1/*", true],
    ["https://HOOKS.corp.example./v1", true], // normalised like a URL
    ["https://hooks.corp.example:443/x", true], // the default port written out
    ["https://a.corp.example/api/*", true],
    ["https://*.b.corp.example/api/x/*", true],
    ["http://localhost:9000/ok/x", true],
    ["http://localhost:*/ok/*", true],
    ["http://127.0.0.1:8788/hook", true],
    ["https://*/*", false], // the widening a cloned repository would try
    ["http://*:*/*", false],
    ["https://*.corp.example/*", false], // wider host and path than any bound entry
    ["https://a.corp.example/*", false],
    ["https://hooks.corp.example:8443/*", false],
    ["https://hooks.corp.example:*/*", false],
    ["http://hooks.corp.example/*", false], // another scheme
    ["http://localhost/ok/*", true], // port 80 is one of localhost:*
    ["http://localhost:9000/*", false],
    ["http://127.0.0.1:8788/hook/*", false],
    ["http://127.0.0.1:8788/*", false],
    ["https://evil.test/hooks.corp.example/*", false],
    ["https://hooks.corp.example.evil.test/*", false],
    ["https://hooks.corp.example@evil.test/*", false], // not a valid pattern: covered by nothing
    ["not a pattern", false]
  ])("%s → %s", (pattern, covered) => {
    expect(UrlAllowlist.covers(bound, pattern)).toBe(covered)
  })

  // Whatever the verdict of covers, a covered pattern never admits a URL the bound refuses.
  it("a covered pattern admits no URL that the bound refuses", () => {
    const patterns = [
      "https://hooks.corp.example/v1/*",
      "https://*.b.corp.example/api/x/*",
      "http://localhost:*/ok/*",
      "http://localhost/ok/*"
    ]
    const urls = [
      "https://hooks.corp.example/v1/a",
      "https://x.b.corp.example/api/x/1",
      "http://localhost:1/ok/a",
      "http://localhost/ok/a",
      "http://localhost/notok",
      "https://b.corp.example/api/x/"
    ]
    const outer = UrlAllowlist.compile(bound)
    for (const pattern of patterns) {
      expect(UrlAllowlist.covers(bound, pattern)).toBe(true)
      const inner = UrlAllowlist.compile([pattern])
      for (const url of urls) if (inner.check(url)._tag === "Allowed") expect(outer.check(url)._tag).toBe("Allowed")
    }
  })
})
