import * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cmd, group, harness, settings, withEngine } from "./harness.ts"

// A payload that counts how often its tool_name is read: the matching reads it once per hook.
const counted = () => {
  let reads = 0
  const payload = {
    get tool_name() {
      reads += 1
      return "Bash"
    },
    tool_input: { command: "ls" }
  }
  return { payload, reads: () => reads }
}

const files = { "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard"))], Stop: [group(undefined, cmd("stop"))] }) }

describe("PromiseEngine", () => {
  it("preset: the tool names and own events of the engine's preset, for hosts that name their tools and events themselves", async () => {
    const names = async (preset: string | undefined) => {
      const engine = await PromiseEngine.fromLayer(harness({}, () => ({}), preset === undefined ? {} : { preset }).layer)
      try {
        return engine.preset
      } finally {
        await engine.close()
      }
    }
    // The default (canonical) settings, Claude Code's shape: Claude Code's tool names, no events of their own.
    const claude = await names(undefined)
    expect(claude.name).toBe("agent-hooks")
    expect(claude.toolNames).toEqual(expect.arrayContaining(["Bash", "Write", "Edit", "Read"]))
    expect(claude.events).toEqual({})
    // pigo names its tools itself (its matchers are the host's names); its events stand for catalog ones.
    const pigo = await names("pigo")
    expect(pigo.toolNames).toEqual([])
    expect(pigo.events).toEqual({ PreToolUse: "tool_start", PostToolUse: "tool_end", UserPromptSubmit: "agent_start", Stop: "agent_end" })
    // Gemini CLI: its own names; a catalog event the preset keeps (SessionStart) is no alias.
    const gemini = await names("gemini")
    expect(gemini.toolNames).toContain("run_shell_command")
    expect(gemini.events).toMatchObject({ PreToolUse: "BeforeTool", PostToolUse: "AfterTool", Stop: "AfterAgent" })
    expect(gemini.events["SessionStart"]).toBeUndefined()
    expect((await names("wingman")).toolNames).toEqual([])
  })

  it("a dispatch that runs hooks matches its payload once, as the Effect engine does (unmatched is not run twice)", async () => {
    const viaEffect = counted()
    const effectOutcome = await Effect.runPromise(withEngine(harness(files), (engine) => engine.dispatch("PreToolUse", viaEffect.payload)))
    const engine = await PromiseEngine.fromLayer(harness(files).layer)
    try {
      const viaPromise = counted()
      const outcome = await engine.dispatch("PreToolUse", viaPromise.payload)
      expect(outcome.hooks.map((hook) => hook.command)).toEqual(["guard"])
      expect(effectOutcome.hooks.map((hook) => hook.command)).toEqual(["guard"])
      expect(viaPromise.reads()).toBe(viaEffect.reads())
      // A payload no hook matches is answered without running anything, the same on both paths.
      expect((await engine.dispatch("PreToolUse", { tool_name: "Read", tool_input: {} })).hooks).toEqual([])
      // And the next dispatch of the same payload matches it again (nothing is remembered past one dispatch).
      const again = counted()
      await engine.dispatch("PreToolUse", again.payload)
      expect(again.reads()).toBe(viaEffect.reads())
    } finally {
      await engine.close()
    }
  })
})
