/**
 * The Kiro, Windsurf, Cline and Antigravity presets: each file read in its agent's own shape, with
 * the paths of problems; each agent's exit codes and answers (HookOutput.interpret on the events the
 * preset declares). The same presets run real hook processes in packages/cli/test/PeerAgents.test.ts.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Presets } from "@agent-hooks/core"
import * as HookEvent from "@agent-hooks/core/HookEvent"
import * as HookOutput from "@agent-hooks/core/HookOutput"

type Preset = (typeof Presets.all)[number]
const context = { projectDir: "/p", cwd: "/p", env: { HOME: "/home/u" } }
const decode = (preset: Preset, document: unknown, path = "/p/file.json") =>
  Effect.runSync(preset.decode(document, { path, scope: "project", required: false }, { ...context, events: preset.events }))
const decodeError = (preset: Preset, document: unknown) =>
  Effect.runSync(
    Effect.flip(preset.decode(document, { path: "/p/file.json", scope: "project", required: false }, { ...context, events: preset.events }))
  )
const spec = (preset: Preset, name: string) => HookEvent.custom(preset.events.find((event) => event.name === name)!)
const run = (exitCode: number, stdout = "", stderr = "") => ({ exitCode, signal: null, timedOut: false, timeout: 30, stdout, stderr })
const antigravity10 = Presets.antigravityWith({ version: "1.0" })
const antigravity = Presets.antigravityWith()

describe("discovery: each agent's files in their places and scopes", () => {
  const files = (preset: Preset) => preset.discover(context).map((file) => [file.path, file.scope, file.folder?.suffix ?? null])
  it("kiro: every .json in ~/.kiro/hooks (user) and .kiro/hooks (project)", () => {
    expect(files(Presets.kiro)).toEqual([
      ["/home/u/.kiro/hooks", "user", ".json"],
      ["/p/.kiro/hooks", "project", ".json"]
    ])
  })
  it("windsurf: user, workspace, and the system file as managed policy", () => {
    expect(files(Presets.windsurf)).toEqual([
      ["/home/u/.codeium/windsurf/hooks.json", "user", null],
      ["/p/.windsurf/hooks.json", "project", null],
      ["/etc/windsurf/hooks.json", "managed", null]
    ])
  })
  it("cline: every file of ~/Documents/Cline/Hooks and .clinerules/hooks, read as scripts", () => {
    expect(files(Presets.cline)).toEqual([
      ["/home/u/Documents/Cline/Hooks", "user", ""],
      ["/p/.clinerules/hooks", "project", ""]
    ])
    expect(Presets.cline.discover(context).every((file) => file.raw === true)).toBe(true)
  })
  it("antigravity: the documented files by default; the observed ones on 1.0", () => {
    expect(files(antigravity)).toEqual([
      ["/home/u/.gemini/antigravity-cli/hooks.json", "user", null],
      ["/p/.agents/hooks.json", "project", null]
    ])
    expect(files(antigravity10)).toEqual([
      ["/home/u/.gemini/hooks.json", "user", null],
      ["/home/u/.gemini/config/hooks.json", "user", null],
      ["/p/.antigravitycli/hooks.json", "project", null]
    ])
    expect(Presets.byName("antigravity")?.name).toBe("antigravity")
    expect(Presets.byName("antigravity-1.0")?.events.map((event) => event.name)).toEqual(["PreToolUse", "PostToolUse"])
  })
})

describe("decoding", () => {
  it("kiro v1: name, trigger, matcher (a regex), action command, timeout; agent actions, disabled hooks and old names", () => {
    const decoded = decode(Presets.kiro, {
      version: "v1",
      hooks: [
        {
          name: "lint-on-save",
          trigger: "PostFileSave",
          matcher: "\\.ts$",
          action: { type: "command", command: "npm run lint" },
          timeout: 30,
          enabled: true
        },
        {
          name: "remind-tests",
          trigger: "PreToolUse",
          matcher: "fs_write|str_replace",
          action: { type: "agent", prompt: "Ensure tests are updated" }
        },
        { name: "guard", trigger: "preToolUse", matcher: "execute_bash", action: { type: "command", command: "./guard.sh" } },
        { name: "off", trigger: "Stop", action: { type: "command", command: "x" }, enabled: false },
        { name: "typo", trigger: "pre_tool_use", action: { type: "command", command: "x" } }
      ]
    })
    expect(decoded.entries.map((entry) => [entry.event, entry.path, entry.matcher.source])).toEqual([
      ["PostFileSave", "hooks[0]", "\\.ts$"],
      ["PreToolUse", "hooks[2]", "(?:execute_bash)"]
    ])
    expect(decoded.entries[0]!.handler).toMatchObject({ type: "command", command: "npm run lint", timeout: 30 })
    expect(decoded.warnings).toEqual([
      expect.stringContaining(`/p/file.json at hooks[1].action: hook "remind-tests" is an agent action`),
      `/p/file.json at hooks[3]: hook "off" has "enabled": false; it does not run`,
      expect.stringContaining(`/p/file.json at hooks[4].trigger: unknown Kiro event "pre_tool_use" (did you mean "PreToolUse"?)`)
    ])
    expect(decoded.errors).toHaveLength(2)
  })
  it("kiro: a tool matcher naming a category (shell, read, write, web, @mcp, @builtin) or an MCP server matches its tools", () => {
    const decoded = decode(Presets.kiro, {
      version: "v1",
      hooks: [
        { trigger: "PreToolUse", matcher: "shell|write", action: { type: "command", command: "a" } },
        { trigger: "PreToolUse", matcher: "@mcp", action: { type: "command", command: "b" } },
        { trigger: "PreToolUse", matcher: "@github", action: { type: "command", command: "c" } },
        { trigger: "PostFileSave", matcher: "write", action: { type: "command", command: "d" } }
      ]
    })
    const matches = (index: number, name: string) => new RegExp(decoded.entries[index]!.matcher.source ?? "").test(name)
    expect([matches(0, "execute_bash"), matches(0, "fs_write"), matches(0, "fs_read"), matches(0, "@x/shell")]).toEqual([
      true,
      true,
      false,
      false
    ])
    expect([matches(1, "@github/create_issue"), matches(1, "execute_bash")]).toEqual([true, false])
    expect([matches(2, "@github/create_issue"), matches(2, "@gitlab/x")]).toEqual([true, false])
    // on a file trigger the matcher is the file path's regex
    expect([matches(3, "src/write.ts"), matches(3, "src/a.ts")]).toEqual([true, false])
  })

  it("kiro: a file that is not v1 is an error saying how to convert it", () => {
    expect(decodeError(Presets.kiro, { hooks: [] }).message).toContain("kiro-cli agent migrate")
  })
  it("windsurf: flat lists, no matchers, working_directory, in order; unknown keys and events named", () => {
    const decoded = decode(Presets.windsurf, {
      hooks: {
        pre_run_command: [
          { command: "python3 guard.py", show_output: true, working_directory: "/opt/it's" },
          { command: "./two.sh", colour: "red" }
        ],
        PreRunCommand: [{ command: "x" }]
      }
    })
    expect(decoded.sequential).toBe(true)
    expect(
      decoded.entries.map((entry) => [entry.event, entry.path, entry.handler.type === "command" ? entry.handler.command : ""])
    ).toEqual([
      ["pre_run_command", "hooks.pre_run_command[0]", "cd '/opt/it'\\''s' && python3 guard.py"],
      ["pre_run_command", "hooks.pre_run_command[1]", "./two.sh"]
    ])
    expect(decoded.warnings).toEqual([
      expect.stringContaining(`at hooks.pre_run_command[1].colour: not a Windsurf hook key`),
      expect.stringContaining(`unknown Windsurf event "PreRunCommand"`)
    ])
  })
  it("cline: a script named after its event is a hook of that event; other files are not", () => {
    const hook = decode(Presets.cline, { text: "#!/bin/sh\necho '{}'\n" }, "/p/.clinerules/hooks/PreToolUse")
    expect(hook.entries.map((entry) => [entry.event, entry.handler.type === "command" ? entry.handler.command : ""])).toEqual([
      ["PreToolUse", "${CLAUDE_PROJECT_DIR}/.clinerules/hooks/PreToolUse"]
    ])
    expect(decode(Presets.cline, { text: "notes" }, "/p/.clinerules/hooks/README.md").entries).toEqual([])
    expect(decode(Presets.cline, { text: "x" }, "/p/.clinerules/hooks/pretooluse.sh").warnings).toEqual([
      expect.stringContaining(`Cline runs only a file named exactly "PreToolUse"`)
    ])
  })
  it("antigravity: grouped by hook name, seconds, regex matchers; Gemini CLI's names are pointed to Antigravity's", () => {
    const decoded = decode(antigravity, {
      "my-hook-suite": {
        PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: "./guard.sh", timeout: 5 }] }],
        BeforeTool: []
      },
      "off-suite": { enabled: false, Stop: [] }
    })
    expect(decoded.entries.map((entry) => [entry.event, entry.path, entry.matcher.source])).toEqual([
      ["PreToolUse", `"my-hook-suite".PreToolUse[0].hooks[0]`.replace(/^"my-hook-suite"/, `["my-hook-suite"]`), "(?:run_command)"]
    ])
    expect(decoded.entries[0]!.handler).toMatchObject({ timeout: 5 })
    expect(decoded.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`unknown Antigravity event "BeforeTool" (did you mean "PreToolUse"?)`),
        expect.stringContaining(`the hook suite "off-suite" is disabled`)
      ])
    )
  })
  it("antigravity 1.0: Claude Code's nested shape; only PreToolUse and PostToolUse", () => {
    const decoded = decode(antigravity10, {
      hooks: { PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: "./guard.sh" }] }], Stop: [] }
    })
    expect(decoded.entries.map((entry) => entry.event)).toEqual(["PreToolUse"])
    expect(decoded.warnings).toEqual([expect.stringContaining(`unknown Antigravity event "Stop"`)])
  })
})

describe("each agent's exit codes and answers", () => {
  it("kiro: exit 2 blocks the pre hooks with stderr; exit 0 stdout is context; JSON is not read; other exits warn", () => {
    const pre = spec(Presets.kiro, "PreToolUse")
    expect(HookOutput.interpret(pre, run(2, "", "no"))).toMatchObject({ status: "blocking-error", decision: "deny", reason: "no" })
    expect(HookOutput.interpret(pre, run(0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`))).toMatchObject({
      status: "success",
      decision: null,
      additionalContext: [`{"hookSpecificOutput":{"permissionDecision":"deny"}}`]
    })
    expect(HookOutput.interpret(pre, run(1, "", "oops"))).toMatchObject({ status: "non-blocking-error", decision: null })
    expect(HookOutput.interpret(spec(Presets.kiro, "Stop"), run(2, "", "no"))).toMatchObject({
      status: "non-blocking-error",
      decision: null
    })
    expect(HookOutput.interpret(spec(Presets.kiro, "PreTaskExec"), run(2, "", "no"))).toMatchObject({ decision: "block" })
  })
  it("windsurf: only exit 2 on pre_* blocks; stdout is never context", () => {
    expect(HookOutput.interpret(spec(Presets.windsurf, "pre_run_command"), run(2, "", "no"))).toMatchObject({
      decision: "deny",
      reason: "no"
    })
    expect(HookOutput.interpret(spec(Presets.windsurf, "pre_user_prompt"), run(2, "", "no"))).toMatchObject({ decision: "block" })
    expect(HookOutput.interpret(spec(Presets.windsurf, "post_run_command"), run(2, "", "no"))).toMatchObject({
      status: "non-blocking-error",
      decision: null
    })
    expect(HookOutput.interpret(spec(Presets.windsurf, "pre_run_command"), run(1, "", "no"))).toMatchObject({
      status: "non-blocking-error",
      decision: null
    })
    expect(HookOutput.interpret(spec(Presets.windsurf, "pre_run_command"), run(0, "text", ""))).toMatchObject({
      decision: null,
      additionalContext: []
    })
  })
  it("cline: cancel blocks with errorMessage; contextModification is context; any non-zero exit is an error, not a block", () => {
    const pre = spec(Presets.cline, "PreToolUse")
    expect(HookOutput.interpret(pre, run(0, `{"cancel": true, "errorMessage": "JavaScript files not allowed"}`))).toMatchObject({
      status: "blocking-error",
      decision: "deny",
      reason: "JavaScript files not allowed"
    })
    expect(HookOutput.interpret(pre, run(0, `{"cancel": false, "contextModification": "use TS"}`))).toMatchObject({
      decision: null,
      additionalContext: ["use TS"]
    })
    expect(HookOutput.interpret(pre, run(2, `{"cancel": true}`, "no"))).toMatchObject({ status: "non-blocking-error", decision: null })
    expect(HookOutput.interpret(pre, run(0, "not json"))).toMatchObject({ status: "non-blocking-error", decision: null })
    expect(HookOutput.interpret(spec(Presets.cline, "TaskComplete"), run(0, `{"cancel": true, "errorMessage": "stop"}`))).toMatchObject({
      continue: false,
      stopReason: "stop"
    })
  })
  it("antigravity: {allowTool: false, denyReason} blocks (documented); {decision: deny, reason} blocks on 1.0; each refuses the other's answer visibly", () => {
    expect(HookOutput.interpret(spec(antigravity, "PreToolUse"), run(0, `{"allowTool": false, "denyReason": "no"}`))).toMatchObject({
      decision: "deny",
      reason: "no"
    })
    expect(HookOutput.interpret(spec(antigravity, "PreToolUse"), run(0, `{"decision": "deny", "reason": "no"}`))).toMatchObject({
      status: "non-blocking-error",
      decision: null
    })
    expect(HookOutput.interpret(spec(antigravity10, "PreToolUse"), run(0, `{"decision": "deny", "reason": "no"}`))).toMatchObject({
      decision: "deny",
      reason: "no"
    })
    expect(HookOutput.interpret(spec(antigravity10, "PreToolUse"), run(0, `{"allowTool": false}`))).toMatchObject({ decision: null })
    expect(HookOutput.interpret(spec(antigravity, "PreToolUse"), run(2, "", "no"))).toMatchObject({
      status: "non-blocking-error",
      decision: null
    })
  })
  it("a field the peer's own engine ignores on an event is not delivered and is named: Gemini CLI's additionalContext and tool_input, Cursor's additional_context", () => {
    const context = (value: string) => JSON.stringify({ hookSpecificOutput: { additionalContext: value } })
    // Gemini CLI adds additionalContext on AfterTool, BeforeAgent and SessionStart, nowhere else
    for (const compat of ["documented", "source"] as const) {
      const gemini = Presets.geminiWith({ geminiCompat: compat })
      for (const event of gemini.events) {
        const v = HookOutput.interpret(HookEvent.custom(event), run(0, context("CTX")))
        if (["AfterTool", "BeforeAgent", "SessionStart"].includes(event.name)) {
          expect(v.additionalContext, `${compat} ${event.name}`).toEqual(["CTX"])
          expect(v.ignored ?? [], `${compat} ${event.name}`).toEqual([])
        } else {
          expect(v.additionalContext, `${compat} ${event.name}`).toEqual([])
          expect(JSON.stringify(v.hookSpecificOutput ?? {}), `${compat} ${event.name}`).not.toContain("CTX")
          expect(v.ignored, `${compat} ${event.name}`).toContain(
            `hookSpecificOutput.additionalContext is ignored on ${event.name}: Gemini CLI reads it on AfterTool, BeforeAgent and SessionStart only`
          )
        }
      }
    }
    // tool_input rewrites BeforeTool's call only
    const rewrite = JSON.stringify({ hookSpecificOutput: { tool_input: { command: "ls" } } })
    expect(HookOutput.interpret(spec(Presets.gemini, "BeforeTool"), run(0, rewrite))).toMatchObject({ updatedInput: { command: "ls" } })
    const after = HookOutput.interpret(spec(Presets.gemini, "AfterTool"), run(0, rewrite))
    expect(after).toMatchObject({ updatedInput: null, hookSpecificOutput: null })
    expect(after.ignored).toEqual([
      `hookSpecificOutput.tool_input is ignored on AfterTool: Gemini CLI rewrites a tool's input on BeforeTool only`
    ])
    // The documented exit 2 blocks with stderr; what stdout printed is named
    const exit2 = HookOutput.interpret(spec(Presets.gemini, "BeforeTool"), run(2, context("CTX"), "no"))
    expect(exit2).toMatchObject({ decision: "deny", reason: "no", additionalContext: [] })
    expect(exit2.ignored).toEqual([`stdout is ignored on exit 2: Gemini CLI's reason is stderr`])
    // Qwen Code's Stop and SubagentStop read no hookSpecificOutput field: the block stands, the context is named
    for (const name of ["Stop", "SubagentStop"]) {
      const v = HookOutput.interpret(
        spec(Presets.qwen, name),
        run(
          0,
          JSON.stringify({ decision: "block", reason: "go on", hookSpecificOutput: { hookEventName: name, additionalContext: "CTX" } })
        )
      )
      expect(v).toMatchObject({ decision: "block", reason: "go on", additionalContext: [] })
      expect(v.ignored).toEqual([`hookSpecificOutput.additionalContext is ignored: ${name} reads no hookSpecificOutput field here`])
    }
    expect(
      HookOutput.interpret(
        spec(Presets.qwen, "PostToolUse"),
        run(0, JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "CTX" } }))
      ).additionalContext
    ).toEqual(["CTX"])
    // Cursor adds additional_context on sessionStart only
    for (const event of Presets.cursor.events) {
      const v = HookOutput.interpret(HookEvent.custom(event), run(0, JSON.stringify({ additional_context: "CTX" })))
      if (event.name === "sessionStart") expect(v.additionalContext).toEqual(["CTX"])
      else {
        expect(v.additionalContext, event.name).toEqual([])
        expect(v.ignored, event.name).toEqual([`"additional_context" is ignored on ${event.name}: Cursor reads it on sessionStart only`])
      }
    }
  })
  it("an answer the event ignores is named, never dropped silently (Antigravity, Cline, Gemini CLI)", () => {
    const ignored = (event: HookEvent.HookEventSpec, stdout: string) => HookOutput.interpret(event, run(0, stdout)).ignored
    expect(ignored(spec(antigravity, "PostToolUse"), `{"allowTool": false}`)).toEqual([
      `"allowTool": false is ignored on PostToolUse: it cannot block`
    ])
    expect(ignored(spec(antigravity10, "PostToolUse"), `{"decision": "deny"}`)).toEqual([
      `"decision": "deny" is ignored on PostToolUse: it cannot block`
    ])
    expect(ignored(spec(antigravity10, "PreToolUse"), `{"allowTool": false}`)).toEqual([
      `"allowTool" is ignored: Antigravity 1.0 reads {"decision": "deny", "reason": "..."} (or use the antigravity preset)`
    ])
    expect(ignored(spec(Presets.cline, "PreToolUse"), `{"cancel": false, "block": true}`)).toEqual([
      `unknown key "block" in Cline's answer; ignored`
    ])
    expect(ignored(spec(Presets.gemini, "PreCompress"), `{"decision": "deny"}`)).toEqual([
      `"decision": "deny" is ignored on PreCompress: it cannot block`
    ])
    expect(ignored(spec(Presets.gemini, "BeforeToolSelection"), `{"decision": "deny"}`)).toEqual([
      `BeforeToolSelection supports no decision, continue or systemMessage; ignored`
    ])
    expect(ignored(spec(Presets.cursor, "afterFileEdit"), `{"permission": "deny"}`)).toEqual([
      `"permission" is ignored on afterFileEdit: only before* events take a permission`
    ])
    // Used answers name nothing.
    expect(ignored(spec(antigravity, "PreToolUse"), `{"allowTool": false}`) ?? []).toEqual([])
    expect(ignored(spec(Presets.gemini, "BeforeTool"), `{"decision": "deny"}`) ?? []).toEqual([])
  })
})
