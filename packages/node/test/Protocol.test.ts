/**
 * Every row of Claude Code's per-event decision control (what blocks, on which event, and how), each with a
 * real hook process for its exit-2 path and for its JSON path.
 */
import { afterAll, describe, expect, it } from "vitest"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createHookEngine } from "@agent-hooks/node"
import type { Outcome } from "@agent-hooks/core"
import { readsAdditionalContext } from "@agent-hooks/test-utils/ClaudeContract"

const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-protocol-")))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A hook that prints `stdout` (verbatim), writes `stderr`, and exits with `code`. */
const hookScript = (name: string, code: number, stdout: string, stderr: string) => {
  const file = join(dir, `${name}.sh`)
  writeFileSync(
    file,
    `#!/bin/sh\ncat >/dev/null\nprintf '%s' '${stdout.replace(/'/g, `'\\''`)}'\nprintf '%s' '${stderr.replace(/'/g, `'\\''`)}' >&2\nexit ${code}\n`
  )
  return `sh ${JSON.stringify(file)}`
}

let counter = 0
const runOne = async (event: string, payload: Record<string, unknown>, code: number, stdout: string, stderr = "") => {
  const name = `h${counter++}`
  const settings = join(dir, `${name}.json`)
  writeFileSync(
    settings,
    JSON.stringify({ hooks: { [event]: [{ hooks: [{ type: "command", command: hookScript(name, code, stdout, stderr) }] }] } })
  )
  const engine = await createHookEngine({ settings: [settings], projectDir: dir })
  try {
    return await engine.dispatch(event, payload)
  } finally {
    await engine.close()
  }
}

const specific = (event: string, fields: Record<string, unknown>) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...fields } })

interface Row {
  readonly event: string
  readonly payload: Record<string, unknown>
  /** What exit 2 with stderr "EXIT2" does. */
  readonly exit2: (o: Outcome.Outcome) => void
  /** The JSON path: what the hook prints, and what it does. */
  readonly json: string
  readonly jsonEffect: (o: Outcome.Outcome) => void
}

const tool = { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" }
const blockedFor = (audience: "toModel" | "toUser" | "nowhere") => (o: Outcome.Outcome) => {
  expect(o.blocked).toBe(true)
  expect(o.reason).toBe("EXIT2")
  if (audience === "nowhere") {
    expect(o.toModel).not.toContain("EXIT2")
    expect(o.toUser).not.toContain("EXIT2")
  } else {
    expect(o[audience]).toContain("EXIT2")
  }
}
const notBlocked = (stderrTo?: "toModel" | "toUser") => (o: Outcome.Outcome) => {
  expect(o.blocked).toBe(false)
  expect(o.decision).toBeNull()
  if (stderrTo !== undefined) expect(o[stderrTo].join("\n")).toContain("EXIT2")
  else expect([...o.toModel, ...o.toUser].join("\n")).not.toContain("EXIT2")
}

/** A systemMessage where Claude Code reads nothing of the JSON answer but terminalSequence: not shown, and named in a warning. */
const discarded = (event: string) => (o: Outcome.Outcome) => {
  expect(o).toMatchObject({ blocked: false, continue: true, systemMessages: [] })
  expect([...o.toUser, ...o.toModel].join("\n")).not.toContain("bye")
  expect(o.warnings.join("\n")).toContain(`"systemMessage" is ignored on ${event}: ${event} shows nothing of a hook's JSON answer`)
}

const rows: ReadonlyArray<Row> = [
  {
    event: "PreToolUse",
    payload: tool,
    exit2: (o) => {
      blockedFor("toModel")(o)
      expect(o.decision).toBe("deny")
    },
    json: specific("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: "JSONREASON", updatedInput: { command: "x" } }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, decision: "deny", reason: "JSONREASON", toModel: ["JSONREASON"] })
  },
  {
    event: "PermissionRequest",
    payload: tool,
    exit2: notBlocked(),
    json: specific("PermissionRequest", { decision: { behavior: "deny", message: "JSONREASON" } }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, decision: "deny", reason: "JSONREASON" })
  },
  {
    event: "PermissionDenied",
    payload: { ...tool, reason: "Blocked by classifier" },
    exit2: notBlocked(),
    json: specific("PermissionDenied", { retry: true }),
    jsonEffect: (o) => expect(o.hookSpecificOutput).toEqual({ retry: true })
  },
  {
    event: "UserPromptSubmit",
    payload: { prompt: "hello" },
    exit2: blockedFor("toUser"),
    json: JSON.stringify({
      decision: "block",
      reason: "JSONREASON",
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "CTX", sessionTitle: "T" }
    }),
    jsonEffect: (o) => {
      expect(o).toMatchObject({ blocked: true, decision: "block", reason: "JSONREASON", hookSpecificOutput: { sessionTitle: "T" } })
      expect(o.toUser).toContain("JSONREASON")
      expect(o.toModel).toEqual(["CTX"])
    }
  },
  {
    event: "UserPromptExpansion",
    payload: { expansion_type: "slash_command", command_name: "deploy", command_args: "", prompt: "/deploy" },
    exit2: blockedFor("toUser"),
    json: JSON.stringify({ decision: "block", reason: "JSONREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, reason: "JSONREASON", toUser: ["JSONREASON"] })
  },
  {
    event: "PostToolUse",
    payload: { ...tool, tool_response: { stdout: "", stderr: "" } },
    exit2: blockedFor("toModel"),
    json: JSON.stringify({
      decision: "block",
      reason: "JSONREASON",
      hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: { stdout: "redacted" } }
    }),
    jsonEffect: (o) => {
      expect(o).toMatchObject({ blocked: true, decision: "block", toModel: ["JSONREASON"] })
      expect(o.hookSpecificOutput).toEqual({ updatedToolOutput: { stdout: "redacted" } })
    }
  },
  {
    event: "PostToolUseFailure",
    payload: { ...tool, error: "Exit code 1" },
    exit2: notBlocked("toModel"),
    json: specific("PostToolUseFailure", { additionalContext: "CTX" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: false, toModel: ["CTX"] })
  },
  {
    event: "PostToolBatch",
    payload: { tool_calls: [] },
    exit2: blockedFor("toModel"),
    json: JSON.stringify({ decision: "block", reason: "JSONREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, reason: "JSONREASON" })
  },
  ...["Stop", "SubagentStop"].map(
    (event): Row => ({
      event,
      payload: { stop_hook_active: false, agent_id: "a1", agent_type: "general-purpose" },
      exit2: blockedFor("toModel"),
      json: JSON.stringify({
        decision: "block",
        reason: "JSONREASON",
        hookSpecificOutput: { hookEventName: event, additionalContext: "CTX" }
      }),
      jsonEffect: (o) => {
        expect(o).toMatchObject({ blocked: true, decision: "block", reason: "JSONREASON", additionalContext: ["CTX"] })
        expect(o.toModel).toEqual(["JSONREASON", "CTX"])
      }
    })
  ),
  {
    event: "TeammateIdle",
    payload: { teammate_name: "t1" },
    exit2: blockedFor("toModel"),
    json: JSON.stringify({ continue: false, stopReason: "STOPREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: false, continue: false, stopReason: "STOPREASON", toUser: ["STOPREASON"] })
  },
  {
    event: "TaskCreated",
    payload: { task_id: "1", task_subject: "x" },
    exit2: blockedFor("toModel"),
    json: JSON.stringify({ decision: "block", reason: "JSONREASON", continue: false }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, reason: "JSONREASON", continue: true }) // continue:false is ignored here
  },
  {
    event: "TaskCompleted",
    payload: { task_id: "1", task_subject: "x" },
    exit2: blockedFor("toModel"),
    json: JSON.stringify({ continue: false, stopReason: "STOPREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ continue: false, stopReason: "STOPREASON" })
  },
  {
    event: "ConfigChange",
    payload: { source: "project_settings", file_path: "/x" },
    exit2: blockedFor("nowhere"),
    json: JSON.stringify({ decision: "block", reason: "JSONREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, toModel: [], toUser: [] })
  },
  {
    event: "PreCompact",
    payload: { trigger: "manual", custom_instructions: "" },
    exit2: blockedFor("toUser"),
    json: JSON.stringify({ decision: "block", reason: "JSONREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, toUser: ["JSONREASON"] })
  },
  ...["Elicitation", "ElicitationResult"].map(
    (event): Row => ({
      event,
      payload: { mcp_server_name: "srv", message: "m", action: "accept" },
      exit2: blockedFor("nowhere"),
      json: specific(event, { action: "decline", content: { a: 1 } }),
      jsonEffect: (o) => expect(o.hookSpecificOutput).toEqual({ action: "decline", content: { a: 1 } })
    })
  ),
  {
    event: "WorktreeCreate",
    payload: { name: "bold-oak-a3f2" },
    exit2: (o) => expect(o).toMatchObject({ blocked: true, reason: "EXIT2" }),
    json: "creating...\n\u001b[32m/tmp/worktrees/bold-oak\u001b[0m\n",
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: false, hookSpecificOutput: { worktreePath: "/tmp/worktrees/bold-oak" } })
  },
  ...["SessionStart", "Setup", "SubagentStart"].map(
    (event): Row => ({
      event,
      payload: { source: "startup", trigger: "init", agent_id: "a", agent_type: "x" },
      exit2: notBlocked("toUser"),
      json: specific(event, { additionalContext: "CTX" }),
      jsonEffect: (o) => expect(o).toMatchObject({ blocked: false, additionalContext: ["CTX"], toModel: ["CTX"] })
    })
  ),
  {
    event: "PreModelSwitch",
    payload: { from_model: "a", to_model: "b", requested_model: "b", source: "command" },
    exit2: (o) => {
      blockedFor("toUser")(o)
      expect(o.toModel).toEqual([])
    },
    json: specific("PreModelSwitch", { permissionDecision: "deny", permissionDecisionReason: "JSONREASON" }),
    jsonEffect: (o) => expect(o).toMatchObject({ blocked: true, decision: "deny", toUser: ["JSONREASON"] })
  },
  {
    event: "PostModelSwitch",
    payload: { from_model: "a", to_model: "b", source: "auto" },
    exit2: notBlocked(),
    json: "the model changed to b",
    jsonEffect: (o) => expect(o).toMatchObject({ additionalContext: ["the model changed to b"], toModel: ["the model changed to b"] })
  },
  {
    event: "MessageDisplay",
    payload: { turn_id: "t", message_id: "m", index: 0, final: true, delta: "hello" },
    exit2: notBlocked(),
    json: specific("MessageDisplay", { displayContent: "HELLO" }),
    jsonEffect: (o) => expect(o.hookSpecificOutput).toEqual({ displayContent: "HELLO" })
  },
  ...["CwdChanged", "FileChanged"].map(
    (event): Row => ({
      event,
      payload: { old_cwd: "/a", new_cwd: "/b", file_path: "/b/.env", event: "change" },
      exit2: notBlocked("toUser"),
      json: specific(event, { watchPaths: ["/b/.env"] }),
      jsonEffect: (o) => expect(o.hookSpecificOutput).toEqual({ watchPaths: ["/b/.env"] })
    })
  ),
  ...["SessionEnd", "PostCompact"].map(
    (event): Row => ({
      event,
      payload: { reason: "other", trigger: "auto" },
      exit2: notBlocked("toUser"),
      // JSON control: none (terminalSequence only); continue and systemMessage are discarded, and named
      json: JSON.stringify({ continue: false, systemMessage: "bye" }),
      jsonEffect: discarded(event)
    })
  ),
  ...["Notification", "StopFailure", "InstructionsLoaded", "WorktreeRemove", "DirectoryAdded"].map(
    (event): Row => ({
      event,
      payload: {
        message: "m",
        notification_type: "idle_prompt",
        error: "rate_limit",
        worktree_path: "/w",
        directory: "/d",
        source: "slash_command"
      },
      exit2: notBlocked(),
      json: JSON.stringify({ decision: "block", reason: "JSONREASON", systemMessage: "bye" }),
      jsonEffect: (o) => {
        expect(o).toMatchObject({ blocked: false, decision: null })
        // DirectoryAdded's systemMessage goes to Claude; the others' JSON answer is read for terminalSequence only
        if (event === "DirectoryAdded") expect(o).toMatchObject({ systemMessages: ["bye"], toModel: ["bye"] })
        else discarded(event)(o)
      }
    })
  )
]

describe("decision control: every event's exit-2 path and JSON path, with real hooks", () => {
  for (const row of rows) {
    it(`${row.event}: exit 2`, async () => {
      const outcome = await runOne(row.event, row.payload, 2, "", "EXIT2")
      expect(outcome.event).toBe(row.event)
      expect(outcome.hooks[0]?.exitCode).toBe(2)
      row.exit2(outcome)
    })
    it(`${row.event}: JSON`, async () => {
      const outcome = await runOne(row.event, row.payload, 0, row.json)
      expect(outcome.hooks[0]?.status).toBe("success")
      row.jsonEffect(outcome)
    })
  }

  it("covers all 33 events", () => {
    expect(new Set(rows.map((row) => row.event)).size).toBe(33)
  })
})

describe("a field the event does not read is not delivered, and is said (real hooks)", () => {
  it("additionalContext from a hook on every event reaches the model only where the event reads it", async () => {
    // One hook on every event: it answers with additionalContext under the event's own name.
    const script = join(dir, "context-everywhere.sh")
    writeFileSync(
      script,
      `#!/bin/sh\nevent=$(sed -n 's/.*"hook_event_name":"\\([A-Za-z]*\\)".*/\\1/p')\nprintf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"CTX-%s"}}' "$event" "$event"\n`
    )
    const rows33 = rows.map((row) => row.event)
    const settings = join(dir, "context-everywhere.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: Object.fromEntries(
          rows33.map((event) => [event, [{ hooks: [{ type: "command", command: `sh ${JSON.stringify(script)}` }] }]])
        )
      })
    )
    const warnings: Array<string> = []
    const engine = await createHookEngine({ settings: [settings], projectDir: dir, onWarning: (line) => warnings.push(line) })
    try {
      for (const row of rows) {
        const outcome = await engine.dispatch(row.event, row.payload)
        const context = `CTX-${row.event}`
        if (readsAdditionalContext.has(row.event)) {
          expect(outcome.additionalContext, row.event).toEqual([context])
          expect(outcome.toModel, row.event).toContain(context)
        } else {
          expect(
            JSON.stringify([outcome.additionalContext, outcome.toModel, outcome.toUser, outcome.hookSpecificOutput]),
            row.event
          ).not.toContain(context)
          expect(outcome.warnings.join("\n"), row.event).toMatch(
            row.event === "WorktreeCreate" ||
              ["PermissionRequest", "PermissionDenied", "MessageDisplay", "CwdChanged", "FileChanged", "PreModelSwitch"].includes(
                row.event
              ) ||
              row.event.startsWith("Elicitation")
              ? /hookSpecificOutput\.additionalContext is ignored/
              : /hookSpecificOutput is not supported/
          )
        }
      }
    } finally {
      await engine.close()
    }
    expect(warnings.join("\n")).toContain(`hookSpecificOutput.additionalContext is ignored: PermissionRequest reads only`)
  })

  it("exit 2 on Elicitation and ElicitationResult blocks with stderr, and the printed action is not applied but named", async () => {
    for (const event of ["Elicitation", "ElicitationResult"]) {
      const outcome = await runOne(
        event,
        { mcp_server_name: "srv", message: "m", action: "decline" },
        2,
        specific(event, { action: "accept", content: { token: "t" } }),
        "EXIT2"
      )
      expect(outcome).toMatchObject({ blocked: true, decision: "block", reason: "EXIT2", hookSpecificOutput: null })
      expect(outcome.warnings.join("\n")).toContain(`hookSpecificOutput.action is ignored on ${event}: the exit code blocks`)
      expect(outcome.warnings.join("\n")).toContain(`hookSpecificOutput.content is ignored on ${event}: the exit code blocks`)
    }
  })
})
