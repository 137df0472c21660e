/**
 * Host mode under the Cline CLI (3.x): its own event names (`tool_call`, `tool_result`,
 * `prompt_submit`, `agent_start`, ...; `fixtures/hosts/cline.cli.json` holds what the real CLI
 * 3.0.65 sent) and tools (`run_commands`, `read_files`, `editor`), and its answers: a block must
 * tell the model why without aborting the run, so the call is replaced by one that fails with the
 * reason (`overrideInput`) and the reason is the hook's context; Cline's `cancel` (which ends the
 * whole run) is the last resort for a tool whose input cannot be made to fail. The reason is data:
 * hostile reasons run through real dash and bash print exactly themselves and run nothing.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import * as HostMode from "@agent-hooks/core/HostMode"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import { agent, call, hostFixtures, outcome, type Payload } from "./hosts.ts"

const cli = hostFixtures("cline.cli.json") as ReadonlyArray<Payload>
const cline = agent("cline")
const toolCall = (name: string, input: unknown): Payload => ({ ...cli[0]!, tool_call: { id: "c1", name, input } })
const deny = (event: string, reason: string) => outcome(event, { blocked: true, decision: "deny", reason })
const answerOf = (reply: HostMode.HostReply): Record<string, unknown> => {
  expect(reply.exitCode).toBe(0)
  return JSON.parse(reply.stdout) as Record<string, unknown>
}

describe("the Cline CLI's events and tools, read into Claude Code's names", () => {
  it("tool_call run_commands is PreToolUse Bash with the commands as command", () => {
    const read = call("cline", cli[0]!)
    expect(read.event).toBe("PreToolUse")
    expect(read.payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "touch MARKER" },
      session_id: "conv_1796617160991_sdzg9bt",
      cwd: "/tmp/h5/cline-hBFamq/project",
      host: { name: "cline", event: "tool_call", tool_name: "run_commands" }
    })
  })
  it("several commands are one per line; an executable with arguments is the shell line that runs it", () => {
    expect(call("cline", toolCall("run_commands", { commands: ["ls", { command: "rm", args: ["-rf", "a b"] }] })).payload).toMatchObject({
      tool_input: { command: "ls\n'rm' '-rf' 'a b'" }
    })
    for (const input of [{ command: "ls" }, { cmd: "ls" }, "ls", ["ls"], { commands: "ls" }])
      expect(call("cline", toolCall("run_commands", input)).payload).toMatchObject({ tool_input: { command: "ls" } })
  })
  it("read_files is Read (file_path; file_paths too when it reads several), editor is Edit", () => {
    expect(call("cline", toolCall("read_files", { files: [{ path: "/p/secret.txt" }] })).payload).toMatchObject({
      tool_name: "Read",
      tool_input: { file_path: "/p/secret.txt" }
    })
    expect(call("cline", toolCall("read_files", { files: ["/p/a", { path: "/p/b" }] })).payload).toMatchObject({
      tool_input: { file_path: "/p/a", file_paths: ["/p/a", "/p/b"] }
    })
    expect(call("cline", toolCall("editor", { path: "/p/a.js", old_text: "x", new_text: "y" })).payload).toMatchObject({
      tool_name: "Edit",
      tool_input: { file_path: "/p/a.js", old_string: "x", new_string: "y" }
    })
  })
  it("tool_result is PostToolUse with the output, prompt_submit UserPromptSubmit, agent_start SessionStart", () => {
    expect(call("cline", cli[1]!).payload).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_response: [{ query: "touch MARKER", success: true }]
    })
    expect(call("cline", cli[2]!).payload).toMatchObject({
      hook_event_name: "UserPromptSubmit",
      prompt: "Please create the marker file in this folder."
    })
    expect(call("cline", cli[3]!).payload).toMatchObject({ hook_event_name: "SessionStart", source: "startup" })
  })
})

describe("the Cline CLI's answers", () => {
  it("a blocked shell call is replaced by one that prints the reason and fails, and the model is told: the run goes on", () => {
    const read = call("cline", cli[0]!)
    const answer = answerOf(HostMode.answer(read, deny(read.event, "no touching")))
    expect(answer).toMatchObject({ cancel: false, contextModification: "agent-hooks blocked this run_commands call: no touching" })
    const commands = (answer["overrideInput"] as { commands: Array<string> }).commands
    expect(commands).toHaveLength(1)
    const run = spawnSync("/bin/sh", ["-c", commands[0]!], { encoding: "utf8" })
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toStrictEqual({ status: 1, stderr: "no touching\n", stdout: "" })
  })
  it("a blocked built-in tool gets an input its own check refuses (nothing runs), and the reason as context", () => {
    const read = call("cline", toolCall("editor", { path: "/p/a.js", new_text: "x" }))
    expect(answerOf(HostMode.answer(read, deny(read.event, "no edits")))).toStrictEqual({
      cancel: false,
      overrideInput: {},
      contextModification: "agent-hooks blocked this editor call: no edits"
    })
  })
  it("a tool whose input cannot be made to fail (an MCP tool) is cancelled, the last resort", () => {
    const read = call("cline", toolCall("github__create_issue", { title: "x" }))
    expect(answerOf(HostMode.answer(read, deny(read.event, "no issues")))).toStrictEqual({ cancel: true, errorMessage: "no issues" })
  })
  it("a failure before the call was read blocks by cancel (fail closed)", () => {
    expect(answerOf(HostMode.failure(cline, "tool_call", "the policy file is broken"))).toMatchObject({ cancel: true })
  })
  it("a failure once the call was read blocks it as a deny does (the run goes on); after the tool it is context", () => {
    expect(answerOf(HostMode.failure(cline, "tool_call", "the policy file is broken", cli[0]!))).toMatchObject({
      cancel: false,
      overrideInput: { commands: [expect.stringContaining("the policy file is broken")] },
      contextModification: expect.stringContaining("the policy file is broken")
    })
    expect(answerOf(HostMode.failure(cline, "tool_result", "the policy file is broken", cli[1]!))).toStrictEqual({
      cancel: false,
      contextModification: "agent-hooks: the policy file is broken"
    })
  })
  it("a rewrite is overrideInput in the tool's own shape; the extension's PreToolUse cannot apply one and denies", () => {
    const read = call("cline", cli[0]!)
    const rewritten = outcome(read.event, { decision: "allow", updatedInput: { command: "touch REWRITTEN" } })
    expect(answerOf(HostMode.answer(read, rewritten))).toStrictEqual({ cancel: false, overrideInput: { commands: ["touch REWRITTEN"] } })
    const extension = call("cline", {
      hookName: "PreToolUse",
      taskId: "t",
      workspaceRoots: ["/p"],
      preToolUse: { toolName: "execute_command", parameters: { command: "touch MARKER" } }
    })
    expect(
      answerOf(HostMode.answer(extension, outcome(extension.event, { decision: "allow", updatedInput: { command: "ls" } })))
    ).toMatchObject({
      cancel: true,
      errorMessage: expect.stringContaining("cannot apply")
    })
  })
})

describe("hostile reasons are data in the replacement command", () => {
  // sh is dash or bash on most systems: each shell once
  const SHELLS = [
    ...new Set(["/usr/bin/dash", "/usr/bin/bash", "/bin/sh"].filter((path) => existsSync(path)).map((path) => realpathSync(path)))
  ]
  const dir = mkdtempSync(join(tmpdir(), "agent-hooks-cline-quoting-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const marker = join(dir, "pwned")
  const hostile = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          "'",
          "\\",
          "\\'",
          "'\\''",
          `$(touch ${marker})`,
          `\`touch ${marker}\``,
          `'; touch ${marker}; '`,
          `"$(touch ${marker})"`,
          "\n",
          "\0",
          "%s%n",
          "$HOME",
          "!!",
          "*"
        ),
        fc.string({ unit: "grapheme", maxLength: 8 })
      ),
      { minLength: 1, maxLength: 12 }
    )
    .map((parts) => parts.join(""))
    .filter((reason) => reason.trim() !== "")

  it.each(SHELLS)("%s prints exactly the reason, fails, and runs nothing", (shell) => {
    fc.assert(
      fc.property(hostile, (reason) => {
        const read = call("cline", cli[0]!)
        const answer = answerOf(HostMode.answer(read, deny(read.event, reason)))
        const command = (answer["overrideInput"] as { commands: Array<string> }).commands[0]!
        const run = spawnSync(shell, ["-c", command], { encoding: "utf8", cwd: dir })
        expect(run.stderr).toBe(`${reason.replace(/\0/g, "")}\n`)
        expect(run.status).toBe(1)
        expect(existsSync(marker)).toBe(false)
      }),
      { numRuns: PropertyRuns.forLane(150) }
    )
  })
})
