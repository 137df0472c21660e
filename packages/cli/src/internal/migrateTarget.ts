/**
 * `migrate --to <agent>`: another agent's own hook config, written so that the hooks keep their
 * meaning. The hooks themselves stay agent-hooks settings (the policy file); the agent's config
 * gets one entry per event it needs, calling `agent-hooks hook --host <agent>`, which reads that
 * agent's payload, runs the policy in Claude Code's names and answers in the agent's format.
 *
 * A hook keeps its meaning only when, run that way, it sees what it saw before and its answer does
 * what it did before. It is refused (file, JSON path, why) when:
 * - its event is the source dialect's own (Gemini CLI's `BeforeTool`): host mode dispatches
 *   Claude Code's events, so it would never run;
 * - the source agent's payload is not Claude Code's shape (other tool names, other fields): the
 *   hook would read names it was not written for;
 * - the target agent has no event for it, or its event there cannot block where it could;
 * - its timeout is longer than the target agent lets a hook run, and the agent has no setting for it.
 * With `--lossy` a refused command hook is written into the agent's config as it is (a bare
 * command, its matcher where the agent has matchers), with a note naming what changes.
 */
import * as Agents from "@agent-hooks/core/Agents"
import * as HookEvent from "@agent-hooks/core/HookEvent"
import * as HostMode from "@agent-hooks/core/HostMode"
import type { Preset } from "@agent-hooks/core/Preset"
import * as Presets from "@agent-hooks/core/Presets"
import type { HookEntry, LoadedSettings } from "@agent-hooks/core/Settings"
import type { NewFile } from "./hostFiles.ts"
import { fixedTimeout, readOwnCommand, shellQuote, TAKES_OVER, timeoutIn } from "./hostConfig.ts"
import { failClosedOf, layoutOf, newFiles, readsMatchers } from "./hostFiles.ts"
import { wiringOf } from "./agentProfile.ts"

/** One entry of the target agent's config. */
export interface TargetEntry {
  /** The agent's event name. */
  readonly hostEvent: string
  readonly command: string
  /** Seconds; `undefined`: the agent's default. */
  readonly timeout: number | undefined
  /** The source hook's matcher, for a bare (`--lossy`) entry where the agent reads matchers. */
  readonly matcher?: string | undefined
  /** A host-mode entry (`agent-hooks hook --host`), or a source hook's own command (`--lossy`). */
  readonly hostMode: boolean
  /** A bare entry's source hook: `<file> at <path> (<event>)`. */
  readonly origin?: string | undefined
}

/** A file `migrate --to` writes: absolute path, text, whether it is an executable (Cline's). */
export type TargetFile = NewFile

/** What `--to <agent>` makes of loaded settings. */
export interface TargetPlan {
  /** The settings whose hooks keep their meaning through host mode: the policy file is made of these. */
  readonly kept: LoadedSettings
  readonly entries: ReadonlyArray<TargetEntry>
  /** `<file> at <path> (<event>): <why>` per hook that would change. */
  readonly refused: ReadonlyArray<string>
  readonly notes: ReadonlyArray<string>
  /** The source agent whose payload host mode presents to the kept hooks (`hook --payload`), when it is not Claude Code's. */
  readonly payload: string | undefined
}

/**
 * The agent's events that carry a catalog event, where one covers the others: Cursor's
 * `preToolUse` fires for every tool of the agent (its `beforeShellExecution`, `beforeMCPExecution`
 * and `beforeReadFile` would run the policy a second time on the same call).
 */
const COVERING: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<string>>>>> = {
  cursor: { PreToolUse: ["preToolUse"] }
}

/** The agent's preset (same name as its host mode), for its events' rules. */
const presetOf = (agent: HostMode.Agent): Preset | undefined => Presets.byName(agent.name)

/** The agent's events that stand for the catalog event `event`, in the agent's order. */
export const hostEventsFor = (agent: HostMode.Agent, event: string): ReadonlyArray<string> => {
  const covering = COVERING[agent.name]?.[event]
  if (covering !== undefined) return covering
  // the events install does not register either (the Cline CLI's names, which it reads from no hook file)
  const notRegistered = wiringOf(agent).notRegistered ?? []
  const all = Object.keys(agent.events).filter(
    (name) => agent.events[name] === event && !TAKES_OVER.has(name) && !notRegistered.includes(name)
  )
  // Old aliases (Kiro's preToolUse beside PreToolUse) are left out where the preset names the current ones.
  const names = new Set(presetOf(agent)?.events.map((custom) => custom.name) ?? [])
  const current = all.filter((name) => names.has(name))
  return current.length > 0 ? current : all
}

/** The rules of an agent's event, as its preset runs them. */
const targetSpec = (agent: HostMode.Agent, hostEvent: string): HookEvent.HookEventSpec | undefined => {
  const custom = presetOf(agent)?.events.find((event) => event.name === hostEvent)
  return custom !== undefined ? HookEvent.custom(custom) : HookEvent.get(hostEvent)
}

/** The rules of a source hook's event: its file's declaration, the preset's, else the catalog's. */
const sourceSpec = (preset: Preset, entry: HookEntry, event: string): HookEvent.HookEventSpec | undefined => {
  if (entry.spec !== undefined) return entry.spec
  const custom = preset.events.find((declared) => declared.name === event)
  return custom !== undefined ? HookEvent.custom(custom) : HookEvent.get(event)
}

/**
 * The source dialect hands its hooks Claude Code's payload: no host mode of its own (agent-hooks,
 * the seed dialects, whose tool names are Claude Code's), or a host mode that renames nothing.
 */
export const claudeShaped = (preset: Preset): boolean => {
  const agent = HostMode.byName(preset.name)
  if (agent === undefined) return (preset.toolNames ?? []).length === 0
  return agent.tools.length === 0 && agent.normalize === undefined && agent.readInput === undefined && agent.eventField === undefined
}

/** The Claude Code file tools a guard may name, and what each stands for in a message. */
const FILE_TOOLS: ReadonlyArray<readonly [string, string]> = [
  ["Read", "reads a file"],
  ["Edit", "edits a file"],
  ["Write", "writes a file"]
]

/**
 * The agent's tools whose actions are `claude` (its tools table, and the tools read into several
 * actions: Codex's `apply_patch` into `Edit` and `Write`).
 *
 * @internal
 */
export const toolsGiving = (agent: HostMode.Agent, claude: string): ReadonlyArray<string> => {
  if (agent.toolNames.length === 0) return [claude]
  const names = new Set<string>()
  for (const tool of agent.tools) if (tool.claude === claude) names.add(tool.host)
  for (const reader of agent.actions ?? []) if (reader.gives.includes(claude)) names.add(reader.host)
  // a tool the agent sends under Claude Code's own name (Codex's Bash)
  if (agent.toolNames.includes(claude)) names.add(claude)
  return [...names]
}

/**
 * What a guard on a file tool (a PreToolUse or PermissionRequest hook whose matcher names `Read`,
 * `Edit` or `Write`) reaches in the target agent: the agent's tools it sees (as actions), and
 * whether the agent has a tool for that action at all. A guard on a file action the agent only does
 * through its shell (Codex reads files with `cat`) never runs: refused. Otherwise a note names the
 * tools it sees, and the shell route it does not.
 */
const fileRoutes = (agent: HostMode.Agent, entry: HookEntry): { readonly refuse?: string; readonly note?: string } => {
  const named = FILE_TOOLS.filter(([claude]) => entry.matcher.kind !== "all" && entry.matcher.test(claude))
  if (named.length === 0) return {}
  const shells = toolsGiving(agent, "Bash")
  const missing = named.filter(([claude]) => toolsGiving(agent, claude).length === 0)
  const shellRoute =
    shells.length === 0
      ? ""
      : `; ${agent.displayName}'s shell (${shells.join(", ")}) reads and writes files too (cat, sed -i, >): a Bash action this guard does not see, so guard those commands in a Bash hook`
  if (missing.length > 0) {
    return {
      refuse: `its matcher ${JSON.stringify(entry.matcher.source)} guards ${missing.map(([claude]) => claude).join(", ")}, but ${agent.displayName} has no tool that ${missing.map(([, what]) => what).join(" or ")} as ${missing.map(([claude]) => claude).join(" or ")}: the guard would never run there${shellRoute}`
    }
  }
  const seen = named.map(([claude]) => `${claude}: ${toolsGiving(agent, claude).join(", ")}`).join("; ")
  return {
    note: `its matcher ${JSON.stringify(entry.matcher.source)} sees ${agent.displayName}'s ${seen} (each file as its own action)${shellRoute}`
  }
}

/** Host mode keeps its own budget below the timeout it is given (`budgetMs`): the entry's timeout leaves room for it. */
const withMargin = (seconds: number): number => Math.ceil(seconds + Math.min(5, Math.max(1, seconds / 9)))

/** `cmd args...` of an exec-form handler, quoted for `sh`. */
const commandLine = (handler: { readonly command: string; readonly args?: ReadonlyArray<string> | undefined }): string =>
  handler.args === undefined || handler.args.length === 0 ? handler.command : [handler.command, ...handler.args].map(shellQuote).join(" ")

/** Whether the dialect picks a command per platform when reading (its agent's profile says: `perOsCommands`). */
const perOs = (preset: Preset): boolean =>
  Agents.profiles.some((profile) => profile.dialect?.name === preset.name && profile.wiring.perOsCommands === true)

/**
 * The plan for `--to <agent>`: which hooks keep their meaning through host mode, the agent's
 * entries (host mode's, and with `lossy` the bare commands of the others), refusals and notes.
 * `hostCommand` writes the host-mode command for one of the agent's events and its timeout.
 */
export const planTarget = (input: {
  readonly settings: LoadedSettings
  readonly preset: Preset
  readonly agent: HostMode.Agent
  readonly lossy: boolean
  readonly platform: string
  /** `payload`: the agent whose payload the policy's hooks read (`hook --payload`), when it is not Claude Code's. */
  readonly hostCommand: (hostEvent: string, timeout: number, payload: string | undefined) => string
}): TargetPlan => {
  const { agent, preset, settings } = input
  const refused: Array<string> = []
  const notes: Array<string> = []
  const keptHooks: Record<string, Array<HookEntry>> = {}
  /** Per host event: the longest (or, sequential, the summed) timeout of the hooks it runs. */
  const needs = new Map<string, { seconds: number; implicit: boolean }>()
  const bare: Array<TargetEntry> = []
  const shaped = claudeShaped(preset)
  // A source agent with a host mode of its own: its hooks get its payload back (`hook --payload`), in its names
  const presenter = shaped ? undefined : HostMode.byName(preset.name)
  // What the target agent lets a hook run at most, when its config has no timeout key (Windsurf, Cline): its default.
  const fixed = fixedTimeout(agent) ? agent.hookTimeout : undefined
  const implicitEvents = new Set<string>()
  // User-level hooks stay in the user's file when there are others (toCanonical notes them): no entry for them here.
  const scopes = new Set(Object.values(settings.hooks).flatMap((entries) => entries.map((entry) => entry.scope)))
  const skipUser = scopes.has("user") && [...scopes].some((scope) => scope !== "user")
  for (const [event, entries] of Object.entries(settings.hooks)) {
    for (const entry of entries) {
      if (entry.handler.type === "callback") continue // toCanonical refuses it
      if (skipUser && entry.scope === "user") {
        ;(keptHooks[event] ??= []).push(entry)
        continue
      }
      const where = `${entry.source} at ${entry.path} (${event})`
      if (entry.handler.type === "command" && readOwnCommand(entry.handler.command) !== undefined) {
        notes.push(`${where}: already agent-hooks' host mode (written by install); not migrated`)
        continue
      }
      const spec = sourceSpec(preset, entry, event)
      const catalog = HookEvent.get(event) !== undefined ? event : preset.events.find((declared) => declared.name === event)?.extends
      // the source agent's own event (Gemini CLI's BeforeTool) fires where its Claude Code counterpart does
      const presented = presenter !== undefined && catalog !== undefined && presenter.events[event] === catalog
      const hostEvents = HookEvent.get(event) !== undefined || presented ? hostEventsFor(agent, catalog!) : []
      const explicit = "timeout" in entry.handler && typeof entry.handler.timeout === "number" ? entry.handler.timeout : undefined
      const seconds = explicit ?? spec?.defaultTimeout ?? 600
      const why: Array<string> = []
      if (HookEvent.get(event) === undefined && !presented) {
        why.push(
          presenter !== undefined
            ? `${event} is ${preset.name}'s own event with no counterpart in Claude Code's events, which ${agent.displayName}'s host mode dispatches: the hook would never run there`
            : `${event} is ${preset.name}'s own event: ${agent.displayName}'s host mode dispatches Claude Code's events, so the hook would never run there`
        )
      } else if (hostEvents.length === 0) {
        why.push(`${agent.displayName} has no event for ${catalog ?? event}`)
      }
      if (presenter !== undefined && why.length === 0 && HookEvent.get(event) !== undefined && presenter.events[event] !== event) {
        why.push(`${preset.name} has no event ${event} of its own to present to the hook`)
      }
      if (!shaped && presenter === undefined && why.length === 0) {
        why.push(
          `the hook reads ${preset.name}'s payload (its tool names and fields); through ${agent.displayName}'s host mode it would receive Claude Code's`
        )
      }
      if (why.length === 0 && spec !== undefined && spec.blocking !== "none") {
        const cannot = hostEvents.filter((hostEvent) => targetSpec(agent, hostEvent)?.blocking === "none")
        if (cannot.length > 0)
          why.push(`${event} can block in ${preset.name}, but ${agent.displayName}'s ${cannot.join(", ")} cannot: a block would be lost`)
      }
      if (why.length === 0 && fixed !== undefined && explicit !== undefined && withMargin(explicit) > fixed) {
        why.push(`its timeout is ${explicit} s, but ${agent.displayName} gives a hook ${fixed} s and has no setting to raise it`)
      }
      // a guard of a file tool: the target's routes to that action, named (never a route dropped in silence)
      if (why.length === 0 && (catalog === "PreToolUse" || catalog === "PermissionRequest") && presenter === undefined) {
        const routes = fileRoutes(agent, entry)
        if (routes.refuse !== undefined) why.push(routes.refuse)
        else if (routes.note !== undefined) notes.push(`${where}: ${routes.note}`)
      }
      if (why.length === 0) {
        ;(keptHooks[event] ??= []).push(entry)
        for (const hostEvent of hostEvents) {
          const seen = needs.get(hostEvent)
          const total = seen === undefined ? seconds : settings.sequential ? seen.seconds + seconds : Math.max(seen.seconds, seconds)
          needs.set(hostEvent, { seconds: total, implicit: (seen?.implicit ?? false) || explicit === undefined })
        }
        if (fixed !== undefined && explicit === undefined) implicitEvents.add(event)
        continue
      }
      refused.push(`${where}: ${why.join("; ")}`)
      if (!input.lossy) continue
      // --lossy: the hook's own command in the agent's config, on the agent's event for its catalog event
      const lossyEvents = catalog === undefined ? [] : hostEventsFor(agent, catalog)
      if (entry.handler.type !== "command") {
        notes.push(`${where}: a ${entry.handler.type} hook has no bare command to write; left out`)
        continue
      }
      if (lossyEvents.length === 0) {
        notes.push(`${where}: ${agent.displayName} has no event for it; left out`)
        continue
      }
      const matcher = entry.matcher.source
      const keepsMatcher = matcher === undefined || matcher === "" || matcher === "*" || readsMatchers(agent)
      for (const hostEvent of lossyEvents) {
        bare.push({
          hostEvent,
          command: commandLine(entry.handler),
          timeout: explicit,
          matcher: keepsMatcher ? matcher : undefined,
          hostMode: false,
          origin: where
        })
      }
      notes.push(
        `${where}: written as a bare command on ${agent.displayName}'s ${lossyEvents.join(", ")}: it gets ${agent.displayName}'s payload and its exit code and output are read by ${agent.displayName}'s rules${
          matcher !== undefined && matcher !== "" && matcher !== "*"
            ? `; matcher ${JSON.stringify(matcher)} ${keepsMatcher ? "is copied as it is (tool names differ between agents)" : `is dropped (${agent.displayName} has no matchers)`}`
            : ""
        }`
      )
    }
  }
  for (const event of implicitEvents) {
    notes.push(
      `hooks of ${event} without a timeout get ${agent.displayName}'s ${fixed} s (${preset.name} gives them ${sourceSpec(preset, settings.hooks[event]![0]!, event)?.defaultTimeout ?? 600} s)`
    )
  }
  if (perOs(preset)) {
    notes.push(
      `${preset.name} picks a command per operating system; the policy keeps the one for ${input.platform} (set AGENT_HOOKS_PLATFORM to migrate another's)`
    )
  }
  const entries: Array<TargetEntry> = []
  for (const [hostEvent, need] of needs) {
    // an agent with a fixed timeout has no key for it: host mode gets the agent's own
    const timeout = fixed !== undefined ? undefined : withMargin(need.seconds)
    entries.push({
      hostEvent,
      command: input.hostCommand(hostEvent, timeout ?? agent.hookTimeout, presenter?.name),
      timeout,
      hostMode: true
    })
  }
  if (entries.length > 0) {
    if (presenter !== undefined) {
      notes.push(
        `the hooks keep ${presenter.displayName}'s payload: host mode presents each of ${agent.displayName}'s calls in ${presenter.displayName}'s events, tool names and fields (--payload ${presenter.name}), and reads their answers by ${presenter.displayName}'s rules; a call ${presenter.displayName} has no event for runs none of them`
      )
    }
    notes.push(
      `${agent.displayName} calls agent-hooks on every ${entries.map((entry) => entry.hostEvent).join(", ")}: the policy applies the matchers (for every tool, the agent's own matchers are not used), the timeouts, and reads the answers by ${preset.name}'s rules`
    )
    // where the agent has no switch that makes host mode's entries block (install writes it where it has one)
    if (failClosedOf(agent) === undefined)
      notes.push(`if agent-hooks itself cannot start, ${agent.displayName} goes on without it (its own rule for a failing hook)`)
  }
  // an agent that runs one executable per event (its profile's `oneEntryPerEvent`: Cline) reads its
  // stdout as the one answer: a second command there is left out.
  const oneEntry = wiringOf(agent).oneEntryPerEvent === true
  const written: Array<TargetEntry> = []
  for (const entry of [...entries, ...bare]) {
    if (oneEntry && written.some((other) => other.hostEvent === entry.hostEvent)) {
      notes.push(
        `${entry.origin ?? entry.command}: ${agent.displayName} runs one executable per event, and its ${entry.hostEvent} already runs ${written.find((other) => other.hostEvent === entry.hostEvent)!.command}; left out`
      )
      continue
    }
    written.push(entry)
  }
  return {
    kept: { ...settings, hooks: keptHooks },
    entries: written,
    refused,
    notes,
    payload: presenter?.name
  }
}

/**
 * The files of the agent's project config holding `entries`, where and as install writes them
 * (`layoutOf`, `newFiles`: one table of each agent's files, one renderer per format): host mode's
 * entries as install's, and with --lossy the source hooks' bare commands beside them. Copilot CLI
 * and VS Code read the same folder, so each gets a file of its own there.
 */
export const render = (agent: HostMode.Agent, projectDir: string, entries: ReadonlyArray<TargetEntry>): ReadonlyArray<TargetFile> =>
  newFiles(
    layoutOf(agent, "project", projectDir, { HOME: projectDir }),
    agent,
    entries.map((entry) => ({
      event: entry.hostEvent,
      command: entry.command,
      timeout: entry.timeout === undefined ? undefined : timeoutIn(agent, entry.timeout),
      matcher: entry.matcher,
      hostMode: entry.hostMode
    }))
  )
