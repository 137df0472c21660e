/**
 * Host mode for the agents that run agent-hooks as their plugin (pi, opencode, Kilo): the payload
 * the plugin sends (Claude Code's, with the agent's own tool names) is read into Claude Code's
 * names, and every answer is exit 0 with one JSON object the plugin applies: a block with its
 * reason (never exit 2: the reason is data the plugin hands the agent), a rewrite in the agent's
 * own field names, an ask as a deny that says approval is needed.
 */
import { describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"
import { call, outcome } from "./hosts.ts"

const pre = (tool: string, input: Record<string, unknown>) => ({
  session_id: "s",
  cwd: "/p",
  hook_event_name: "PreToolUse",
  tool_name: tool,
  tool_input: input,
  tool_use_id: "call_1"
})

describe.each(["pi", "opencode", "kilo"])("host mode %s (agent-hooks' plugin)", (host) => {
  it("reads the plugin's events in Claude Code's names", () => {
    for (const event of ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]) {
      expect(call(host, { hook_event_name: event, session_id: "s", cwd: "/p" }).event).toBe(event)
    }
    expect(call(host, pre("bash", { command: "ls" })).payload["tool_name"]).toBe("Bash")
  })

  it("a block is exit 0 and {decision: block, reason}, the reason as given", () => {
    const read = call(host, pre("bash", { command: "rm -rf /" }))
    const reason = `no: $(touch /tmp/x) \`id\` "'`
    const reply = HostMode.answer(read, outcome(read.event, { blocked: true, decision: "deny", reason }))
    expect(reply.exitCode).toBe(0)
    expect(JSON.parse(reply.stdout)).toStrictEqual({ decision: "block", reason })
  })

  it("an ask is a deny that says approval is needed; a rewrite is the agent's own input", () => {
    const read = call(host, pre("bash", { command: "touch MARKER" }))
    const asked = JSON.parse(HostMode.answer(read, outcome(read.event, { decision: "ask", reason: "a human" })).stdout)
    expect(asked.decision).toBe("block")
    expect(asked.reason).toMatch(/approval needed/)
    expect(asked.reason).toContain("a human")
    const rewritten = JSON.parse(
      HostMode.answer(read, outcome(read.event, { decision: "allow", updatedInput: { command: "touch REWRITTEN" } })).stdout
    )
    expect(rewritten).toStrictEqual({ updatedInput: { command: "touch REWRITTEN" } })
  })
})

describe("the agents' file tools in Claude Code's names", () => {
  it("pi's edit path/oldText/newText and opencode's edit filePath/oldString/newString are Edit's fields", () => {
    expect(call("pi", pre("edit", { path: "a.ts", oldText: "x", newText: "y" })).payload["tool_input"]).toStrictEqual({
      file_path: "a.ts",
      old_string: "x",
      new_string: "y"
    })
    for (const host of ["opencode", "kilo"]) {
      const read = call(host, pre("edit", { filePath: "a.ts", oldString: "x", newString: "y", replaceAll: true }))
      expect(read.payload["tool_name"]).toBe("Edit")
      expect(read.payload["tool_input"]).toStrictEqual({ file_path: "a.ts", old_string: "x", new_string: "y", replace_all: true })
    }
    // a rewrite of a mapped tool goes back in the agent's own field names
    const read = call("opencode", pre("read", { filePath: "secret.txt" }))
    const reply = JSON.parse(
      HostMode.answer(read, outcome(read.event, { decision: "allow", updatedInput: { file_path: "public.txt" } })).stdout
    )
    expect(reply).toStrictEqual({ updatedInput: { filePath: "public.txt" } })
  })
})
