/**
 * `agent-hooks hook --host cursor|copilot|vscode` on the BUILT CLI: each agent's payload (the
 * shapes in packages/core/test/fixtures/hosts/), the policy written once in Claude Code's names
 * (fixtures/hosts/policy.json, real shell hooks), and the agent's answer read back.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, cliEnv, node } from "./cliHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const hostFixtures = realpathSync(fileURLToPath(new URL("../../core/test/fixtures/hosts/", import.meta.url)))

let scratch = ""
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-hook-peers-")))
})
afterAll(() => {
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
})

const hook = (args: ReadonlyArray<string>, stdin: unknown) => {
  const env = cliEnv({ AGENT_HOOKS_TEST_HOOKS: join(fixtures, "hooks"), AGENT_HOOKS_HOME: join(scratch, "home") })
  const result = spawnSync(node, [bin, "hook", ...args, "--settings", join(fixtures, "policy.json")], {
    input: JSON.stringify(stdin),
    cwd: scratch,
    env,
    encoding: "utf8",
    timeout: 25_000
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
const shape = (host: string, find: (entry: any) => boolean): any =>
  JSON.parse(readFileSync(join(hostFixtures, `${host}.shapes.json`), "utf8")).find(find)

describe("hook --host cursor", () => {
  it("beforeShellExecution runs the Bash policy: a deny is permission deny with the reason, exit 2; a harmless command passes", () => {
    const payload = shape("cursor", (p) => p.hook_event_name === "beforeShellExecution")
    const denied = hook(["--host", "cursor"], { ...payload, command: "rm -rf /tmp/x", cwd: scratch })
    expect(denied.status, denied.stderr).toBe(2)
    expect(JSON.parse(denied.stdout)).toStrictEqual({ permission: "deny", user_message: "no rm -rf here", agent_message: "no rm -rf here" })
    expect(hook(["--host", "cursor"], { ...payload, command: "ls", cwd: scratch })).toMatchObject({ status: 0, stdout: "" })
  })

  it("stop: the policy's Stop block becomes Cursor's follow-up prompt", () => {
    const payload = shape("cursor", (p) => p.hook_event_name === "stop")
    const result = hook(["--host", "cursor"], { ...payload, stop_hook_active: false })
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toStrictEqual({ followup_message: "run the tests before stopping" })
  })
})

describe("hook --host copilot", () => {
  it("--event names the event Copilot's payload does not: preToolUse runs the Bash policy on toolArgs; the answer is flat", () => {
    const { payload } = shape("copilot", (p) => p.event === "preToolUse")
    const result = hook(["--host", "copilot", "--event", "preToolUse"], {
      ...payload,
      toolArgs: JSON.stringify({ command: "rm -rf /tmp/x" })
    })
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toStrictEqual({ permissionDecision: "deny", permissionDecisionReason: "no rm -rf here" })
  })

  it("without --event the call blocks, saying how to name it", () => {
    const { payload } = shape("copilot", (p) => p.event === "preToolUse")
    const result = hook(["--host", "copilot"], payload)
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain("--event")
  })
})

describe("hook --host vscode", () => {
  it("reads hookEventName and runTerminalCommand as Bash: a deny is exit 2; Stop blocks inside hookSpecificOutput", () => {
    const pre = shape("vscode", (p) => p.hookEventName === "PreToolUse" && p.tool_name === "runTerminalCommand")
    const denied = hook(["--host", "vscode"], { ...pre, tool_input: { command: "rm -rf /tmp/x" }, cwd: scratch })
    expect(denied.status).toBe(2)
    expect(denied.stderr).toContain("no rm -rf here")
    const stop = hook(
      ["--host", "vscode"],
      shape("vscode", (p) => p.hookEventName === "Stop")
    )
    expect(JSON.parse(stop.stdout)).toStrictEqual({
      hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: "run the tests before stopping" }
    })
  })
})
