import { describe, expect, it } from "vitest"
import { HookEvent, HookOutput, Outcome } from "@agent-hooks/core"

const spec = (name: string) => HookEvent.get(name)!
const hook = (command: string, over: Partial<HookOutput.RawRun>, event = "PreToolUse") => {
  const verdict = HookOutput.interpret(spec(event), {
    exitCode: 0,
    signal: null,
    timedOut: false,
    timeout: 600,
    stdout: "",
    stderr: "",
    ...over
  })
  const result: Outcome.HookResult = {
    command,
    exitCode: over.exitCode ?? 0,
    signal: null,
    timedOut: false,
    durationMs: 1,
    stdout: over.stdout ?? "",
    stderr: over.stderr ?? "",
    status: verdict.status,
    source: "settings.json",
    decision: verdict.decision,
    messages: verdict.messages
  }
  return { result, verdict }
}
const pd = (d: string, reason?: string) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: d, permissionDecisionReason: reason } })

describe("Outcome.aggregate", () => {
  it("deny > defer > ask > allow, whatever the order", () => {
    const out = Outcome.aggregate(
      spec("PreToolUse"),
      [hook("a", { stdout: pd("allow") }), hook("b", { stdout: pd("ask", "check") }), hook("c", { stdout: pd("defer") })],
      []
    )
    expect(out).toMatchObject({ decision: "defer", blocked: false })
    const denied = Outcome.aggregate(
      spec("PreToolUse"),
      [hook("a", { stdout: pd("allow") }), hook("b", { stdout: pd("deny", "no") }), hook("c", { stdout: pd("ask") })],
      []
    )
    expect(denied).toMatchObject({ decision: "deny", blocked: true, reason: "no" })
  })

  it("exit 2 counts as deny; a reason-less block still explains itself", () => {
    const out = Outcome.aggregate(spec("PreToolUse"), [hook("a", { stdout: pd("allow") }), hook("guard.sh", { exitCode: 2 })], [])
    expect(out).toMatchObject({ blocked: true, decision: "deny", reason: `blocked by hook "guard.sh" (exit code 2, no stderr)` })
  })

  it("updatedInput merges in config order, later keys win; null when blocked", () => {
    const ui = (u: object) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: u } })
    const out = Outcome.aggregate(
      spec("PreToolUse"),
      [hook("a", { stdout: ui({ command: "ls", timeout: 5 }) }), hook("b", { stdout: ui({ command: "ls -la" }) })],
      []
    )
    expect(out.updatedInput).toEqual({ command: "ls -la", timeout: 5 })
    const blocked = Outcome.aggregate(
      spec("PreToolUse"),
      [hook("a", { stdout: ui({ command: "ls" }) }), hook("b", { exitCode: 2, stderr: "no" })],
      []
    )
    expect(blocked.updatedInput).toBeNull()
  })

  it("every additionalContext and systemMessage, in config order", () => {
    const ctx = (c: string) =>
      JSON.stringify({ systemMessage: `m-${c}`, hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: c } })
    const out = Outcome.aggregate(
      spec("UserPromptSubmit"),
      [
        hook("a", { stdout: ctx("one") }, "UserPromptSubmit"),
        hook("b", { stdout: "plain two" }, "UserPromptSubmit"),
        hook("c", { stdout: ctx("three") }, "UserPromptSubmit")
      ],
      []
    )
    expect(out.additionalContext).toEqual(["one", "plain two", "three"])
    expect(out.systemMessages).toEqual(["m-one", "m-three"])
  })

  it("Stop: blocked means keep going, reasons joined", () => {
    const out = Outcome.aggregate(
      spec("Stop"),
      [
        hook("a", { exitCode: 2, stderr: "run tests" }, "Stop"),
        hook("b", { stdout: JSON.stringify({ decision: "block", reason: "update docs" }) }, "Stop")
      ],
      []
    )
    expect(out).toMatchObject({ blocked: true, decision: "block", reason: "run tests\nupdate docs" })
  })

  it("events that cannot block are never blocked", () => {
    const out = Outcome.aggregate(spec("Notification"), [hook("a", { exitCode: 2, stderr: "x" }, "Notification")], [])
    expect(out).toMatchObject({ blocked: false, decision: null, reason: null })
  })

  it("continue false wins; the first stopReason is kept", () => {
    const stop = (r: string) => JSON.stringify({ continue: false, stopReason: r })
    const out = Outcome.aggregate(
      spec("PostToolUse"),
      [
        hook("a", {}, "PostToolUse"),
        hook("b", { stdout: stop("first") }, "PostToolUse"),
        hook("c", { stdout: stop("second") }, "PostToolUse")
      ],
      []
    )
    expect(out).toMatchObject({ continue: false, stopReason: "first" })
  })

  it("has every field of the CLI contract", () => {
    const out = Outcome.aggregate(spec("PreToolUse"), [], [])
    expect(Object.keys(out)).toEqual(
      expect.arrayContaining([
        "event",
        "blocked",
        "decision",
        "reason",
        "continue",
        "stopReason",
        "updatedInput",
        "additionalContext",
        "systemMessages",
        "hooks"
      ])
    )
    expect(out).toMatchObject({ event: "PreToolUse", blocked: false, decision: null, continue: true, updatedInput: null, hooks: [] })
  })
})
