/**
 * `agent-hooks test FILE...` as a user's CI runs it: the BUILT CLI runs fixture cases against the
 * real hook scripts that `agent-hooks init` wrote, in a temp project.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, cliEnv, node, requireBuild } from "./cliHarness.ts"

let dir = ""
const cli = (args: ReadonlyArray<string>) => {
  const env = cliEnv({ HOME: dir })
  const result = spawnSync(node, [bin, ...args], { cwd: dir, env, encoding: "utf8", timeout: 20_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
const fixture = (name: string, value: unknown): string => {
  writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value))
  return name
}
const bash = (command: string) => ({ tool_name: "Bash", tool_input: { command } })

beforeAll(() => {
  requireBuild()
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-test-cmd-")))
  expect(cli(["init"]).status).toBe(0)
})
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

describe("agent-hooks test", () => {
  it("passing cases: one line each, the summary, exit 0", () => {
    const file = fixture("pass.json", [
      {
        name: "rm -rf / is blocked",
        event: "PreToolUse",
        payload: bash("rm -rf /"),
        expect: { blocked: true, decision: "deny", reason: "rm -rf" }
      },
      { name: "ls passes", event: "PreToolUse", payload: bash("ls"), expect: { blocked: false, decision: null } }
    ])
    const result = cli(["test", file])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("ok   pass.json › rm -rf / is blocked")
    expect(result.stdout).toContain("ok   pass.json › ls passes")
    expect(result.stdout).toContain("2 passed, 0 failed")
  })

  it("a failing case says what differed and exits 1; cases of several files add up", () => {
    const good = fixture("good.json", { cases: [{ event: "PreToolUse", payload: bash("ls"), expect: { blocked: false } }] })
    const bad = fixture("bad.json", [
      { name: "expects ls blocked", event: "PreToolUse", payload: bash("ls"), expect: { blocked: true } },
      { name: "wrong reason", event: "PreToolUse", payload: bash("rm -rf /"), expect: { reason: "not this text" } }
    ])
    const result = cli(["test", good, bad])
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("ok   good.json › PreToolUse #1")
    expect(result.stdout).toContain("FAIL bad.json › expects ls blocked")
    expect(result.stdout).toContain("expected blocked true, got false")
    expect(result.stdout).toContain(`expected a reason containing "not this text"`)
    expect(result.stdout).toContain("1 passed, 2 failed")
  })

  it("--json: one object with the counts and each case's Outcome", () => {
    const file = fixture("json.json", [
      { name: "blocked", event: "PreToolUse", payload: bash("rm -rf /"), expect: { blocked: true } },
      { name: "not blocked, wrongly expected", event: "PreToolUse", payload: bash("ls"), expect: { blocked: true } }
    ])
    const result = cli(["test", file, "--json"])
    expect(result.status).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({ passed: 1, failed: 1 })
    expect(report.cases[0]).toMatchObject({ name: "blocked", passed: true, outcome: { blocked: true } })
    expect(report.cases[1].failures).toEqual(["expected blocked true, got false"])
  })

  it("a malformed fixture is located: file, JSON path, expected, got", () => {
    const file = fixture("malformed.json", [{ event: "PreToolUse", payload: bash("ls"), expect: { blockd: true } }])
    const result = cli(["test", file])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("malformed.json at [0].expect.blockd: expected one of blocked, decision, reason, additionalContext")
    expect(cli(["test", fixture("notjson.json", "[")]).stderr).toContain("notjson.json: not JSON")
  })
})
