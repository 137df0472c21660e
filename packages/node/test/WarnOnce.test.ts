/**
 * One warning per problem per process, not per dispatch: a hook that cannot start (a bare command
 * not on PATH, pigo's seed example `check-safety.sh`) is said when the settings load and when it
 * first fails, not again on every dispatch, nor by every engine a host builds on the same settings.
 * Each Outcome still carries it; a failure that is not known from the settings (a hook that exits 1)
 * is said every time.
 */
import { afterEach, describe, expect, it } from "vitest"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createHookEngine } from "@agent-hooks/node"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const pigo = (hooks: Record<string, unknown>) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-warn-once-")))
  cleanups.push(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, "home", ".pigo"), { recursive: true })
  mkdirSync(join(root, "project"), { recursive: true })
  writeFileSync(join(root, "home", ".pigo", "config.json"), JSON.stringify({ plugins: [{ name: "safety-gate", hooks }] }))
  return root
}

describe("warnings: one per problem per process", () => {
  it("pigo's check-safety.sh not on PATH: said at load and at its first failure, not on every dispatch nor by every engine", async () => {
    const root = pigo({ tool_start: [{ command: "check-safety.sh", match: { tool: "bash" } }], turn_start: [{ command: "exit 1" }] })
    const heard: Array<string> = []
    const onWarning = (warning: string) => void heard.push(warning)
    for (let engines = 0; engines < 2; engines++) {
      const engine = await createHookEngine({
        preset: "pigo",
        projectDir: join(root, "project"),
        env: { PATH: "/usr/bin:/bin", HOME: join(root, "home") },
        onWarning
      })
      cleanups.push(() => engine.close())
      for (let i = 0; i < 3; i++) {
        const outcome = await engine.dispatch("tool_start", { tool_name: "bash", tool_input: { command: "ls" } })
        // the tool is still cancelled, and the Outcome still says why, every time
        expect(outcome.blocked).toBe(true)
        expect(outcome.reason).toContain("check-safety.sh")
        await engine.dispatch("turn_start", {})
      }
    }
    const notOnPath = heard.filter((line) => line.includes("is not on PATH"))
    const failed = heard.filter((line) => line.startsWith('hook "check-safety.sh"'))
    const exit1 = heard.filter((line) => line.startsWith('hook "exit 1"'))
    expect(notOnPath).toHaveLength(1)
    expect(failed).toHaveLength(1)
    // a failure the settings could not foresee is said every time it happens
    expect(exit1).toHaveLength(6)
  })
})
