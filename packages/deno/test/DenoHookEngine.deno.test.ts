/**
 * The engine on Deno through the Promise facade of `@agent-hooks/deno` (Deno lane only), with real
 * hook processes: allow with the payload on stdin, an exit-2 block, and a timeout whose group
 * (grandchildren that ignore SIGTERM included) is gone afterwards.
 */
import { Cleanups, ConsoleLines, Fixtures, Processes } from "@agent-hooks/test-utils"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createHookEngine, DenoHookEngine } from "@agent-hooks/deno"
import * as CedarFilesSuite from "@agent-hooks/test-utils/CedarFilesSuite"

const cleanups = Cleanups.register("agent-hooks-deno-engine-")

type Group = { matcher?: string; hooks: Array<Record<string, unknown>> }
const engineWith = async (hooks: Record<string, Array<Group>>) => {
  const dir = cleanups.tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ hooks }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir })
  return { engine, dir }
}
const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: cmd, ...extra })
const bash = { tool_name: "Bash", tool_input: { command: "rm -rf /tmp/x" } }

describe("DenoHookEngine", () => {
  it("exports the layer and the Promise facade", () => {
    expect(typeof DenoHookEngine.layer).toBe("function")
    expect(DenoHookEngine.createHookEngine).toBe(createHookEngine)
  })

  it("allows, passing the payload on stdin; exit 2 blocks with stderr as the reason", async () => {
    const { engine, dir } = await engineWith({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [command(`cat > "$AGENT_HOOKS_PROJECT_DIR/seen.json"`), command("cat >/dev/null; echo 'not on Deno' >&2; exit 2")]
        }
      ]
    })
    try {
      const outcome = await engine.dispatch("PreToolUse", bash)
      expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
      expect(outcome.reason).toContain("not on Deno")
      expect(outcome.hooks.map((hook) => hook.exitCode)).toEqual([0, 2])
      expect(JSON.parse(readFileSync(join(dir, "seen.json"), "utf8"))).toMatchObject({ hook_event_name: "PreToolUse", ...bash })
    } finally {
      await engine.close()
    }
  })

  it("times out a TERM-ignoring hook: its whole group is killed", async () => {
    const pids = join(cleanups.tempDir(), "pids")
    const { engine } = await engineWith({
      PreToolUse: [{ hooks: [command("sh", { args: [Fixtures.path("ignore-term.sh"), pids], timeout: 1 })] }]
    })
    try {
      const outcome = await engine.dispatch("PreToolUse", bash)
      expect(outcome.hooks[0]).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" })
      const recorded = readFileSync(pids, "utf8").trim().split("\n").map(Number)
      expect(await Processes.waitUntilDead(recorded, 3_000)).toEqual([])
    } finally {
      await engine.close()
    }
  })

  it("a hook that fails is said once on the console by default, and the engine says it reports its warnings", async () => {
    const { lines } = await ConsoleLines.warned(async () => {
      const { engine } = await engineWith({
        PreToolUse: [{ matcher: "Bash", hooks: [command("cat >/dev/null; echo 'guard crashed' >&2; exit 1")] }]
      })
      try {
        expect(engine.reportsWarnings).toBe(true)
        expect((await engine.dispatch("PreToolUse", bash)).blocked).toBe(false)
      } finally {
        await engine.close()
      }
    })
    expect(lines).toEqual([expect.stringMatching(/^agent-hooks: hook ".*guard crashed.*" \(.*settings\.json\): .*guard crashed/)])
  })

  it("a host's onWarning takes the warnings instead of the console", async () => {
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(file, JSON.stringify({ hooks: { Stop: [{ hooks: [command("exit 3")] }] } }))
    const heard: Array<string> = []
    const { lines } = await ConsoleLines.warned(async () => {
      const engine = await createHookEngine({ settings: [file], projectDir: dir, onWarning: (warning) => heard.push(warning) })
      try {
        await engine.dispatch("Stop", {})
      } finally {
        await engine.close()
      }
    })
    expect(heard).toEqual([expect.stringMatching(/^hook "exit 3" \(.*\): .*3/)])
    expect(lines).toEqual([])
  })
})

// Deno's own reader of a cedar hook's files
CedarFilesSuite.suite("createHookEngine of @agent-hooks/deno", createHookEngine)
