import { HookError } from "@agent-hooks/core"
import { describe, expect, it } from "vitest"

describe("isHookError", () => {
  it("knows the engine's own failures by their tag, also a copy made by another bundle, and nothing else", () => {
    expect(
      HookError.isHookError(new HookError.SettingsError({ file: "/p/settings.json", path: ["hooks"], detail: "expected an object" }))
    ).toBe(true)
    expect(HookError.isHookError(new HookError.PayloadError({ detail: "not JSON" }))).toBe(true)
    // What a second copy of the core (another bundle) makes: the same tag, another class.
    expect(HookError.isHookError({ _tag: "PayloadError", detail: "not JSON", message: "invalid event payload: not JSON" })).toBe(true)
    for (const other of [
      new Error("boom"),
      { _tag: "Failed", message: "x" },
      { _tag: "SpawnError" },
      "SettingsError",
      null,
      undefined,
      42
    ]) {
      expect(HookError.isHookError(other)).toBe(false)
    }
  })
})
