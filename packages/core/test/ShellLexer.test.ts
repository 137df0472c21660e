import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as Placeholder from "@agent-hooks/core/Placeholder"
import * as ShellLexer from "@agent-hooks/core/ShellLexer"

const commandsOf = (text: string) => ShellLexer.split(text, "posix")?.map((c) => c.words.map((w) => w.text).join(" "))

describe("ShellLexer.split", () => {
  it.each<[text: string, commands: ReadonlyArray<string> | undefined]>([
    ["a; b && c | d", ["a", "b", "c", "d"]],
    ['echo "$(git push)"', ["git push", "echo $(git push)"]],
    // `case` is a keyword only in command position: an argument named case opens nothing
    ['echo "$(echo case)" x', ["echo case", "echo $(echo case) x"]],
    ["case $x in a|b) git push;; (c) rm -rf x;; esac; ls", ["git push", "rm -rf x", "ls"]],
    ["if true; then case a in a) echo in;; esac; fi", ["if true", "echo in", "fi"]],
    ["x=$(case a in a) echo ')';; esac)", ["echo )", "x=$(case a in a) echo ')';; esac)"]],
    ['echo "`echo \\"a b\\"`"', ["echo a b", 'echo `echo \\"a b\\"`']],
    ["echo $((1 + (2)))", ["echo $((1 + (2)))"]],
    ["echo 'unterminated", undefined],
    ["echo )", undefined]
  ])("%j", (text, commands) => {
    expect(commandsOf(text)).toEqual(commands)
  })
})

describe("ShellLexer.lex: placeholder contexts", () => {
  const contexts = (text: string, shell: ShellLexer.Shell = "sh") =>
    ShellLexer.lex(text, "posix", shell)?.sites.map((s) => (s._tag === "Placeholder" ? `${s.context}${s.ambiguity ? "!" : ""}` : "bt"))

  it.each<[text: string, shell: ShellLexer.Shell, contexts: ReadonlyArray<string>]>([
    ["a ${x.y} \"${x.y}\" '${x.y}'", "sh", ["unquoted", "dq", "sq"]],
    ["a $'${x.y}'", "bash", ["ansi"]],
    ["a $'${x.y}'", "sh", ["ansi!"]],
    ["a $((${x.y})) ${z:-${x.y}}", "sh", ["fixed", "fixed"]],
    ["cat <<E\n${x.y}\nE\n${x.y}", "sh", ["fixed", "unquoted"]],
    ["# ${x.y}\n${x.y}", "sh", ["unquoted"]],
    ['a "`b ${x.y}`"', "sh", ["bt"]],
    ["cat <<< x; ${x.y}", "sh", ["unquoted!"]],
    ["cat <<< x; ${x.y}", "bash", ["unquoted"]]
  ])("%j (%s)", (text, shell, expected) => {
    expect(contexts(text, shell)).toEqual(expected)
  })
})

// Templates whose placeholder cannot be quoted so that dash and bash each see one word
const refused: ReadonlyArray<[template: string, reason: RegExp]> = [
  ["printf '%s' $'${tool_input.v}'", /ANSI-C quoting in bash/],
  ["printf '%s' $'\\'' ${tool_input.v}", /ends the string in dash/],
  ["cat <<< x; printf '%s' ${tool_input.v}", /here-string only in bash/],
  ["(( 1 )); printf '%s' ${tool_input.v}", /arithmetic in bash/],
  ["printf '%s' \"${X:-'}'}\" ${tool_input.v}", /quote in some shells/],
  ["printf '%s' $((echo 1); (echo 2)) ${tool_input.v}", /not plain arithmetic/],
  ["case a in a) : ;& b) : ;; esac; printf '%s' ${tool_input.v}", /only in bash/],
  ["printf '%s' 'unterminated ${tool_input.v}", /does not parse/],
  ["printf '%s' $((${tool_input.v} + 1))", /not substituted/],
  ["printf '%s' ${X:-${tool_input.v}}", /not substituted/],
  ["cat <<EOF\n${session_id}\nEOF", /not substituted/]
]

describe("Placeholder.checkShell", () => {
  it.each(refused)("refuses %j", (template, reason) => {
    const issues = Placeholder.checkShell(template)
    expect(issues.length).toBe(1)
    expect(issues[0]!.message).toMatch(reason)
    expect(template.slice(issues[0]!.index)).toMatch(/^(\$\{|`)/)
  })

  it.each([
    "printf '%s' ${tool_input.v} \"${tool_input.v}\" '${tool_input.v}'",
    "printf '%s' \"`printf '%s' \\\"${tool_input.v}\\\"`\"",
    "printf '%s|' \"$(echo case)\" ${tool_input.v}",
    "cat <<EOF\n${CLAUDE_PROJECT_DIR}\nEOF", // the shell expands the exported variable
    "# ${tool_input.v} in a comment",
    "printf '%s' $'\\x41' ${tool_input.v}",
    "${HOME}/bin/x ${f}",
    "printf '%s' \"${X:-{}\" ${tool_input.v}" // a bare "{" inside ${…} is a letter
  ])("accepts %j", (template) => {
    expect(Placeholder.checkShell(template)).toEqual([])
  })

  it("accepts $'…' for bash", () => {
    expect(Placeholder.checkShell("printf '%s' $'${tool_input.v}'", "bash")).toEqual([])
  })
})

const dir = mkdtempSync(join(tmpdir(), "agent-hooks-lexer-"))
const MARKER = join(dir, "pwned")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("refused templates substitute nothing", () => {
  const value = `'"; touch ${MARKER}; "'$(touch ${MARKER})\`touch ${MARKER}\``
  for (const shell of ["/usr/bin/dash", "/usr/bin/bash"].filter((s) => existsSync(s))) {
    it(`${shell}: the value never reaches the command text`, () => {
      for (const [template] of refused) {
        const expanded = Placeholder.expandShell(template, { env: {}, input: { session_id: value, tool_input: { v: value } } })
        expect(expanded).toBe(template)
        spawnSync(shell, ["-c", expanded], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: "/usr/bin:/bin" }, timeout: 10_000 })
      }
      expect(existsSync(MARKER)).toBe(false)
    })
  }
})
