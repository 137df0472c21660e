/**
 * Host mode for the agents that took Claude Code's hooks over, each with rules of its own (Factory
 * Droid, CodeBuddy Code, Auggie): their payloads (as the real agents send them) are read into Claude
 * Code's names, and each answer is the one the agent reads as meant: an `ask` they would run
 * headless is a deny saying approval is needed, a rewrite is the whole input, Droid never gets the
 * legacy `decision: "block"` it ignores, CodeBuddy finds an exit 2 reason on stdout, Auggie gets
 * `hookSpecificOutput` only where it reads one.
 */
import { describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"
import { agent, call, outcome, type Payload } from "./hosts.ts"

const json = (reply: HostMode.HostReply): Record<string, any> | undefined => (reply.stdout === "" ? undefined : JSON.parse(reply.stdout))

/** The shell call each agent sends, in its own payload. */
const shell: Record<string, (command: string) => Payload> = {
  factory: (command) => ({
    session_id: "s1",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/work/p",
    permission_mode: "auto-high",
    hook_event_name: "PreToolUse",
    tool_name: "Execute",
    tool_input: { command, summary: "make a file", riskLevel: "low", riskLevelReason: "harmless" }
  }),
  codebuddy: (command) => ({
    session_id: "s1",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/work/p",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "make a file" },
    call_id: "c1",
    generation_id: "g1",
    client: "cli",
    version: "2.117.0",
    model: "m"
  }),
  auggie: (command) => ({
    hook_event_name: "PreToolUse",
    conversation_id: "conv-1",
    workspace_roots: ["/work/p"],
    tool_name: "launch-process",
    tool_input: { command, wait: true, max_wait_seconds: 30 },
    is_mcp_tool: false
  })
}

const clones = ["factory", "codebuddy", "auggie"] as const

describe.each(clones)("%s: a shell call", (host) => {
  it("is read as Bash with its command, in the session and folder the agent names", () => {
    const read = call(host, shell[host]!("touch x"))
    expect(read.event).toBe("PreToolUse")
    expect(read.payload["tool_name"]).toBe("Bash")
    expect(read.payload["tool_input"]).toMatchObject({ command: "touch x" })
    expect(read.payload["session_id"]).toBe(host === "auggie" ? "conv-1" : "s1")
    expect(read.payload["cwd"]).toBe("/work/p")
    expect(read.payload["host"]).toMatchObject({ name: host, event: "PreToolUse" })
  })

  it("a deny blocks, with the reason where the agent gives it to the model", () => {
    const reply = HostMode.answer(call(host, shell[host]!("rm -rf /")), outcome("PreToolUse", { blocked: true, reason: "no rm here" }))
    expect(reply.exitCode).toBe(2)
    // CodeBuddy reads stdout before stderr on exit 2: the reason is there, alone
    expect(reply.stdout).toBe(host === "codebuddy" ? "no rm here\n" : "")
    expect(reply.stderr).toContain("no rm here")
  })

  it("an ask is a deny that says approval is needed (the agent runs an asked call headless); --ask host passes it on", () => {
    const asked = outcome("PreToolUse", { decision: "ask", reason: "check it" })
    const reply = HostMode.answer(call(host, shell[host]!("touch x")), asked)
    expect(reply.exitCode).toBe(2)
    expect(reply.stderr).toContain("approval needed: check it")
    const passed = HostMode.answer(call(host, shell[host]!("touch x")), asked, { ask: "host" })
    expect(passed.exitCode).toBe(0)
    expect(json(passed)?.hookSpecificOutput).toMatchObject({ permissionDecision: "ask", permissionDecisionReason: "check it" })
  })

  it("a rewrite is applied, sent as the whole input in the agent's names", () => {
    const original = shell[host]!("touch x")
    const reply = HostMode.answer(call(host, original), outcome("PreToolUse", { updatedInput: { command: "touch y" } }))
    expect(reply.exitCode).toBe(0)
    const specific = json(reply)?.hookSpecificOutput
    expect(specific).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "allow" })
    expect(specific.updatedInput).toEqual({ ...(original["tool_input"] as object), command: "touch y" })
  })

  it("a policy that cannot load blocks the call (fail closed), in the agent's block", () => {
    const reply = HostMode.failure(agent(host), "PreToolUse", "the policy file is not JSON")
    expect(reply.exitCode).toBe(2)
    expect(reply.stderr).toContain("the policy file is not JSON")
  })
})

describe("factory: Droid's own names and its ignored legacy decision", () => {
  it("reads its file tools in Claude Code's names, and maps a rewrite back", () => {
    const edit = call("factory", {
      hook_event_name: "PreToolUse",
      session_id: "s",
      cwd: "/p",
      tool_name: "Edit",
      tool_input: { file_path: "/p/a.ts", old_str: "a", new_str: "b" }
    })
    expect(edit.payload["tool_name"]).toBe("Edit")
    expect(edit.payload["tool_input"]).toEqual({ file_path: "/p/a.ts", old_string: "a", new_string: "b" })
    const reply = HostMode.answer(edit, outcome("PreToolUse", { updatedInput: { new_string: "c" } }))
    expect(json(reply)?.hookSpecificOutput.updatedInput).toEqual({ file_path: "/p/a.ts", old_str: "a", new_str: "c" })
    for (const [tool, claude] of [
      ["Create", "Write"],
      ["FetchUrl", "WebFetch"],
      ["Read", "Read"]
    ])
      expect(call("factory", { hook_event_name: "PreToolUse", tool_name: tool, tool_input: {} }).payload["tool_name"]).toBe(claude)
  })

  it("blocks Stop, UserPromptSubmit and PostToolUse by exit 2, never by the decision field Droid ignores", () => {
    for (const event of ["Stop", "UserPromptSubmit", "PostToolUse", "SubagentStop"]) {
      const reply = HostMode.answer(
        call("factory", { hook_event_name: event, session_id: "s", cwd: "/p", tool_name: "Execute", tool_input: { command: "ls" } }),
        outcome(event, { blocked: true, reason: "keep going" })
      )
      expect(reply.exitCode, event).toBe(2)
      expect(reply.stdout, event).not.toContain("decision")
      expect(reply.stderr, event).toContain("keep going")
    }
  })
})

describe("codebuddy: stdout before stderr, and Stop's continue", () => {
  it("a Stop block is exit 2 with the reason on stdout (CodeBuddy gives the agent stdout's message)", () => {
    const reply = HostMode.answer(
      call("codebuddy", { hook_event_name: "Stop", session_id: "s", cwd: "/p" }),
      outcome("Stop", { blocked: true, reason: "run the tests first" })
    )
    expect(reply).toMatchObject({ exitCode: 2, stdout: "run the tests first\n" })
  })

  it("never writes continue: false on Stop, which CodeBuddy reads as 'keep working'; says so", () => {
    const reply = HostMode.answer(
      call("codebuddy", { hook_event_name: "Stop", session_id: "s", cwd: "/p" }),
      outcome("Stop", { continue: false, stopReason: "enough" })
    )
    expect(reply.exitCode).toBe(0)
    expect(reply.stdout).not.toContain("continue")
    expect(reply.stderr).toContain("keep working")
    // elsewhere a stop is Claude Code's
    const prompt = HostMode.answer(
      call("codebuddy", { hook_event_name: "UserPromptSubmit", session_id: "s", cwd: "/p", prompt: "hi" }),
      outcome("UserPromptSubmit", { continue: false, stopReason: "enough" })
    )
    expect(json(prompt)).toMatchObject({ continue: false, stopReason: "enough" })
  })
})

describe("auggie: its own payload, events and answer shapes", () => {
  it("PromptSubmit is UserPromptSubmit with its prompt; tool_output is the tool's response; view's path is Read's file_path", () => {
    const prompt = call("auggie", { hook_event_name: "PromptSubmit", conversation_id: "c", workspace_roots: ["/p"], user_prompt: "hi" })
    expect(prompt.event).toBe("UserPromptSubmit")
    expect(prompt.payload).toMatchObject({ prompt: "hi", session_id: "c", cwd: "/p" })
    const post = call("auggie", {
      hook_event_name: "PostToolUse",
      conversation_id: "c",
      workspace_roots: ["/p"],
      tool_name: "view",
      tool_input: { path: "/p/secret.txt" },
      tool_output: "x",
      tool_error: null,
      is_mcp_tool: false
    })
    expect(post.payload).toMatchObject({ tool_name: "Read", tool_input: { file_path: "/p/secret.txt" }, tool_response: "x" })
  })

  it("blocks PostToolUse and Stop through hookSpecificOutput (exit 2 does not block there)", () => {
    for (const event of ["PostToolUse", "Stop"]) {
      const reply = HostMode.answer(
        call("auggie", {
          hook_event_name: event,
          conversation_id: "c",
          workspace_roots: ["/p"],
          tool_name: "launch-process",
          tool_input: {}
        }),
        outcome(event, { blocked: true, reason: "not yet" })
      )
      expect(reply.exitCode, event).toBe(0)
      expect(json(reply), event).toEqual({ hookSpecificOutput: { hookEventName: event, decision: "block", reason: "not yet" } })
    }
  })

  it("writes no hookSpecificOutput on PromptSubmit (Auggie would drop the whole answer); a block there is a visible hook error", () => {
    const prompt = call("auggie", { hook_event_name: "PromptSubmit", conversation_id: "c", workspace_roots: ["/p"], user_prompt: "hi" })
    const context = HostMode.answer(prompt, outcome("UserPromptSubmit", { additionalContext: ["be brief"] }))
    expect(json(context)).toEqual({ additionalContext: "be brief" })
    const blocked = HostMode.answer(prompt, outcome("UserPromptSubmit", { blocked: true, reason: "no" }))
    expect(blocked.exitCode).toBe(1)
    expect(blocked.stderr).toContain("PromptSubmit cannot block in Auggie: no")
  })

  it("presents a call in its own payload (hook --payload auggie)", () => {
    const [presented] = HostMode.present(agent("auggie"), "PreToolUse", {
      session_id: "c",
      cwd: "/p",
      tool_name: "Bash",
      tool_input: { command: "ls" }
    })
    expect(presented?.payload).toMatchObject({
      hook_event_name: "PreToolUse",
      conversation_id: "c",
      workspace_roots: ["/p"],
      tool_name: "launch-process",
      tool_input: { command: "ls" }
    })
  })
})
