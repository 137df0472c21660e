/**
 * `--log-level` (effect/cli's global flag) as a user sees it: `debug` tells on stderr what was
 * loaded, which hooks of the event run or were skipped and why, and each result; `error` drops the
 * settings warnings. stdout and the exit status are the same at every level, and the lines about
 * hooks that failed print at every level.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, node, requireBuild } from "./cliHarness.ts"

let dir = ""
let settings = ""
beforeAll(() => {
  requireBuild()
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-log-level-")))
  settings = join(dir, "settings.json")
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Edit", hooks: [{ type: "command", command: "echo edit" }] },
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "true" },
              { type: "command", command: "true" },
              { type: "command", command: "exit 3", if: "Bash(git *)" },
              { type: "command", command: "exit 1", timeot: 5 }
            ]
          }
        ]
      }
    })
  )
})
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

const run = (...extra: ReadonlyArray<string>) =>
  spawnSync(node, [bin, "run", "PreToolUse", "--settings", settings, "--project-dir", dir, ...extra], {
    input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls -la" }, session_id: "s", cwd: dir }),
    encoding: "utf8",
    timeout: 20_000
  })

const withoutTimes = (stdout: string) =>
  JSON.stringify({ ...JSON.parse(stdout), hooks: JSON.parse(stdout).hooks.map((hook: object) => ({ ...hook, durationMs: 0 })) })

describe("--log-level", () => {
  it("debug: what was loaded, each hook of the event run or skipped with the reason, and each result; stdout and exit unchanged", () => {
    const plain = run()
    const debug = run("--log-level", "debug")
    expect(debug.status).toBe(plain.status)
    expect(withoutTimes(debug.stdout)).toBe(withoutTimes(plain.stdout))
    const lines = debug.stderr.split("\n").filter((line) => line.startsWith("agent-hooks: debug: "))
    expect(lines).toContain(`agent-hooks: debug: settings ${settings} (explicit): read`)
    expect(lines).toContain("agent-hooks: debug: hooks: PreToolUse 5")
    expect(debug.stderr).toContain(
      `skipped "echo edit" (${settings} at hooks.PreToolUse[0].hooks[0]): matcher "Edit" does not match "Bash"`
    )
    expect(debug.stderr).toContain(`runs "true" (${settings} at hooks.PreToolUse[1].hooks[0]): matched`)
    expect(debug.stderr).toContain(
      `skipped "true" (${settings} at hooks.PreToolUse[1].hooks[1]): an identical hook of the same or a higher scope runs instead (deduplicated)`
    )
    expect(debug.stderr).toContain(`skipped "exit 3" (${settings} at hooks.PreToolUse[1].hooks[2]): "if" rule "Bash(git *)" does not match`)
    expect(debug.stderr).toContain(`result "exit 1": non-blocking-error, exit 1`)
    expect(debug.stderr).toContain("agent-hooks: debug: outcome: not blocked")
    // without the flag: none of it
    expect(plain.stderr).not.toContain("agent-hooks: debug:")
  })

  it("error: no settings warnings, but the line about the hook that failed stays", () => {
    const plain = run()
    expect(plain.stderr).toContain("timeot")
    const quiet = run("--log-level", "error")
    expect(quiet.status).toBe(plain.status)
    expect(quiet.stderr).not.toContain("timeot")
    expect(quiet.stderr).toContain(`agent-hooks: hook "exit 1"`)
  })

  it("validate and list: debug names the files read", () => {
    for (const command of ["validate", "list"]) {
      const result = spawnSync(node, [bin, command, "--settings", settings, "--log-level", "debug"], { encoding: "utf8", timeout: 20_000 })
      expect(result.stderr).toContain(`agent-hooks: debug: settings ${settings} (explicit): read`)
    }
  })
})
