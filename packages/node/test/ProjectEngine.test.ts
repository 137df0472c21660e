import { afterEach, describe, expect, it } from "vitest"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { closeProjectEngines, projectEngine } from "@agent-hooks/node"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  await closeProjectEngines()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-project-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A project whose .agent-hooks/settings.json denies `rm`, and a user folder whose settings add context. */
const project = () => {
  const dir = tempDir()
  const home = tempDir()
  mkdirSync(join(dir, ".agent-hooks"))
  mkdirSync(join(home, ".agent-hooks"))
  writeFileSync(
    join(dir, ".agent-hooks", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: `case "$(cat)" in *'"rm '*) echo 'no rm here' >&2; exit 2;; esac` }]
          }
        ]
      }
    })
  )
  writeFileSync(
    join(home, ".agent-hooks", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"user scope"}}'` }
            ]
          }
        ]
      }
    })
  )
  const env = { PATH: process.env["PATH"], HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks") }
  return { dir, home, env }
}

describe("projectEngine", () => {
  it("loads every scope of the folder's settings and blocks with the project's rule", async () => {
    const { dir, env } = project()
    const engine = await projectEngine({ projectDir: dir, env, managedDir: join(dir, "no-managed") })
    const denied = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf build" } })
    expect(denied).toMatchObject({ blocked: true, decision: "deny", reason: "no rm here" })
    const allowed = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(allowed.blocked).toBe(false)
    expect(allowed.additionalContext).toEqual(["user scope"])
  })

  it("is created once per process and folder: later calls get the same engine", async () => {
    const { dir, env } = project()
    const options = { projectDir: dir, env, managedDir: join(dir, "no-managed") }
    const [a, b] = await Promise.all([projectEngine(options), projectEngine(options)])
    expect(a).toBe(b)
    expect(await projectEngine(options)).toBe(a)
    const other = project()
    expect(await projectEngine({ ...options, projectDir: other.dir })).not.toBe(a)
  })

  it("forgets an engine once closed, and a creation that failed", async () => {
    const { dir, env } = project()
    const options = { projectDir: dir, env, managedDir: join(dir, "no-managed") }
    const first = await projectEngine(options)
    await first.close()
    const second = await projectEngine(options)
    expect(second).not.toBe(first)
    expect((await second.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm x" } })).blocked).toBe(true)

    const bad = tempDir()
    writeFileSync(join(bad, "broken.json"), "{ not json")
    const broken = { settings: [join(bad, "broken.json")], projectDir: bad, env }
    await expect(projectEngine(broken)).rejects.toThrow(/broken\.json/)
    writeFileSync(join(bad, "broken.json"), JSON.stringify({ hooks: {} }))
    await expect(projectEngine(broken)).resolves.toBeDefined()
  })

  it("blocks a call whose guard could not start (a guard that did not judge blocks)", async () => {
    const dir = tempDir()
    writeFileSync(
      join(dir, "s.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: join(dir, "missing-guard.sh") }] }] } })
    )
    const engine = await projectEngine({
      settings: [join(dir, "s.json")],
      projectDir: dir,
      env: { PATH: process.env["PATH"] },
      onWarning: () => {}
    })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome.blocked).toBe(true)
  })

  it("says so when options made anew on every call make an engine each time", async () => {
    const { dir, env } = project()
    const warnings: Array<string> = []
    for (let i = 0; i < 18; i++) {
      await projectEngine({ projectDir: dir, env, managedDir: join(dir, "no-managed"), onWarning: (w) => warnings.push(w) })
    }
    expect(warnings.filter((w) => w.includes("engines for"))).toEqual([expect.stringContaining("define them once")])
  })
})
