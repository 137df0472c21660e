/**
 * Every tool call as what it does (`HostCall.actions`): each agent's tool read into actions in
 * Claude Code's names, as a policy written for Claude Code judges them. The process-level proof (one
 * policy through `hook --host` for every agent) is packages/cli/test/OnePolicy.test.ts.
 */
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as HostMode from "../src/HostMode.ts"
import * as ShellLexer from "../src/ShellLexer.ts"
import type { Outcome } from "../src/Outcome.ts"

const translate = (host: string, payload: Record<string, unknown>) => {
  const call = HostMode.translate(HostMode.byName(host)!, payload)
  if ("error" in call) throw new Error(call.error)
  return call
}
const actions = (host: string, event: string, tool_name: string, tool_input: unknown) =>
  translate(host, { hook_event_name: event, tool_name, tool_input }).actions

describe("commands", () => {
  it("an argv array is one Bash command string, quoted as a POSIX shell reads it", () => {
    expect(actions("codex", "PreToolUse", "shell", { command: ["bash", "-lc", "rm -rf /"], workdir: "/p" })).toEqual([
      { tool_name: "Bash", tool_input: { command: "bash -lc 'rm -rf /'", workdir: "/p" } }
    ])
    expect(actions("codex", "PreToolUse", "shell", { command: ["echo", "it's", "", "a b"] })).toEqual([
      { tool_name: "Bash", tool_input: { command: `echo 'it'\\''s' '' 'a b'` } }
    ])
    expect(actions("codex", "PreToolUse", "local_shell", { action: { type: "exec", command: ["rm", "-rf", "/"] } })).toEqual([
      { tool_name: "Bash", tool_input: { type: "exec", command: "rm -rf /" } }
    ])
    expect(
      actions("cline", "PreToolUse", "run_commands", { commands: ["ls", "rm -rf /"] })?.map((one) => one.tool_input["command"])
    ).toEqual(["ls", "rm -rf /"])
  })
  it("an argv joined is read back by a POSIX shell as the same words, whatever they hold (property)", () => {
    const word = fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.constantFrom(
        "if",
        "!",
        "FOO=bar",
        "rm",
        "-rf",
        "/",
        "'",
        '"',
        "$(touch x)",
        "`id`",
        "a b",
        "~",
        "#x",
        "*",
        ";",
        "&&",
        "\n",
        "",
        "{",
        "}"
      )
    )
    fc.assert(
      fc.property(
        fc.array(
          word.filter((one) => !one.includes("\0")),
          { minLength: 1, maxLength: 6 }
        ),
        (argv) => {
          const command = actions("codex", "PreToolUse", "shell", { command: argv })![0]!.tool_input["command"] as string
          const commands = ShellLexer.split(command, "posix")
          expect(commands).toHaveLength(1)
          expect(commands![0]!.words.map((one) => one.text)).toEqual(argv)
          expect(commands![0]!.words.some((one) => one.dynamic)).toBe(false)
        }
      ),
      { numRuns: PropertyRuns.forLane(2000) }
    )
    // a word with NUL reaches no program: refused
    expect(
      translate("codex", { hook_event_name: "PreToolUse", tool_name: "shell", tool_input: { command: ["rm", "a\0b"] } }).refusal
    ).toBeDefined()
  })
  it("a command that is neither a string nor an argv of strings is refused, never judged on a guess", () => {
    const call = translate("codex", { hook_event_name: "PreToolUse", tool_name: "shell", tool_input: { command: ["rm", 1] } })
    expect(call.refusal).toMatch(/cannot be judged/)
  })
  it("a VS Code task is its command with its args", () => {
    expect(
      actions("vscode", "PreToolUse", "create_and_run_task", {
        task: { label: "x", type: "shell", command: "rm", args: ["-rf", "/tmp/a b"] }
      })
    ).toEqual([{ tool_name: "Bash", tool_input: { command: "rm -rf '/tmp/a b'", description: "x" } }])
  })
})

describe("files", () => {
  it("a list of files is one action per file", () => {
    expect(actions("gemini", "BeforeTool", "read_many_files", { paths: ["a", "b"] })).toEqual([
      { tool_name: "Read", tool_input: { file_path: "a" } },
      { tool_name: "Read", tool_input: { file_path: "b" } }
    ])
    expect(
      actions("vscode", "PreToolUse", "multi_replace_string_in_file", {
        replacements: [{ filePath: "/a", oldString: "x", newString: "y" }]
      })
    ).toEqual([{ tool_name: "Edit", tool_input: { file_path: "/a", old_string: "x", new_string: "y" } }])
    expect(
      actions("kiro", "PreToolUse", "fs_read", {
        operations: [
          { mode: "Line", path: "/a" },
          { mode: "Image", image_paths: ["/b"] }
        ]
      })
    ).toEqual([
      { tool_name: "Read", tool_input: { file_path: "/a" } },
      { tool_name: "Read", tool_input: { file_path: "/b" } }
    ])
  })
  it("Cursor's Delete is a Write-class action that says it deletes", () => {
    expect(actions("cursor", "preToolUse", "Delete", { file_path: "/p/.env" })).toEqual([
      { tool_name: "Write", tool_input: { file_path: "/p/.env", content: "", agent_hooks_operation: "delete" } }
    ])
  })
  it("a Codex patch is one action per operation: add, update, delete, move", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: new.txt",
      "+one",
      "+two",
      "*** Update File: a.txt",
      "*** Move to: b.txt",
      "@@",
      "-x",
      "+y",
      "*** Delete File: old.txt",
      "*** End Patch"
    ].join("\n")
    expect(actions("codex", "PreToolUse", "apply_patch", { command: patch })).toEqual([
      { tool_name: "Write", tool_input: { file_path: "new.txt", content: "one\ntwo" } },
      { tool_name: "Edit", tool_input: { file_path: "a.txt" } },
      { tool_name: "Write", tool_input: { file_path: "b.txt", agent_hooks_operation: "move", agent_hooks_from: "a.txt" } },
      { tool_name: "Write", tool_input: { file_path: "old.txt", content: "", agent_hooks_operation: "delete" } }
    ])
    const refused = translate("codex", { hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: { command: "no patch" } })
    expect(refused.refusal).toMatch(/no file operation/)
  })
  it("Copilot CLI's file tools read path: a decoy file_path is not judged in its place", () => {
    const call = translate("copilot", {
      hook_event_name: "preToolUse",
      toolName: "view",
      toolArgs: JSON.stringify({ file_path: "/p/README.md", path: "/p/.env" })
    })
    expect(call.actions).toEqual([{ tool_name: "Read", tool_input: { file_path: "/p/.env" } }])
    expect(call.payload["host"]).toMatchObject({ tool_name: "view" })
  })
})

describe("fetches", () => {
  it("one WebFetch per URL: url, urls[], and the URLs of a prompt", () => {
    expect(actions("gemini", "BeforeTool", "web_fetch", { prompt: "compare https://a.example/x and https://b.example." })).toEqual([
      { tool_name: "WebFetch", tool_input: { prompt: "compare https://a.example/x and https://b.example.", url: "https://a.example/x" } },
      { tool_name: "WebFetch", tool_input: { prompt: "compare https://a.example/x and https://b.example.", url: "https://b.example" } }
    ])
    expect(actions("vscode", "PreToolUse", "fetch_webpage", { urls: ["https://a.example"], query: "q" })).toEqual([
      { tool_name: "WebFetch", tool_input: { query: "q", url: "https://a.example" } }
    ])
  })
})

describe("a tool no table reads otherwise is one action, its mapping", () => {
  it("the payload's tool_name and tool_input are the first action's", () => {
    const call = translate("gemini", { hook_event_name: "BeforeTool", tool_name: "read_file", tool_input: { absolute_path: "/p/a" } })
    expect(call.actions).toEqual([{ tool_name: "Read", tool_input: { file_path: "/p/a" } }])
    expect(call.reshaped).toBe(false)
    expect(translate("claude", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }).actions).toHaveLength(1)
    expect(translate("claude", { hook_event_name: "Stop" }).actions).toEqual([])
    // a command string read by the shell reader is the input as given: a rewrite maps back
    const bash = translate("codex", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { description: "d", command: "ls" } })
    expect(bash.reshaped).toBe(false)
    expect(translate("codex", { hook_event_name: "PreToolUse", tool_name: "shell", tool_input: { command: ["ls"] } }).reshaped).toBe(true)
  })
})

describe("duplicate keys", () => {
  it("the first key an object gives twice, at any depth, escapes read", () => {
    expect(HostMode.duplicateKey(`{"a":1,"b":{"c":1,"c":2}}`)).toBe("c")
    expect(HostMode.duplicateKey(`{"p\\u0061th":"x","path":"y"}`)).toBe("path")
    expect(HostMode.duplicateKey(`{"a":[{"k":1},{"k":2}],"s":"{\\"a\\":1,\\"a\\":2}"}`)).toBeUndefined()
    expect(HostMode.duplicateKey(`{"a":"x\\"","b":1}`)).toBeUndefined()
    expect(HostMode.duplicateKey(`[{"a":1},{"a":1,"a":2}]`)).toBe("a")
  })
  it("a duplicate key in Copilot CLI's toolArgs refuses the call, naming the key", () => {
    const call = translate("copilot", { hook_event_name: "preToolUse", toolName: "view", toolArgs: `{"path":"/p/.env","path":"/p/a"}` })
    expect(call.refusal).toMatch(/duplicate key "path"/)
  })
})

describe("combineOutcomes", () => {
  const outcome = (over: Partial<Outcome>): Outcome => ({
    event: "PreToolUse",
    blocked: false,
    decision: null,
    reason: null,
    continue: true,
    stopReason: null,
    updatedInput: null,
    additionalContext: [],
    systemMessages: [],
    hooks: [],
    hookSpecificOutput: null,
    toModel: [],
    toUser: [],
    terminalSequences: [],
    asyncHooks: [],
    warnings: [],
    ...over
  })
  const read = { tool_name: "Read", tool_input: { file_path: "/p/a" } }
  const secret = { tool_name: "Read", tool_input: { file_path: "/p/.env" } }
  it("blocked when one action is, its reason naming the action; context of all", () => {
    const combined = HostMode.combineOutcomes(
      [
        { action: read, outcome: outcome({ additionalContext: ["one"], decision: "allow" }) },
        { action: secret, outcome: outcome({ blocked: true, decision: "deny", reason: "no secrets", additionalContext: ["two"] }) }
      ],
      3
    )
    expect(combined).toMatchObject({ blocked: true, decision: "deny", additionalContext: ["one", "two"] })
    expect(combined.reason).toBe("no secrets [Read /p/.env, action 2 of 3]")
  })
  it("the most restrictive decision when none blocks", () => {
    const combined = HostMode.combineOutcomes(
      [
        { action: read, outcome: outcome({ decision: "allow" }) },
        { action: secret, outcome: outcome({ decision: "ask", reason: "sure?" }) }
      ],
      2
    )
    expect(combined).toMatchObject({ blocked: false, decision: "ask" })
  })
  it("a rewrite of a call of several actions is not applied", () => {
    const call = translate("gemini", { hook_event_name: "BeforeTool", tool_name: "read_many_files", tool_input: { paths: ["a", "b"] } })
    const reply = HostMode.answer(call, outcome({ decision: "allow", updatedInput: { file_path: "c" } }))
    expect(reply.stdout).toMatch(/cannot be mapped back/)
  })
})
