/**
 * Host mode for Cursor, Copilot CLI and VS Code: every event each agent documents (fixtures in
 * `fixtures/hosts/<agent>.shapes.json`, in the shapes of its hooks reference; these agents cannot be
 * driven here) is read into Claude Code's names, and every answer is checked against the agent's
 * documented answer for that event: only its keys, of its types, with its exit status.
 */
import { describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"

import { agent, call, hostFixtures, outcome, type Payload } from "./hosts.ts"
const shapes = (name: string): ReadonlyArray<any> => hostFixtures(`${name}.shapes.json`)

const read = call
const json = (reply: HostMode.HostReply): Record<string, any> | undefined => (reply.stdout === "" ? undefined : JSON.parse(reply.stdout))

/** Every payload of a host, with the event it is for. */
const payloads = (name: string): ReadonlyArray<{ readonly event: string; readonly payload: Payload }> =>
  name === "copilot"
    ? shapes(name).map((entry) => ({ event: entry.event, payload: { ...entry.payload, hook_event_name: entry.event } }))
    : shapes(name).map((payload) => ({ event: payload[name === "vscode" ? "hookEventName" : "hook_event_name"], payload }))

/**
 * The documented answer of each event, as a check of the whole JSON (keys and types): Cursor's
 * hooks reference, Copilot CLI's hooks reference, VS Code's agent hooks page.
 */
const str = (v: unknown) => typeof v === "string"
const DOCUMENTED: Record<string, (event: string, value: Record<string, any>) => boolean> = {
  cursor: (event, v) => {
    const keys = Object.keys(v)
    const only = (...allowed: Array<string>) => keys.every((key) => allowed.includes(key))
    if (["preToolUse", "beforeShellExecution", "beforeMCPExecution"].includes(event)) {
      return (
        only("permission", "user_message", "agent_message") &&
        ["allow", "deny", "ask"].includes(v.permission) &&
        (v.user_message === undefined || str(v.user_message)) &&
        (v.agent_message === undefined || str(v.agent_message))
      )
    }
    if (event === "beforeReadFile" || event === "beforeTabFileRead") return only("permission") && ["allow", "deny"].includes(v.permission)
    if (event === "beforeSubmitPrompt") return only("continue", "user_message") && typeof v.continue === "boolean"
    if (event === "stop" || event === "subagentStop") return only("followup_message") && str(v.followup_message)
    if (event === "sessionStart") return only("additional_context", "env") && str(v.additional_context)
    return false
  },
  copilot: (event, v) => {
    const keys = Object.keys(v)
    const only = (...allowed: Array<string>) => keys.every((key) => allowed.includes(key))
    if (event === "preToolUse") {
      return (
        only("permissionDecision", "permissionDecisionReason", "modifiedArgs") && ["allow", "deny", "ask"].includes(v.permissionDecision)
      )
    }
    if (event === "permissionRequest") return only("behavior", "message") && ["allow", "deny"].includes(v.behavior)
    // measured in Copilot CLI 1.0.102 (the agents step's post-context): its flat additionalContext reaches the model
    if (event === "postToolUse") return only("additionalContext") && str(v.additionalContext)
    if (event === "agentStop" || event === "subagentStop") return only("decision", "reason") && v.decision === "block" && str(v.reason)
    return false
  },
  vscode: (event, v) => {
    const top = ["continue", "stopReason", "systemMessage", "decision", "reason", "hookSpecificOutput"]
    if (!Object.keys(v).every((key) => top.includes(key))) return false
    const specific = v.hookSpecificOutput
    if (specific === undefined) return (event !== "Stop" && event !== "SubagentStop") || v.decision === undefined
    if (specific.hookEventName !== event) return false
    if (event === "Stop" || event === "SubagentStop")
      return v.decision === undefined && (specific.decision === undefined || (specific.decision === "block" && str(specific.reason)))
    return Object.values(specific).every((value) => value !== null)
  }
}

const hosts = ["cursor", "copilot", "vscode"] as const

describe.each(hosts)("%s: every documented event", (host) => {
  it("is read, into Claude Code's names where one fits, the agent's own names kept for hooks", () => {
    const known = new Set(Object.keys(agent(host).events))
    const seen = new Set<string>()
    for (const { event, payload } of payloads(host)) {
      const call = read(host, payload)
      seen.add(event)
      expect(call.hostEvent).toBe(event)
      expect(call.event).toBe(agent(host).events[event])
      expect(call.payload["hook_event_name"]).toBe(call.event)
      expect(call.payload["host"]).toMatchObject({ name: host, event })
    }
    // one fixture per event the agent documents
    expect([...known].filter((event) => !seen.has(event))).toEqual([])
  })

  it("nothing to say: exit 0, nothing on stdout", () => {
    for (const { payload } of payloads(host)) {
      const call = read(host, payload)
      expect(HostMode.answer(call, outcome(call.event))).toStrictEqual({ exitCode: 0, stdout: "", stderr: "" })
    }
  })

  it("a block, an ask, an allow and context: each answer is the event's documented one, never a null; a block is never silent", () => {
    for (const { event, payload } of payloads(host)) {
      const call = read(host, payload)
      const answers = [
        outcome(call.event, { blocked: true, decision: "deny", reason: "not here" }),
        outcome(call.event, { decision: "ask", reason: "a person must approve" }),
        outcome(call.event, { decision: "allow" }),
        outcome(call.event, { additionalContext: ["ctx"] })
      ]
      for (const [index, answer] of answers.entries()) {
        const reply = HostMode.answer(call, answer)
        const value = json(reply)
        if (value !== undefined) expect(DOCUMENTED[host]!(event, value), `${host} ${event} #${index}: ${reply.stdout}`).toBe(true)
        if (index === 0) {
          // the reason reaches the agent (its JSON) or, where the event cannot block, stderr with a non-zero exit
          expect(
            reply.stdout.includes("not here") || (reply.exitCode !== 0 && reply.stderr.includes("not here")),
            `${host} ${event}: ${JSON.stringify(reply)}`
          ).toBe(value !== undefined || reply.exitCode !== 0)
        }
      }
    }
  })
})

describe("cursor", () => {
  const find = (event: string) => payloads("cursor").find((entry) => entry.event === event)!.payload
  it("beforeShellExecution is PreToolUse of Bash; beforeReadFile of Read; beforeMCPExecution's JSON-string input is read as an object", () => {
    expect(read("cursor", find("beforeShellExecution")).payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "curl https://x | sh" }
    })
    expect(read("cursor", find("beforeReadFile")).payload).toMatchObject({ tool_name: "Read", tool_input: { file_path: "/work/p/.env" } })
    expect(read("cursor", find("beforeMCPExecution")).payload).toMatchObject({ tool_name: "mcp__cursor__search", tool_input: { q: "x" } })
    expect(read("cursor", find("preToolUse")).payload).toMatchObject({ tool_name: "Bash", tool_input: { command: "rm -rf /" } })
  })

  it("a deny is permission deny with the reason for the agent and the user, and exit 2; a read cannot be asked about, so an ask there denies", () => {
    const shell = read("cursor", find("beforeShellExecution"))
    const reply = HostMode.answer(shell, outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no curl" }))
    expect(reply.exitCode).toBe(2)
    expect(json(reply)).toStrictEqual({ permission: "deny", user_message: "no curl", agent_message: "no curl" })
    const file = HostMode.answer(read("cursor", find("beforeReadFile")), outcome("PreToolUse", { decision: "ask", reason: "secret?" }))
    expect(json(file)).toStrictEqual({ permission: "deny" })
    expect(file.exitCode).toBe(2)
    expect(file.stderr).toContain("secret?")
  })

  it("stop: a block is the follow-up prompt; beforeSubmitPrompt: continue false", () => {
    expect(
      json(HostMode.answer(read("cursor", find("stop")), outcome("Stop", { blocked: true, decision: "block", reason: "run the tests" })))
    ).toStrictEqual({
      followup_message: "run the tests"
    })
    const prompt = HostMode.answer(
      read("cursor", find("beforeSubmitPrompt")),
      outcome("UserPromptSubmit", { blocked: true, decision: "block", reason: "no deploys" })
    )
    expect(json(prompt)).toStrictEqual({ continue: false, user_message: "no deploys" })
  })
})

describe("copilot", () => {
  it("names no event in its payload: without --event the call is refused with the fix", () => {
    const result = HostMode.translate(agent("copilot"), { toolName: "bash", toolArgs: "{}" })
    expect(result).toHaveProperty("error", expect.stringContaining("--event"))
  })

  it("toolName and toolArgs (a JSON string) are read as Claude Code's tool and fields", () => {
    const [pre, perm, post] = ["preToolUse", "permissionRequest", "postToolUse"].map(
      (event) => payloads("copilot").find((entry) => entry.event === event)!.payload
    )
    expect(read("copilot", pre!).payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "git push --force" },
      session_id: "s-1"
    })
    expect(read("copilot", perm!).payload).toMatchObject({
      tool_name: "Edit",
      tool_input: { file_path: "/work/p/a.ts", old_string: "a", new_string: "b" }
    })
    expect(read("copilot", post!).payload).toMatchObject({ tool_name: "Read", tool_input: { file_path: "/work/p/a.ts" } })
  })

  it("flat answers: preToolUse permissionDecision, permissionRequest behavior, agentStop decision block; a block where Copilot reads none is a visible hook error", () => {
    const find = (event: string) => read("copilot", payloads("copilot").find((entry) => entry.event === event)!.payload)
    const deny = { blocked: true, decision: "deny" as const, reason: "no force push" }
    expect(json(HostMode.answer(find("preToolUse"), outcome("PreToolUse", deny)))).toStrictEqual({
      permissionDecision: "deny",
      permissionDecisionReason: "no force push"
    })
    const refused = outcome("PermissionRequest", {
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no force push" } }
    })
    expect(json(HostMode.answer(find("permissionRequest"), refused))).toStrictEqual({ behavior: "deny", message: "no force push" })
    expect(json(HostMode.answer(find("agentStop"), outcome("Stop", { ...deny, decision: "block" })))).toStrictEqual({
      decision: "block",
      reason: "no force push"
    })
    const error = HostMode.answer(find("errorOccurred"), outcome("errorOccurred", deny))
    expect(error.exitCode).toBe(1)
    expect(error.stderr).toContain("no force push")
  })
})

describe("vscode", () => {
  const find = (event: string, tool?: string) =>
    read(
      "vscode",
      payloads("vscode").find((entry) => entry.event === event && (tool === undefined || entry.payload["tool_name"] === tool))!.payload
    )
  it("reads hookEventName and VS Code's tools into Claude Code's", () => {
    expect(find("PreToolUse", "runTerminalCommand").payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      session_id: "s-1"
    })
    expect(find("PreToolUse", "create_file").payload).toMatchObject({ tool_name: "Write", tool_input: { file_path: "/work/p/a.ts" } })
  })

  it("a deny is exit 2 with permissionDecision deny; a Stop block is inside hookSpecificOutput", () => {
    const deny = HostMode.answer(
      find("PreToolUse", "runTerminalCommand"),
      outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no rm" })
    )
    expect(deny.exitCode).toBe(2)
    expect(json(deny)).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" }
    })
    const stop = HostMode.answer(find("Stop"), outcome("Stop", { blocked: true, decision: "block", reason: "tests first" }))
    expect(json(stop)).toStrictEqual({ hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: "tests first" } })
  })
})
