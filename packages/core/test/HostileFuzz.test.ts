/**
 * Hostile-input suite, fuzzing: the lexer, placeholders, `if` rules, matchers, the URL allowlist,
 * log paths and trust never crash on any input, and every refusal is located (names what it
 * refuses and where). 10 000 cases per property on the Node lane, 1 000 on Bun and Deno.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Matcher, Trust } from "@agent-hooks/core"
import * as LogPath from "@agent-hooks/core/LogPath"
import * as PermissionRule from "@agent-hooks/core/PermissionRule"
import * as Placeholder from "@agent-hooks/core/Placeholder"
import * as ShellLexer from "@agent-hooks/core/ShellLexer"
import * as UrlAllowlist from "@agent-hooks/core/UrlAllowlist"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"

/** 10 000 on the Node lane, 1 000 on Bun and Deno. */
const RUNS = PropertyRuns.forLane(10_000)
const TIMEOUT = 300_000

/** Shell-flavoured text: the constructs the lexer must get right, glued at random, plus noise. */
const shellText = fc
  .array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          "'",
          '"',
          "\\",
          "`",
          "$",
          "$(",
          "$((",
          ")",
          "))",
          "(",
          "${",
          "}",
          "{",
          ";",
          ";;",
          ";&",
          "&&",
          "||",
          "|",
          "&",
          "\n",
          "#",
          " ",
          "\t",
          "<<",
          "<<-",
          "<<<",
          "EOF",
          "'EOF'",
          "case",
          "esac",
          "in",
          "then",
          "do",
          "if",
          "fi",
          "$'",
          "\\'",
          "${tool_input.v}",
          "${session_id}",
          "${CLAUDE_PROJECT_DIR}",
          "$${tool_input.v}",
          "${X:-",
          "<(",
          ">(",
          "2>&1",
          "=",
          "x",
          "echo",
          "\0",
          "é",
          "🙂"
        )
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }
    ),
    { maxLength: 40 }
  )
  .map((parts) => parts.join(""))

describe("fuzz: no crash, every refusal located", () => {
  it(
    `ShellLexer.lex and split: ${RUNS} commands`,
    () => {
      fc.assert(
        fc.property(shellText, fc.constantFrom<ShellLexer.Shell>("sh", "bash"), (text, shell) => {
          const lexed = ShellLexer.lex(text, "posix", shell)
          if (lexed !== undefined) {
            for (const site of lexed.sites) {
              expect(site.start).toBeGreaterThanOrEqual(0)
              expect(site.end).toBeLessThanOrEqual(text.length)
              if (site._tag === "Placeholder" && site.context !== "sq" && site.context !== "ansi") {
                expect(text.slice(site.start, site.end)).toBe(`\${${site.name}}`)
              }
            }
          }
          ShellLexer.split(text, "powershell")
        }),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )

  it(
    `Placeholder.expandShell and checkShell: ${RUNS} templates`,
    () => {
      fc.assert(
        fc.property(shellText, fc.string({ maxLength: 20 }), (template, value) => {
          const values = { env: { CLAUDE_PROJECT_DIR: value }, input: { session_id: value, tool_input: { v: value } } }
          const expanded = Placeholder.expandShell(template, values)
          expect(typeof expanded).toBe("string")
          if (!template.includes("${")) expect(expanded).toBe(template)
          const big = Placeholder.expandShellCommand(template, values)
          expect(big.files).toEqual([])
          for (const issue of Placeholder.checkShell(template)) {
            // located: an offset inside the template, where a placeholder or a backtick starts
            expect(issue.index).toBeGreaterThanOrEqual(0)
            expect(issue.index).toBeLessThan(template.length)
            expect(issue.message).toMatch(/placeholder \$\{[^}]*\}/)
          }
        }),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )

  it(
    `PermissionRule.parse and matches: ${RUNS} rules against hostile tool calls`,
    () => {
      const rule = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc
          .tuple(
            fc.constantFrom(
              "Bash",
              "PowerShell",
              "Edit",
              "Read",
              "Write",
              "WebFetch",
              "Agent",
              "Skill",
              "WebSearch",
              "mcp__s__t",
              "Glob",
              "bash"
            ),
            shellText
          )
          .map(([tool, spec]) => `${tool}(${spec})`)
      )
      const input = fc.oneof(
        fc.record({ command: shellText }),
        fc.record({ file_path: fc.string({ maxLength: 30 }) }),
        fc.record({ url: fc.string({ maxLength: 30 }) }),
        fc.anything({ maxDepth: 2 })
      )
      fc.assert(
        fc.property(
          rule,
          fc.constantFrom("Bash", "PowerShell", "Edit", "Write", "Read", "WebFetch", "Agent", "Task", "mcp__s__t"),
          input,
          (source, tool, toolInput) => {
            const parsed = PermissionRule.parse(source)
            if (parsed._tag === "Failure") {
              expect(parsed.message).toMatch(/^(empty permission rule|permission rule|tool names are case-sensitive)/)
              return
            }
            const result = PermissionRule.matches(parsed.rule, tool, toolInput, { cwd: "/p/sub", projectDir: "/p", home: "/h" })
            expect(typeof result).toBe("boolean")
          }
        ),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )

  it(
    `Matcher.compile: ${RUNS} patterns from trusted and untrusted files`,
    () => {
      const pattern = fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^[a-z(?!=<\\1)|*+.^$[\]{}]{0,12}$/))
      fc.assert(
        fc.property(
          pattern,
          fc.constantFrom<Matcher.Origin>("trusted", "untrusted"),
          fc.string({ maxLength: 20 }),
          (source, origin, value) => {
            const { matcher, warning, error } = Matcher.compile(source, "PreToolUse", origin)
            if (matcher.kind === "invalid") expect(`${warning ?? ""}${error ?? ""}`).toContain(JSON.stringify(source))
            expect(typeof matcher.test(value)).toBe("boolean")
          }
        ),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )

  it(
    `UrlAllowlist: ${RUNS} patterns and URLs`,
    () => {
      const urlish = fc.oneof(
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc.tuple(fc.constantFrom("http://", "https://", "HTTP://", "ftp://", "", "//"), fc.string({ maxLength: 30 })).map(([a, b]) => a + b)
      )
      fc.assert(
        fc.property(fc.array(urlish, { maxLength: 3 }), urlish, (patterns, url) => {
          const list = UrlAllowlist.compile(patterns)
          for (const error of list.errors) expect(error.message).toContain(JSON.stringify(patterns[error.index]))
          const verdict = list.check(url)
          if (verdict._tag === "Refused") expect(verdict.reason).toContain(`URL ${url} `)
          else expect(patterns).toContain(verdict.pattern)
        }),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )

  it(
    `LogPath.check: ${RUNS} paths from every scope`,
    () => {
      const path = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.array(fc.constantFrom("/", "p", ".agent-hooks", "logs", "..", ".", "x", "\0"), { maxLength: 10 }).map((parts) => parts.join("/"))
      )
      fc.assert(
        fc.property(path, fc.constantFrom("user", "managed", "explicit", "options", "project", "local", "plugin"), (p, scope) => {
          const verdict = LogPath.check(p, { scope, file: "/p/.agent-hooks/settings.json", key: "executionLog", projectDir: "/p" })
          if (verdict._tag === "Refused") expect(verdict.message.startsWith("/p/.agent-hooks/settings.json at executionLog: ")).toBe(true)
          else if (scope !== "user" && scope !== "managed" && scope !== "explicit" && scope !== "options") {
            expect(verdict.path.startsWith("/p/.agent-hooks/logs/")).toBe(true)
          }
        }),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )

  it(
    `Trust: ${RUNS} environment values and settings documents`,
    () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 4 }), shellText, (value, document, command) => {
          const env = Trust.requireTrustFromEnv(value)
          if (env._tag === "Failure") expect(env.message).toContain(JSON.stringify(value))
          for (const doc of [document, { hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } }]) {
            for (const file of Trust.namedFiles(doc, "/p/.claude/settings.json", "/p")) expect(file.startsWith("/p/")).toBe(true)
          }
        }),
        { numRuns: RUNS }
      )
    },
    TIMEOUT
  )
})
