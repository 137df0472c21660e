import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Placeholder from "@agent-hooks/core/Placeholder"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"

const env = {
  CLAUDE_PROJECT_DIR: "/home/u/my proj",
  CLAUDE_PLUGIN_ROOT: "/home/u/.claude/plugins/cache/p/1.0.0",
  CLAUDE_PLUGIN_DATA: "/home/u/.claude/plugins/data/p",
  CLAUDE_PLUGIN_OPTION_API_KEY: "k-123",
  HOME: "/home/u"
}
const input = {
  session_id: "abc123",
  cwd: "/home/u/my proj",
  hook_event_name: "PreToolUse",
  tool_name: "Edit",
  tool_input: {
    file_path: "/home/u/my proj/it's here.ts",
    edits: [{ old_string: "a", new_string: "b" }],
    replace_all: false,
    timeout: 120000,
    nothing: null
  }
}
const values: Placeholder.Values = { env, input }

const shells = ["/bin/sh", "/bin/bash"].filter((shell) => existsSync(shell))

/** Runs an expanded command; returns stdout, requiring a clean exit. */
const run = (shell: string, command: string, extraEnv: Record<string, string> = {}): string => {
  const result = spawnSync(shell, ["-c", command], {
    encoding: "utf8",
    // stdin from /dev/null: with a socket on stdin bash would read ~/.bashrc (its "rshd" heuristic)
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin", HOME: "/nonexistent", ...extraEnv },
    timeout: 5000
  })
  if (result.status !== 0 || result.stderr !== "") {
    throw new Error(`${shell} exited ${result.status} (${result.stderr}) for ${JSON.stringify(command)}`)
  }
  return result.stdout
}

/** Runs several expanded commands in one shell process; their outputs are separated by NUL bytes. */
const runAll = (shell: string, commands: ReadonlyArray<string>): Array<string> =>
  run(shell, commands.map((command) => `${command}\nprintf '\\000'`).join("\n"))
    .split("\0")
    .slice(0, -1)

describe("Placeholder.resolve", () => {
  it.each<[name: string, expected: string | undefined]>([
    ["CLAUDE_PROJECT_DIR", "/home/u/my proj"],
    ["AGENT_HOOKS_PROJECT_DIR", "/home/u/my proj"], // falls back to CLAUDE_PROJECT_DIR
    ["CLAUDE_PLUGIN_ROOT", "/home/u/.claude/plugins/cache/p/1.0.0"],
    ["CLAUDE_PLUGIN_DATA", "/home/u/.claude/plugins/data/p"],
    ["user_config.api_key", "k-123"],
    ["user_config.missing", ""],
    ["tool_input.file_path", "/home/u/my proj/it's here.ts"],
    ["tool_input.edits.0.old_string", "a"],
    ["tool_input.edits.1.old_string", ""],
    ["tool_input.edits", '[{"old_string":"a","new_string":"b"}]'],
    ["tool_input.replace_all", "false"],
    ["tool_input.timeout", "120000"],
    ["tool_input.nothing", ""],
    ["tool_input.missing.deeper", ""],
    ["tool_input.constructor", ""], // own properties only
    ["tool_input.edits.length", ""],
    ["tool_name", "Edit"],
    ["session_id", "abc123"],
    ["cwd", "/home/u/my proj"],
    ["HOME", undefined], // not a placeholder: ordinary shell syntax
    ["f", undefined],
    ["CLAUDE_PLUGIN_ROOT_X", undefined]
  ])("%s → %j", (name, expected) => {
    expect(Placeholder.resolve(name, values)).toBe(expected)
  })

  it("leaves well-known variables alone when the environment lacks them", () => {
    expect(Placeholder.resolve("CLAUDE_PLUGIN_ROOT", { env: {}, input: {} })).toBeUndefined()
    expect(Placeholder.expandText("${CLAUDE_PLUGIN_ROOT}/x", { env: {}, input: {} })).toBe("${CLAUDE_PLUGIN_ROOT}/x")
    expect(Placeholder.resolve("CLAUDE_PROJECT_DIR", { env: { AGENT_HOOKS_PROJECT_DIR: "/a" }, input: {} })).toBe("/a")
  })
})

describe("Placeholder.expandText / expandArgs", () => {
  it("substitutes verbatim", () => {
    expect(Placeholder.expandText("https://x.test/${session_id}?f=${tool_input.file_path}", values)).toBe(
      "https://x.test/abc123?f=/home/u/my proj/it's here.ts"
    )
    expect(Placeholder.expandText("${HOME} $CLAUDE_PROJECT_DIR ${a-b} ${}", values)).toBe("${HOME} $CLAUDE_PROJECT_DIR ${a-b} ${}")
  })

  it("exec form keeps each element one argument, unquoted", () => {
    expect(
      Placeholder.expandArgs(
        ["--file", "${tool_input.file_path}", "${CLAUDE_PLUGIN_ROOT}/bin/x", "${tool_input.edits.0}", "$HOME", "${user_config.api_key}"],
        values
      )
    ).toEqual([
      "--file",
      "/home/u/my proj/it's here.ts",
      "/home/u/.claude/plugins/cache/p/1.0.0/bin/x",
      '{"old_string":"a","new_string":"b"}',
      "$HOME",
      "k-123"
    ])
  })

  it("exec form removes NUL characters", () => {
    expect(Placeholder.expandArgs(["${tool_input.p}"], { env: {}, input: { tool_input: { p: "a\0b" } } })).toEqual(["ab"])
  })
})

describe("Placeholder.expandShell", () => {
  const hostile = { env: {}, input: { tool_input: { file_path: "x'; rm -rf / #" } } }

  it.each<[command: string, expected: string]>([
    ["rm ${tool_input.file_path}", "rm 'x'\\''; rm -rf / #'"],
    ['rm "${tool_input.file_path}"', "rm \"\"'x'\\''; rm -rf / #'\"\""],
    ["rm '${tool_input.file_path}'", "rm '''x'\\''; rm -rf / #'''"],
    ["echo ${HOME} $HOME \\${tool_input.file_path}", "echo ${HOME} $HOME \\${tool_input.file_path}"],
    ["# ${tool_input.file_path}\necho", "# ${tool_input.file_path}\necho"], // comments untouched
    ["echo $((${tool_input.file_path} + 1))", "echo $((${tool_input.file_path} + 1))"], // arithmetic untouched
    ["echo ${X:-${tool_input.file_path}}", "echo ${X:-${tool_input.file_path}}"], // inside another expansion
    [
      "cat <<EOF\n${tool_input.file_path}\nEOF\necho ${tool_input.file_path}",
      "cat <<EOF\n${tool_input.file_path}\nEOF\necho 'x'\\''; rm -rf / #'"
    ]
  ])("%j", (command, expected) => {
    expect(Placeholder.expandShell(command, hostile)).toBe(expected)
  })

  it("expands the well-known variables in the common quoting styles", () => {
    for (const shell of shells) {
      expect(run(shell, Placeholder.expandShell("printf '%s|' ${CLAUDE_PROJECT_DIR}/x.sh", values))).toBe("/home/u/my proj/x.sh|")
      // a placeholder that opens the command (Claude Code's documented "${CLAUDE_PROJECT_DIR}/hooks/x.sh") follows no `$`
      expect(run(shell, `${Placeholder.expandShell("${CLAUDE_PROJECT_DIR}/x.sh", values)} 2>&1; printf '%s|' "$?"`)).toMatch(
        /\/home\/u\/my proj\/x\.sh.*\n127\|$/
      )
      expect(run(shell, Placeholder.expandShell("printf '%s|' \"${CLAUDE_PROJECT_DIR}/x.sh\"", values))).toBe("/home/u/my proj/x.sh|")
      expect(run(shell, Placeholder.expandShell("printf '%s|' \"${CLAUDE_PLUGIN_ROOT}\"/scripts/x.sh", values))).toBe(
        "/home/u/.claude/plugins/cache/p/1.0.0/scripts/x.sh|"
      )
      expect(run(shell, Placeholder.expandShell("printf '%s|' '${CLAUDE_PLUGIN_DATA}/db'", values))).toBe(
        "/home/u/.claude/plugins/data/p/db|"
      )
      expect(run(shell, Placeholder.expandShell("printf '%s|' ${AGENT_HOOKS_PROJECT_DIR} ${session_id} ${tool_name}", values))).toBe(
        "/home/u/my proj|abc123|Edit|"
      )
      // a missing path is one empty argument
      expect(run(shell, Placeholder.expandShell("printf '[%s]' ${tool_input.missing}", values))).toBe("[]")
      // unknown placeholders are ordinary shell syntax
      expect(run(shell, Placeholder.expandShell("printf '%s' \"${GREETING}\"", values), { GREETING: "hi" })).toBe("hi")
      // here-document bodies keep the placeholder; the shell expands the exported variable
      expect(
        run(shell, Placeholder.expandShell("cat <<EOF\n${CLAUDE_PROJECT_DIR}\nEOF", values), { CLAUDE_PROJECT_DIR: "/exported" })
      ).toBe("/exported\n")
    }
  })

  it("never lets a value's bytes become shell syntax (examples)", () => {
    const nasty = [
      "x'; touch /tmp/pwned; '",
      '"; touch /tmp/pwned; "',
      "$(touch /tmp/pwned)",
      "`touch /tmp/pwned`",
      "a\nb\n",
      "\\",
      "'",
      "*",
      "-n",
      "$HOME ${HOME}"
    ]
    for (const shell of shells) {
      for (const value of nasty) {
        const v: Placeholder.Values = { env: {}, input: { tool_input: { file_path: value } } }
        expect(run(shell, Placeholder.expandShell("printf '%s' ${tool_input.file_path}", v))).toBe(value)
        expect(run(shell, Placeholder.expandShell("printf '%s' \"${tool_input.file_path}\"", v))).toBe(value)
        expect(run(shell, Placeholder.expandShell("printf '%s' $${tool_input.file_path}", v)).endsWith(value)).toBe(true)
      }
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Properties: for arbitrary values, the shell prints exactly the value and runs nothing else
// ---------------------------------------------------------------------------------------------

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const fragment = fc.oneof(
  fc.constantFrom(
    "'",
    '"',
    "\\",
    "`",
    "$",
    "$(",
    ")",
    "${",
    "}",
    ";",
    "&&",
    "|",
    "\n",
    "#",
    " ",
    "*",
    "?",
    "~",
    "!",
    "\t",
    "'\\''",
    "$(printf PWNED)",
    "`printf PWNED`",
    "'; printf PWNED; '",
    '"; printf PWNED; "',
    "${IFS}",
    "$'\\x27'",
    "\nEOF\n",
    "-n",
    "%s",
    "é",
    "漢字",
    "🙂"
  ),
  fc.string({ unit: "binary", maxLength: 4 })
)
const hostileValue = fc
  .array(fragment, { maxLength: 8 })
  .map((parts) => parts.join("").replace(/\0/g, ""))
  .filter((s) => !LONE_SURROGATE.test(s))

const templates: ReadonlyArray<{
  readonly command: string
  readonly shells?: ReadonlyArray<string>
  readonly expected: (v: string) => string
}> = [
  { command: "printf '%s' ${tool_input.file_path}", expected: (v) => v },
  { command: "printf '%s' \"${tool_input.file_path}\"", expected: (v) => v },
  { command: "printf '%s' '${tool_input.file_path}'", expected: (v) => v },
  { command: "printf '%s' x${tool_input.file_path}\"y\"'z'", expected: (v) => `x${v}yz` },
  { command: "printf '%s' \"$(printf '%s.' ${tool_input.file_path})\"", expected: (v) => `${v}.` },
  { command: "printf '%s' \"`printf '%s.' \"${tool_input.file_path}\"`\"", expected: (v) => `${v}.` },
  { command: "printf '%s' \"`printf '%s.' '${tool_input.file_path}'`\"", expected: (v) => `${v}.` },
  { command: "printf '%s' \"$(printf '%s' \"$(printf '%s.' '${tool_input.file_path}')\")\"", expected: (v) => `${v}.` },
  { command: "printf '%s' \"$(case a in a) printf '%s.' ${tool_input.file_path};; esac)\"", expected: (v) => `${v}.` },
  { command: "# ${tool_input.file_path}\nprintf '%s' ok", expected: () => "ok" },
  { command: "printf '%s' $'a'${tool_input.file_path}$'\\x21'", shells: ["/bin/bash"], expected: (v) => `a${v}!` },
  { command: "printf '%s' $'a${tool_input.file_path}b'", shells: ["/bin/bash"], expected: (v) => `a${v}b` }
]

describe("Placeholder.expandShell properties", () => {
  for (const shell of shells) {
    it(`${shell}: printf '%s' \${tool_input.file_path} and "\${tool_input.file_path}" print exactly the value`, () => {
      fc.assert(
        fc.property(hostileValue, (value) => {
          const v: Placeholder.Values = { env: {}, input: { tool_input: { file_path: value } } }
          const commands = ["printf '%s' ${tool_input.file_path}", "printf '%s' \"${tool_input.file_path}\""]
          expect(
            runAll(
              shell,
              commands.map((command) => Placeholder.expandShell(command, v))
            )
          ).toEqual([value, value])
        }),
        { numRuns: PropertyRuns.forLane(200) }
      )
    })

    it(`${shell}: every quoting context yields exactly the value`, () => {
      fc.assert(
        fc.property(hostileValue, (value) => {
          const v: Placeholder.Values = { env: {}, input: { tool_input: { file_path: value } } }
          const applicable = templates.filter((t) => t.shells === undefined || t.shells.includes(shell))
          // each command is expanded on its own, then they run in one process
          // bash-only templates ($'…') are expanded for bash: for sh they are refused (dash reads them differently)
          expect(
            runAll(
              shell,
              applicable.map((t) => Placeholder.expandShell(t.command, v, t.shells === undefined ? "sh" : "bash"))
            )
          ).toEqual(applicable.map((t) => t.expected(value)))
        }),
        { numRuns: PropertyRuns.forLane(150) }
      )
    })
  }
})
