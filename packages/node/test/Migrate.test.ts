/**
 * The `migrate` round trip as a property, in-process: for generated configs in every dialect,
 * generated payloads and generated hook behaviours (exit codes 0/1/2/3, plain or JSON stdout,
 * stderr), an engine built from the original file under its preset and one built from the migrated
 * canonical file give equal outcomes (the hooks' `source` aside), unless `toCanonical` refused a
 * hook, naming it. Processes are scripted (test-utils' ScriptedProcessSpawner): the command text
 * names the behaviour the script plays.
 */
import { HookEngine, Presets } from "@agent-hooks/core"
import type { Outcome } from "@agent-hooks/core"
import type { Preset } from "@agent-hooks/core/Preset"
import * as ScriptedProcessSpawner from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import { configFor, eventsOf } from "@agent-hooks/test-utils/DialectConfigs"

const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-migrate-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

interface Behaviour {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}
const STDOUTS = [
  "",
  "plain text",
  JSON.stringify({ decision: "block", reason: "json block" }),
  JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "cc deny" } }),
  JSON.stringify({ continue: false, stopReason: "stop here" }),
  JSON.stringify({ systemMessage: "note", hookSpecificOutput: { additionalContext: "ctx" } }),
  JSON.stringify({ decision: "deny", reason: "gemini deny" }),
  // The hook prints the PIGO_MODEL it was given (pigo's config model when the payload has none).
  "PIGO_MODEL",
  // the agents' own answers
  JSON.stringify({ permission: "deny", user_message: "cursor deny", agent_message: "cursor deny" }),
  JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: "copilot deny" }),
  JSON.stringify({ cancel: true, errorMessage: "cline cancel" }),
  JSON.stringify({ allowTool: false, denyReason: "agy deny" })
]
const behaviour: fc.Arbitrary<Behaviour> = fc.record({
  exitCode: fc.constantFrom(0, 1, 2, 3),
  stdout: fc.constantFrom(...STDOUTS),
  stderr: fc.constantFrom("", "why not")
})

/**
 * The scripted spawner plays `hook_<n>`'s behaviour, wherever the name stands in the command line;
 * a Cline hook, named by its executable `.clinerules/hooks/<Event>`, plays its event's (`events`).
 */
const spawner = (behaviours: ReadonlyArray<Behaviour>, events: ReadonlyArray<string> = []) =>
  ScriptedProcessSpawner.layer((request) => {
    const line = [request.file, ...request.args].join(" ")
    const found = /hook_(\d+)/.exec(line)
    const script = /\.clinerules\/hooks\/(\w+)/.exec(line)
    const played = found !== null ? behaviours[Number(found[1])] : script !== null ? behaviours[events.indexOf(script[1]!)] : undefined
    if (played?.stdout === "PIGO_MODEL") return { ...played, stdout: `model=${request.env["PIGO_MODEL"] ?? "(unset)"}` }
    return played ?? { exitCode: 0 }
  })

let fileCount = 0
const writeJson = (value: unknown): string => {
  const file = join(root, `settings-${fileCount++}.json`)
  writeFileSync(file, JSON.stringify(value))
  return file
}

/** Outcomes compared as a user sees them: without each hook's source and duration, file names masked (the longest first). */
const comparable = (outcome: Outcome.Outcome, files: ReadonlyArray<string>) => {
  const mask = (text: string) =>
    [...files]
      .sort((a, b) => b.length - a.length)
      .reduce((acc, file) => acc.split(file).join("<file>"), text)
      .replace(/ at [^:]*hooks[^:]*:/g, " at <path>:")
  return JSON.parse(mask(JSON.stringify({ ...outcome, hooks: outcome.hooks.map(({ source: _s, durationMs: _d, ...hook }) => hook) })))
}

interface Case {
  readonly config: unknown
  readonly dispatches: ReadonlyArray<{ readonly event: string; readonly payload: Record<string, unknown> }>
  readonly behaviours: ReadonlyArray<Behaviour>
}

const engineOf = (preset: Preset, file: string) =>
  HookEngine.make({ preset, settings: [file], projectDir: root, env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" } })

/** Runs one case; returns how many dispatches were compared (0 when the migration was refused). */
const roundTrip = (preset: Preset, c: Case): Promise<{ compared: number; refused: ReadonlyArray<string> }> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const originalFile = writeJson(c.config)
        const original = yield* engineOf(preset, originalFile)
        const migrated = Presets.toCanonical(original.settings, preset)
        if (migrated.refused.length > 0) return { compared: 0, refused: migrated.refused }
        const migratedFile = writeJson(migrated.settings)
        const canonical = yield* engineOf(Presets.agentHooks, migratedFile)
        for (const { event, payload } of c.dispatches) {
          const before = yield* original.dispatch(event, payload)
          const name = canonicalName(preset, event, migrated.settings)
          const after = yield* canonical.dispatch(name, payload)
          expect(
            comparable(after, [originalFile, migratedFile]),
            `${event} ${JSON.stringify(payload)}\n${JSON.stringify(c.config)}\n${JSON.stringify(migrated.settings)}`
          ).toEqual({ ...comparable(before, [originalFile, migratedFile]), event: name })
        }
        return { compared: c.dispatches.length, refused: [] }
      })
    ).pipe(Effect.provide(Layer.mergeAll(spawner(c.behaviours), NodeFileSystem.layer, NodePath.layer)))
  )

/** The name the host sends to the migrated file: the dialect's, when the file declares it, else its catalog event. */
const canonicalName = (preset: Preset, event: string, migrated: Record<string, unknown>): string =>
  Array.isArray(migrated["events"]) && migrated["events"].some((declared: { name: string }) => declared.name === event)
    ? event
    : (preset.events.find((declared) => declared.name === event)?.extends ?? event)

/** Handlers named hook_0..hook_n in order, so each has its own behaviour. */
const numbered = <A>(groups: ReadonlyArray<A>, handlers: (group: A, next: () => string) => unknown): ReadonlyArray<unknown> => {
  let n = 0
  return groups.map((group) => handlers(group, () => `hook_${n++}`))
}

/** 250 generated cases on the Node lane, 25 on Bun and Deno; `minCompared` is for 250 and scales with them. */
const runProperty = async (preset: Preset, arbitrary: fc.Arbitrary<Case>, minCompared: number) => {
  const numRuns = PropertyRuns.forLane(250)
  let compared = 0
  let refusedCases = 0
  await fc.assert(
    fc.asyncProperty(arbitrary, async (c) => {
      const result = await roundTrip(preset, c)
      compared += result.compared
      if (result.refused.length > 0) refusedCases++
      // Every refusal names the file, the hook's path and why.
      for (const refusal of result.refused) expect(refusal).toMatch(/^\/.+ at .+ \(.+\): .+/)
    }),
    { numRuns, seed: 17 }
  )
  expect(compared).toBeGreaterThanOrEqual(Math.ceil((minCompared * numRuns) / 250))
  return { compared, refusedCases }
}

const TOOLS = ["write_file", "edit_file", "command_execute", "Bash", "Edit", "Write"]
const toolPayload = fc.record({
  tool_name: fc.constantFrom(...TOOLS),
  tool_input: fc.record({ command: fc.constantFrom("git push origin main", "ls", "rm -rf /"), file_path: fc.constantFrom("a.ts", "b.md") })
})
const behaviours = fc.array(behaviour, { minLength: 8, maxLength: 8 })

describe("migrate round trip (in-process, scripted processes)", () => {
  it("Wingman: PreToolUse, PostToolUse and Stop hooks keep their outcome (PostToolUse and Stop exit 2 does not block, 60 s default)", async () => {
    const group = fc.record({
      matcher: fc.constantFrom("write_file", "write_file|edit_file", "*", "", "command_.*", "edit"),
      size: fc.integer({ min: 1, max: 2 })
    })
    const arbitrary = fc
      .record({
        pre: fc.array(group, { minLength: 1, maxLength: 3 }),
        other: fc.constantFrom(null, "PostToolUse", "Stop"),
        payloads: fc.array(toolPayload, { minLength: 8, maxLength: 8 }),
        behaviours
      })
      .map(({ pre, other, payloads, behaviours }): Case => {
        const groups = numbered(pre, (g, next) => ({
          matcher: g.matcher,
          hooks: Array.from({ length: g.size }, () => ({ type: "command", command: next() }))
        }))
        const hooks: Record<string, unknown> = { PreToolUse: groups }
        if (other !== null) hooks[other] = [{ hooks: [{ type: "command", command: "hook_7" }] }]
        const events = other === null ? ["PreToolUse"] : ["PreToolUse", other]
        return { config: { hooks }, dispatches: payloads.map((payload, i) => ({ event: events[i % events.length]!, payload })), behaviours }
      })
    const { refusedCases } = await runProperty(Presets.wingman, arbitrary, 1000)
    expect(refusedCases).toBe(0)
  })

  it("orchestration: exec-form hooks, Bash(git push:*) matchers, ms timeouts and continueOnError keep their outcome", async () => {
    const arbitrary = fc
      .record({
        groups: fc.array(
          fc.record({
            event: fc.constantFrom("PreToolUse", "PostToolUse", "Stop"),
            matcher: fc.constantFrom("Bash", "Bash(git push:*)", "Edit|Write", "*"),
            continueOnError: fc.constantFrom(true, false, undefined),
            timeout: fc.constantFrom(5000, 30000, undefined)
          }),
          { minLength: 1, maxLength: 4 }
        ),
        payloads: fc.array(fc.record({ event: fc.constantFrom("PreToolUse", "PostToolUse", "Stop"), payload: toolPayload }), {
          minLength: 8,
          maxLength: 8
        }),
        behaviours
      })
      .map(({ groups, payloads, behaviours }): Case => {
        const hooks: Record<string, Array<unknown>> = {}
        numbered(groups, (g, next) => {
          const handler: Record<string, unknown> = { type: "command", command: next(), args: ["--check"] }
          if (g.continueOnError !== undefined) handler["continueOnError"] = g.continueOnError
          if (g.timeout !== undefined) handler["timeout"] = g.timeout
          ;(hooks[g.event] ??= []).push({ matcher: g.matcher, hooks: [handler] })
          return undefined
        })
        return { config: { executionLog: false, hooks }, dispatches: payloads, behaviours }
      })
    await runProperty(Presets.orchestration, arbitrary, 1000)
  })

  it("Wave: Claude Code's shape, in order, with WAVE_PROJECT_DIR, HOOK_EVENT and HOOK_TOOL_NAME, keeps its outcome", async () => {
    const arbitrary = fc
      .record({
        groups: fc.array(
          fc.record({
            event: fc.constantFrom("PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit"),
            matcher: fc.constantFrom("Bash", "Edit|Write", "*", "^write_.*")
          }),
          { minLength: 1, maxLength: 4 }
        ),
        payloads: fc.array(
          fc.record({ event: fc.constantFrom("PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit"), payload: toolPayload }),
          { minLength: 8, maxLength: 8 }
        ),
        behaviours
      })
      .map(({ groups, payloads, behaviours }): Case => {
        const hooks: Record<string, Array<unknown>> = {}
        numbered(groups, (g, next) => (hooks[g.event] ??= []).push({ matcher: g.matcher, hooks: [{ type: "command", command: next() }] }))
        // The host passes transcript_path, as Wave does: the preset's derivation is not what is compared here.
        return {
          config: { hooks },
          dispatches: payloads.map((d) => ({ ...d, payload: { ...d.payload, transcript_path: "/t.json" } })),
          behaviours
        }
      })
    await runProperty(Presets.wave, arbitrary, 1000)
  })

  it("pigo: every event keeps its outcome (tool_start: any non-zero exit blocks with stderr as the reason; turn_start/turn_end and their timeout; fire-and-forget hooks; PIGO_MODEL from the config)", async () => {
    const PIGO_EVENTS = ["agent_start", "turn_start", "tool_start", "tool_end", "turn_end", "agent_end"] as const
    const hook = fc.record({
      event: fc.constantFrom(...PIGO_EVENTS),
      tool: fc.constantFrom(undefined, "Bash", "Bash|Edit", "write_file"),
      blocking: fc.constantFrom(undefined, true, false),
      timeout: fc.constantFrom(undefined, 5, 30)
    })
    const arbitrary = fc
      .record({
        plugins: fc.array(fc.array(hook, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
        payloads: fc.array(
          fc.record({
            event: fc.constantFrom(...PIGO_EVENTS, "tool_start", "tool_start"),
            payload: fc
              .tuple(toolPayload, fc.constantFrom(undefined, "o3"))
              .map(([payload, model]) => (model === undefined ? payload : { ...payload, model }))
          }),
          { minLength: 8, maxLength: 8 }
        ),
        behaviours
      })
      .map(({ plugins, payloads, behaviours }): Case => {
        let n = 0
        const config = {
          model: "m-1",
          plugins: plugins.map((hooks, p) => {
            const byEvent: Record<string, Array<unknown>> = {}
            for (const h of hooks) {
              ;(byEvent[h.event] ??= []).push({
                command: `hook_${n++}`,
                ...(h.tool === undefined ? {} : { match: { tool: h.tool } }),
                ...(h.blocking === undefined ? {} : { blocking: h.blocking }),
                ...(h.timeout === undefined ? {} : { timeout: h.timeout })
              })
            }
            return { name: `plugin-${p}`, hooks: byEvent }
          })
        }
        return { config, dispatches: payloads, behaviours }
      })
    const { refusedCases } = await runProperty(Presets.pigo, arbitrary, 1000)
    expect(refusedCases).toBe(0)
  })

  it("Gemini CLI: all eleven events keep their outcome (documented output rules, 60 s default, regex tool matchers, sequential groups, dedup by name:command)", async () => {
    const GEMINI_EVENTS = [
      "BeforeTool",
      "AfterTool",
      "BeforeAgent",
      "AfterAgent",
      "BeforeModel",
      "AfterModel",
      "BeforeToolSelection",
      "SessionStart",
      "SessionEnd",
      "PreCompress",
      "Notification"
    ] as const
    const arbitrary = fc
      .record({
        groups: fc.array(
          fc.record({
            event: fc.constantFrom(...GEMINI_EVENTS, "BeforeTool", "BeforeTool"),
            matcher: fc.constantFrom(undefined, "write_file", "write_.*|Bash", "*"),
            sequential: fc.constantFrom(undefined, true),
            size: fc.integer({ min: 1, max: 2 }),
            timeout: fc.constantFrom(undefined, 5000),
            // Gemini dedups by name:command: names, and commands an earlier hook has too.
            name: fc.constantFrom(undefined, "lint", "audit"),
            reuse: fc.constantFrom(false, false, true)
          }),
          { minLength: 1, maxLength: 4 }
        ),
        payloads: fc.array(
          fc.record({ event: fc.constantFrom(...GEMINI_EVENTS, "BeforeTool", "BeforeTool", "AfterTool"), payload: toolPayload }),
          { minLength: 8, maxLength: 8 }
        ),
        behaviours
      })
      .map(({ groups, payloads, behaviours }): Case => {
        const hooks: Record<string, Array<unknown>> = {}
        numbered(groups, (g, next) =>
          (hooks[g.event] ??= []).push({
            ...(g.matcher === undefined ? {} : { matcher: g.matcher }),
            ...(g.sequential === undefined ? {} : { sequential: g.sequential }),
            hooks: Array.from({ length: g.size }, () => ({
              type: "command",
              command: g.reuse ? "hook_0" : next(),
              ...(g.name === undefined ? {} : { name: g.name }),
              ...(g.timeout === undefined ? {} : { timeout: g.timeout })
            }))
          })
        )
        // The host passes Gemini's base fields: the preset's own additions are not what is compared here.
        return {
          config: { hooks },
          dispatches: payloads.map((d) => ({
            ...d,
            payload: { ...d.payload, transcript_path: "/t.json", timestamp: "2026-01-01T00:00:00.000Z" }
          })),
          behaviours
        }
      })
    const { refusedCases } = await runProperty(Presets.gemini, arbitrary, 1000)
    expect(refusedCases).toBe(0)
  })
})

/**
 * The agents' dialects, from generated configs in each one's own format (test-utils' DialectConfigs):
 * the engine of the original files under the dialect's preset and the engine of the migrated
 * canonical file give equal outcomes, unless toCanonical refused a hook, naming it.
 */
const AGENT_DIALECTS = [
  "agent-hooks",
  "claude",
  "codex",
  "qwen",
  "vscode",
  "cursor",
  "copilot",
  "kiro",
  "windsurf",
  "antigravity",
  "antigravity-1.0",
  "cline"
]

describe("migrate round trip of every agent's dialect (in-process, scripted processes)", () => {
  for (const name of AGENT_DIALECTS) {
    const preset = Presets.byName(name)!
    it(`${name}: the migrated canonical file gives the same outcomes`, async () => {
      const arbitrary = fc.record({
        hooks: fc.array(
          fc.record({
            event: fc.constantFrom(...eventsOf(preset)),
            matcher: fc.constantFrom(undefined, "Bash", "*"),
            timeout: fc.constantFrom(undefined, 5, 45)
          }),
          { minLength: 1, maxLength: 4 }
        ),
        behaviours,
        payloads: fc.array(
          fc.record({
            event: fc.constantFrom(...eventsOf(preset)),
            tool: fc.constantFrom("Bash", "Edit", "Shell", "run_command"),
            command: fc.constantFrom("git push", "ls")
          }),
          { minLength: 4, maxLength: 4 }
        )
      })
      let compared = 0
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ hooks, behaviours, payloads }) => {
          // hook_<i> plays the i-th behaviour; Cline's executable of an event, its first hook's
          const numbered = hooks.map((hook, i) => ({ ...hook, command: `hook_${i}` }))
          const events = [...new Set(numbered.map((hook) => hook.event))]
          const played =
            name === "cline" ? events.map((event) => behaviours[numbered.findIndex((hook) => hook.event === event)]!) : behaviours
          const project = join(root, `agent-${fileCount++}`)
          mkdirSync(join(project, "home"), { recursive: true })
          const config = configFor(preset, numbered)
          for (const [path, text] of Object.entries(config.files)) {
            mkdirSync(dirname(join(project, path)), { recursive: true })
            writeFileSync(join(project, path), text)
            if (!config.explicit) chmodSync(join(project, path), 0o755)
          }
          const settings = config.explicit ? Object.keys(config.files).map((file) => join(project, file)) : undefined
          const env = { HOME: join(project, "home"), PATH: "/usr/bin:/bin" }
          compared += await Effect.runPromise(
            Effect.scoped(
              Effect.gen(function* () {
                const original = yield* HookEngine.make({ preset, settings, projectDir: project, env })
                const migrated = Presets.toCanonical(original.settings, preset)
                for (const refusal of migrated.refused) expect(refusal).toMatch(/^\/.+ at .+ \(.+\): .+/)
                if (migrated.refused.length > 0) return 0
                const migratedFile = join(project, "migrated.json")
                writeFileSync(migratedFile, JSON.stringify(migrated.settings))
                const canonical = yield* HookEngine.make({ preset: Presets.agentHooks, settings: [migratedFile], projectDir: project, env })
                const files = [...original.settings.files.map((file) => file.path), migratedFile, project]
                for (const { event, tool, command } of payloads) {
                  const payload = {
                    tool_name: tool,
                    toolName: tool,
                    tool_input: { command },
                    transcript_path: "/t.json",
                    timestamp: "2026-01-01T00:00:00.000Z"
                  }
                  const before = yield* original.dispatch(event, payload)
                  const target = canonicalName(preset, event, migrated.settings)
                  const after = yield* canonical.dispatch(target, payload)
                  expect(
                    comparable(after, files),
                    `${event} ${JSON.stringify(payload)}\n${JSON.stringify(config.files)}\n${JSON.stringify(migrated.settings)}`
                  ).toEqual({ ...comparable(before, files), event: target })
                }
                return payloads.length
              })
            ).pipe(Effect.provide(Layer.mergeAll(spawner(played, events), NodeFileSystem.layer, NodePath.layer)))
          )
        }),
        { numRuns: PropertyRuns.forLane(25), seed: 33 }
      )
      expect(compared).toBeGreaterThan(0)
    })
  }
})
