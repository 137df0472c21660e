/**
 * Host mode's Claude Code → agent direction (`HostMode.present`, what `hook --payload <agent>` and
 * `migrate --to` use): a call of any agent, read into Claude Code's names, is presented to hooks
 * written for another agent in that agent's own events, tool names and fields. The payloads are the
 * agents' fixtures (`fixtures/hosts/`, the shapes the real agents send).
 */
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"
import { agent, hostFixtures, type Payload } from "./hosts.ts"

/** Every fixture of an agent, with the event name its command gives (Copilot CLI's payload names none). */
const fixturesOf = (name: string): ReadonlyArray<Payload> =>
  readdirSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
    .filter((file) => file.startsWith(`${name}.`) && file.endsWith(".json"))
    .flatMap((file) => hostFixtures(file) as ReadonlyArray<Payload>)

/** The calls of every agent's fixtures, in Claude Code's names. */
const calls = HostMode.agents.flatMap((from) =>
  fixturesOf(from.name).flatMap((payload) => {
    const read = HostMode.translate(from, payload)
    return "error" in read ? [] : [{ from: from.name, payload, call: read }]
  })
)

const same = (a: unknown, b: unknown) => expect(JSON.parse(JSON.stringify(a ?? null))).toEqual(JSON.parse(JSON.stringify(b ?? null)))

describe("HostMode.present: a call in another agent's own names", () => {
  it("reads fixtures of every agent", () => {
    expect(new Set(calls.map((one) => one.from)).size).toBeGreaterThanOrEqual(10)
  })

  for (const to of HostMode.agents) {
    it(`${to.name}: every agent's call, presented as ${to.displayName} sends it, reads back to the same event, tool and input`, () => {
      let presented = 0
      for (const { from, call } of calls) {
        for (const shown of HostMode.present(to, call.event, call.payload)) {
          presented++
          expect(to.events[shown.hostEvent], `${from} → ${to.name} ${shown.hostEvent}`).toBe(call.event)
          const back = HostMode.translate(
            to,
            to.name === "copilot" ? { ...shown.payload, hook_event_name: shown.hostEvent } : shown.payload
          )
          if ("error" in back) throw new Error(`${from} → ${to.name}: ${back.error}`)
          expect(back.event).toBe(call.event)
          expect(back.payload["tool_name"], `${from} → ${to.name} ${shown.hostEvent}`).toBe(call.payload["tool_name"])
          // the input the hook reads is the call's (an event that carries one field, like Cursor's beforeShellExecution, only that one)
          const input = (call.payload["tool_input"] ?? {}) as Record<string, unknown>
          const read = (back.payload["tool_input"] ?? {}) as Record<string, unknown>
          for (const [key, value] of Object.entries(input)) if (key in read) same(read[key], value)
          if (typeof input["command"] === "string") expect(read["command"]).toBe(input["command"])
          if (typeof input["file_path"] === "string") expect(read["file_path"]).toBe(input["file_path"])
        }
      }
      expect(presented).toBeGreaterThan(0)
    })
  }

  it("an agent's own call, presented back to it, gives its own event, tool name and fields", () => {
    for (const { from, payload, call } of calls) {
      const own = agent(from)
      if (from === "copilot") continue // names no event: its command does
      const shown = HostMode.present(own, call.event, call.payload).find((one) => one.hostEvent === call.hostEvent)
      if (call.tool === undefined || shown === undefined) continue
      const back = HostMode.translate(own, shown.payload)
      if ("error" in back) throw new Error(back.error)
      expect(back.tool?.name, `${from} ${call.hostEvent}`).toBe(call.tool.name)
      same(back.tool?.input, call.tool.input)
      expect(HostMode.hostEvent(own, shown.payload)).toBe(HostMode.hostEvent(own, payload))
    }
  })

  it("Claude Code's Bash call, as Gemini CLI, Windsurf, Copilot CLI, Kiro and Antigravity send it", () => {
    const payload = { hook_event_name: "PreToolUse", session_id: "s1", cwd: "/p", tool_name: "Bash", tool_input: { command: "git push" } }
    const one = (name: string) => HostMode.present(agent(name), "PreToolUse", payload)
    expect(one("gemini")).toEqual([
      {
        hostEvent: "BeforeTool",
        payload: expect.objectContaining({
          hook_event_name: "BeforeTool",
          tool_name: "run_shell_command",
          tool_input: { command: "git push" }
        })
      }
    ])
    expect(one("windsurf")).toEqual([
      {
        hostEvent: "pre_run_command",
        payload: expect.objectContaining({
          agent_action_name: "pre_run_command",
          trajectory_id: "s1",
          tool_info: { command_line: "git push", cwd: "/p" }
        })
      }
    ])
    expect(one("copilot")[0]!.payload).toMatchObject({
      sessionId: "s1",
      toolName: "bash",
      toolArgs: JSON.stringify({ command: "git push" })
    })
    expect(one("kiro").map((shown) => shown.hostEvent)).toContain("PreToolUse")
    expect(one("kiro")[0]!.payload).toMatchObject({ tool_name: "execute_bash" })
    expect(one("antigravity")[0]!.payload).toMatchObject({
      hookEventName: "PreToolUse",
      toolCall: { name: "run_command", args: { CommandLine: "git push" } }
    })
    expect(
      one("cursor")
        .map((shown) => shown.hostEvent)
        .sort()
    ).toEqual(["beforeShellExecution", "preToolUse"])
    // Windsurf fires nothing for a web fetch: hooks written for it do not run
    expect(
      HostMode.present(agent("windsurf"), "PreToolUse", { ...payload, tool_name: "WebFetch", tool_input: { url: "https://x" } })
    ).toEqual([])
  })
})
