import * as fc from "fast-check"
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Engine, EngineMaker, Options } from "../ConcurrencySuite.ts"

// The payload is one line of JSON without a newline at its end: \`read\` (a builtin, no process) takes it whole.

/** A guard that reads the payload on stdin and answers with a JSON deny. */
const GUARD_JSON = `IFS= read -r input
case "$input" in *FORBIDDEN*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json guard: forbidden"}}' ;; esac
`
/** A guard that reads the payload on stdin and blocks with exit 2. */
const GUARD_EXIT2 = `IFS= read -r input
case "$input" in *FORBIDDEN*) echo "exit-2 guard: forbidden" >&2; exit 2 ;; esac
`
/** A sync hook beside the guards: reads its stdin, adds context. */
const SIBLING = `IFS= read -r input
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"sibling"}}'
`
/** The unrelated async hook: reads its stdin, prints a line. */
const ASYNC = `IFS= read -r input
echo async-done
`
/**
 * A guard whose answer comes after its exit: a background process it leaves in its group holds
 * stdout and prints the deny later. The host cannot have read the answer when it takes the result.
 */
const GUARD_LATE = `cat >/dev/null
(sleep 2; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"late"}}') &
exit 0
`

/**
 * The same, from a process that left the hook's group (setsid): nothing of the group is left, so
 * the host waits for the end of stdout, up to the hook's timeout (2 s here).
 */
const GUARD_ESCAPED = `cat >/dev/null
setsid sh -c "sleep 4; printf '%s' '{\\"decision\\":\\"block\\",\\"reason\\":\\"late\\"}'" &
exit 0
`

/** Which hooks each tool gets, and whether a payload with the marker must be blocked. */
const TOOLS = {
  // the case: a JSON-deny guard beside an unrelated async hook
  Bash: { guarded: true },
  Write: { guarded: true },
  Edit: { guarded: true },
  // only the async hook: never blocked
  Read: { guarded: false }
} as const
type Tool = keyof typeof TOOLS

const script = (dir: string, name: string, text: string) => {
  const file = join(dir, name)
  writeFileSync(file, text)
  chmodSync(file, 0o755)
  // Exec form: one process per hook, no shell around it.
  return { type: "command", command: "/bin/sh", args: [file] }
}

/** @internal */
export const writeHooks = (dir: string) => ({
  guardJson: script(dir, "guard-json.sh", GUARD_JSON),
  guardExit2: script(dir, "guard-exit2.sh", GUARD_EXIT2),
  sibling: script(dir, "sibling.sh", SIBLING),
  async: { ...script(dir, "async.sh", ASYNC), async: true },
  guardLate: script(dir, "guard-late.sh", GUARD_LATE),
  guardEscaped: { ...script(dir, "guard-escaped.sh", GUARD_ESCAPED), timeout: 2 }
})

const settingsFor = (dir: string) => {
  const { guardJson, guardExit2, sibling, async, guardLate, guardEscaped } = writeHooks(dir)
  const file = join(dir, "settings.json")
  writeFileSync(
    file,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [guardJson, async] },
          { matcher: "Write", hooks: [guardExit2, async, sibling] },
          { matcher: "Edit", hooks: [guardJson, sibling] },
          { matcher: "Read", hooks: [async] }
        ]
      }
    })
  )
  const late = join(dir, "late.json")
  writeFileSync(
    late,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [guardLate, async] },
          { matcher: "Edit", hooks: [guardEscaped] }
        ]
      }
    })
  )
  return { file, late }
}

/** @internal */
export const loadUp = (count: number): Array<ChildProcess> =>
  Array.from({ length: count }, () => {
    const child = spawn("/bin/sh", ["-c", "while :; do :; done"], { stdio: "ignore" })
    child.on("error", () => {})
    return child
  })

const dispatchArb = fc.record({
  tool: fc.constantFrom<Tool>("Bash", "Write", "Edit", "Read"),
  forbidden: fc.boolean(),
  noise: fc.string({ maxLength: 40 }),
  // Now and then a payload larger than a pipe's buffer: the guard's stdin is written in parts.
  padding: fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 65_536, max: 80_000 }) }),
  // When it starts: dispatches keep arriving while earlier ones spawn, exit and wait to be read.
  delay: fc.integer({ min: 0, max: 1_500 })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** @internal */
export const suite = (name: string, makers: ReadonlyArray<EngineMaker>, options: Options = {}): void => {
  // More where asked (AGENT_HOOKS_STRESS_RUNS), for a long run by hand.
  const runs = Number(process.env["AGENT_HOOKS_STRESS_RUNS"] ?? "") || (options.runs ?? 3)
  const batch = options.batch ?? 250
  // What a user relies on is that every dispatch is answered right, not how fast 250 overlapping
  // ones go on a machine loaded past its cores: with a load average of 25-30 on 2 cores (other
  // builds and tests beside the busy loops), one run of 250 took up to 50 s; twice that per run.
  const timeout = options.timeoutMs ?? Math.max(240_000, runs * 100_000)
  describe(`${name}: overlapping dispatches under CPU load`, () => {
    let dir = ""
    let files: ReturnType<typeof settingsFor>
    let load: Array<ChildProcess> = []
    beforeAll(() => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-concurrency-")))
      files = settingsFor(dir)
      // Busy loops, one per core and one more: the hooks' spawns and reads compete for the CPU.
      load = loadUp(options.busyLoops ?? 3)
    })
    afterAll(() => {
      for (const child of load) child.kill("SIGKILL")
      rmSync(dir, { recursive: true, force: true })
    })

    for (const maker of makers) {
      it(
        `${maker.label}: every guard that reads stdin and denies (JSON or exit 2) blocks, beside async and sync hooks: ${runs} runs of ${batch} overlapping dispatches`,
        async () => {
          const warnings: Array<string> = []
          const engine: Engine = await maker.create({
            settings: [files.file],
            projectDir: dir,
            onWarning: (warning) => warnings.push(warning)
          })
          try {
            await fc.assert(
              fc.asyncProperty(fc.array(dispatchArb, { minLength: batch, maxLength: batch }), async (dispatches) => {
                const outcomes = await Promise.all(
                  dispatches.map(({ tool, forbidden, noise, padding, delay }) =>
                    sleep(delay).then(() =>
                      engine.dispatch("PreToolUse", {
                        tool_name: tool,
                        tool_input: { command: `${forbidden ? "FORBIDDEN " : ""}${noise}`, padding: "p".repeat(padding) }
                      })
                    )
                  )
                )
                const wrong = outcomes.flatMap((outcome, i) => {
                  const { tool, forbidden } = dispatches[i]!
                  const expected = forbidden && TOOLS[tool].guarded
                  // Every answer read whole: no hook's result was taken before its output ended.
                  return outcome.blocked === expected && outcome.warnings.length === 0
                    ? []
                    : [
                        {
                          tool,
                          forbidden,
                          blocked: outcome.blocked,
                          warnings: outcome.warnings,
                          hooks: outcome.hooks.map((hook) => ({ ...hook, stdout: hook.stdout.slice(0, 200) }))
                        }
                      ]
                })
                expect(wrong.slice(0, 3), `${wrong.length} of ${dispatches.length} dispatches`).toEqual([])
              }),
              { numRuns: runs, endOnFailure: true }
            )
          } finally {
            await engine.close()
          }
          // Failures of hooks (the async ones included) all reach onWarning: none here.
          expect(warnings.filter((warning) => !warning.startsWith("async hook results are not being taken"))).toEqual([])
        },
        timeout
      )
    }

    const maker = makers[0]!
    it(
      `${maker.label}: a guard whose answer was not read whole is never a clean success: a warning, and failClosed blocks`,
      async () => {
        const warnings: Array<string> = []
        const open = await maker.create({ settings: [files.late], projectDir: dir, onWarning: (warning) => warnings.push(warning) })
        const closed = await maker.create({ settings: [files.late], projectDir: dir, failClosed: true, onWarning: () => {} })
        try {
          // A grandchild in the hook's group holds stdout; a process that left the group (setsid) holds it.
          for (const [tool, script] of [
            ["Bash", "guard-late.sh"],
            ["Edit", "guard-escaped.sh"]
          ] as const) {
            const payload = { tool_name: tool, tool_input: { command: "FORBIDDEN" } }
            const [allowed, blocked] = await Promise.all([open.dispatch("PreToolUse", payload), closed.dispatch("PreToolUse", payload)])
            expect(allowed.blocked).toBe(false)
            expect(allowed.warnings.join("\n")).toMatch(/still open \d+ ms after the hook exited/)
            expect(allowed.hooks[0]!.messages.join("\n")).toMatch(/still open/)
            expect(warnings.join("\n")).toContain(script)
            expect(blocked).toMatchObject({ blocked: true, decision: "deny" })
            expect(blocked.reason).toContain("its answer could not be read; blocking because the engine fails closed")
          }
        } finally {
          await Promise.all([open.close(), closed.close()])
        }
      },
      timeout
    )
  })
}
