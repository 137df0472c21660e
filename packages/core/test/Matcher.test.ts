import { describe, expect, it } from "vitest"
import { Matcher } from "@agent-hooks/core"

const matches = (matcher: string | undefined, value: string, event = "PreToolUse") => Matcher.compile(matcher, event).matcher.test(value)

describe("Matcher", () => {
  it.each([
    // [matcher, value, expected]
    [undefined, "Bash", true],
    ["", "Bash", true],
    ["*", "mcp__memory__create", true],
    ["Bash", "Bash", true],
    ["Bash", "bash", false], // case-sensitive
    ["Bash", "BashOutput", false], // exact, not a prefix
    ["Write|Edit", "Edit", true],
    ["Write|Edit", "MultiEdit", false],
    ["Write|Edit|MultiEdit", "Write", true], // MultiEdit no longer exists: harmless
    ["Write, Edit", "Edit", true], // comma list, trimmed
    ["Write , Edit", "Write", true],
    [" Bash ", "Bash", true], // spaces trimmed
    ["code-reviewer", "code-reviewer", true], // hyphen: exact since 2.1.195
    ["code-reviewer", "senior-code-reviewer", false],
    ["mcp__memory", "mcp__memory__create_entities", false], // exact: no tool is named that
    ["mcp__memory__.*", "mcp__memory__create_entities", true], // regex
    ["Edit.*", "NotebookEdit", true], // unanchored
    ["^Edit", "NotebookEdit", false],
    ["Bash(git *)", "Bash", false], // a regex, not a permission rule: "Bash(git" never matches "Bash"
    ["^my-plugin:reviewer$", "my-plugin:reviewer", true],
    ["Task", "Agent", true], // Task was renamed Agent
    ["Agent", "Task", true],
    ["Notebook.*", "NotebookEdit", true]
  ])("matcher %j against %j is %s", (matcher, value, expected) => {
    expect(matches(matcher, value)).toBe(expected)
  })

  it("classifies matchers", () => {
    expect(Matcher.compile(undefined).matcher.kind).toBe("all")
    expect(Matcher.compile("Bash|Read").matcher.kind).toBe("exact")
    expect(Matcher.compile("mcp__.*").matcher.kind).toBe("regex")
  })

  it("an invalid regex matches nothing and warns", () => {
    const { matcher, warning } = Matcher.compile("Bash(", "PreToolUse")
    expect(matcher.kind).toBe("invalid")
    expect(matcher.test("Bash")).toBe(false)
    expect(matcher.test("Bash(")).toBe(false)
    expect(warning).toMatch(/"Bash\(" is not a valid regular expression/)
  })

  it("FileChanged and StopFailure use the narrow exact set: hyphens and commas make a regex", () => {
    // On FileChanged "a-b.json" contains '.' and '-': a regex; "package|tsconfig" is exact.
    expect(Matcher.compile("package|tsconfig", "FileChanged").matcher.kind).toBe("exact")
    expect(Matcher.compile("rate_limit, overloaded", "StopFailure").matcher.kind).toBe("regex")
    expect(Matcher.compile("rate_limit, overloaded", "PreToolUse").matcher.kind).toBe("exact")
    expect(matches("rate_limit|overloaded", "overloaded", "StopFailure")).toBe(true)
  })
})

describe("Matcher: linear-time regexes and the file's origin", () => {
  it("runs regexes on RE2", () => {
    const { matcher, error } = Matcher.compile("^mcp__(memory|github)__", "PreToolUse", "untrusted")
    expect(error).toBeUndefined()
    expect(matcher.test("mcp__github__create_issue")).toBe(true)
    expect(matcher.test("mcp__gitlab__x")).toBe(false)
  })

  it("a catastrophic pattern cannot hang a dispatch", () => {
    // (a+)+$ takes exponential time on a backtracking engine for "aaaa…b"; RE2 is linear
    const { matcher } = Matcher.compile("^(a+)+$", "PreToolUse", "untrusted")
    expect(matcher.test(`${"a".repeat(50_000)}b`)).toBe(false)
    expect(matcher.test("a".repeat(50_000))).toBe(true)
  })

  it.each(["^(?!Bash).*", "(?<=mcp__)x", "(a)\\1", "^(?=Edit)"])(
    "%j needs backtracking: an error in untrusted files, JavaScript's RegExp in trusted ones",
    (pattern) => {
      const untrusted = Matcher.compile(pattern, "PreToolUse", "untrusted")
      expect(untrusted.matcher.kind).toBe("invalid")
      expect(untrusted.error).toMatch(/needs a backtracking regular expression .* project, local or plugin file/)
      const trusted = Matcher.compile(pattern, "PreToolUse", "trusted")
      expect(trusted.error).toBeUndefined()
      expect(trusted.matcher.kind).toBe("regex")
    }
  )

  it("trusted files keep JavaScript lookahead semantics", () => {
    const { matcher } = Matcher.compile("^(?!Bash$).*", "PreToolUse", "trusted")
    expect(matcher.test("Bash")).toBe(false)
    expect(matcher.test("Edit")).toBe(true)
  })

  it.each([
    ["user", "trusted"],
    ["managed", "trusted"],
    ["explicit", "trusted"],
    ["project", "untrusted"],
    ["local", "untrusted"],
    ["plugin", "untrusted"]
  ] as const)("scope %s is %s", (scope, origin) => {
    expect(Matcher.originOf(scope)).toBe(origin)
  })
})
