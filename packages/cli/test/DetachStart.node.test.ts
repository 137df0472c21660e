import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// What a detached hook's wrapper checks before it detaches is the program and script the shell
// would start, read by the one shell lexer: a command whose first word is quoted, or is followed
// by an operator without a space, is checked like a plain one.

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
let dir = ""
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-detach-start-")))
})
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

describe("a detached hook's start check", () => {
  it("a missing program written quoted, or before && or | without a space, is heard: the detached hook did not start", () => {
    const settings = join(dir, "settings.json")
    writeFileSync(settings, JSON.stringify({
      hooks: {
        PostToolUse: [{
          hooks: [
            { type: "command", command: "./gone-and.sh&&true", async: true },
            { type: "command", command: "\"./gone quoted.sh\" --flag", async: true },
            { type: "command", command: "sh ./gone-script.sh|cat", async: true },
            { type: "command", command: "true&&true", async: true }
          ]
        }]
      }
    }))
    const result = spawnSync(process.execPath, [bin, "run", "PostToolUse", "--settings", settings, "--project-dir", dir], {
      input: JSON.stringify({ tool_name: "Bash" }),
      encoding: "utf8"
    })
    expect(result.status).toBe(0)
    for (const what of ["./gone-and.sh: not found", "./gone quoted.sh: not found", "./gone-script.sh: not found"]) {
      expect(result.stderr).toContain(`${what}; the detached hook did not start`)
    }
    const outcome = JSON.parse(result.stdout) as { hooks: Array<{ command: string; exitCode: number }> }
    expect(outcome.hooks.map((hook) => hook.command)).toEqual(["./gone-and.sh&&true", "\"./gone quoted.sh\" --flag", "sh ./gone-script.sh|cat"])
  })
})
