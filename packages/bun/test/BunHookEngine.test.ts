/**
 * The engine on Bun through the Promise facade of `@agent-hooks/bun` (Bun lane only), with real
 * hook processes: allow, an exit-2 block, a JSON deny, and a timeout whose group (grandchildren
 * that ignore SIGTERM included) is gone afterwards.
 */
import { ConsoleLines, Fixtures, Processes } from "@agent-hooks/test-utils"
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BunHookEngine, createHookEngine } from "@agent-hooks/bun"
import * as CedarFilesSuite from "@agent-hooks/test-utils/CedarFilesSuite"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-bun-engine-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

type Group = { matcher?: string; hooks: Array<Record<string, unknown>> }
const engineWith = async (hooks: Record<string, Array<Group>>) => {
  const dir = tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ hooks }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir })
  cleanups.push(() => engine.close())
  return { engine, dir }
}
const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: cmd, ...extra })
const bash = { tool_name: "Bash", tool_input: { command: "rm -rf /tmp/x" } }

describe("BunHookEngine", () => {
  it("exports the layer and the Promise facade", () => {
    expect(typeof BunHookEngine.layer).toBe("function")
    expect(BunHookEngine.createHookEngine).toBe(createHookEngine)
  })

  it("allows, passing the payload on stdin and the project dir in the env", async () => {
    const { engine, dir } = await engineWith({
      PreToolUse: [{ matcher: "Bash", hooks: [command(`cat > "$AGENT_HOOKS_PROJECT_DIR/seen.json"`)] }]
    })
    const outcome = await engine.dispatch("PreToolUse", bash)
    expect(outcome).toMatchObject({ event: "PreToolUse", blocked: false, decision: null })
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 0, signal: null, timedOut: false, status: "success" })
    expect(JSON.parse(readFileSync(join(dir, "seen.json"), "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      ...bash
    })
  })

  it("exit 2 blocks, with stderr as the reason", async () => {
    const { engine } = await engineWith({
      PreToolUse: [{ matcher: "Bash", hooks: [command("cat >/dev/null; echo 'rm -rf is not allowed' >&2; exit 2")] }]
    })
    const outcome = await engine.dispatch("PreToolUse", bash)
    expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
    expect(outcome.reason).toContain("rm -rf is not allowed")
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 2, status: "blocking-error" })
  })

  it("a JSON permission decision denies", async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not on Bun" }
    })
    const { engine } = await engineWith({ PreToolUse: [{ hooks: [command(`cat >/dev/null; printf '%s' '${deny}'`)] }] })
    const outcome = await engine.dispatch("PreToolUse", bash)
    expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "not on Bun" })
  })

  it("times out a TERM-ignoring hook: its whole group is killed, the result comes back promptly, nothing survives", async () => {
    const pids = join(tempDir(), "pids")
    const { engine } = await engineWith({
      PreToolUse: [{ hooks: [command("sh", { args: [Fixtures.path("ignore-term.sh"), pids], timeout: 1 }), command("echo quick")] }]
    })
    const started = Date.now()
    const outcome = await engine.dispatch("PreToolUse", bash)
    // 1 s timeout + the SIGTERM grace + slack for a noisy 2-core machine.
    expect(Date.now() - started).toBeLessThan(6_000)
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]).toMatchObject({ timedOut: true, status: "cancelled", exitCode: null, signal: "SIGKILL" })
    expect(outcome.hooks[1]).toMatchObject({ status: "success", stdout: "quick\n" })
    const recorded = readFileSync(pids, "utf8").trim().split("\n").map(Number)
    expect(recorded).toHaveLength(2)
    expect(await Processes.waitUntilDead(recorded, 3_000)).toEqual([])
  })

  it("close() kills what a hook left running in its group", async () => {
    const pids = join(tempDir(), "pids")
    const { engine } = await engineWith({ Stop: [{ hooks: [command("sh", { args: [Fixtures.path("leave-background.sh"), pids] })] }] })
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 0, status: "success" })
    const recorded = readFileSync(pids, "utf8").trim().split("\n").map(Number)
    await engine.close()
    expect(await Processes.waitUntilDead(recorded, 3_000)).toEqual([])
  })

  it("a hook that fails is said once on the console by default, and the engine says it reports its warnings", async () => {
    const { lines } = await ConsoleLines.warned(async () => {
      const { engine } = await engineWith({
        PreToolUse: [{ matcher: "Bash", hooks: [command("cat >/dev/null; echo 'guard crashed' >&2; exit 1")] }]
      })
      expect(engine.reportsWarnings).toBe(true)
      expect((await engine.dispatch("PreToolUse", bash)).blocked).toBe(false)
    })
    expect(lines).toEqual([expect.stringMatching(/^agent-hooks: hook ".*guard crashed.*" \(.*settings\.json\): .*guard crashed/)])
  })
})

// Bun's own reader of a cedar hook's files
CedarFilesSuite.suite("createHookEngine of @agent-hooks/bun", createHookEngine)

describe("audit trail and hot reload on Bun", () => {
  it("writes a verifiable audit log and reloads changed settings", async () => {
    const { Audit } = await import("@agent-hooks/core")
    const { Effect } = await import("effect")
    const dir = tempDir()
    const file = join(dir, "settings.json")
    const guard = (command: string) =>
      JSON.stringify({ auditLog: "logs/audit.jsonl", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } })
    writeFileSync(file, guard("true"))
    const reloads: Array<string> = []
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      env: { ...process.env, AGENT_HOOKS_AUDIT_KEY: "k" },
      watch: true,
      onReload: (event) => reloads.push(event._tag)
    })
    cleanups.push(() => engine.close())
    expect((await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })).blocked).toBe(false)
    writeFileSync(file, guard("echo no >&2; exit 2"))
    for (let i = 0; i < 100 && reloads.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(reloads).toEqual(["Reloaded"])
    expect(await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })).toMatchObject({
      blocked: true,
      reason: "no"
    })
    await engine.close()
    const report = await Effect.runPromise(Audit.verify(readFileSync(join(dir, "logs", "audit.jsonl"), "utf8"), { key: "k" }))
    // Two engines (before and after the reload), two chains, each closed with its checkpoint.
    expect(report).toMatchObject({ ok: true, writers: 2, notices: [] })
  })
})
