import { describe, expect, it } from "vitest"
import { HookEvent, HookOutput } from "@agent-hooks/core"

const spec = (name: string) => {
  const found = HookEvent.get(name)
  if (found === undefined) throw new Error(`no event ${name}`)
  return found
}
const run = (over: Partial<HookOutput.RawRun>): HookOutput.RawRun => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  timeout: 600,
  stdout: "",
  stderr: "",
  ...over
})
const interpret = (event: string, over: Partial<HookOutput.RawRun>) => HookOutput.interpret(spec(event), run(over))
const json = (value: unknown) => JSON.stringify(value)

describe("HookOutput.interpret", () => {
  it("exit 0 with nothing is a success with no decision", () => {
    const v = interpret("PreToolUse", {})
    expect(v).toMatchObject({ status: "success", decision: null, reason: null, continue: true, additionalContext: [] })
  })

  it("exit 2 on PreToolUse denies with stderr as the reason", () => {
    const v = interpret("PreToolUse", { exitCode: 2, stderr: "rm -rf is not allowed\n" })
    expect(v).toMatchObject({ status: "blocking-error", decision: "deny", reason: "rm -rf is not allowed" })
  })

  it("exit 2 on Stop blocks (the agent keeps going)", () => {
    expect(interpret("Stop", { exitCode: 2, stderr: "run the tests first" })).toMatchObject({ decision: "block", reason: "run the tests first" })
  })

  it("exit 2 on an event that cannot block decides nothing and says so", () => {
    const v = interpret("SessionEnd", { exitCode: 2, stderr: "nope" })
    expect(v.decision).toBeNull()
    expect(v.messages.join("\n")).toMatch(/SessionEnd cannot block/)
  })

  it("exit 2 with valid JSON uses the JSON reason", () => {
    const v = interpret("PreToolUse", {
      exitCode: 2,
      stderr: "raw",
      stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "from json" } })
    })
    expect(v).toMatchObject({ decision: "deny", reason: "from json" })
  })

  it("exit 2 with invalid JSON still blocks with stderr", () => {
    const v = interpret("PreToolUse", { exitCode: 2, stderr: "because", stdout: json({ hookSpecificOutput: { permissionDecision: "allow" } }) })
    expect(v).toMatchObject({ decision: "deny", reason: "because" })
    expect(v.messages.join("\n")).toMatch(/missing required field "hookEventName"/)
  })

  it.each(["allow", "deny", "ask", "defer"] as const)("permissionDecision %s", (d) => {
    const v = interpret("PreToolUse", { stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: d, permissionDecisionReason: "r" } }) })
    expect(v).toMatchObject({ status: "success", decision: d, reason: "r" })
  })

  it("a wrong hookEventName discards the output with Claude Code's message", () => {
    const v = interpret("PreToolUse", { stdout: json({ hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "deny" } }) })
    expect(v.status).toBe("non-blocking-error")
    expect(v.decision).toBeNull()
    expect(v.messages).toContain("Hook JSON output validation failed — Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'")
  })

  it("legacy top-level decision approve / block on PreToolUse", () => {
    expect(interpret("PreToolUse", { stdout: json({ decision: "approve" }) }).decision).toBe("allow")
    expect(interpret("PreToolUse", { stdout: json({ decision: "block", reason: "legacy" }) })).toMatchObject({ decision: "deny", reason: "legacy" })
  })

  it("a top-level decision other than approve/block is a validation error", () => {
    const v = interpret("PreToolUse", { stdout: json({ decision: "deny" }) })
    expect(v.status).toBe("non-blocking-error")
    expect(v.messages.join()).toMatch(/decision: expected "approve" \| "block", got "deny"/)
  })

  it("a flat permissionDecision is ignored, with a note", () => {
    const v = interpret("PreToolUse", { stdout: json({ permissionDecision: "deny" }) })
    expect(v.decision).toBeNull()
    expect(v.messages.join()).toMatch(/top-level "permissionDecision" is ignored/)
  })

  it("decision block on PostToolUse and UserPromptSubmit", () => {
    expect(interpret("PostToolUse", { stdout: json({ decision: "block", reason: "lint failed" }) })).toMatchObject({ decision: "block", reason: "lint failed" })
    expect(interpret("UserPromptSubmit", { stdout: json({ decision: "block", reason: "secret" }) })).toMatchObject({ decision: "block", reason: "secret" })
  })

  it("continue false, stopReason and systemMessage", () => {
    const v = interpret("PostToolUse", { stdout: json({ continue: false, stopReason: "halt", systemMessage: "warn user" }) })
    expect(v).toMatchObject({ continue: false, stopReason: "halt", systemMessage: "warn user" })
  })

  it("additionalContext and updatedInput", () => {
    const v = interpret("PreToolUse", {
      stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "ctx", updatedInput: { command: "ls -la" } } })
    })
    expect(v).toMatchObject({ additionalContext: ["ctx"], updatedInput: { command: "ls -la" } })
  })

  it("plain stdout reaches the context on UserPromptSubmit and SessionStart only", () => {
    expect(interpret("UserPromptSubmit", { stdout: "branch: main\n" }).additionalContext).toEqual(["branch: main"])
    expect(interpret("SessionStart", { stdout: "hello" }).additionalContext).toEqual(["hello"])
    expect(interpret("PreToolUse", { stdout: "hello" }).additionalContext).toEqual([])
  })

  it("stdout that starts with { but is not JSON is plain text, with a note", () => {
    const v = interpret("UserPromptSubmit", { stdout: "{not json" })
    expect(v.status).toBe("success")
    expect(v.additionalContext).toEqual(["{not json"])
    expect(v.messages.join()).toMatch(/looks like a JSON object but is not valid JSON/)
  })

  it("log lines before the JSON make it plain text", () => {
    const v = interpret("PreToolUse", { stdout: `checking...\n${json({ decision: "block" })}` })
    expect(v.decision).toBeNull()
  })

  it("exit 1 is a non-blocking error with the first line of stderr", () => {
    const v = interpret("PreToolUse", { exitCode: 1, stderr: "first\nsecond" })
    expect(v).toMatchObject({ status: "non-blocking-error", decision: null })
    expect(v.messages).toEqual(["Failed with non-blocking status code 1: first"])
  })

  it("another exit code with valid JSON applies the JSON", () => {
    const v = interpret("PreToolUse", { exitCode: 1, stdout: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } }) })
    expect(v).toMatchObject({ status: "success", decision: "ask" })
  })

  it("a timeout is cancelled: output discarded, no decision", () => {
    const v = interpret("PreToolUse", { timedOut: true, exitCode: null, signal: "SIGTERM", stdout: json({ decision: "block" }), timeout: 2 })
    expect(v).toMatchObject({ status: "cancelled", decision: null, additionalContext: [] })
    expect(v.messages).toEqual(["timed out after 2 s; output discarded, no decision"])
  })

  it("a hook that could not start is a non-blocking error", () => {
    const v = interpret("PreToolUse", { exitCode: null, spawnError: "spawn nope ENOENT" })
    expect(v).toMatchObject({ status: "non-blocking-error", decision: null })
  })

  it("PermissionRequest: decision.behavior, exit 2 ignored", () => {
    const allow = interpret("PermissionRequest", {
      stdout: json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput: { a: 1 } } } })
    })
    expect(allow).toMatchObject({ decision: "allow", updatedInput: { a: 1 } })
    expect(interpret("PermissionRequest", { exitCode: 2, stderr: "x" }).decision).toBeNull()
  })
})
