/**
 * Hostile-input suite, shell quoting: shell-form placeholders proven against real shells.
 *
 * fast-check builds command templates from a grammar of POSIX and bash constructs (quotes of
 * every kind, `$(…)`, backticks, `$'…'`, here-documents, `case`, arithmetic, comments, subshells,
 * pipelines, nested mixes) around one placeholder, and hostile values (quotes, `$(…)`, backticks,
 * `;`, newlines, NUL, `\`, unicode, up to 100 kB). Each case is expanded with
 * `Placeholder.expandShell` and run under real dash and bash, many cases per shell process; the
 * output must be exactly the text the template's author meant, with the value after the NUL rule,
 * byte for byte, and no marker file may appear.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import * as Placeholder from "@agent-hooks/core/Placeholder"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"

type ShellName = "dash" | "bash"
const SHELLS: ReadonlyArray<{ readonly name: ShellName; readonly path: string }> = [
  { name: "dash" as const, path: "/usr/bin/dash" },
  { name: "bash" as const, path: "/usr/bin/bash" }
].filter((s) => existsSync(s.path))

/** Cases per shell: at least 10 000 on the Node lane, 1 000 on Bun and Deno. */
const CASES = PropertyRuns.forLane(10_000)
const BATCH = 100

const dir = mkdtempSync(join(tmpdir(), "agent-hooks-quoting-"))
const MARKER = join(dir, "pwned")
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const P = "${tool_input.v}"

/** What a value turns into: the NUL rule, then UTF-8 (a lone surrogate cannot be written as UTF-8). */
const seen = (value: string): string => Buffer.from(value.replace(/\0/g, ""), "utf8").toString("utf8")
/** `$(…)` and backticks drop trailing newlines. */
const chomp = (text: string): string => text.replace(/\n+$/, "")

// ---------------------------------------------------------------------------------------------
// The grammar: words holding the placeholder, commands around them, harmless noise before them
// ---------------------------------------------------------------------------------------------

interface Cmd {
  /** The command text (a template holding the placeholder). */
  readonly text: string
  /** What it prints, given the value as the shell sees it. */
  readonly out: (v: string, shell: ShellName) => string
  /** Bash syntax around the placeholder: expanded for bash, and run only there. */
  readonly bashOnly?: boolean
}

/** The shells' own backslash pass for backticks, applied by a template's author. */
const backticked = (text: string, inDoubleQuotes: boolean): string => text.replace(inDoubleQuotes ? /[\\`$"]/g : /[\\`$]/g, "\\$&")

const words: ReadonlyArray<Cmd> = [
  { text: `printf '%s' ${P}`, out: (v) => v },
  { text: `printf '%s' "a${P}b"`, out: (v) => `a${v}b` },
  { text: `printf '%s' 'a${P}b'`, out: (v) => `a${v}b` },
  { text: `printf '%s' x${P}"y"'z'`, out: (v) => `x${v}yz` },
  { text: `printf '%s' "${P}"${P}'${P}'`, out: (v) => v + v + v },
  { text: `printf '%s' $${P}`, out: (v) => `$${v}` },
  { text: `printf '%s' "$${P}"`, out: (v) => `$${v}` },
  { text: `printf '%s' \\$${P}`, out: (v) => `$${v}` },
  { text: `printf '%s' "\\"${P}\\""`, out: (v) => `"${v}"` },
  { text: `printf '%s' "$(printf '%s' ${P})"`, out: (v) => chomp(v) },
  { text: `printf '%s' "$(printf '%s' "${P}")"`, out: (v) => chomp(v) },
  { text: `printf '%s' $'a${P}b'`, out: (v) => `a${v}b`, bashOnly: true },
  { text: `printf '%s' $'\\x41'${P}`, out: (v, shell) => (shell === "bash" ? `A${v}` : `$\\x41${v}`) },
  { text: `printf '%s' "it's ${P}"`, out: (v) => `it's ${v}` },
  { text: `printf '%s' \${P:-x}${P}`, out: (v) => `x${v}` },
  { text: `printf '%s' "\${P:-x}${P}"`, out: (v) => `x${v}` },
  { text: `printf '%s' $((1+2))${P}`, out: (v) => `3${v}` },
  { text: `printf '%s' ~${P}`, out: (v) => `~${v}` },
  { text: `printf '%s' "${P}" # ${P} ' " \``, out: (v) => v },
  { text: `cat <<EOF\nit's $(printf x) "\nEOF\nprintf '%s' ${P}`, out: (v) => `it's x "\n${v}` }
]

/** Wrappers: a command around a command, with what the outer one prints. */
const wrappers: ReadonlyArray<(c: Cmd) => Cmd> = [
  (c) => ({ text: `( ${c.text}\n)`, out: c.out }),
  (c) => ({ text: `{ ${c.text}\n}`, out: c.out }),
  (c) => ({ text: `if true; then ${c.text}\nfi`, out: c.out }),
  (c) => ({ text: `false || ${c.text}`, out: c.out }),
  (c) => ({ text: `${c.text}\n: && :`, out: c.out }),
  (c) => ({ text: `{ ${c.text}\n} | cat`, out: c.out }),
  (c) => ({ text: `case a in a) ${c.text}\n;; esac`, out: c.out }),
  (c) => ({ text: `case "x)" in (b|x\\)) ${c.text}\n;; *) : ;; esac`, out: c.out }),
  (c) => ({ text: `for i in 1; do ${c.text}\ndone`, out: c.out }),
  (c) => ({ text: `x=$( ${c.text}\nprintf .); printf '%s' "\${x%.}"`, out: c.out }),
  (c) => ({ text: `printf '%s' "$( ${c.text}\n)."`, out: (v, s) => `${chomp(c.out(v, s))}.` }),
  (c) => ({ text: `printf '%s' "$( ( ${c.text}\n) )"`, out: (v, s) => chomp(c.out(v, s)) }),
  (c) => ({ text: `x=\`${backticked(`${c.text}\nprintf .`, false)}\`; printf '%s' "\${x%.}"`, out: c.out }),
  (c) => ({ text: `printf '%s' "\`${backticked(c.text, true)}\`"`, out: (v, s) => chomp(c.out(v, s)) }),
  (c) => ({ text: `printf '%s' "x\`${backticked(`${c.text}\nprintf .`, true)}\`"`, out: (v, s) => `x${c.out(v, s)}.` })
]

/** Harmless constructs before the command: none of them may shift the lexer's view of what follows. */
const noise: ReadonlyArray<string> = [
  `: "$(echo case)" "$(echo esac)"`,
  `: $(echo case) 'in' x\\)`,
  `: "\`echo \\"a b\\"\`"`,
  `: \`echo \\\`echo x\\\`\``,
  `: 'it''s' "a\\"b" \\' \\"`,
  `: $(echo ')') "$(echo ')')" ")"`,
  `: \${HOME:-'}'} "\${HOME:-x}" "\${X:-{}" \${X:-{}`,
  `: $((1 + (2 * 3))) $(( 4 ))`,
  `: $(case a in a) echo ')' ;; esac) "$(case b in (b) echo x;; esac)"`,
  `: # it's a comment with ${P} and "`,
  `cat >/dev/null <<'EOF'\n' " \` $( ${P}\nEOF`,
  `cat >/dev/null <<-EOF\n\t$(echo "it's") \\\`\n\tEOF`,
  `cat >/dev/null <<EOF; : 'x'\nbody ' "\nEOF`,
  `: $'\\x27' "\\$'" '$'`,
  `f() { :; }; f`,
  `: <(true) 2>/dev/null || :`,
  `: \\\n  continued`
].filter((n) => !n.includes("<(")) // process substitution is bash-only syntax

const command = (shell: ShellName): fc.Arbitrary<Cmd> =>
  fc
    .tuple(
      fc.constantFrom(...words.filter((w) => shell === "bash" || w.bashOnly !== true)),
      fc.array(fc.constantFrom(...wrappers), { maxLength: 3 }),
      fc.array(fc.constantFrom(...noise), { maxLength: 2 })
    )
    .map(([word, wraps, before]) => {
      const wrapped = wraps.reduce((c, wrap) => wrap(c), word)
      const text = before.length === 0 ? wrapped.text : `${before.join("\n")}\n${wrapped.text}`
      return { text, out: wrapped.out, bashOnly: word.bashOnly === true }
    })

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

const fragment = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
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
      "\0",
      "'\\''",
      `$(touch ${MARKER})`,
      `\`touch ${MARKER}\``,
      `'; touch ${MARKER}; '`,
      `"; touch ${MARKER}; "`,
      `\ntouch ${MARKER}\n`,
      `\\"; touch ${MARKER}; \\"`,
      `$'\\x27'`,
      "${IFS}",
      "\nEOF\n",
      "EOF",
      "esac",
      "case x in",
      ";;",
      "-n",
      "%s",
      "é",
      "漢字",
      "🙂",
      "\u2028",
      "\uFEFF",
      "\r\n",
      "$((1))",
      "<<",
      "\\\n"
    )
  },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) }
)
const hostileValue = fc.oneof(
  { weight: 200, arbitrary: fc.array(fragment, { maxLength: 10 }).map((parts) => parts.join("")) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fragment, fc.integer({ min: 1, max: 100_000 }))
      .map(([f, n]) => f.repeat(Math.ceil(n / Math.max(1, f.length))).slice(0, 100_000))
  }
)

// ---------------------------------------------------------------------------------------------
// Running many cases in one shell process
// ---------------------------------------------------------------------------------------------

interface Case {
  readonly template: string
  readonly value: string
  readonly expanded: string
  readonly expected: string
}

let scripts = 0

/**
 * Runs the cases as one script file, each in a subshell, outputs separated by NUL. (A file, not
 * stdin: with a large script on stdin and a large output Deno's spawnSync can deadlock.)
 */
const runBatch = (shell: { readonly name: ShellName; readonly path: string }, cases: ReadonlyArray<Case>) => {
  const script = cases.map((c) => `( ${c.expanded}\n)\nprintf '\\000'\n`).join("")
  const file = join(dir, `batch-${scripts++}.sh`)
  writeFileSync(file, script)
  const result = spawnSync(shell.path, [file], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin", HOME: "/nonexistent", LC_ALL: "C.UTF-8" },
    maxBuffer: 256 * 1024 * 1024,
    timeout: 60_000
  })
  rmSync(file, { force: true })
  const outputs = result.stdout.toString("utf8").split("\0").slice(0, -1)
  return { outputs, stderr: result.stderr.toString("utf8"), status: result.status }
}

/** On a mismatch, the first case that fails on its own (so the report names one template and one value). */
const culprit = (shell: { readonly name: ShellName; readonly path: string }, cases: ReadonlyArray<Case>) => {
  for (const c of cases) {
    const { outputs, stderr } = runBatch(shell, [c])
    if (outputs.length !== 1 || outputs[0] !== c.expected || existsSync(MARKER)) {
      return { template: c.template, value: c.value, expanded: c.expanded, expected: c.expected, got: outputs[0], stderr }
    }
  }
  return undefined
}

const tally: Record<string, { tries: number; failures: number }> = {}

describe.skipIf(SHELLS.length === 0)("shell-form placeholders against real shells", () => {
  for (const shell of SHELLS) {
    it(`${shell.name}: ${CASES} generated templates and hostile values print exactly the value, and run nothing`, () => {
      const row = (tally[`${shell.name} differential`] = { tries: 0, failures: 0 })
      let failure: unknown
      // fc.check, not fc.assert: a failure is reported as the one case that fails on its own
      fc.check(
        fc.property(fc.array(fc.tuple(command(shell.name), hostileValue), { minLength: BATCH, maxLength: BATCH }), (batch) => {
          const cases = batch.map(
            ([cmd, value]): Case => ({
              template: cmd.text,
              value,
              expanded: Placeholder.expandShell(
                cmd.text,
                { env: {}, input: { tool_input: { v: value } } },
                cmd.bashOnly === true ? "bash" : "sh"
              ),
              expected: cmd.out(seen(value), shell.name)
            })
          )
          row.tries += cases.length
          const { outputs, stderr } = runBatch(shell, cases)
          const ok = outputs.length === cases.length && outputs.every((o, k) => o === cases[k]!.expected) && !existsSync(MARKER)
          if (!ok) {
            row.failures++
            failure ??= culprit(shell, cases) ?? { batchOnly: true, outputs: outputs.length, stderr }
            rmSync(MARKER, { force: true })
          }
          return ok
        }),
        { numRuns: CASES / BATCH, endOnFailure: true }
      )
      if (failure !== undefined) console.error(JSON.stringify(failure, null, 1))
      expect(failure).toBeUndefined()
      expect(existsSync(MARKER)).toBe(false)
    }, 600_000)

    it(`${shell.name}: the three known injections stay closed`, () => {
      const value = `x"; touch ${MARKER}; "$(touch ${MARKER})\`touch ${MARKER}\`'`
      const v = { env: {}, input: { tool_input: { v: value } } }
      const cases: Array<Case> = [
        // \" inside backticks inside double quotes
        { template: `printf '%s' "\`printf '%s' \\"${P}\\"\`"`, value, expanded: "", expected: chomp(value) },
        // the word case inside $(…)
        { template: `printf '%s|' "$(echo case)" ${P}`, value, expanded: "", expected: `case|${value}|` },
        // $'…' under dash: refused (left as written, and checkShell says why)
        { template: `printf '%s' $'${P}'`, value, expanded: "", expected: shell.name === "bash" ? P : `$${P}` }
      ].map((c) => ({ ...c, expanded: Placeholder.expandShell(c.template, v) }))
      const { outputs } = runBatch(shell, cases)
      expect(outputs).toEqual(cases.map((c) => c.expected))
      expect(existsSync(MARKER)).toBe(false)
    })

    it(`${shell.name}: a value over 128 KiB reaches the command through a file, byte for byte`, () => {
      const row = (tally[`${shell.name} large values`] = { tries: 0, failures: 0 })
      fc.assert(
        fc.property(
          fc.constantFrom(...words.slice(0, 9), words[9]!),
          fc
            .tuple(
              fc.constantFrom("a", "'", '"', "é", "漢字", "🙂", "\\", `$(touch ${MARKER})`, "\n"),
              fc.constantFrom("", "\n", "\n\n", "'")
            )
            .map(([f, end]) => `${f.repeat(Math.ceil(140_000 / Math.max(1, f.length)))}${end}`),
          (cmd, value) => {
            row.tries++
            const expanded = Placeholder.expandShellCommand(cmd.text, { env: {}, input: { tool_input: { v: value } } })
            expect(expanded.files.length).toBeGreaterThan(0)
            expect(Buffer.byteLength(expanded.command)).toBeLessThanOrEqual(Placeholder.MAX_ARGUMENT_BYTES)
            // what the spawner does with `files`: fresh 0600 files, their paths in the environment
            const env: Record<string, string> = { PATH: "/usr/bin:/bin", LC_ALL: "C.UTF-8" }
            expanded.files.forEach((file, k) => {
              const path = join(dir, `value-${k}`)
              writeFileSync(path, file.content, { mode: 0o600 })
              env[file.env] = path
            })
            const result = spawnSync(shell.path, ["-c", expanded.command], {
              env,
              stdio: ["ignore", "pipe", "pipe"],
              maxBuffer: 64 * 1024 * 1024
            })
            if (result.stdout.toString("utf8") !== cmd.out(seen(value), shell.name)) row.failures++
            expect(result.stdout.toString("utf8")).toBe(cmd.out(seen(value), shell.name))
            expect(existsSync(MARKER)).toBe(false)
          }
        ),
        { numRuns: PropertyRuns.forLane(20, 5) }
      )
    }, 120_000)
  }

  afterAll(() => {
    if (process.env["AGENT_HOOKS_RELIABILITY_REPORT"] !== undefined) {
      writeFileSync(process.env["AGENT_HOOKS_RELIABILITY_REPORT"], `${JSON.stringify(tally)}\n`, { flag: "a" })
    }
    expect(readdirSync(dir).includes("pwned")).toBe(false)
  })
})
