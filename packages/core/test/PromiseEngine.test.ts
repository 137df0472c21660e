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
