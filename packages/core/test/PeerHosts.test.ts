/**
 * Host mode for Kiro, Windsurf, Cline and Antigravity CLI: every event each agent sends (fixtures in
 * `fixtures/hosts/<agent>.docs.json`, in the shapes of the agents' docs and published examples) is
 * read into Claude Code's names, and every answer is written in the agent's own format and exit
 * status: Kiro and Windsurf by exit code, Cline always exit 0 with `{cancel, contextModification,
 * errorMessage}` (its published shape, checked below), Antigravity `{allowTool, denyReason}` or, on
 * 1.0 builds, `{decision, reason}`.
 */
import { describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"

import { agent, call, hostFixtures, outcome, type Payload } from "./hosts.ts"
const fixtures = (name: string): ReadonlyArray<Payload> => hostFixtures(`${name}.docs.json`)
const deny = (event: string, reason = "not here") => outcome(event, { blocked: true, decision: "deny", reason })

/** The events each agent's docs list, by the name it sends. */
const EVENTS: Record<string, ReadonlyArray<string>> = {
  kiro: [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionEnd",
    "PreTaskExec",
    "PostTaskExec",
    "PostFileCreate",
    "PostFileSave",
    "PostFileDelete",
    "Manual"
  ],
  windsurf: [
    "pre_read_code",
    "post_read_code",
    "pre_write_code",
    "post_write_code",
    "pre_run_command",
    "post_run_command",
    "pre_mcp_tool_use",
    "post_mcp_tool_use",
    "pre_user_prompt",
    "post_cascade_response",
    "post_cascade_response_with_transcript",
    "post_setup_worktree"
  ],
  cline: ["TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact"],
  antigravity: ["PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop"],
  "antigravity-1.0": ["PreToolUse", "PostToolUse"]
}
const hosts = Object.keys(EVENTS)

/** Cline's published answer: `{cancel: boolean, contextModification?: string, errorMessage?: string}`, nothing else. */
const clineAnswer = (stdout: string): Record<string, unknown> => {
  const lines = stdout.split("\n").filter((line) => line !== "")
  expect(lines).toHaveLength(1)
  const value = JSON.parse(lines[0]!) as Record<string, unknown>
  expect(typeof value["cancel"]).toBe("boolean")
  for (const [key, field] of Object.entries(value)) {
    expect(["cancel", "contextModification", "errorMessage"], key).toContain(key)
    if (key !== "cancel") expect(typeof field, key).toBe("string")
  }
  return value
}

describe.each(hosts)("%s: every event of its docs", (host) => {
  const payloads = fixtures(host)
  it("the fixtures cover every documented event, and each is read into Claude Code's names", () => {
    const seen = new Set<string>()
    for (const payload of payloads) {
      const read = call(host, payload)
      seen.add(read.hostEvent)
      expect(read.event).toBe(agent(host).events[read.hostEvent])
      expect(read.payload["hook_event_name"]).toBe(read.event)
      expect(read.payload["host"]).toMatchObject({ name: host, event: read.hostEvent })
    }
    for (const event of EVENTS[host]!) expect(seen.has(event), event).toBe(true)
  })

  it("nothing to say: exit 0, and nothing but Cline's {cancel: false}", () => {
    for (const payload of payloads) {
      const read = call(host, payload)
      const reply = HostMode.answer(read, outcome(read.event))
      expect(reply.exitCode).toBe(0)
      expect(reply.stderr).toBe("")
      if (host === "cline") expect(clineAnswer(reply.stdout)).toStrictEqual({ cancel: false })
      else expect(reply.stdout).toBe("")
    }
  })

  it("a deny of every tool call is the agent's own block, with the reason", () => {
    for (const payload of payloads) {
      const read = call(host, payload)
      if (read.event !== "PreToolUse") continue
      const reply = HostMode.answer(read, deny(read.event))
      if (host === "cline") {
        expect(reply.exitCode).toBe(0)
        expect(clineAnswer(reply.stdout)).toStrictEqual({ cancel: true, errorMessage: "not here" })
      } else if (host === "antigravity") {
        expect(reply.exitCode).toBe(0)
        expect(JSON.parse(reply.stdout)).toStrictEqual({ allowTool: false, denyReason: "not here" })
        expect(reply.stderr).toBe("not here\n")
      } else if (host === "antigravity-1.0") {
        expect(reply.exitCode).toBe(0)
        expect(JSON.parse(reply.stdout)).toStrictEqual({ decision: "deny", reason: "not here" })
      } else {
        expect(reply).toStrictEqual({ exitCode: 2, stdout: "", stderr: "not here\n" })
      }
    }
  })

  it("an ask becomes a deny saying approval is needed (no agent here can ask from a hook)", () => {
    const read = call(host, payloads.find((payload) => call(host, payload).event === "PreToolUse")!)
    const reply = HostMode.answer(read, outcome("PreToolUse", { decision: "ask", reason: "sure?" }), { ask: "host" })
    expect(reply.stdout + reply.stderr).toContain("approval needed: sure?")
  })

  it("a rewrite the agent cannot apply is a deny naming the rewritten call", () => {
    const read = call(host, payloads.find((payload) => call(host, payload).event === "PreToolUse")!)
    const reply = HostMode.answer(read, outcome("PreToolUse", { decision: "allow", updatedInput: { command: "ls" } }))
    const said =
      host === "cline" ? String(clineAnswer(reply.stdout)["errorMessage"]) : host.startsWith("antigravity") ? reply.stderr : reply.stderr
    expect(said).toContain(`rewrote this call's input to {"command":"ls"}`)
  })

  it("host mode's own failure blocks every tool call, in the agent's own block", () => {
    for (const payload of payloads) {
      const read = call(host, payload)
      if (read.event !== "PreToolUse") continue
      const reply = HostMode.failure(agent(host), read.hostEvent, "broken")
      const blocked =
        host === "cline"
          ? clineAnswer(reply.stdout)["cancel"] === true
          : host.startsWith("antigravity")
            ? /"(allowTool":false|decision":"deny)/.test(reply.stdout)
            : reply.exitCode === 2
      expect(blocked, read.hostEvent).toBe(true)
    }
    // a payload it cannot read names no event: blocked too
    expect(HostMode.failureBlocks(agent(host), undefined)).toBe(true)
  })
})

describe("tools in Claude Code's names", () => {
  const read = (host: string, index: number) => call(host, fixtures(host)[index]!).payload
  it("kiro: execute_bash is Bash, fs_write path is Write file_path, @server/tool is mcp__server__tool", () => {
    expect(read("kiro", 2)).toMatchObject({ tool_name: "Bash", tool_input: { command: "rm -rf build" } })
    expect(read("kiro", 3)).toMatchObject({ tool_name: "Write", tool_input: { file_path: "/work/app/src/a.ts", content: "export {}" } })
    expect(read("kiro", 5)).toMatchObject({ tool_name: "mcp__github__create_issue" })
    expect(call("kiro", fixtures("kiro")[15]!).event).toBe("SessionStart")
  })
  it("windsurf: pre_run_command is Bash command, pre_write_code Edit, MCP by server and tool, the prompt and the response", () => {
    expect(read("windsurf", 4)).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build", cwd: "/work/app" },
      session_id: "traj-1"
    })
    expect(read("windsurf", 0)).toMatchObject({ tool_name: "Read", tool_input: { file_path: "/work/app/.env" } })
    expect(read("windsurf", 2)).toMatchObject({ tool_name: "Edit", tool_input: { file_path: "/work/app/src/a.ts" } })
    expect(read("windsurf", 6)).toMatchObject({ tool_name: "mcp__github__create_issue", tool_input: { title: "x" } })
    expect(read("windsurf", 8)).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "add a test for the parser" })
    expect(read("windsurf", 9)).toMatchObject({ hook_event_name: "Stop", last_assistant_message: "Done: the parser has a test." })
  })
  it("cline: preToolUse.toolName and parameters, use_mcp_tool by server and tool, the prompt", () => {
    expect(read("cline", 4)).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
      session_id: "task-1",
      cwd: "/work/app"
    })
    expect(read("cline", 5)).toMatchObject({ tool_name: "Write", tool_input: { file_path: "src/a.js" } })
    expect(read("cline", 6)).toMatchObject({ tool_name: "mcp__github__create_issue" })
    expect(read("cline", 8)).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "add a test for the parser" })
    expect(read("cline", 0)).toMatchObject({ hook_event_name: "SessionStart", source: "startup" })
  })
  it("antigravity: toolCall name and args in either case; 1.0 payloads without an event name are PreToolUse unless they carry a result", () => {
    expect(read("antigravity", 0)).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "rm -rf build", cwd: "/work/app" },
      session_id: "conv-1"
    })
    expect(read("antigravity-1.0", 0)).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" }
    })
    expect(read("antigravity-1.0", 1)).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: "/work/app/.env" }
    })
    expect(read("antigravity-1.0", 2)).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Edit" })
  })
})

describe("hostile input", () => {
  it("two fields that mean one field of the policy, with different values: the call is not judged (antigravity)", () => {
    const result = HostMode.translate(agent("antigravity"), {
      hookEventName: "PreToolUse",
      toolCall: { name: "run_command", args: { CommandLine: "ls", commandLine: "rm -rf /" } }
    })
    expect(result).toMatchObject({ error: expect.stringContaining("cannot be judged") })
  })
  it("a Cline payload without hookName is refused (and the refusal blocks)", () => {
    const result = HostMode.translate(agent("cline"), { preToolUse: { toolName: "execute_command", parameters: { command: "rm -rf /" } } })
    expect(result).toMatchObject({ error: expect.stringContaining("no hook_event_name") })
    expect(HostMode.hostEvent(agent("cline"), { preToolUse: {} })).toBeUndefined()
  })
  it("Cline: continue: false and context travel in its own fields", () => {
    const read = call("cline", fixtures("cline")[7]!)
    const reply = HostMode.answer(read, outcome(read.event, { additionalContext: ["ctx"], continue: false, stopReason: "enough" }))
    expect(clineAnswer(reply.stdout)).toStrictEqual({ cancel: true, errorMessage: "enough", contextModification: "ctx" })
  })
  it("Kiro: additionalContext is plain stdout on exit 0 (Kiro adds stdout to the context)", () => {
    const read = call("kiro", fixtures("kiro")[1]!)
    expect(HostMode.answer(read, outcome(read.event, { additionalContext: ["ctx"] }))).toStrictEqual({
      exitCode: 0,
      stdout: "ctx\n",
      stderr: ""
    })
  })
})
