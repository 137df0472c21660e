/**
 * The `migrate` round trip through the BUILT CLI with real hook processes: for generated configs in
 * each dialect and generated payloads, `agent-hooks run --preset X --settings <original>` and
 * `agent-hooks run --settings <migrated>` give the same exit status and the same outcome (the
 * hooks' `source` and duration aside), for all five dialects; `migrate` refuses nothing here.
 * Node lane only: every case starts several CLI processes; they run four at a time (each
 * comparison's two runs, and the comparisons of one config, side by side), in one temp tree.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const behave = fileURLToPath(new URL("./fixtures/behave.sh", import.meta.url))
const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cli-migrate-")))
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Configs per dialect × payloads per config: 50 compared dispatches per dialect. */
const CONFIGS = 10
const PAYLOADS = 5
/** CLI processes at once. */
const CONCURRENCY = 4

const env: Record<string, string | undefined> = { ...process.env, HOME: join(root, "home"), NO_COLOR: "1" }
const cliSync = (args: ReadonlyArray<string>) => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: "utf8" })
  if (result.error) throw result.error
  return result
}

let running = 0
const waiting: Array<() => void> = []
/** One CLI run, started when fewer than CONCURRENCY are running. */
const cli = async (args: ReadonlyArray<string>, stdin: string): Promise<{ status: number | null; stdout: string; stderr: string }> => {
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: root, env })
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
      child.on("error", reject)
      child.on("close", (status) => resolve({ status, stdout, stderr }))
      child.stdin.end(stdin)
    })
  } finally {
    running--
    waiting.shift()?.()
  }
}
let count = 0
const write = (value: unknown): string => {
  const file = join(root, `config-${count++}.json`)
  writeFileSync(file, JSON.stringify(value))
  return file
}
const comparable = (stdout: string) => {
  const outcome = JSON.parse(stdout)
  return { ...outcome, hooks: outcome.hooks.map(({ source: _s, durationMs: _d, ...hook }: Record<string, unknown>) => hook), warnings: outcome.warnings.length }
}

/** Exit code, stdout kind (6: the PIGO_MODEL the hook was given), stderr kind. */
const behaviour = fc.tuple(fc.constantFrom(0, 1, 2, 3), fc.integer({ min: 0, max: 6 }), fc.constantFrom(0, 1))
const payload = fc.record({
  tool_name: fc.constantFrom("write_file", "Bash", "Edit"),
  tool_input: fc.record({ command: fc.constantFrom("git push origin", "ls") }),
  transcript_path: fc.constant("/t.json")
})

interface Config {
  readonly config: unknown
  readonly dispatches: ReadonlyArray<{ readonly event: string; readonly payload: unknown }>
}

const roundTrip = async (preset: string, arbitrary: fc.Arbitrary<Config>) => {
  let compared = 0
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ config, dispatches }) => {
      const original = write(config)
      const migrated = join(root, `migrated-${count++}.json`)
      const migration = cliSync(["migrate", "--from", preset, "--settings", original, "--write", migrated])
      expect(migration.status, migration.stderr).toBe(0)
      await Promise.all(dispatches.map(async ({ event, payload }) => {
        const [before, after] = await Promise.all([
          cli(["run", event, "--preset", preset, "--settings", original], JSON.stringify(payload)),
          cli(["run", event, "--settings", migrated], JSON.stringify(payload))
        ])
        expect(after.status, `${event} ${JSON.stringify(payload)} ${JSON.stringify(config)}`).toBe(before.status)
        expect(comparable(after.stdout)).toEqual(comparable(before.stdout))
        compared++
      }))
    }),
    { numRuns: CONFIGS, seed: 17 }
  )
  return compared
}

const handler = ([exit, out, err]: readonly [number, number, number]) => ({ type: "command", command: `sh ${behave} ${exit} ${out} ${err}` })

describe("migrate round trip through the CLI (real processes)", () => {
  it("Wingman (PostToolUse and Stop exit 2 does not block)", async () => {
    const arbitrary = fc.record({
      groups: fc.array(fc.record({ matcher: fc.constantFrom("write_file", "*", "write_.*", "Bash|Edit"), hooks: fc.array(behaviour, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 3 }),
      other: fc.record({ event: fc.constantFrom("PostToolUse", "Stop"), b: behaviour }),
      payloads: fc.array(fc.record({ event: fc.constantFrom("PreToolUse", "PreToolUse", "PostToolUse", "Stop"), payload }), { minLength: PAYLOADS, maxLength: PAYLOADS })
    }).map(({ groups, other, payloads }): Config => ({
      config: { hooks: { PreToolUse: groups.map((g) => ({ matcher: g.matcher, hooks: g.hooks.map(handler) })), [other.event]: [{ hooks: [handler(other.b)] }] } },
      dispatches: payloads
    }))
    expect(await roundTrip("wingman", arbitrary)).toBe(CONFIGS * PAYLOADS)
  }, 180_000)

  it("pigo (any non-zero exit of tool_start blocks with stderr as the reason; fire-and-forget hooks; PIGO_MODEL from the config)", async () => {
    const PIGO_EVENTS = ["agent_start", "turn_start", "tool_start", "tool_end", "turn_end", "agent_end"] as const
    const arbitrary = fc.record({
      hooks: fc.array(fc.record({ event: fc.constantFrom(...PIGO_EVENTS, "tool_start"), b: behaviour, blocking: fc.constantFrom(true, true, false), tool: fc.constantFrom(undefined, "Bash", "write_file|Edit") }), { minLength: 1, maxLength: 3 }),
      // PIGO_MODEL: the payload's model, else the config's
      payloads: fc.array(
        fc.record({
          event: fc.constantFrom(...PIGO_EVENTS, "tool_start", "tool_start"),
          payload: fc.tuple(payload, fc.constantFrom(undefined, "o3")).map(([p, model]) => (model === undefined ? p : { ...p, model }))
        }),
        { minLength: PAYLOADS, maxLength: PAYLOADS }
      )
    }).map(({ hooks, payloads }): Config => {
      const byEvent: Record<string, Array<unknown>> = {}
      for (const h of hooks) {
        ;(byEvent[h.event] ??= []).push({ command: `sh ${behave} ${h.b.join(" ")}`, blocking: h.blocking, ...(h.tool === undefined ? {} : { match: { tool: h.tool } }) })
      }
      return { config: { model: "m-1", plugins: [{ name: "p", hooks: byEvent }] }, dispatches: payloads }
    })
    expect(await roundTrip("pigo", arbitrary)).toBe(CONFIGS * PAYLOADS)
  }, 180_000)

  it("Gemini CLI (documented output rules: exit 2 blocks with stderr, other exits warn; dedup by name:command)", async () => {
    const GEMINI_EVENTS = ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "SessionStart"] as const
    const arbitrary = fc.record({
      // Gemini dedups matched hooks by name:command: names, and one shared command.
      groups: fc.array(
        fc.record({
          event: fc.constantFrom(...GEMINI_EVENTS, "BeforeTool"),
          matcher: fc.constantFrom(undefined, "write_file", "write_.*|Bash"),
          hooks: fc.array(fc.record({ b: behaviour, name: fc.constantFrom(undefined, "lint", "audit"), shared: fc.constantFrom(false, true) }), { minLength: 1, maxLength: 2 })
        }),
        { minLength: 1, maxLength: 3 }
      ),
      payloads: fc.array(fc.record({ event: fc.constantFrom(...GEMINI_EVENTS, "BeforeTool", "BeforeTool"), payload }), { minLength: PAYLOADS, maxLength: PAYLOADS })
    }).map(({ groups, payloads }): Config => {
      const hooks: Record<string, Array<unknown>> = {}
      for (const g of groups) {
        ;(hooks[g.event] ??= []).push({
          ...(g.matcher === undefined ? {} : { matcher: g.matcher }),
          hooks: g.hooks.map((h) => ({ ...(h.shared ? handler([0, 1, 0]) : handler(h.b)), ...(h.name === undefined ? {} : { name: h.name }) }))
        })
      }
      return { config: { hooks }, dispatches: payloads.map((d) => ({ ...d, payload: { ...d.payload, timestamp: "2026-01-01T00:00:00.000Z" } })) }
    })
    expect(await roundTrip("gemini", arbitrary)).toBe(CONFIGS * PAYLOADS)
  }, 180_000)

  it("orchestration", async () => {
    const arbitrary = fc.record({
      groups: fc.array(fc.record({ event: fc.constantFrom("PreToolUse", "PostToolUse"), matcher: fc.constantFrom("Bash(git push:*)", "Bash", "Edit|Write", "*"), b: behaviour, continueOnError: fc.boolean() }), { minLength: 1, maxLength: 3 }),
      payloads: fc.array(fc.record({ event: fc.constantFrom("PreToolUse", "PostToolUse"), payload }), { minLength: PAYLOADS, maxLength: PAYLOADS })
    }).map(({ groups, payloads }): Config => {
      const hooks: Record<string, Array<unknown>> = {}
      for (const g of groups) {
        ;(hooks[g.event] ??= []).push({ matcher: g.matcher, hooks: [{ type: "command", command: "sh", args: [behave, String(g.b[0]), String(g.b[1]), String(g.b[2])], continueOnError: g.continueOnError, timeout: 10000 }] })
      }
      return { config: { executionLog: false, hooks }, dispatches: payloads }
    })
    expect(await roundTrip("orchestration", arbitrary)).toBe(CONFIGS * PAYLOADS)
  }, 180_000)

  it("Wave", async () => {
    const arbitrary = fc.record({
      groups: fc.array(fc.record({ event: fc.constantFrom("PreToolUse", "Stop"), matcher: fc.constantFrom("Bash", "*", "write_.*"), hooks: fc.array(behaviour, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 3 }),
      payloads: fc.array(fc.record({ event: fc.constantFrom("PreToolUse", "Stop"), payload }), { minLength: PAYLOADS, maxLength: PAYLOADS })
    }).map(({ groups, payloads }): Config => {
      const hooks: Record<string, Array<unknown>> = {}
      for (const g of groups) (hooks[g.event] ??= []).push({ matcher: g.matcher, hooks: g.hooks.map(handler) })
      return { config: { hooks }, dispatches: payloads }
    })
    expect(await roundTrip("wave", arbitrary)).toBe(CONFIGS * PAYLOADS)
  }, 180_000)
})
