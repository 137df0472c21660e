/**
 * An agent's own hook config, as `agent-hooks install` writes it: where the file is, which events
 * call host mode, the command and its timeout, and the text edits that add or remove agent-hooks'
 * entries while every other byte of the file stays as it was.
 *
 * Every agent here reads Claude Code's shape: `hooks.<Event>: [{ matcher?, hooks: [{ type:
 * "command", command, timeout }] }]`. What differs is the file, the event names (from host mode's
 * agent modules), and the timeout's unit (Gemini CLI: milliseconds).
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import type { Edit, Member, Node } from "./jsonc.ts"
import { apply, indentUnit, lineIndent, parse, toValue } from "./jsonc.ts"

/** Where an install goes: the user's config, or the project's shared one. */
export type Scope = "user" | "project"

/**
 * Events where a hook does not only watch but takes over what the agent does: Claude Code's
 * WorktreeCreate and WorktreeRemove hooks replace its own git worktree handling (the hook must
 * print the worktree's path), so merely registering one would break worktrees.
 */
const TAKES_OVER: ReadonlySet<string> = new Set(["WorktreeCreate", "WorktreeRemove"])

/** The agent's events that call host mode: every event of its host-mode module but those a hook takes over. */
export const eventsOf = (agent: HostMode.Agent): ReadonlyArray<string> => Object.keys(agent.events).filter((event) => !TAKES_OVER.has(event))

/** The agent's own event name for a Claude Code event (`PreToolUse` → Gemini CLI's `BeforeTool`). */
export const hostEventFor = (agent: HostMode.Agent, claudeEvent: string): string | undefined =>
  Object.entries(agent.events).find(([, claude]) => claude === claudeEvent)?.[0]

/** Gemini CLI reads a hook's `timeout` in milliseconds; the others in seconds. */
export const timeoutUnitMs = (agent: HostMode.Agent): number => (agent.name === "gemini" ? 1000 : 1)

/** The config file of an agent for a scope. */
export const configPath = (
  agent: HostMode.Agent,
  scope: Scope,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>
): string => {
  const home = env["HOME"] !== undefined && env["HOME"] !== "" ? env["HOME"] : homedir()
  const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value)
  switch (agent.name) {
    case "claude":
      // Never settings.local.json: the project's shared file is the one a team reviews
      return scope === "user" ? join(nonEmpty(env["CLAUDE_CONFIG_DIR"]) ?? join(home, ".claude"), "settings.json") : join(projectDir, ".claude", "settings.json")
    case "codex":
      return scope === "user" ? join(resolve(nonEmpty(env["CODEX_HOME"]) ?? join(home, ".codex")), "hooks.json") : join(projectDir, ".codex", "hooks.json")
    case "gemini":
      return scope === "user" ? join(home, ".gemini", "settings.json") : join(projectDir, ".gemini", "settings.json")
    case "qwen":
      return scope === "user" ? join(home, ".qwen", "settings.json") : join(projectDir, ".qwen", "settings.json")
    default:
      return notInstallable(agent)
  }
}

/**
 * `install`, `uninstall` and `doctor` know the config files of Claude Code, Codex, Gemini CLI and
 * Qwen Code (the `--host` choices); another agent of host mode is wired by hand (docs/hosts/).
 */
export const notInstallable = (agent: HostMode.Agent): never => {
  throw new Error(`agent-hooks install does not know ${agent.name}'s config files yet: wire it by hand (docs/hosts/${agent.name}.md)`)
}

/** `'word'` for `sh`: safe for any path. */
export const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`

/**
 * The host-mode command install writes, as `sh -c` runs it: the runtime that runs this CLI and the
 * CLI's own entry file, both absolute and quoted, then `hook --host <name> --timeout <seconds>`.
 */
export const hookCommand = (runner: ReadonlyArray<string>, agent: HostMode.Agent, timeoutSeconds: number): string =>
  `${runner.map(shellQuote).join(" ")} hook --host ${agent.name} --timeout ${timeoutSeconds}`

/**
 * A command install wrote for this agent, at any path and timeout: quoted words only, then
 * `hook --host <name> --timeout <n>`. A hand-written `npx agent-hooks hook --host …` is not one:
 * install and uninstall leave it alone.
 */
const OWN_COMMAND = /^((?:'(?:[^']|'\\'')*' )+)hook --host ([a-z]+) --timeout (\d+)$/

/** The words of an own command (unquoted), its host and timeout; `undefined` when the command is not one install writes. */
export const readOwnCommand = (command: string): { readonly words: ReadonlyArray<string>; readonly host: string; readonly timeout: number } | undefined => {
  const match = OWN_COMMAND.exec(command)
  if (match === null) return undefined
  const words = [...match[1]!.matchAll(/'((?:[^']|'\\'')*)' /g)].map((m) => m[1]!.replaceAll(`'\\''`, "'"))
  return { words, host: match[2]!, timeout: Number(match[3]) }
}

/** One hook group install writes: `{ "hooks": [{ "type": "command", "command", "timeout" }] }`, no matcher (every tool). */
const groupText = (command: string, timeout: number): string =>
  `{ "hooks": [{ "type": "command", "command": ${JSON.stringify(command)}, "timeout": ${timeout} }] }`

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** An own group: exactly what `groupText` writes, with an own command for this agent (any path, any timeout). */
export const ownGroupCommand = (agent: HostMode.Agent, group: unknown): string | undefined => {
  if (!isRecord(group) || Object.keys(group).length !== 1 || !Array.isArray(group["hooks"]) || group["hooks"].length !== 1) return undefined
  const hook: unknown = group["hooks"][0]
  if (!isRecord(hook) || Object.keys(hook).some((key) => key !== "type" && key !== "command" && key !== "timeout")) return undefined
  if (hook["type"] !== "command" || typeof hook["command"] !== "string") return undefined
  return readOwnCommand(hook["command"])?.host === agent.name ? hook["command"] : undefined
}

/** A config the edit cannot take: where in the file, what was expected. */
export class ConfigError extends Error {}

const describe = (node: Node): string =>
  node.kind === "scalar" ? (node.value === null ? "null" : typeof node.value) : node.kind === "array" ? "an array" : "an object"

const read = (text: string, file: string): Node => {
  let root: Node
  try {
    root = parse(text)
  } catch (error) {
    throw new ConfigError(`${file}: not JSON (${(error as Error).message}); fix the file, then run the command again`)
  }
  if (root.kind !== "object") throw new ConfigError(`${file}: expected an object at the top, found ${describe(root)}`)
  const hooks = root.members.find((member) => member.key === "hooks")
  if (hooks !== undefined && hooks.value.kind !== "object") {
    throw new ConfigError(`${file}: "hooks" must be an object of event names, found ${describe(hooks.value)}`)
  }
  return root
}

/** Where the own entries of the file are, per event: each event array and the indexes of own groups in it. */
export const ownEntries = (
  agent: HostMode.Agent,
  text: string,
  file: string
): ReadonlyArray<{
  readonly event: string
  readonly member: Member
  readonly own: ReadonlyArray<number>
  readonly commands: ReadonlyArray<string>
  /** The `timeout` of each own group, in the agent's unit (`undefined`: the agent's default). */
  readonly timeouts: ReadonlyArray<number | undefined>
}> => {
  const root = read(text, file)
  const hooks = root.kind === "object" ? root.members.find((member) => member.key === "hooks") : undefined
  if (hooks === undefined || hooks.value.kind !== "object") return []
  return hooks.value.members.flatMap((member) => {
    if (member.value.kind !== "array") return []
    const own: Array<number> = []
    const commands: Array<string> = []
    const timeouts: Array<number | undefined> = []
    member.value.elements.forEach((element, index) => {
      const value = toValue(element)
      const command = ownGroupCommand(agent, value)
      if (command !== undefined) {
        own.push(index)
        commands.push(command)
        const timeout = ((value as { hooks: Array<Record<string, unknown>> }).hooks[0]!)["timeout"]
        timeouts.push(typeof timeout === "number" ? timeout : undefined)
      }
    })
    return own.length === 0 ? [] : [{ event: member.key, member, own, commands, timeouts }]
  })
}

/**
 * The edits that remove the entries at `remove` from a container (an array's elements, an object's
 * members), as the exact reverse of `insertInto`: an entry added after a previous one goes with the
 * separator before it; the first entry of a container install filled inline (`[{…}]`) goes alone.
 * `"container"` when every entry goes and install created the container itself (its first entry on
 * a new line): the caller removes the container from its parent.
 */
const removeFrom = (
  text: string,
  container: { readonly start: number },
  spans: ReadonlyArray<{ readonly start: number; readonly end: number }>,
  remove: ReadonlySet<number>
): ReadonlyArray<Edit> | "container" => {
  if (remove.size === 0) return []
  if (remove.size === spans.length) {
    const first = spans[0]!
    if (text.slice(container.start + 1, first.start) !== "") return "container"
    return [{ start: first.start, end: spans[spans.length - 1]!.end, text: "" }]
  }
  const edits: Array<Edit> = []
  let i = 0
  // Leading entries with no kept entry before them: up to the first kept one
  while (remove.has(i)) i++
  if (i > 0) edits.push({ start: spans[0]!.start, end: spans[i]!.start, text: "" })
  for (; i < spans.length; i++) {
    if (remove.has(i)) edits.push({ start: spans[i - 1]!.end, end: spans[i]!.end, text: "" })
  }
  return edits
}

const memberSpan = (member: Member) => ({ start: member.keyStart, end: member.value.end })

/**
 * The file without install's entries for this agent: `undefined` when nothing else is left of a file
 * install created. Everything that is not an own entry stays byte for byte.
 */
export const removeOwn = (agent: HostMode.Agent, text: string, file: string): string | undefined => {
  const root = read(text, file)
  if (root.kind !== "object") return text
  const hooksIndex = root.members.findIndex((member) => member.key === "hooks")
  const hooks = root.members[hooksIndex]
  const entries = ownEntries(agent, text, file)
  if (hooks === undefined || hooks.value.kind !== "object" || entries.length === 0) return text
  const edits: Array<Edit> = []
  const goneEvents = new Set<number>()
  for (const entry of entries) {
    const array = entry.member.value as Extract<Node, { kind: "array" }>
    const result = removeFrom(text, array, array.elements, new Set(entry.own))
    if (result === "container") goneEvents.add(hooks.value.members.findIndex((member) => member.key === entry.event))
    else edits.push(...result)
  }
  const fromHooks = removeFrom(text, hooks.value, hooks.value.members.map(memberSpan), goneEvents)
  if (fromHooks !== "container") return apply(text, [...edits, ...fromHooks])
  const fromRoot = removeFrom(text, root, root.members.map(memberSpan), new Set([hooksIndex]))
  if (fromRoot !== "container") return apply(text, fromRoot)
  // Only install's own `{ "hooks": … }` was there: the file did not exist before install
  if (text.slice(0, root.start).trim() === "" && text.slice(root.end).trim() === "") return undefined
  return apply(text, [{ start: root.members[0]!.keyStart, end: root.members[0]!.value.end, text: "" }])
}

/**
 * The edit that adds `items` (rendered at the container's member indent) to a container: after its
 * last entry with a comma and a new line, or, in an empty container, right after its opening bracket
 * with no new line (so that `removeFrom` knows to leave the container).
 */
const insertInto = (
  text: string,
  container: { readonly start: number; readonly end: number },
  last: { readonly start: number; readonly end: number } | undefined,
  items: ReadonlyArray<(indent: string) => string>
): Edit => {
  const unit = indentUnit(text)
  const indent = last !== undefined ? lineIndent(text, last.start) : lineIndent(text, container.start) + unit
  const rendered = items.map((item) => item(indent))
  if (last !== undefined) return { start: last.end, end: last.end, text: rendered.map((item) => `,\n${indent}${item}`).join("") }
  return { start: container.start + 1, end: container.start + 1, text: rendered.join(`,\n${indent}`) }
}

/** `"key": [\n  group\n]` for a new event, at `indent`. */
const eventMember = (event: string, group: string, unit: string) => (indent: string): string =>
  `${JSON.stringify(event)}: [\n${indent}${unit}${group}\n${indent}]`

/** A new file: `{ "hooks": { … } }`, two-space indent. */
const newFile = (events: ReadonlyArray<string>, group: string): string =>
  `{\n  "hooks": {\n${events.map((event) => `    ${JSON.stringify(event)}: [\n      ${group}\n    ]`).join(",\n")}\n  }\n}\n`

/** What install writes: the command and its timeout (in the agent's unit) on `events`. */
export interface InstallPlan {
  readonly agent: HostMode.Agent
  readonly events: ReadonlyArray<string>
  readonly command: string
  /** In the agent's own unit (`timeoutUnitMs`). */
  readonly timeout: number
}

/**
 * The file with install's entries: the old own entries out first (another path or timeout), then one
 * group per event, appended after the entries already there. The same text when it is already so.
 */
export const addOwn = (plan: InstallPlan, text: string | undefined, file: string): string => {
  const group = groupText(plan.command, plan.timeout)
  const base = text === undefined ? undefined : removeOwn(plan.agent, text, file)
  if (base === undefined) return newFile(plan.events, group)
  const root = read(base, file)
  if (root.kind !== "object") return base
  const unit = indentUnit(base)
  const hooks = root.members.find((member) => member.key === "hooks")
  if (hooks === undefined) {
    const hooksMember = (indent: string): string =>
      `"hooks": {\n${plan.events.map((event) => `${indent}${unit}${eventMember(event, group, unit)(indent + unit)}`).join(",\n")}\n${indent}}`
    return apply(base, [insertInto(base, root, root.members.at(-1) === undefined ? undefined : memberSpan(root.members.at(-1)!), [hooksMember])])
  }
  const object = hooks.value as Extract<Node, { kind: "object" }>
  const edits: Array<Edit> = []
  const missing: Array<string> = []
  for (const event of plan.events) {
    const member = object.members.find((m) => m.key === event)
    if (member === undefined) {
      missing.push(event)
      continue
    }
    if (member.value.kind !== "array") {
      throw new ConfigError(`${file}: "hooks"."${event}" must be an array of hook groups, found ${describe(member.value)}`)
    }
    edits.push(insertInto(base, member.value, member.value.elements.at(-1), [() => group]))
  }
  if (missing.length > 0) {
    const last = object.members.at(-1)
    edits.push(insertInto(base, object, last === undefined ? undefined : memberSpan(last), missing.map((event) => eventMember(event, group, unit))))
  }
  return apply(base, edits)
}
