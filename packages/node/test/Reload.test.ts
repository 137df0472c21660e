/**
 * Hot reload (`watch: true`) with real settings files and real hook processes: the file is
 * rewritten, the engine's watcher sees it, and the next dispatch runs the new hooks.
 */
import { describe, expect, it } from "vitest"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Audit, Trust } from "@agent-hooks/core"
import type { HookEngine } from "@agent-hooks/core"
import { createHookEngine } from "@agent-hooks/node"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"

const cleanups = Cleanups.register("agent-hooks-reload-")
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const blockRm = `sh ${fixture("block-rm.sh")}`

type Hooks = Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>
const write = (file: string, hooks: Hooks) => writeFileSync(file, JSON.stringify({ hooks }))

/** An engine with `watch`, and the reload events as they come. */
const watching = async (
  file: string,
  options: { projectDir?: string; env?: Record<string, string>; requireTrust?: boolean; explicit?: boolean; managedDir?: string } = {}
) => {
  const events: Array<HookEngine.ReloadEvent> = []
  const waiters: Array<() => void> = []
  const engine = await createHookEngine({
    ...(options.explicit === false ? {} : { settings: [file] }),
    projectDir: options.projectDir ?? join(file, ".."),
    env: { ...process.env, ...options.env },
    requireTrust: options.requireTrust,
    managedDir: options.managedDir,
    watch: true,
    onReload: (event) => {
      events.push(event)
      for (const wake of waiters.splice(0)) wake()
    }
  })
  cleanups.add(() => void engine.close())
  /** Waits for the next reload event (at most 10 s). */
  const next = (): Promise<HookEngine.ReloadEvent> => {
    const seen = events.length
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reload event within 10 s (${events.length} so far)`)), 10_000)
      const check = () => {
        if (events.length > seen) {
          clearTimeout(timer)
          resolve(events[seen]!)
        } else waiters.push(check)
      }
      check()
    })
  }
  return { engine, next }
}

const rm = { tool_name: "Bash", tool_input: { command: "rm -rf /" } }

/**
 * A project whose `.agent-hooks/settings.json` holds `hooks`, found by discovery, and a watching
 * engine on it: its warnings and reload events as they come, and `reloads(n)`, which waits (at most
 * 10 s) until there have been `n`.
 */
const inProject = async (hooks: Hooks, options: { auditLog?: string } = {}) => {
  const project = cleanups.tempDir()
  const home = cleanups.tempDir()
  mkdirSync(join(project, ".agent-hooks"))
  const file = join(project, ".agent-hooks", "settings.json")
  write(file, hooks)
  const warnings: Array<string> = []
  const events: Array<HookEngine.ReloadEvent> = []
  const engine = await createHookEngine({
    projectDir: project,
    env: { ...process.env, AGENT_HOOKS_HOME: home, HOME: home },
    watch: true,
    ...options,
    onWarning: (w) => warnings.push(w),
    onReload: (event) => events.push(event)
  })
  cleanups.add(() => void engine.close())
  const reloads = async (count: number) => {
    for (let i = 0; i < 200 && events.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(events.length).toBe(count)
  }
  return { engine, file, warnings, events, reloads }
}

describe("hot reload", () => {
  it("runs the new hooks after the settings file changes", async () => {
    const file = join(cleanups.tempDir(), "settings.json")
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] })
    const { engine, next } = await watching(file)
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(false)
    const reloaded = next()
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    expect(await reloaded).toMatchObject({ _tag: "Reloaded", files: [file] })
    expect(await engine.dispatch("PreToolUse", rm)).toMatchObject({ blocked: true, reason: "rm -rf is not allowed here" })
    expect(engine.hookedEvents.has("PreToolUse")).toBe(true)
  })

  it("keeps the hooks in force when the changed file does not decode, and says why", async () => {
    const file = join(cleanups.tempDir(), "settings.json")
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    const { engine, next } = await watching(file)
    const failed = next()
    writeFileSync(file, '{"hooks": {"PreToolUse": [')
    const event = await failed
    expect(event._tag).toBe("Failed")
    expect(event._tag === "Failed" && event.message).toContain(`settings not reloaded, the previous hooks stay: ${file}`)
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
  })

  it("runs ConfigChange with Claude Code's payload; a block keeps the hooks in force", async () => {
    const dir = cleanups.tempDir()
    const file = join(dir, "settings.json")
    const seen = join(dir, "config-change.json")
    const refuse = { ConfigChange: [{ hooks: [{ type: "command", command: `cat > ${seen}; echo "changes need review" >&2; exit 2` }] }] }
    write(file, { ...refuse, PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    const { engine, next } = await watching(file)
    const blocked = next()
    write(file, { ...refuse, PreToolUse: [] })
    const event = await blocked
    expect(event).toMatchObject({
      _tag: "Blocked",
      message: `settings not reloaded: a ConfigChange hook blocked the change to ${file}: changes need review`
    })
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      hook_event_name: "ConfigChange",
      source: "user_settings",
      file_path: file
    })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
  })

  it("a change to managed policy cannot be blocked by ConfigChange", async () => {
    const managed = cleanups.tempDir()
    const home = cleanups.tempDir()
    const file = join(managed, "managed-settings.json")
    const refuse = { ConfigChange: [{ hooks: [{ type: "command", command: "echo no >&2; exit 2" }] }] }
    write(file, { ...refuse, PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] })
    const { engine, next } = await watching(file, {
      projectDir: cleanups.tempDir(),
      env: { HOME: home, AGENT_HOOKS_HOME: home },
      explicit: false,
      managedDir: managed
    })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(false)
    const reloaded = next()
    write(file, { ...refuse, PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    expect(await reloaded).toMatchObject({ _tag: "Reloaded", files: [file] })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
  })

  it("a dispatch in flight finishes on the hooks it started with", async () => {
    const file = join(cleanups.tempDir(), "settings.json")
    const slow = (context: string) => ({
      UserPromptSubmit: [{ hooks: [{ type: "command", command: `sh ${fixture("sleep-then.sh")} 1 ${context}` }] }]
    })
    write(file, slow("old"))
    const { engine, next } = await watching(file)
    const inFlight = engine.dispatch("UserPromptSubmit", { prompt: "hi" })
    const reloaded = next()
    write(file, slow("new"))
    await reloaded
    expect((await inFlight).additionalContext).toEqual(["old"])
    expect((await engine.dispatch("UserPromptSubmit", { prompt: "hi" })).additionalContext).toEqual(["new"])
  })

  it("trust still applies: an approved guard stays when its file is changed or deleted, until the new version is approved", async () => {
    const project = cleanups.tempDir()
    const home = cleanups.tempDir()
    mkdirSync(join(project, ".agent-hooks"))
    const file = join(project, ".agent-hooks", "settings.json")
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    const env = { AGENT_HOOKS_HOME: home, HOME: home }
    const store = join(home, "trusted-settings.json")
    const approve = () =>
      Effect.runPromise(Trust.approve(store, [file]).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))))
    await approve()
    const { engine, next } = await watching(file, { projectDir: project, env, requireTrust: true, explicit: false })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
    // The agent's own Write tool rewrites the file without the guard.
    let reloaded = next()
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] })
    let event = await reloaded
    expect(event._tag).toBe("Failed")
    expect(event._tag === "Failed" && event.message).toContain(
      `${file} changed and is not approved; its approved hooks stay until the new version is approved`
    )
    // The approved guard still blocks; the Outcome says what the reload did.
    const outcome = await engine.dispatch("PreToolUse", rm)
    expect(outcome.blocked).toBe(true)
    expect(outcome.warnings.join("\n")).toContain("settings not reloaded, the previous hooks stay")
    // Deleted: the same.
    reloaded = next()
    rmSync(file)
    event = await reloaded
    expect(event._tag).toBe("Failed")
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
    // A new version, approved: it loads (the approval is a change too).
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] })
    await next().catch(() => undefined)
    reloaded = next()
    await approve()
    event = await reloaded
    expect(event._tag).toBe("Reloaded")
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(false)
  })

  it("a reload that drops a guard (the agent deletes the project file) is said: the reload event, onWarning, the next Outcome", async () => {
    const { engine, file, warnings, events, reloads } = await inProject({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }]
    })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
    rmSync(file)
    await reloads(1)
    expect(events).toMatchObject([
      { _tag: "Reloaded", dropped: [expect.stringContaining(`PreToolUse: ${blockRm} (${file} at hooks.PreToolUse[0].hooks[0])`)] }
    ])
    expect(warnings.join("\n")).toContain("1 hook no longer runs: PreToolUse:")
    const outcome = await engine.dispatch("PreToolUse", rm)
    expect(outcome.blocked).toBe(false)
    expect(outcome.warnings.join("\n")).toContain(`settings reloaded (${file}): 1 hook no longer runs`)
    // said once: the next Outcome is quiet again
    expect((await engine.dispatch("PreToolUse", rm)).warnings).toEqual([])
  })

  it("each reload is told once, in order, in the next Outcome a host sees (not in the reload's own ConfigChange, not lost to a refused payload)", async () => {
    const broken = { type: "command", command: "echo broken >&2; exit 1" }
    const { engine, file, warnings, reloads } = await inProject({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }, broken] }]
    })
    // A reload that fails, then one that takes the guard away (it runs ConfigChange on the hooks in force).
    writeFileSync(file, '{"hooks": {"PreToolUse": [')
    await reloads(1)
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [broken] }] })
    await reloads(2)
    // A payload the engine refuses has no Outcome to tell them in.
    await expect(engine.dispatch("PreToolUse", "not an object" as unknown as Record<string, unknown>)).rejects.toThrow(
      "expected a JSON object"
    )
    const outcome = await engine.dispatch("PreToolUse", rm)
    expect(outcome.blocked).toBe(false)
    expect(outcome.warnings).toEqual([
      expect.stringContaining(`settings not reloaded, the previous hooks stay: ${file}`),
      expect.stringContaining(`settings reloaded (${file}): 1 hook no longer runs`),
      expect.stringContaining("broken")
    ])
    // onWarning heard each of them once, in the same order.
    expect(warnings.filter((w) => outcome.warnings.includes(w))).toEqual(outcome.warnings)
    // told once: the next Outcome has only its own hook's failure
    expect((await engine.dispatch("PreToolUse", rm)).warnings).toEqual([expect.stringContaining("broken")])
  })

  it("a reload goes into the audit trail: when, which file, which hooks it took away; the log still verifies", async () => {
    const log = join(cleanups.tempDir(), "audit.jsonl")
    const { engine, file, reloads } = await inProject(
      { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] },
      { auditLog: log }
    )
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
    rmSync(file)
    await reloads(1)
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(false)
    await engine.close()
    const text = readFileSync(log, "utf8")
    const kinds = Audit.parse(text).records.map(({ record }) =>
      record.kind === "outcome" ? `${record.event} ${record.blocked ? "blocked" : "allowed"}` : record.kind
    )
    // the guard blocked, the change was announced (ConfigChange), the reload took the guard away, the same call was allowed
    expect(kinds.filter((kind) => kind !== "checkpoint" && kind !== "hook")).toEqual([
      "PreToolUse blocked",
      "ConfigChange allowed",
      "reload",
      "PreToolUse allowed"
    ])
    const reload = Audit.parse(text).records.find(({ record }) => record.kind === "reload")!.record
    expect(reload).toMatchObject({
      kind: "reload",
      result: "Reloaded",
      files: [file],
      dropped: [expect.stringContaining(`PreToolUse: ${blockRm}`)]
    })
    const report = await Effect.runPromise(Audit.verify(text))
    expect(report.problems).toEqual([])
  })
})
