/**
 * Hot reload (`watch: true`) with real settings files and real hook processes: the file is
 * rewritten, the engine's watcher sees it, and the next dispatch runs the new hooks.
 */
import { describe, expect, it } from "vitest"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Trust } from "@agent-hooks/core"
import type { HookEngine } from "@agent-hooks/core"
import { createHookEngine } from "@agent-hooks/node"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"

const cleanups = Cleanups.register("agent-hooks-reload-")
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const blockRm = `sh ${fixture("block-rm.sh")}`

type Hooks = Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>
const write = (file: string, hooks: Hooks) => writeFileSync(file, JSON.stringify({ hooks }))

/** An engine with `watch`, and the reload events as they come. */
const watching = async (file: string, options: { projectDir?: string; env?: Record<string, string>; requireTrust?: boolean; explicit?: boolean; managedDir?: string } = {}) => {
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
    expect(event).toMatchObject({ _tag: "Blocked", message: `settings not reloaded: a ConfigChange hook blocked the change to ${file}: changes need review` })
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({ hook_event_name: "ConfigChange", source: "user_settings", file_path: file })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
  })

  it("a change to managed policy cannot be blocked by ConfigChange", async () => {
    const managed = cleanups.tempDir()
    const home = cleanups.tempDir()
    const file = join(managed, "managed-settings.json")
    const refuse = { ConfigChange: [{ hooks: [{ type: "command", command: "echo no >&2; exit 2" }] }] }
    write(file, { ...refuse, PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] })
    const { engine, next } = await watching(file, { projectDir: cleanups.tempDir(), env: { HOME: home, AGENT_HOOKS_HOME: home }, explicit: false, managedDir: managed })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(false)
    const reloaded = next()
    write(file, { ...refuse, PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    expect(await reloaded).toMatchObject({ _tag: "Reloaded", files: [file] })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
  })

  it("a dispatch in flight finishes on the hooks it started with", async () => {
    const file = join(cleanups.tempDir(), "settings.json")
    const slow = (context: string) => ({ UserPromptSubmit: [{ hooks: [{ type: "command", command: `sh ${fixture("sleep-then.sh")} 1 ${context}` }] }] })
    write(file, slow("old"))
    const { engine, next } = await watching(file)
    const inFlight = engine.dispatch("UserPromptSubmit", { prompt: "hi" })
    const reloaded = next()
    write(file, slow("new"))
    await reloaded
    expect((await inFlight).additionalContext).toEqual(["old"])
    expect((await engine.dispatch("UserPromptSubmit", { prompt: "hi" })).additionalContext).toEqual(["new"])
  })

  it("trust still applies: a changed project file is held back until approved", async () => {
    const project = cleanups.tempDir()
    const home = cleanups.tempDir()
    mkdirSync(join(project, ".agent-hooks"))
    const file = join(project, ".agent-hooks", "settings.json")
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: blockRm }] }] })
    const env = { AGENT_HOOKS_HOME: home, HOME: home }
    const store = join(home, "trusted-settings.json")
    await Effect.runPromise(Trust.approve(store, [file]).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))))
    const { engine, next } = await watching(file, { projectDir: project, env, requireTrust: true, explicit: false })
    expect((await engine.dispatch("PreToolUse", rm)).blocked).toBe(true)
    const reloaded = next()
    write(file, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] })
    const event = await reloaded
    expect(event._tag).toBe("Reloaded")
    expect(event._tag === "Reloaded" && event.warnings.join("\n")).toContain(`${file}: held back`)
    // The changed file's hooks do not run, and neither do the old ones: the file is not approved as it is.
    expect((await engine.dispatch("PreToolUse", rm)).hooks).toEqual([])
  })
})
