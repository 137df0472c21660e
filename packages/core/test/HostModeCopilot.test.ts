/**
 * Host mode under Copilot CLI 1.0.102, in both of its dialects (`fixtures/hosts/copilot.cli.json`
 * holds what it sent: the camelCase payload of a `.github/hooks` file with camelCase events, and the
 * snake_case payload of a PascalCase file or of Claude Code's `.claude/settings.json`, which it runs
 * too). Copilot CLI applies a rewrite (`modifiedArgs` in the camelCase dialect, `updatedInput` in
 * Claude Code's), reads only its dialect's answer (a flat deny in the Claude dialect lets the call
 * run), and on exit 2 tells the model only "hook exited with code 2": a block is a JSON deny.
 */
import { describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"
import { agent, call, hostFixtures, outcome, type Payload } from "./hosts.ts"

const [camel, snake] = hostFixtures("copilot.cli.json") as ReadonlyArray<Payload>
/** The payload as host mode gets it from `hook --host copilot --event preToolUse` (the command line names the event). */
const copilot = (payload: Payload) => call("copilot", { ...payload, hook_event_name: "preToolUse" })
const deny = outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no touching" })
const rewrite = outcome("PreToolUse", { decision: "allow", updatedInput: { command: "touch REWRITTEN" } })
const json = (reply: HostMode.HostReply) => ({ exitCode: reply.exitCode, json: JSON.parse(reply.stdout) as unknown })

describe("--host copilot", () => {
  it("camelCase dialect: a rewrite is modifiedArgs, a deny is flat", () => {
    expect(json(HostMode.answer(copilot(camel!), rewrite))).toStrictEqual({
      exitCode: 0,
      json: { permissionDecision: "allow", modifiedArgs: { command: "touch REWRITTEN" } }
    })
    expect(json(HostMode.answer(copilot(camel!), deny))).toStrictEqual({
      exitCode: 0,
      json: { permissionDecision: "deny", permissionDecisionReason: "no touching" }
    })
  })
  it("Claude Code's dialect: the answer is hookSpecificOutput (updatedInput, the deny with its reason), exit 0", () => {
    const read = copilot(snake!)
    expect(read.payload).toMatchObject({ tool_name: "Bash", tool_input: { command: "touch MARKER" } })
    expect(json(HostMode.answer(read, rewrite))).toStrictEqual({
      exitCode: 0,
      json: {
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch REWRITTEN" } }
      }
    })
    expect(json(HostMode.answer(read, deny))).toStrictEqual({
      exitCode: 0,
      json: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no touching" } }
    })
  })
  it("Claude Code's dialect names its event in Claude Code's names: read as Copilot CLI's own, without --event", () => {
    expect(call("copilot", snake!)).toMatchObject({ hostEvent: "preToolUse", event: "PreToolUse" })
    expect(call("copilot", { ...snake!, hook_event_name: "Stop" })).toMatchObject({ hostEvent: "agentStop", event: "Stop" })
  })
})

describe("--host claude run by Copilot CLI from .claude/settings.json", () => {
  it("a deny is exit 0 with the JSON deny, so that the reason reaches the model", () => {
    expect(json(HostMode.answer(call("claude", snake!), deny))).toStrictEqual({
      exitCode: 0,
      json: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no touching" } }
    })
  })
  it("Claude Code's own payload (it always names its transcript) still gets exit 2 and the reason on stderr", () => {
    const claude = { ...snake!, transcript_path: "/home/u/.claude/projects/p/s.jsonl", timestamp: undefined, tool_use_id: "toolu_1" }
    const reply = HostMode.answer(call("claude", claude), deny)
    expect(reply.exitCode).toBe(2)
    expect(reply.stderr).toBe("no touching\n")
  })
  it("host mode's own failure on that call is the same JSON deny", () => {
    const reply = HostMode.failure(agent("claude"), "PreToolUse", "the policy file is broken", snake!)
    expect(reply.exitCode).toBe(0)
    expect(JSON.parse(reply.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } })
  })
  it("other events keep exit 2 (Copilot CLI's reading of their JSON was not measured)", () => {
    const stop = outcome("Stop", { blocked: true, decision: "block", reason: "go on" })
    expect(HostMode.answer(call("claude", { ...snake!, hook_event_name: "Stop" }), stop).exitCode).toBe(2)
  })
})
