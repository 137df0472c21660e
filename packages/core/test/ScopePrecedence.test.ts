/**
 * Scope precedence, from the side of a settings file lower down (a project file from a cloned
 * repository): it never weakens, replaces or shadows a higher scope's hook, by dedup or any other
 * key, under every preset. Every handler key the settings schema knows, every pair of scopes.
 */
import type { EngineOptions } from "@agent-hooks/core/HookEngine"
import * as Plan from "@agent-hooks/core/Plan"
import type { Preset } from "@agent-hooks/core/Preset"
import * as Presets from "@agent-hooks/core/Presets"
import * as Settings from "@agent-hooks/core/Settings"
import * as SettingsSchema from "@agent-hooks/core/SettingsSchema"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Path } from "effect"
import { memoryFs } from "./harness.ts"

type Scope = "managed" | "user" | "explicit" | "project" | "local"
const FILE: Record<Scope, string> = {
  managed: "/managed/managed-settings.json",
  user: "/home/user/.agent-hooks/settings.json",
  explicit: "/s/explicit.json",
  project: "/project/.agent-hooks/settings.json",
  local: "/project/.agent-hooks/settings.local.json"
}
/** Higher scope first. `explicit` (`--settings`) replaces discovery, so it meets managed only. */
const PAIRS: ReadonlyArray<readonly [Scope, Scope]> = [
  ["managed", "user"],
  ["managed", "explicit"],
  ["managed", "project"],
  ["managed", "local"],
  ["user", "project"],
  ["user", "local"],
  ["project", "local"]
]

/**
 * Each handler key with a value that would weaken the guard if the lower copy ran instead. A key the
 * schema gains later fails the completeness test below until it is listed here.
 */
const WEAKER: Record<string, unknown> = {
  args: ["--dry-run"],
  shell: "bash",
  async: true,
  asyncRewake: true,
  env: { GUARD_OFF: "1" },
  envMaxChars: 1,
  passEnv: ["AGENT_HOOKS_AUDIT_KEY"],
  timeout: 1e-9,
  statusMessage: "looks the same",
  if: "Bash(never-this *)",
  onFailure: "continue",
  once: true,
  dedupeKey: "guard",
  sequential: true,
  loopLimit: 0
}

const GUARD = { type: "command", command: "/opt/guard.sh", onFailure: "block", timeout: 5 } as const

/** The given preset, its files placed at the canonical paths and decoded by the canonical decoder. */
const placed = (preset: Preset, scopes: ReadonlyArray<Scope>): Preset => ({
  ...preset,
  discover: () =>
    (["user", "project", "local"] as const)
      .filter((scope) => scopes.includes(scope))
      .map((scope) => ({ path: FILE[scope], scope, required: false })),
  decode: (document, file, context) => Settings.decode(document, file.path, file.scope, undefined, context.events ?? preset.events)
})

const planOf = (preset: Preset, files: Partial<Record<Scope, unknown>>, extra: Partial<EngineOptions> = {}) => {
  const scopes = Object.keys(files) as ReadonlyArray<Scope>
  const documents = Object.fromEntries(Object.entries(files).map(([scope, document]) => [FILE[scope as Scope], document]))
  const options: EngineOptions = {
    projectDir: "/project",
    env: { HOME: "/home/user", PATH: "/bin" },
    managedDir: "/managed",
    preset: placed(preset, scopes),
    ...(scopes.includes("explicit") ? { settings: [FILE.explicit] } : {}),
    ...extra
  }
  return Effect.runSync(Plan.make(options).pipe(Effect.provide(Layer.mergeAll(memoryFs(documents, { executable: true }), Path.layer))))
}

const onBash = (handler: Record<string, unknown>) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [handler] }] } })
const payload = { tool_name: "Bash", tool_input: { command: "rm -rf /" } }

describe("a lower scope's copy of a hook", () => {
  it("the list of keys covers every key of a command handler in the settings schema", () => {
    const document = SettingsSchema.jsonSchema() as any
    const variants = document.properties.hooks.additionalProperties.items.properties.hooks.items.anyOf as ReadonlyArray<any>
    const command = variants.find((variant) => variant.properties?.type?.enum?.[0] === "command")
    const keys = Object.keys(command.properties).filter((key) => key !== "type" && key !== "command")
    expect(keys.sort()).toEqual(Object.keys(WEAKER).sort())
  })

  for (const preset of Presets.all) {
    it(`never stands in for a higher scope's hook (${preset.name}: every key, every pair of scopes, with and without a dedupeKey)`, () => {
      let cases = 0
      for (const [higher, lower] of PAIRS) {
        for (const [key, value] of Object.entries(WEAKER)) {
          for (const keyed of [false, true]) {
            const own = keyed ? { ...GUARD, dedupeKey: "guard" } : GUARD
            const copy = { ...own, [key]: value }
            const plan = planOf(preset, { [higher]: onBash(own), [lower]: onBash(copy) })
            const hooks = [...(plan.events.get("PreToolUse")?.hooks ?? [])]
            const mine = hooks.find((hook) => hook.entry.source === FILE[higher])
            const theirs = hooks.find((hook) => hook.entry.source === FILE[lower])
            expect(mine, `${higher} hook planned`).toBeDefined()
            // Also once the lower copy has run (`once`), and after it.
            for (const ran of [new Set<number>(), new Set(theirs === undefined ? [] : [theirs.id])]) {
              const explained = Plan.explain(plan, "PreToolUse", payload, ran)
              const ours = explained.find((hook) => hook.id === mine!.id)
              expect(
                ours?.runs,
                `${preset.name}: ${lower} copy with ${key}: ${JSON.stringify(value)}${keyed ? " (dedupeKey)" : ""} against ${higher}`
              ).toBe(true)
              // the higher scope's hook runs with its own fields
              expect(mine!.entry.handler).toMatchObject(own)
              expect(mine!.timeout).toBe(5)
              expect(mine!.async).toBe(false)
            }
            cases++
          }
        }
      }
      expect(cases).toBe(PAIRS.length * Object.keys(WEAKER).length * 2)
    })

    it(`a value several files set is the higher scope's (${preset.name}: sequential, dedupe, every pair)`, () => {
      for (const [higher, lower] of PAIRS) {
        for (const [key, high, low] of [
          ["sequential", true, false],
          ["dedupe", false, true],
          ["sequential", false, true],
          ["dedupe", true, false]
        ] as const) {
          const plan = planOf(preset, { [higher]: { [key]: high, hooks: {} }, [lower]: { [key]: low, hooks: {} } })
          expect(plan.settings[key], `${key} of ${higher} over ${lower}`).toBe(high)
        }
      }
    })
  }

  it("two copies within one scope: the first in config order runs, as before", () => {
    const plan = planOf(Presets.agentHooks, {
      project: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [GUARD, { ...GUARD, statusMessage: "second" }] }] } }
    })
    expect(Plan.explain(plan, "PreToolUse", payload).map((hook) => hook.runs)).toEqual([true, false])
  })

  it("a higher copy that does not match hides nothing: the lower copy runs", () => {
    const plan = planOf(Presets.agentHooks, {
      managed: { hooks: { PreToolUse: [{ matcher: "Edit", hooks: [GUARD] }] } },
      project: onBash(GUARD)
    })
    const explained = Plan.explain(plan, "PreToolUse", payload)
    expect(explained.find((hook) => hook.source === FILE.project)?.runs).toBe(true)
    expect(explained.find((hook) => hook.source === FILE.managed)?.runs).toBe(false)
  })
})
