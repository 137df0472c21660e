/**
 * Host mode per agent: every event the agent sends (fixtures in `fixtures/hosts/<agent>.json`, in
 * the shapes the real agents send, see agents-as-hosts.md) is read into Claude Code's names, and
 * every answer is written in the agent's own format: its exit status, where it reads the reason,
 * only its own JSON keys, never a null.
 */
import { describe, expect, it } from "vitest"
import * as HookEvent from "@agent-hooks/core/HookEvent"
import * as HostMode from "@agent-hooks/core/HostMode"

import { agent, call, hostFixtures, outcome, type Payload } from "./hosts.ts"

const load = (file: string): ReadonlyArray<Payload> => hostFixtures(file)
/** What the real agent sent its hooks in one headless run (`<agent>.json`, recorded), then the shapes of the events and tools that run did not reach (`<agent>.shapes.json`). */
const recorded = (name: string): ReadonlyArray<Payload> => load(`${name}.json`)
const fixtures = (name: string): ReadonlyArray<Payload> => [...recorded(name), ...load(`${name}.shapes.json`)]

const first = (name: string, predicate: (payload: Payload) => boolean): Payload => {
  const found = fixtures(name).find(predicate)
  if (found === undefined) throw new Error(`no such fixture in ${name}.json`)
  return found
}
const byEvent = (name: string, event: string, tool?: string): Payload =>
  first(name, (payload) => payload["hook_event_name"] === event && (tool === undefined || payload["tool_name"] === tool))

/** The engine's Outcome of a dispatch where no hook ran, with the fields a test needs. */

/** The JSON an answer wrote on stdout, or `undefined` when it wrote nothing. */
const json = (reply: HostMode.HostReply): Record<string, any> | undefined => {
  if (reply.stdout === "") return undefined
  const lines = reply.stdout.split("\n").filter((line) => line !== "")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]!)
}

/** Every key of every object, as paths (`hookSpecificOutput.permissionDecision`), and no null anywhere. */
const keysOf = (value: unknown, prefix = ""): Array<string> => {
  expect(value, `null at ${prefix}`).not.toBeNull()
  if (typeof value !== "object" || Array.isArray(value)) return []
  return Object.entries(value as object).flatMap(([key, child]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`
    // a rewritten tool input is the tool's own
    if (key === "updatedInput" || key === "tool_input") return [path]
    return [path, ...keysOf(child, path)]
  })
}

/** The keys each agent reads (its own fields only). */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  codex: new Set([
    "continue",
    "stopReason",
    "systemMessage",
    "hookSpecificOutput",
    "hookSpecificOutput.hookEventName",
    "hookSpecificOutput.permissionDecision",
    "hookSpecificOutput.permissionDecisionReason",
    "hookSpecificOutput.updatedInput",
    "hookSpecificOutput.additionalContext",
    "hookSpecificOutput.decision",
    "hookSpecificOutput.decision.behavior",
    "hookSpecificOutput.decision.message"
  ]),
  gemini: new Set([
    "decision",
    "reason",
    "continue",
    "stopReason",
    "systemMessage",
    "hookSpecificOutput",
    "hookSpecificOutput.hookEventName",
    "hookSpecificOutput.tool_input",
    "hookSpecificOutput.additionalContext"
  ]),
  qwen: new Set([
    "decision",
    "reason",
    "continue",
    "stopReason",
    "systemMessage",
    "hookSpecificOutput",
    "hookSpecificOutput.hookEventName",
    "hookSpecificOutput.permissionDecision",
    "hookSpecificOutput.permissionDecisionReason",
    "hookSpecificOutput.additionalContext",
    "hookSpecificOutput.decision",
    "hookSpecificOutput.decision.behavior",
    "hookSpecificOutput.decision.message"
  ])
}

const expectOwnKeys = (host: string, reply: HostMode.HostReply) => {
  const value = json(reply)
  if (value === undefined) return
  const keys = keysOf(value)
  const allowed = ALLOWED[host]
  if (allowed !== undefined) for (const key of keys) expect(allowed.has(key), `${host} does not read ${key}`).toBe(true)
  if (value["hookSpecificOutput"] !== undefined) expect(typeof value["hookSpecificOutput"]["hookEventName"]).toBe("string")
}

const hosts = ["claude", "codex", "gemini", "qwen"] as const

describe.each(hosts)("%s: every event it sends", (host) => {
  const payloads = fixtures(host)

  it("the fixtures cover every event the agent sends that host mode knows, and each is read", () => {
    const sent = new Set(payloads.map((payload) => payload["hook_event_name"]))
    for (const payload of payloads) {
      const read = call(host, payload)
      expect(read.hostEvent).toBe(payload["hook_event_name"])
      expect(read.event).toBe(agent(host).events[read.hostEvent])
      expect(read.payload["hook_event_name"]).toBe(read.event)
      // the agent's own names stay visible to hooks
      expect(read.payload["host"]).toMatchObject({ name: host, event: read.hostEvent })
      if (typeof payload["tool_name"] === "string") {
        expect(read.payload["host"]).toMatchObject({ tool_name: payload["tool_name"], tool_input: payload["tool_input"] })
      }
      // the agent's other fields are kept as given
      for (const key of ["session_id", "cwd", "transcript_path", "timestamp", "turn_id", "tool_use_id", "permission_mode"]) {
        if (key in payload) expect(read.payload[key]).toStrictEqual(payload[key])
      }
    }
    // the events a policy acts on were all recorded from the real agent
    const real = new Set(recorded(host).map((payload) => payload["hook_event_name"]))
    const needed =
      host === "gemini"
        ? ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"]
        : ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"]
    for (const event of needed) expect(real.has(event) && sent.has(event), event).toBe(true)
  })

  it("nothing to say: exit 0 and nothing on stdout, on every event", () => {
    for (const payload of payloads) {
      const read = call(host, payload)
      const reply = HostMode.answer(read, outcome(read.event))
      expect(reply).toStrictEqual({ exitCode: 0, stdout: "", stderr: "" })
    }
  })

  it("a block on every event that can block: exit 2 with the reason on stderr", () => {
    for (const payload of payloads) {
      const read = call(host, payload)
      const reply = HostMode.answer(read, outcome(read.event, { blocked: true, decision: "deny", reason: "not here" }))
      const blocking = HookEvent.get(read.event)?.blocking
      if (agent(host).ownEvents.includes(read.event) || blocking === "none" || blocking === "permission-request") continue
      // Gemini CLI's own block (exit 0, decision deny) where it holds; exit 2 is a failed hook to it
      expect(reply.exitCode, read.hostEvent).toBe(host === "gemini" && GEMINI_DECIDES.has(read.hostEvent) ? 0 : 2)
      if (host === "gemini") expect(json(reply)).toStrictEqual({ decision: "deny", reason: "not here" })
      expect(reply.stderr).toBe("not here\n")
      expectOwnKeys(host, reply)
    }
  })

  it("a block with no reason still says why (an empty stderr is no block to Codex and Qwen Code)", () => {
    const read = call(host, byEvent(host, host === "gemini" ? "BeforeTool" : "PreToolUse"))
    const reply = HostMode.answer(read, outcome(read.event, { blocked: true, decision: "deny", reason: "" }))
    expect(reply.exitCode).toBe(host === "gemini" ? 0 : 2)
    expect(reply.stderr.trim()).not.toBe("")
    if (host === "gemini") expect(json(reply)?.["reason"]).not.toBe("")
  })

  it("additionalContext, systemMessage and continue: false in the agent's own fields, no nulls", () => {
    for (const payload of payloads) {
      const read = call(host, payload)
      const reply = HostMode.answer(
        read,
        outcome(read.event, { additionalContext: ["ctx one", "ctx two"], systemMessages: ["note"], continue: false, stopReason: "enough" })
      )
      expect(reply.exitCode).toBe(0)
      expectOwnKeys(host, reply)
    }
  })
})

/** Where Gemini CLI takes an exit-0 decision "deny" as its block (seen in the real agent). */
const GEMINI_DECIDES = new Set(["BeforeTool", "BeforeAgent", "AfterAgent"])

describe("claude", () => {
  it("reads every name unchanged, tool input included", () => {
    const payload = byEvent("claude", "PreToolUse", "Bash")
    const read = call("claude", payload)
    expect(read.event).toBe("PreToolUse")
    expect(read.payload["tool_name"]).toBe("Bash")
    expect(read.payload["tool_input"]).toStrictEqual(payload["tool_input"])
  })

  it("deny: exit 2, the reason on stderr and as permissionDecisionReason", () => {
    const read = call("claude", byEvent("claude", "PreToolUse", "Bash"))
    const reply = HostMode.answer(read, outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no touching" }))
    expect(reply.exitCode).toBe(2)
    expect(reply.stderr).toBe("no touching\n")
    expect(json(reply)).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no touching" }
    })
  })

  it("ask is Claude Code's own ask; with --ask deny, a deny saying approval is needed", () => {
    const read = call("claude", byEvent("claude", "PreToolUse", "Bash"))
    const asked = outcome("PreToolUse", { decision: "ask", reason: "touching files" })
    expect(json(HostMode.answer(read, asked))).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "touching files" }
    })
    const denied = HostMode.answer(read, asked, { ask: "deny" })
    expect(denied.exitCode).toBe(2)
    expect(denied.stderr).toMatch(/^approval needed: touching files/)
  })

  it("defer stays defer; allow stays allow", () => {
    const read = call("claude", byEvent("claude", "PreToolUse", "Bash"))
    expect(json(HostMode.answer(read, outcome("PreToolUse", { decision: "defer" })))?.["hookSpecificOutput"]).toStrictEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "defer"
    })
    expect(json(HostMode.answer(read, outcome("PreToolUse", { decision: "allow" })))?.["hookSpecificOutput"]).toStrictEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "allow"
    })
  })

  it("updatedInput is applied with allow; --rewrite deny denies; --rewrite original lets the call go as it was", () => {
    const read = call("claude", byEvent("claude", "PreToolUse", "Bash"))
    const rewritten = outcome("PreToolUse", { updatedInput: { command: "touch SAFE" } })
    expect(json(HostMode.answer(read, rewritten))).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch SAFE" } }
    })
    const denied = HostMode.answer(read, rewritten, { rewrite: "deny" })
    expect(denied.exitCode).toBe(2)
    expect(denied.stderr).toContain("touch SAFE")
    const original = HostMode.answer(read, rewritten, { rewrite: "original" })
    expect(original.exitCode).toBe(0)
    expect(original.stdout).toBe("")
    expect(original.stderr).toContain("left out")
  })

  it("Stop and UserPromptSubmit blocks: exit 2 and decision block with the reason", () => {
    for (const event of ["Stop", "UserPromptSubmit", "PostToolUse"]) {
      const read = call("claude", byEvent("claude", event))
      const reply = HostMode.answer(read, outcome(event, { blocked: true, decision: "block", reason: "run the tests first" }))
      expect(reply.exitCode).toBe(2)
      expect(json(reply)).toStrictEqual({ decision: "block", reason: "run the tests first" })
    }
  })

  it("PermissionRequest: the decision object passes, never a block by exit 2", () => {
    const read = call("claude", byEvent("claude", "PermissionRequest"))
    const reply = HostMode.answer(
      read,
      outcome("PermissionRequest", {
        decision: "deny",
        blocked: true,
        hookSpecificOutput: { decision: { behavior: "deny", message: "no" } }
      })
    )
    expect(reply.exitCode).toBe(0)
    expect(json(reply)).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no" } }
    })
  })

  it("other hookSpecificOutput fields of the event pass; fields of other events do not", () => {
    const read = call("claude", byEvent("claude", "SessionStart"))
    const reply = HostMode.answer(read, outcome("SessionStart", { hookSpecificOutput: { sessionTitle: "t", updatedToolOutput: "x" } }))
    expect(json(reply)).toStrictEqual({ hookSpecificOutput: { hookEventName: "SessionStart", sessionTitle: "t" } })
  })
})

describe("codex", () => {
  it("the shell tool arrives as Bash command; exec_command cmd is read as Bash command and rewritten back to cmd", () => {
    expect(call("codex", byEvent("codex", "PreToolUse", "Bash")).payload["tool_input"]).toStrictEqual({ command: "touch MARKER" })
    const read = call("codex", { hook_event_name: "PreToolUse", tool_name: "exec_command", tool_input: { cmd: "rm -rf /" } })
    expect(read.payload["tool_name"]).toBe("Bash")
    expect(read.payload["tool_input"]).toStrictEqual({ command: "rm -rf /" })
    const reply = HostMode.answer(read, outcome("PreToolUse", { updatedInput: { command: "echo safe" } }))
    expect(json(reply)?.["hookSpecificOutput"]["updatedInput"]).toStrictEqual({ cmd: "echo safe" })
  })

  it("deny: exit 2, the reason on stderr, nothing on stdout (Codex reads no stdout on exit 2)", () => {
    const read = call("codex", byEvent("codex", "PreToolUse", "Bash"))
    const reply = HostMode.answer(read, outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no" }))
    expect(reply).toStrictEqual({ exitCode: 2, stdout: "", stderr: "no\n" })
  })

  it("ask has no Codex counterpart (rejected, the tool runs): a deny saying approval is needed, even with --ask host", () => {
    const read = call("codex", byEvent("codex", "PreToolUse", "Bash"))
    for (const ask of [undefined, "host", "deny"] as const) {
      const reply = HostMode.answer(read, outcome("PreToolUse", { decision: "ask", reason: "touching files" }), { ask })
      expect(reply.exitCode).toBe(2)
      expect(reply.stdout).toBe("")
      expect(reply.stderr).toMatch(/^approval needed: touching files/)
    }
  })

  it("a bare allow is not written (Codex fails the hook on it); allow with a rewrite is", () => {
    const read = call("codex", byEvent("codex", "PreToolUse", "Bash"))
    expect(HostMode.answer(read, outcome("PreToolUse", { decision: "allow" })).stdout).toBe("")
    const reply = HostMode.answer(read, outcome("PreToolUse", { decision: "allow", updatedInput: { command: "touch SAFE" } }))
    expect(json(reply)).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch SAFE" } }
    })
  })

  it("Stop and UserPromptSubmit blocks are exit 2 with the reason on stderr", () => {
    for (const event of ["Stop", "UserPromptSubmit", "SubagentStop"]) {
      const read = call("codex", byEvent("codex", event))
      expect(HostMode.answer(read, outcome(event, { blocked: true, decision: "block", reason: "keep going" }))).toStrictEqual({
        exitCode: 2,
        stdout: "",
        stderr: "keep going\n"
      })
    }
  })

  it("Interrupt takes only systemMessage", () => {
    const read = call("codex", byEvent("codex", "Interrupt"))
    const reply = HostMode.answer(read, outcome("Interrupt", { systemMessages: ["bye"], continue: false, additionalContext: ["x"] }))
    expect(json(reply)).toStrictEqual({ systemMessage: "bye" })
  })

  it("additionalContext only on the events whose schema has it", () => {
    const read = call("codex", byEvent("codex", "Stop"))
    expect(HostMode.answer(read, outcome("Stop", { additionalContext: ["x"] })).stdout).toBe("")
    const post = call("codex", byEvent("codex", "PostToolUse"))
    expect(json(HostMode.answer(post, outcome("PostToolUse", { additionalContext: ["x"] })))).toStrictEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "x" }
    })
  })

  it("PermissionRequest keeps only behavior and message", () => {
    const read = call("codex", byEvent("codex", "PermissionRequest"))
    const reply = HostMode.answer(
      read,
      outcome("PermissionRequest", { hookSpecificOutput: { decision: { behavior: "allow", updatedPermissions: [], updatedInput: {} } } })
    )
    expect(json(reply)).toStrictEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } })
  })
})

describe("gemini", () => {
  it("reads Gemini CLI's names into Claude Code's", () => {
    const shell = call("gemini", byEvent("gemini", "BeforeTool", "run_shell_command"))
    expect([shell.event, shell.payload["tool_name"], shell.payload["tool_input"]]).toStrictEqual([
      "PreToolUse",
      "Bash",
      { command: "touch MARKER", description: "Create the marker file" }
    ])
    const read = call("gemini", byEvent("gemini", "BeforeTool", "read_file"))
    expect([read.payload["tool_name"], read.payload["tool_input"]]).toStrictEqual(["Read", { file_path: "/work/p/.env" }])
    expect(call("gemini", byEvent("gemini", "BeforeTool", "replace")).payload["tool_name"]).toBe("Edit")
    expect(call("gemini", byEvent("gemini", "BeforeTool", "write_file")).payload["tool_name"]).toBe("Write")
    expect(call("gemini", byEvent("gemini", "BeforeTool", "web_fetch")).payload["tool_name"]).toBe("WebFetch")
    expect(call("gemini", byEvent("gemini", "BeforeTool", "search")).payload["tool_name"]).toBe("mcp__docs__search")
    expect(call("gemini", byEvent("gemini", "AfterTool")).event).toBe("PostToolUse")
    expect(call("gemini", byEvent("gemini", "BeforeAgent")).event).toBe("UserPromptSubmit")
    const stop = call("gemini", byEvent("gemini", "AfterAgent"))
    expect([stop.event, stop.payload["last_assistant_message"], stop.payload["stop_hook_active"]]).toStrictEqual(["Stop", "done", false])
    expect(call("gemini", byEvent("gemini", "PreCompress")).event).toBe("PreCompact")
  })

  it("deny: exit 0 and Gemini CLI's own decision JSON, the block it does not report as a failed hook (exit 2 is a failure to it)", () => {
    const read = call("gemini", byEvent("gemini", "BeforeTool", "run_shell_command"))
    const reply = HostMode.answer(read, outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no" }))
    expect(reply.exitCode).toBe(0)
    expect(reply.stderr).toBe("no\n")
    expect(json(reply)).toStrictEqual({ decision: "deny", reason: "no" })
    // the prompt refused, and the agent sent on with the reason, in the same form
    for (const [event, claude] of [
      ["BeforeAgent", "UserPromptSubmit"],
      ["AfterAgent", "Stop"]
    ] as const) {
      const blocked = HostMode.answer(
        call("gemini", byEvent("gemini", event)),
        outcome(claude, { blocked: true, decision: "block", reason: "keep going" })
      )
      expect([blocked.exitCode, json(blocked)]).toStrictEqual([0, { decision: "deny", reason: "keep going" }])
    }
  })

  it("deny on an event where no Gemini CLI decision is proven to block: exit 2 as well (never a block that may not hold)", () => {
    const read = call("gemini", byEvent("gemini", "AfterTool"))
    const reply = HostMode.answer(read, outcome("PostToolUse", { blocked: true, decision: "block", reason: "no" }))
    expect(reply.exitCode).toBe(2)
    expect(reply.stderr).toBe("no\n")
    expect(json(reply)).toStrictEqual({ decision: "deny", reason: "no" })
  })

  it("ask: a deny by default (headless Gemini CLI hangs on ask); --ask host writes Gemini CLI's ask", () => {
    const read = call("gemini", byEvent("gemini", "BeforeTool", "run_shell_command"))
    const asked = outcome("PreToolUse", { decision: "ask", reason: "touching files" })
    const reply = HostMode.answer(read, asked)
    expect(reply.exitCode).toBe(0)
    expect(json(reply)?.["decision"]).toBe("deny")
    expect(json(reply)?.["reason"]).toMatch(/^approval needed: touching files/)
    expect(json(HostMode.answer(read, asked, { ask: "host" }))).toStrictEqual({ decision: "ask", reason: "touching files" })
  })

  it("a rewrite goes back to Gemini CLI's own tool input, in its own field names", () => {
    const read = call("gemini", byEvent("gemini", "BeforeTool", "read_file"))
    const reply = HostMode.answer(read, outcome("PreToolUse", { updatedInput: { file_path: "/work/p/README.md" } }))
    expect(json(reply)).toStrictEqual({
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { absolute_path: "/work/p/README.md" } }
    })
  })

  it("additionalContext where Gemini CLI reads it (AfterTool, BeforeAgent, SessionStart), under the agent's event name", () => {
    const read = call("gemini", byEvent("gemini", "AfterTool"))
    expect(json(HostMode.answer(read, outcome("PostToolUse", { additionalContext: ["look"] })))).toStrictEqual({
      hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "look" }
    })
  })

  it("BeforeModel, AfterModel and BeforeToolSelection are read under their own names", () => {
    for (const event of ["BeforeModel", "AfterModel", "BeforeToolSelection"])
      expect(call("gemini", byEvent("gemini", event)).event).toBe(event)
  })
})

describe("tools host mode does not know", () => {
  it("are named in a warning (a policy in Claude Code's names may not match them); known, mapped and MCP tools are not", () => {
    expect(HostMode.unknownTool(call("gemini", { hook_event_name: "BeforeTool", tool_name: "run_python", tool_input: {} }))).toContain(
      '"run_python"'
    )
    expect(HostMode.unknownTool(call("gemini", byEvent("gemini", "BeforeTool", "run_shell_command")))).toBeUndefined()
    expect(HostMode.unknownTool(call("gemini", byEvent("gemini", "BeforeTool", "search")))).toBeUndefined()
    expect(
      HostMode.unknownTool(call("codex", { hook_event_name: "PreToolUse", tool_name: "mcp__docs__search", tool_input: {} }))
    ).toBeUndefined()
    expect(HostMode.unknownTool(call("claude", { hook_event_name: "PreToolUse", tool_name: "Whatever", tool_input: {} }))).toBeUndefined()
    for (const host of hosts) {
      for (const payload of recorded(host))
        expect(HostMode.unknownTool(call(host, payload)), `${host} ${String(payload["tool_name"])}`).toBeUndefined()
    }
  })
})

describe("hostile input", () => {
  it("two fields of the agent that mean one field of the policy, with different values: the call is not judged on one of them (it blocks)", () => {
    for (const [host, event, tool, input] of [
      ["gemini", "BeforeTool", "read_file", { absolute_path: "/p/README.md", file_path: "/etc/shadow" }],
      ["gemini", "BeforeTool", "glob", { dir_path: "/p", path: "/etc", pattern: "*" }],
      ["qwen", "PreToolUse", "read_file", { file_path: "/etc/shadow", absolute_path: "/p/README.md" }],
      ["codex", "PreToolUse", "exec_command", { cmd: "rm -rf /", command: "ls" }]
    ] as const) {
      const result = HostMode.translate(agent(host), { hook_event_name: event, tool_name: tool, tool_input: input })
      expect(result, `${host} ${tool}`).toHaveProperty("error")
      expect((result as { error: string }).error).toContain("cannot be judged")
    }
    // the same value twice is no conflict
    const same = call("gemini", {
      hook_event_name: "BeforeTool",
      tool_name: "read_file",
      tool_input: { absolute_path: "/p/a", file_path: "/p/a" }
    })
    expect(same.payload["tool_input"]).toStrictEqual({ file_path: "/p/a" })
  })

  it("a tool input key named __proto__ stays a field the hooks see, mapped or not, and in a rewrite", () => {
    const payload = JSON.parse(
      '{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/p/a","__proto__":{"file_path":"/etc/shadow"}}}'
    )
    const read = call("gemini", payload)
    const input = read.payload["tool_input"] as Record<string, unknown>
    expect(Object.hasOwn(input, "__proto__")).toBe(true)
    expect(input["file_path"]).toBe("/p/a")
    expect(JSON.stringify(input)).toBe('{"file_path":"/p/a","__proto__":{"file_path":"/etc/shadow"}}')
    const rewrite = JSON.parse('{"file_path":"/p/b","__proto__":{"x":1}}')
    const reply = HostMode.answer(read, outcome("PreToolUse", { updatedInput: rewrite }))
    expect(reply.stdout).toContain('"__proto__":{"x":1}')
  })
})

describe("qwen", () => {
  it("a batch of calls (PostToolBatch) names each tool as Claude Code does", () => {
    const read = call("qwen", byEvent("qwen", "PostToolBatch"))
    const calls = read.payload["tool_calls"] as ReadonlyArray<Record<string, unknown>>
    expect(calls[0]).toMatchObject({ tool_name: "Bash", tool_input: { command: "touch MARKER", run_in_background: false } })
  })

  it("reads Qwen Code's tool names into Claude Code's", () => {
    const shell = call("qwen", byEvent("qwen", "PreToolUse", "run_shell_command"))
    expect([shell.payload["tool_name"], shell.payload["tool_input"]]).toStrictEqual([
      "Bash",
      { command: "touch MARKER", description: "Create the marker file", run_in_background: false }
    ])
    const read = call("qwen", byEvent("qwen", "PreToolUse", "read_file"))
    expect([read.payload["tool_name"], read.payload["tool_input"]]).toStrictEqual(["Read", { file_path: "/work/p/.env" }])
    expect(call("qwen", byEvent("qwen", "PreToolUse", "edit")).payload["tool_name"]).toBe("Edit")
    expect(call("qwen", byEvent("qwen", "PreToolUse", "web_fetch")).payload["tool_input"]).toStrictEqual({
      url: "https://example.com",
      prompt: "summarise"
    })
  })

  it("deny: exit 2 with the reason on stderr, nothing on stdout (Qwen Code ignores it)", () => {
    const read = call("qwen", byEvent("qwen", "PreToolUse", "run_shell_command"))
    expect(HostMode.answer(read, outcome("PreToolUse", { blocked: true, decision: "deny", reason: "no" }))).toStrictEqual({
      exitCode: 2,
      stdout: "",
      stderr: "no\n"
    })
  })

  it("ask: Qwen Code's own ask", () => {
    const read = call("qwen", byEvent("qwen", "PreToolUse", "run_shell_command"))
    expect(json(HostMode.answer(read, outcome("PreToolUse", { decision: "ask", reason: "touching" })))).toStrictEqual({
      decision: "ask",
      reason: "touching",
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "touching" }
    })
  })

  it("a rewrite Qwen Code cannot apply: a deny naming the rewrite (the original never runs silently); --rewrite original lets it", () => {
    const read = call("qwen", byEvent("qwen", "PreToolUse", "run_shell_command"))
    const rewritten = outcome("PreToolUse", { updatedInput: { command: "touch SAFE" } })
    const reply = HostMode.answer(read, rewritten)
    expect(reply.exitCode).toBe(2)
    expect(reply.stdout).toBe("")
    expect(reply.stderr).toContain('"touch SAFE"')
    expect(reply.stderr).toContain("Qwen Code cannot apply")
    expect(HostMode.answer(read, rewritten, { rewrite: "original" }).exitCode).toBe(0)
  })
})

describe("host mode's own failure", () => {
  it("blocks every event that can block, in the agent's format; Stop-like and non-blocking events get a visible hook error instead", () => {
    for (const host of hosts) {
      for (const payload of fixtures(host)) {
        const hostEvent = payload["hook_event_name"] as string
        const reply = HostMode.failure(agent(host), hostEvent, "cannot read /x/settings.json")
        const event = agent(host).events[hostEvent]!
        const blocks = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact"].includes(event)
        const neverBlocks = [
          "Stop",
          "SubagentStop",
          "SessionEnd",
          "Notification",
          "SessionStart",
          "PermissionRequest",
          ...agent(host).ownEvents
        ].includes(event)
        if (blocks) expect(reply.exitCode, `${host} ${hostEvent}`).toBe(host === "gemini" && GEMINI_DECIDES.has(hostEvent) ? 0 : 2)
        if (blocks && host === "gemini") expect(json(reply)?.["decision"]).toBe("deny")
        if (neverBlocks) expect(reply.exitCode, `${host} ${hostEvent}`).toBe(1)
        expect(reply.stderr).toContain("cannot read /x/settings.json")
        expectOwnKeys(host, reply)
      }
    }
  })

  it("a payload without an event, or with one host mode does not know, blocks", () => {
    for (const host of hosts) {
      expect(HostMode.translate(agent(host), { tool_name: "Bash" })).toHaveProperty("error")
      expect(HostMode.translate(agent(host), { hook_event_name: "toString" })).toHaveProperty("error")
      expect(HostMode.failure(agent(host), undefined, "bad payload").exitCode).toBe(2)
      expect(HostMode.failure(agent(host), "NoSuchEvent", "bad").exitCode).toBe(2)
    }
  })
})

describe("project root", () => {
  it("comes from the agent's own variable, never from the payload", () => {
    expect(HostMode.projectDir(agent("claude"), { CLAUDE_PROJECT_DIR: "/p" })).toBe("/p")
    expect(HostMode.projectDir(agent("gemini"), { GEMINI_PROJECT_DIR: "/g", CLAUDE_PROJECT_DIR: "/c" })).toBe("/g")
    expect(HostMode.projectDir(agent("qwen"), { QWEN_PROJECT_DIR: "/q", CLAUDE_PROJECT_DIR: "/c" })).toBe("/q")
    expect(HostMode.projectDir(agent("codex"), { CLAUDE_PROJECT_DIR: "/c" })).toBeUndefined()
  })

  it("a payload's own host field is replaced by the agent's names", () => {
    const read = call("gemini", {
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command: "ls" },
      host: { name: "claude" }
    })
    expect(read.payload["host"]).toStrictEqual({
      name: "gemini",
      event: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command: "ls" }
    })
  })
})
