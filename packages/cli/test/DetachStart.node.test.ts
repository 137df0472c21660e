import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, scratchFolder } from "./cliHarness.ts"

// What a detached hook's wrapper checks before it detaches is the program and script the shell
// would start, read by the one shell lexer: a command whose first word is quoted, or is followed
// by an operator without a space, is checked like a plain one.

const scratch = scratchFolder("agent-hooks-detach-start-")

describe("a detached hook's start check", () => {
  it("a missing program written quoted, or before && or | without a space, is heard: the detached hook did not start", () => {
    const dir = scratch()
    const settings = join(dir, "settings.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              hooks: [
                { type: "command", command: "./gone-and.sh&&true", async: true },
                { type: "command", command: '"./gone quoted.sh" --flag', async: true },
                { type: "command", command: "sh ./gone-script.sh|cat", async: true },
                { type: "command", command: "true&&true", async: true }
              ]
            }
          ]
        }
      })
    )
    const result = runCli(["run", "PostToolUse", "--settings", settings, "--project-dir", dir], {
      stdin: JSON.stringify({ tool_name: "Bash" }),
      cwd: dir
    })
    expect(result.status).toBe(0)
    for (const what of ["/gone-and.sh: not found", "/gone quoted.sh: not found", "/gone-script.sh: not found"]) {
      expect(result.stderr).toContain(`${what}; the detached hook did not start`)
    }
    const outcome = JSON.parse(result.stdout) as { hooks: Array<{ command: string }> }
    expect(outcome.hooks.map((hook) => hook.command)).toEqual([
      "./gone-and.sh&&true",
      '"./gone quoted.sh" --flag',
      "sh ./gone-script.sh|cat"
    ])
  })
})
