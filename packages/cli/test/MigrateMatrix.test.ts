/**
 * `migrate --from X --to Y` for every pair of dialects, in-process (no CLI process per case): for
 * generated configs in X's own format, what `--to Y` writes is read back by Y's own preset, and
 * - every hook kept is in the policy, and each of Y's events for its event calls host mode for Y
 *   (`hook --host Y`) with a timeout, in Y's unit, that leaves the hook its own;
 * - a hook written for X's own payload (Gemini CLI, Windsurf, Copilot CLI...) is kept, and Y's
 *   entry calls host mode with `--payload X`, which presents each call in X's names;
 * - every hook that would change is refused, naming its file, its JSON path and why, by class: an
 *   event of X's own with no Claude Code counterpart, a payload of a dialect with no host mode
 *   (pigo), no event in Y, a block Y's event cannot give, a timeout Y cannot give;
 * - with `--lossy` each refused command hook is in Y's config as its bare command (or left out
 *   with a note when Y has no event for it).
 * The canonical round trip of every dialect is packages/node/test/Migrate.test.ts; the CLI sample
 * (Migrate.node.test.ts) runs the written configs through real processes.
 */
import * as HookEvent from "@agent-hooks/core/HookEvent"
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Plan from "@agent-hooks/core/Plan"
import type { Preset } from "@agent-hooks/core/Preset"
import * as Presets from "@agent-hooks/core/Presets"
import type { LoadedSettings } from "@agent-hooks/core/Settings"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import { configFor, eventsOf } from "@agent-hooks/test-utils/DialectConfigs"
import type { Hook } from "@agent-hooks/test-utils/DialectConfigs"
import { commandEvent, eventsOf as eventsOfHost, hookCommand, timeoutUnitMs } from "../src/internal/hostConfig.ts"
import { installChanges, layoutOf, wiredEntries } from "../src/internal/hostFiles.ts"
import { claudeShaped, hostEventsFor, planTarget, render } from "../src/internal/migrateTarget.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-migrate-matrix-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let count = 0

const layer = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

/** What a preset loads from a project (explicit files, else its discovery), with the project's own HOME. */
const load = (preset: Preset, projectDir: string, settings: ReadonlyArray<string> | undefined): Promise<LoadedSettings> =>
  Effect.runPromise(
    Plan.make({ preset, projectDir, cwd: projectDir, settings, env: { HOME: join(projectDir, "home"), PATH: "/usr/bin:/bin" } }).pipe(
      Effect.map((plan) => plan.settings),
      Effect.provide(layer)
    )
  )

const writeFiles = (dir: string, files: Record<string, string>, executable = false): void => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
    if (executable) chmodSync(join(dir, path), 0o755)
  }
}

// the agents with a hook config of their own (pi, opencode, Kilo have only agent-hooks' plugin: no --to)
const TARGETS = HostMode.agents.filter((agent) => Presets.byName(agent.name) !== undefined)

/** A source hook's own timeout as the dialect reads it back (seconds). */
const hookGen = (preset: Preset) =>
  fc
    .record({
      event: fc.constantFrom(...eventsOf(preset)),
      matcher: fc.constantFrom(undefined, "Bash", "*"),
      timeout: fc.constantFrom(undefined, 5, 20, 45),
      n: fc.nat(1000)
    })
    .map((h): Hook => ({ event: h.event, matcher: h.matcher, timeout: h.timeout, command: `/usr/bin/true hook-${h.n}` }))

const runPair = async (source: Preset, agent: HostMode.Agent, hooks: ReadonlyArray<Hook>, lossy: boolean) => {
  const project = join(root, `p${count++}`)
  mkdirSync(join(project, "home"), { recursive: true })
  const config = configFor(source, hooks)
  writeFiles(project, config.files, !config.explicit)
  const loaded = await load(source, project, config.explicit ? Object.keys(config.files).map((file) => join(project, file)) : undefined)
  const planned = planTarget({
    settings: loaded,
    preset: source,
    agent,
    lossy,
    platform: "linux",
    hostCommand: (hostEvent, timeout, payload) =>
      `agent-hooks hook --host ${agent.name} --event ${hostEvent}${payload === undefined ? "" : ` --payload ${payload}`}${timeout === undefined ? "" : ` --timeout ${timeout}`}`
  })
  // a source agent with a host mode of its own keeps its payload: every host-mode entry presents it
  const presenter = claudeShaped(source) ? undefined : HostMode.byName(source.name)
  expect(planned.payload).toBe(presenter?.name)
  // every refusal names the file, the hook's JSON path, its event and why
  for (const refusal of planned.refused) expect(refusal).toMatch(/^\/.+ at .+ \(.+\): .+/)
  const entries = Object.entries(loaded.hooks).flatMap(([event, list]) => list.map((entry) => ({ event, entry })))
  const kept = Object.values(planned.kept.hooks).flat()
  expect(kept.length + planned.refused.length).toBe(entries.length)
  // the classes of refusal
  for (const { event, entry } of entries) {
    const isKept = kept.includes(entry)
    // the Claude Code event the hook's event fires with: its own, or (an agent's own name) the one its agent maps it to
    const declared = source.events.find((one) => one.name === event)
    const catalog =
      HookEvent.get(event) !== undefined
        ? event
        : presenter !== undefined && declared?.extends !== undefined && presenter.events[event] === declared.extends
          ? declared.extends
          : undefined
    const blocks = (declared === undefined ? HookEvent.get(event) : HookEvent.custom(declared))?.blocking !== "none"
    if (catalog === undefined) expect(isKept, `${event} is ${source.name}'s own, with no Claude Code counterpart`).toBe(false)
    else if (!claudeShaped(source) && presenter === undefined)
      expect(isKept, `${source.name}'s payload is its own and it has no host mode`).toBe(false)
    else if (presenter !== undefined && presenter.events[event] !== catalog)
      expect(isKept, `${source.name} has no ${event} to present`).toBe(false)
    else if (hostEventsFor(agent, catalog).length === 0) expect(isKept, `${agent.name} has no ${catalog}`).toBe(false)
    else if (source.name === "claude" || source.name === "agent-hooks" || presenter !== undefined) {
      // a block the target's event cannot give
      const targetEvents = Presets.byName(agent.name)!.events
      const cannotBlock = hostEventsFor(agent, catalog).some((hostEvent) => {
        const custom = targetEvents.find((declared) => declared.name === hostEvent)
        return (custom === undefined ? HookEvent.get(hostEvent) : HookEvent.custom(custom))?.blocking === "none"
      })
      if (blocks && cannotBlock) expect(isKept, `${agent.name} cannot block ${event}`).toBe(false)
      // a timeout the target cannot give (Windsurf, Cline: no timeout setting)
      const timeout = entry.handler.type === "command" ? entry.handler.timeout : undefined
      if ((agent.name === "windsurf" || agent.name === "cline") && timeout !== undefined && timeout + 1 > agent.hookTimeout) {
        expect(isKept, `${agent.name} cannot give ${timeout} s`).toBe(false)
      }
      if ((!cannotBlock || !blocks) && !(agent.name === "windsurf" || agent.name === "cline"))
        expect(isKept, `${source.name} ${event} → ${agent.name}`).toBe(true)
    }
  }
  // what is written, read back by the target's own preset
  const files = render(agent, project, planned.entries)
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true })
    writeFileSync(file.path, file.text)
    if (file.executable) chmodSync(file.path, 0o755)
  }
  if (agent.name === "cline") {
    for (const file of files) {
      expect(statSync(file.path).mode & 0o111).not.toBe(0)
      // host mode replaces the shell (install's script); a bare command keeps its own shell line (`a && exit 2`)
      expect(/^exec /m.test(file.text), file.text).toBe(file.text.includes("hook --host"))
    }
  }
  const target = Presets.byName(agent.name)!
  const readBack = await load(target, project, agent.name === "cline" ? undefined : files.map((file) => file.path))
  // Cline's hook is the executable itself: what it runs is its text
  const script = (command: string) => {
    const path = command.replace("${CLAUDE_PROJECT_DIR}", project).replace(/^'(.*)'$/, "$1")
    return agent.name === "cline" ? readFileSync(path, "utf8") : command
  }
  const written = Object.entries(readBack.hooks).flatMap(([event, list]) =>
    list.map((entry) => ({
      event,
      entry: entry.handler.type === "command" ? { ...entry, handler: { ...entry.handler, command: script(entry.handler.command) } } : entry
    }))
  )
  // each kept hook's event: every one of the target's events for it calls host mode for the target
  const keptEvents = new Set(Object.keys(planned.kept.hooks))
  const catalogOf = (event: string) =>
    HookEvent.get(event) !== undefined ? event : source.events.find((one) => one.name === event)!.extends!
  for (const event of keptEvents) {
    for (const hostEvent of hostEventsFor(agent, catalogOf(event))) {
      const own = `hook --host ${agent.name} --event ${hostEvent}${presenter === undefined ? "" : ` --payload ${presenter.name}`}`
      const calls = written.filter(
        (w) =>
          w.event === hostEvent &&
          w.entry.handler.type === "command" &&
          w.entry.handler.command.includes(own) &&
          (presenter !== undefined || !w.entry.handler.command.includes("--payload"))
      )
      expect(calls, `${source.name} → ${agent.name}: ${event} on ${hostEvent}`).toHaveLength(1)
      // the timeout, as the target reads it, leaves the longest hook its own
      const longest = Math.max(
        0,
        ...planned.kept.hooks[event]!.map((entry) =>
          "timeout" in entry.handler && typeof entry.handler.timeout === "number" ? entry.handler.timeout : 0
        )
      )
      const handler = calls[0]!.entry.handler
      const timeout = "timeout" in handler && typeof handler.timeout === "number" ? handler.timeout : agent.hookTimeout
      expect(timeout, `${source.name} → ${agent.name}: timeout of ${hostEvent}`).toBeGreaterThan(longest)
    }
  }
  // host mode runs the policy: nothing else of agent-hooks is written, and without --lossy nothing bare
  const bare = written.filter((w) => w.entry.handler.type === "command" && !w.entry.handler.command.includes("hook --host"))
  if (!lossy) expect(bare).toHaveLength(0)
  else {
    for (const { entry } of entries) {
      const refusal = planned.refused.find((text) => text.startsWith(`${entry.source} at ${entry.path} (`))
      if (refusal === undefined || entry.handler.type !== "command") continue
      const command = entry.handler.command
      const there = bare.some((w) => (w.entry.handler as { command: string }).command.includes(command))
      const noted = planned.notes.some((note) => note.startsWith(`${entry.source} at ${entry.path} (`) && /left out/.test(note))
      expect(there || noted, `lossy ${source.name} → ${agent.name}: ${refusal}`).toBe(true)
    }
  }
  // the policy is the kept hooks, and loads as agent-hooks settings
  const policy = Presets.toCanonical(planned.kept, source)
  const policyFile = join(project, "policy.json")
  writeFileSync(policyFile, JSON.stringify(policy.settings))
  const policyLoaded = await load(Presets.agentHooks, project, [policyFile])
  expect(Object.values(policyLoaded.hooks).flat().length).toBe(kept.length)
  return { kept: kept.length, refused: planned.refused.length }
}

describe("migrate --from X --to Y for every pair, in-process", () => {
  for (const source of Presets.all) {
    it(`from ${source.name} to every agent (${TARGETS.length} targets), with and without --lossy`, async () => {
      let kept = 0
      let refused = 0
      await fc.assert(
        fc.asyncProperty(fc.array(hookGen(source), { minLength: 1, maxLength: 4 }), fc.boolean(), async (hooks, lossy) => {
          for (const agent of TARGETS) {
            if (agent.name === source.name) continue
            const result = await runPair(source, agent, hooks, lossy)
            kept += result.kept
            refused += result.refused
          }
        }),
        { numRuns: PropertyRuns.forLane(4), seed: 30 }
      )
      expect(kept + refused).toBeGreaterThan(0)
      // Claude Code's payload, or an agent's own that host mode presents again (--payload): hooks are kept
      if (source.name === "claude" || source.name === "agent-hooks" || HostMode.byName(source.name) !== undefined)
        expect(kept, `${source.name}: kept ${kept}, refused ${refused}`).toBeGreaterThan(0)
    })
  }
})

describe("one writer per agent's config: migrate --to and install", () => {
  /** A new project, what install --project writes there for `agent`, and the same host-mode entries as `migrate --to` plans them. */
  const both = (agent: HostMode.Agent) => {
    const project = join(root, `w${count++}`)
    mkdirSync(project, { recursive: true })
    const events = eventsOfHost(agent)
    const command = (event: string) => hookCommand(["/usr/bin/node", "/x/bin.js"], agent, agent.hookTimeout, commandEvent(agent, event))
    const layout = layoutOf(agent, "project", project, { HOME: project })
    const installed = installChanges(
      layout,
      { agent, events, command, timeout: agent.hookTimeout * timeoutUnitMs(agent) },
      "project",
      project
    )
    const fixed = agent.name === "windsurf" || agent.name === "cline"
    const hostMode = events.map((hostEvent) => ({
      hostEvent,
      command: command(hostEvent),
      timeout: fixed ? undefined : agent.hookTimeout,
      hostMode: true
    }))
    return { project, events, layout, installed, hostMode }
  }

  it("host mode's entries are written where and as install --project writes them, for every agent", () => {
    const files = new Set<string>()
    for (const agent of TARGETS) {
      const { project, installed, hostMode } = both(agent)
      const migrated = render(agent, project, hostMode)
      expect(migrated.map((file) => file.path).sort(), agent.name).toEqual(installed.map((change) => change.file).sort())
      // the same bytes, Cline's scripts included (install's mark, which uninstall and doctor read)
      expect(
        migrated.map((file) => file.text),
        agent.name
      ).toEqual(installed.map((change) => change.after))
      for (const file of migrated) {
        const path = file.path.slice(project.length)
        expect(files.has(path), `${agent.name} writes ${path}, another agent's file`).toBe(false)
        files.add(path)
      }
    }
  })

  it("--lossy: a source hook's bare command beside host mode's entries leaves host mode's as install writes them (the agent's fail-closed switch, read back by doctor and uninstall)", () => {
    for (const agent of TARGETS) {
      const { project, events, layout, installed, hostMode } = both(agent)
      // an event with a second entry on it (Cline runs one executable per event: its own event)
      const bareEvent = agent.name === "cline" ? "bare" : events[0]!
      const migrated = render(agent, project, [
        ...hostMode,
        { hostEvent: bareEvent, command: "./guard.sh", timeout: 5, matcher: "Bash", hostMode: false }
      ])
      for (const file of migrated) {
        mkdirSync(dirname(file.path), { recursive: true })
        writeFileSync(file.path, file.text)
      }
      // host mode's entries: those install writes, each found on its event
      const wired = wiredEntries(layout, agent, "project", project)
      if (layout.kind === "own") {
        // a file of install's own holds only install's entries: with a bare command it is not install's file
        expect(wired.size, agent.name).toBe(0)
        continue
      }
      expect([...wired.keys()].sort(), agent.name).toEqual([...events].sort())
      // the same bytes as install's, event by event, where the file is shared with other entries
      if (layout.kind === "json" || layout.kind === "layered") {
        const key = layout.kind === "json" ? layout.form.key : "hooks"
        const ours = JSON.parse(installed[0]!.after!)[key]
        const theirs = JSON.parse(migrated[0]!.text)[key]
        for (const event of events) expect(theirs[event][0], `${agent.name} ${event}`).toEqual(ours[event][0])
        expect(theirs[bareEvent].at(-1), agent.name).not.toEqual(ours[bareEvent]?.[0])
      }
    }
  })

  it("migrate says the agent goes on without agent-hooks exactly where install writes no fail-closed switch", async () => {
    const project = join(root, `f${count++}`)
    mkdirSync(join(project, "home"), { recursive: true })
    writeFiles(project, { "settings.json": JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } }) })
    const loaded = await load(Presets.agentHooks, project, [join(project, "settings.json")])
    for (const agent of TARGETS) {
      const planned = planTarget({
        settings: loaded,
        preset: Presets.agentHooks,
        agent,
        lossy: false,
        platform: "linux",
        hostCommand: (hostEvent, timeout) => `agent-hooks hook --host ${agent.name} --event ${hostEvent} --timeout ${timeout}`
      })
      const written = render(agent, project, planned.entries)
      const switched = written.some((file) => /"(?:onFailure|failClosed)": (?:"block"|true)/.test(file.text))
      const goesOn = planned.notes.some((note) => note.includes("goes on without it"))
      expect(goesOn, `${agent.name}: ${planned.notes.join("; ")}`).toBe(!switched)
    }
  })
})
