/**
 * Hostile-input suite, `if` rules: a command that really runs the program a rule names must run
 * the hook. Differential: each generated command is run by real bash and dash with a `zap` on PATH
 * that records its runs; whenever either shell ran `zap`, `Bash(zap *)` must match the command.
 */
import { afterAll, describe, expect, it } from "vitest"
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import fc from "fast-check"
import * as PermissionRule from "@agent-hooks/core/PermissionRule"

const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-if-")))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const log = join(dir, "zap.log")
writeFileSync(join(dir, "zap"), `#!/bin/sh\necho ran >> "$ZAP_LOG"\n`)
chmodSync(join(dir, "zap"), 0o755)

/** Generated commands per run (each runs under bash and dash); more with AGENT_HOOKS_IF_RUNS for a long run. */
const RUNS = Number(process.env["AGENT_HOOKS_IF_RUNS"] ?? 100)

const shells = ["bash", "dash"].filter((shell) => spawnSync(shell, ["-c", "true"]).status === 0)

/** Whether `shell` really runs zap for this command (the shim's log says so). */
const runsZap = (shell: string, command: string): boolean => {
  rmSync(log, { force: true })
  // timeout(1) runs the shell in a group of its own and kills the whole group at the limit
  spawnSync("timeout", ["-s", "KILL", "10", shell, "-c", command], {
    cwd: dir,
    env: { PATH: `${dir}:/usr/local/bin:/usr/bin:/bin`, ZAP_LOG: log, HOME: dir },
    input: "",
    timeout: 20_000,
    stdio: ["pipe", "ignore", "ignore"]
  })
  return existsSync(log) && readFileSync(log, "utf8").includes("ran")
}

const parsed = PermissionRule.parse("Bash(zap *)")
if (parsed._tag === "Failure") throw new Error(parsed.message)
const rule = parsed.rule
const hookRuns = (command: string): boolean => PermissionRule.matches(rule, "Bash", { command }, { cwd: dir, projectDir: dir, home: dir })

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** The ways to name and start zap itself. */
const starts = fc.constantFrom(
  "zap",
  `${dir}/zap`,
  "./zap",
  "z\\ap",
  "'zap'",
  '"zap"',
  "z''ap",
  "command zap",
  "env zap",
  "/usr/bin/env zap",
  "env A=1 zap",
  "A=1 zap",
  "nice zap",
  "nice -n 5 zap",
  "timeout 5 zap",
  "exec zap",
  "z?p",
  "./[z]ap",
  "$(echo zap)",
  "`echo zap`",
  "${Z:-zap}",
  "setsid -w zap",
  "ionice -c 3 zap",
  "chrt -o 0 zap",
  "taskset -c 0 zap",
  "stdbuf -o L zap",
  "nohup zap",
  `flock ${dir}/lock-start zap`,
  "echo a | xargs zap",
  "echo a | xargs -I{} zap {}",
  "env -S 'zap'",
  "coproc zap",
  "time zap"
)
/** Interpreters that run a shell command from inline code (present on this machine only). */
const interpreters = [
  ["python3", (inner: string) => `python3 -c ${quote(`import os; os.system(${JSON.stringify(inner)})`)}`],
  ["perl", (inner: string) => `perl -e ${quote(`system(${JSON.stringify(inner).replace(/[$@]/g, "\\$&")})`)}`],
  ["node", (inner: string) => `node -e ${quote(`require("child_process").execSync(${JSON.stringify(inner)})`)}`]
].filter(([name]) => spawnSync(name as string, ["--version"]).status === 0) as Array<[string, (inner: string) => string]>
const args = fc.constantFrom("", " -x", " a b", " 'q r'", " --", ' "$HOME"')

/** Ways one command runs another: through eval, a shell's -c, a pipe or here-document into a shell, find -exec, lists, subshells. */
const wrap = (inner: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    ...interpreters.map(([, run]) => run(inner)),
    `trap ${quote(inner)} EXIT`,
    // a lock of its own per depth: a flock inside a flock of the same file would wait forever
    `flock ${dir}/lock-${inner.length} -c ${quote(inner)}`,
    `eval ${quote(inner)}`,
    `eval "${inner.replace(/["\\$`]/g, "\\$&")}"`,
    `sh -c ${quote(inner)}`,
    `bash -c ${quote(inner)}`,
    `dash -c ${quote(inner)}`,
    `bash -ec ${quote(inner)}`,
    `sh -c -- ${quote(inner)}`,
    `bash --norc -c ${quote(inner)}`,
    `printf '%s\\n' ${quote(inner)} | sh`,
    `printf '%s\\n' ${quote(inner)} | bash -s`,
    `echo ${quote(inner)} | dash`,
    `sh <<'EOF'\n${inner}\nEOF`,
    `bash <<'EOF'\n${inner}\nEOF`,
    `find . -maxdepth 0 -exec sh -c ${quote(inner)} \\;`,
    `true && ${inner}`,
    `false || ${inner}`,
    `${inner}; true`,
    `(${inner})`,
    `{ ${inner}; }`,
    `if true; then ${inner}; fi`,
    `echo x | ${inner}`,
    `echo "$(${inner})"`,
    `for i in 1; do ${inner}; done`
  )

const command: fc.Arbitrary<string> = fc.tuple(starts, args, fc.integer({ min: 0, max: 3 })).chain(([start, arg, depth]) => {
  let arb: fc.Arbitrary<string> = fc.constant(`${start}${arg}`)
  for (let k = 0; k < depth; k++) arb = arb.chain(wrap)
  return arb
})

describe("if rules: every command that really runs zap runs the Bash(zap *) hook", () => {
  it("the escapes seen: a path, eval, sh -c, bash -c, a pipe or here-document into a shell", () => {
    const seen = [
      `${dir}/zap -rf x`,
      "./zap x",
      "eval 'zap x'",
      "eval zap x",
      "sh -c 'zap x'",
      "bash -c 'zap x'",
      "echo 'zap x' | sh",
      "echo 'zap x' | bash",
      "bash <<'EOF'\nzap x\nEOF",
      "sh <<EOF\nzap x\nEOF"
    ]
    for (const c of seen) {
      expect(
        shells.some((shell) => runsZap(shell, c)),
        `a shell runs zap: ${c}`
      ).toBe(true)
      expect(hookRuns(c), c).toBe(true)
    }
  })

  it("differential against real bash and dash (generated commands)", () => {
    let ran = 0
    let total = 0
    fc.assert(
      fc.property(command, (c) => {
        total++
        const really = shells.filter((shell) => runsZap(shell, c))
        if (really.length > 0) ran++
        if (really.length > 0)
          expect(hookRuns(c), `${really.join(" and ")} run zap, the rule skips the hook: ${JSON.stringify(c)}`).toBe(true)
      }),
      { numRuns: RUNS }
    )
    // the generator means it: most commands really run zap
    expect(ran).toBeGreaterThan(total * 0.8)
  }, 600_000)

  it("commands that only mention zap still skip the hook", () => {
    for (const c of ["echo zap", "cat <<'EOF'\nzap\nEOF", "grep zap file", "echo 'sh -c zap'"]) {
      expect(
        shells.some((shell) => runsZap(shell, c)),
        c
      ).toBe(false)
      expect(hookRuns(c), c).toBe(false)
    }
  })
})
