/**
 * An agent's own hook config, as `agent-hooks install` writes it: which events call host mode, the
 * command and its timeout, and the text edits that add or remove agent-hooks' entries while every
 * other byte of the file stays as it was. Where each agent's files are, and which of the shapes
 * here each one takes, is `hostFiles.ts`.
 *
 * A config shared with the user's own entries is edited in place (`JsonForm`): Claude Code's nested
 * shape `hooks.<Event>: [{ hooks: [{ type, command, timeout }] }]` (Claude Code, Codex, Gemini CLI,
 * Qwen Code, Antigravity CLI) or a flat list `hooks.<event>: [{ command, timeout? }]` (Cursor,
 * Windsurf). Where an agent reads every file of a folder (Kiro, Copilot CLI, VS Code) or one
 * executable per event (Cline), install writes files of its own and never touches another one.
 */
import * as Agents from "@agent-hooks/core/Agents"
import type * as HostMode from "@agent-hooks/core/HostMode"
import { profileOf, wiringOf } from "./agentProfile.ts"
import type { Edit, Member, Node } from "./jsonc.ts"
import { apply, indentUnit, lineIndent, parse, toValue } from "./jsonc.ts"
import { CODE_VARIABLES } from "./userEnv.ts"

/** Where an install goes: the user's config, or the project's shared one. */
export type Scope = "user" | "project"

/**
 * Events where a hook does not only watch but takes over what the agent does: Claude Code's
 * WorktreeCreate and WorktreeRemove hooks replace its own git worktree handling (the hook must
 * print the worktree's path), so merely registering one would break worktrees.
 */
export const TAKES_OVER: ReadonlySet<string> = new Set(["WorktreeCreate", "WorktreeRemove"])

/**
 * Events install registers only when asked (`install --tab`), per agent: its profile's `optIn`
 * (Cursor's Tab events fire on every file Tab reads, not on the agent's tool calls).
 */
export const optInOf = (agent: HostMode.Agent): ReadonlyArray<string> => wiringOf(agent).optIn ?? []

/**
 * The agent's events that call host mode: every event of its host-mode module but those a hook
 * takes over, those its profile says install must not register (older aliases, manual triggers),
 * and the opt-in ones unless `optIn`.
 */
export const eventsOf = (agent: HostMode.Agent, optIn = false): ReadonlyArray<string> => {
  const wiring = wiringOf(agent)
  return Object.keys(agent.events).filter(
    (event) => !TAKES_OVER.has(event) && wiring.notRegistered?.includes(event) !== true && (optIn || wiring.optIn?.includes(event) !== true)
  )
}

/** The agent's own event name for a Claude Code event (`PreToolUse` → Gemini CLI's `BeforeTool`). */
export const hostEventFor = (agent: HostMode.Agent, claudeEvent: string): string | undefined =>
  Object.entries(agent.events).find(([, claude]) => claude === claudeEvent)?.[0]

/** How many of the agent's `timeout` units make a second, below 1000 seconds (its profile's `timeout.unit`). */
export const timeoutUnitMs = (agent: HostMode.Agent): number => Agents.timeoutIn(profileOf(agent), 1)

/**
 * `seconds` as the agent reads a hook's `timeout`, in the unit of its profile (Gemini CLI:
 * milliseconds; Qwen Code: 1000 or more as milliseconds). `secondsOf` reads it back: install,
 * migrate and doctor take the agent's unit from here.
 */
export const timeoutIn = (agent: HostMode.Agent, seconds: number): number => Agents.timeoutIn(profileOf(agent), seconds)

/** A hook's `timeout` in the agent's config, in seconds, as the agent reads it (`timeoutIn` backwards). */
export const secondsOf = (agent: HostMode.Agent, value: number): number => Agents.secondsOf(profileOf(agent), value)

/**
 * Agents whose hook config has no timeout (their profile's `timeout.fixed`: Cline kills a hook
 * after its fixed 30 s, Windsurf documents none). Install then passes host mode a `--timeout` no
 * longer than the agent's own.
 */
export const fixedTimeout = (agent: HostMode.Agent): boolean => wiringOf(agent).timeout.fixed === true

/** `'word'` for `sh`: safe for any path. */
export const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`

/**
 * The host-mode command install writes, as `sh -c` runs it: the runtime that runs this CLI and the
 * CLI's own entry file, both absolute and quoted, then `hook --host <name> [--event <event>]
 * --timeout <seconds>` (`--event` where the payload may not name its event: `commandEvent`).
 * `migrate --to` adds `--payload <agent>` (hooks written for another agent's payload) and
 * `--settings <file>` (a policy file host mode does not find by itself).
 */
export const hookCommand = (
  runner: ReadonlyArray<string>,
  agent: HostMode.Agent,
  timeoutSeconds: number,
  event?: string,
  more: {
    readonly payload?: string | undefined
    readonly settings?: string | undefined
    readonly home?: string | undefined
    readonly managedDir?: string | undefined
  } = {}
): string =>
  [
    `${[...clearingWords(), ...runner].map(shellQuote).join(" ")} hook --host ${agent.name}`,
    ...(event === undefined ? [] : [`--event ${event}`]),
    ...(more.payload === undefined ? [] : [`--payload ${more.payload}`]),
    `--timeout ${timeoutSeconds}`,
    ...(more.home === undefined ? [] : [`--home ${shellQuote(more.home)}`]),
    ...(more.managedDir === undefined ? [] : [`--managed-dir ${shellQuote(more.managedDir)}`]),
    ...(more.settings === undefined ? [] : [`--settings ${shellQuote(more.settings)}`])
  ].join(" ")

/**
 * The words a command install writes starts with (none on Windows): the system's `env`, by its
 * absolute path, clearing the variables that would run code as Node starts (`userEnv.ts`,
 * `CODE_VARIABLES`: `NODE_OPTIONS`, `LD_PRELOAD`, ...), which a project can set for the agent's hooks.
 */
export const clearingWords = (platform: string = process.platform): ReadonlyArray<string> =>
  platform === "win32" ? [] : ["/usr/bin/env", ...CODE_VARIABLES.flatMap((name) => ["-u", name])]

/**
 * The event install writes into the command of `agent`'s entry on `event` (`undefined`: none): where
 * its profile says the payload may not name its event (`eventInCommand`: Copilot CLI's names none,
 * and it runs VS Code's entries too), each entry's command tells host mode its event.
 */
export const commandEvent = (agent: HostMode.Agent, event: string): string | undefined =>
  wiringOf(agent).eventInCommand === true ? event : undefined

/**
 * A command install wrote, at any path and timeout: quoted words only (the clearing
 * `'/usr/bin/env' '-u' 'NAME'...`, then the runtime and entry), then `hook --host <name>
 * [--event <event>] --timeout <n> [--home '<dir>'] [--managed-dir '<dir>']`. A hand-written `npx agent-hooks hook --host …` is not one:
 * install and uninstall leave it alone.
 */
const OWN_COMMAND =
  /^((?:'(?:[^']|'\\'')*' )+)hook --host ([a-z][a-z0-9.-]*)(?: --event ([A-Za-z_]+))? --timeout (\d+)(?: --home ('(?:[^']|'\\'')*'))?(?: --managed-dir ('(?:[^']|'\\'')*'))?$/

/** The words of `'a' 'b' ` unquoted. */
const unquoted = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll(`'\\''`, "'"))

/** `words` without a leading `/usr/bin/env -u NAME...` (the clearing words install writes, `clearingWords`). */
const withoutClearing = (words: ReadonlyArray<string>): { readonly words: ReadonlyArray<string>; readonly cleared: boolean } => {
  if (words[0] !== "/usr/bin/env") return { words, cleared: false }
  let at = 1
  while (words[at] === "-u" && words[at + 1] !== undefined) at += 2
  return at === 1 ? { words, cleared: false } : { words: words.slice(at), cleared: true }
}

/** The words of an own command (unquoted), its host, event and timeout; `undefined` when the command is not one install writes. */
export const readOwnCommand = (
  command: string
):
  | {
      /** The words that start agent-hooks (without the clearing `env -u ...` install writes before them). */
      readonly words: ReadonlyArray<string>
      readonly host: string
      readonly event: string | undefined
      readonly timeout: number
      /** The command clears the variables that run code as Node starts (`/usr/bin/env -u ...`). */
      readonly cleared: boolean
      readonly home: string | undefined
      readonly managedDir: string | undefined
    }
  | undefined => {
  const match = OWN_COMMAND.exec(command)
  if (match === null) return undefined
  const { words, cleared } = withoutClearing(unquoted(match[1]!))
  return {
    words,
    host: match[2]!,
    event: match[3],
    timeout: Number(match[4]),
    cleared,
    home: match[5] === undefined ? undefined : unquoted(match[5])[0],
    managedDir: match[6] === undefined ? undefined : unquoted(match[6])[0]
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** One entry install wrote: its command and timeout (in the agent's unit; `undefined`: none written). */
export interface OwnEntry {
  readonly command: string
  readonly timeout: number | undefined
}

/**
 * The entry, when it is exactly one install writes for this agent (any path, any timeout): the
 * command and timeout keys, `extra` with those values, and `optional` only with its value.
 */
const ownHook = (
  agent: HostMode.Agent,
  hook: unknown,
  commandKey: string,
  timeoutKey: string | undefined,
  extra: Readonly<Record<string, unknown>>,
  optional: Readonly<Record<string, unknown>> = {}
): OwnEntry | undefined => {
  if (!isRecord(hook)) return undefined
  const allowed = new Set([commandKey, ...(timeoutKey === undefined ? [] : [timeoutKey]), ...Object.keys(extra), ...Object.keys(optional)])
  if (Object.keys(hook).some((key) => !allowed.has(key)) || Object.entries(extra).some(([key, value]) => hook[key] !== value))
    return undefined
  if (Object.entries(optional).some(([key, value]) => key in hook && hook[key] !== value)) return undefined
  const command = hook[commandKey]
  if (typeof command !== "string" || readOwnCommand(command)?.host !== agent.name) return undefined
  const timeout = timeoutKey === undefined ? undefined : hook[timeoutKey]
  return { command, timeout: typeof timeout === "number" ? timeout : undefined }
}

/**
 * One entry of an agent's config: the agent's event, the command, its timeout in the agent's unit
 * (`undefined`: none written, the agent's default), and whether it is host mode's (install's, and
 * `migrate --to`'s) or a source hook's own command that `migrate --to --lossy` writes, with its
 * matcher where the agent's format has one.
 */
export interface ConfigEntry {
  readonly event: string
  readonly command: string
  readonly timeout: number | undefined
  readonly matcher?: string | undefined
  /** Host mode's entry: the agent's fail-closed switch is written on it where the event guards. */
  readonly hostMode: boolean
}

/** Install's entries: one per event, host mode's command and timeout. */
export const entriesOf = (plan: InstallPlan): ReadonlyArray<ConfigEntry> =>
  plan.events.map((event) => ({ event, command: plan.command(event), timeout: plan.timeout, hostMode: true }))

/** The entries per event, in the order the events first come. */
export const byEvent = (entries: ReadonlyArray<ConfigEntry>): ReadonlyArray<readonly [string, ReadonlyArray<ConfigEntry>]> => {
  const events = new Map<string, Array<ConfigEntry>>()
  for (const entry of entries) {
    const list = events.get(entry.event)
    if (list === undefined) events.set(entry.event, [entry])
    else list.push(entry)
  }
  return [...events]
}

/**
 * How one event's entry looks in a JSON config shared with the user's own entries: `key` holds an
 * object of event names, each an array of entries; `entry` renders one entry, `own` tells install's
 * back (and nothing a user wrote); `head` is a member a new file starts with (`"version": 1`).
 */
export interface JsonForm {
  readonly key: string
  readonly head?: string | undefined
  readonly entry: (entry: ConfigEntry) => string
  readonly own: (agent: HostMode.Agent, value: unknown) => OwnEntry | undefined
  /** The agent's switch that makes host mode's entry block when agent-hooks cannot start, where it has one. */
  readonly failClosed?: FailClosed | undefined
  /** Whether an entry has a matcher the agent reads (`entry` writes an entry's `matcher` only then). */
  readonly matchers: boolean
}

/**
 * The agent's own switch that makes a hook that cannot start, times out or answers garbage block
 * instead of letting the call through, and the events it is written on (where a hook's block
 * stops something): Claude Code's `onFailure: "block"` (2.1.295; older versions ignore it) and
 * Cursor's `failClosed: true` (its before* and preToolUse hooks).
 */
export interface FailClosed {
  readonly key: string
  readonly value: unknown
  readonly events: ReadonlySet<string>
}

const failClosedText = (failClosed: FailClosed | undefined, entry: ConfigEntry): string =>
  entry.hostMode && failClosed?.events.has(entry.event) === true
    ? `, ${JSON.stringify(failClosed.key)}: ${JSON.stringify(failClosed.value)}`
    : ""

const member = (key: string, value: unknown): string => (value === undefined ? "" : `${JSON.stringify(key)}: ${JSON.stringify(value)}`)

const optionalKey = (failClosed: FailClosed | undefined): Record<string, unknown> =>
  failClosed === undefined ? {} : { [failClosed.key]: failClosed.value }

/** Claude Code's nested shape: `{ "hooks": [{ "type": "command", "command", "timeout" }] }`; host mode's has no matcher (every tool). */
export const nestedForm = (key: string, failClosed?: FailClosed): JsonForm => ({
  key,
  failClosed,
  matchers: true,
  entry: (entry) =>
    `{ ${entry.matcher === undefined ? "" : `${member("matcher", entry.matcher)}, `}"hooks": [{ "type": "command", ${member("command", entry.command)}${
      entry.timeout === undefined ? "" : `, ${member("timeout", entry.timeout)}`
    }${failClosedText(failClosed, entry)} }] }`,
  own: (agent, group) => {
    if (!isRecord(group) || Object.keys(group).length !== 1 || !Array.isArray(group["hooks"]) || group["hooks"].length !== 1)
      return undefined
    return ownHook(agent, group["hooks"][0], "command", "timeout", { type: "command" }, optionalKey(failClosed))
  }
})

/** A flat list of `{ "command", "matcher"?, "timeout"? }` entries (Cursor: matchers, `timeout` in seconds; Windsurf: neither). */
export const flatForm = (options: {
  readonly head?: string
  readonly timeout: boolean
  readonly matcher: boolean
  readonly failClosed?: FailClosed
}): JsonForm => ({
  key: "hooks",
  head: options.head,
  failClosed: options.failClosed,
  matchers: options.matcher,
  entry: (entry) =>
    `{ ${member("command", entry.command)}${options.matcher && entry.matcher !== undefined ? `, ${member("matcher", entry.matcher)}` : ""}${
      options.timeout && entry.timeout !== undefined ? `, ${member("timeout", entry.timeout)}` : ""
    }${failClosedText(options.failClosed, entry)} }`,
  own: (agent, value) => ownHook(agent, value, "command", options.timeout ? "timeout" : undefined, {}, optionalKey(options.failClosed))
})

/** A config the edit cannot take: where in the file, what was expected. */
export class ConfigError extends Error {}

const describe = (node: Node): string =>
  node.kind === "scalar" ? (node.value === null ? "null" : typeof node.value) : node.kind === "array" ? "an array" : "an object"

const readJsonc = (text: string, file: string): Node => {
  try {
    return parse(text)
  } catch (error) {
    throw new ConfigError(`${file}: not JSON (${(error as Error).message}); fix the file, then run the command again`)
  }
}

const read = (form: JsonForm, text: string, file: string): Node => {
  const root = readJsonc(text, file)
  if (root.kind !== "object") throw new ConfigError(`${file}: expected an object at the top, found ${describe(root)}`)
  const hooks = root.members.find((member) => member.key === form.key)
  if (hooks !== undefined && hooks.value.kind !== "object") {
    throw new ConfigError(`${file}: "${form.key}" must be an object of event names, found ${describe(hooks.value)}`)
  }
  return root
}

/** Where the own entries of the file are, per event: each event array and the indexes of own entries in it. */
export const ownEntries = (
  form: JsonForm,
  agent: HostMode.Agent,
  text: string,
  file: string
): ReadonlyArray<{
  readonly event: string
  readonly member: Member
  readonly own: ReadonlyArray<number>
  readonly entries: ReadonlyArray<OwnEntry>
}> => {
  const root = read(form, text, file)
  const hooks = root.kind === "object" ? root.members.find((member) => member.key === form.key) : undefined
  if (hooks === undefined || hooks.value.kind !== "object") return []
  return hooks.value.members.flatMap((member) => {
    if (member.value.kind !== "array") return []
    const own: Array<number> = []
    const entries: Array<OwnEntry> = []
    member.value.elements.forEach((element, index) => {
      const entry = form.own(agent, toValue(element))
      if (entry !== undefined) {
        own.push(index)
        entries.push(entry)
      }
    })
    return own.length === 0 ? [] : [{ event: member.key, member, own, entries }]
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

/** What is left of a new file (`newFile`) when install's entries go: its `head` alone. */
const headOnly = (form: JsonForm): string | undefined => (form.head === undefined ? undefined : `{\n  ${form.head}\n}\n`)

/**
 * The file without install's entries for this agent: `undefined` when nothing else is left of a file
 * install created. Everything that is not an own entry stays byte for byte.
 */
export const removeOwn = (form: JsonForm, agent: HostMode.Agent, text: string, file: string): string | undefined => {
  const root = read(form, text, file)
  if (root.kind !== "object") return text
  const hooksIndex = root.members.findIndex((member) => member.key === form.key)
  const hooks = root.members[hooksIndex]
  const entries = ownEntries(form, agent, text, file)
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
  if (fromRoot !== "container") {
    const left = apply(text, fromRoot)
    // A new file puts the hooks before its head (a user's file with a head gets them after it): only
    // install's own file is left as exactly its head with the hooks gone from its start
    return hooksIndex === 0 && left === headOnly(form) ? undefined : left
  }
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

/** `"key": [\n  entry,\n  entry\n]` for a new event, at `indent`. */
const eventMember =
  (event: string, entries: ReadonlyArray<string>, unit: string) =>
  (indent: string): string =>
    `${JSON.stringify(event)}: [\n${entries.map((entry) => `${indent}${unit}${entry}`).join(",\n")}\n${indent}]`

/** A new file: `{ "<key>": { … } }` (then the form's head), two-space indent. */
const newFile = (form: JsonForm, events: ReadonlyArray<readonly [string, ReadonlyArray<string>]>): string =>
  `{\n  ${JSON.stringify(form.key)}: {\n${events.map(([event, entries]) => `    ${eventMember(event, entries, "  ")("    ")}`).join(",\n")}\n  }${
    form.head === undefined ? "" : `,\n  ${form.head}`
  }\n}\n`

/** What install writes: the command of each event and its timeout (in the agent's unit) on `events`. */
export interface InstallPlan {
  readonly agent: HostMode.Agent
  readonly events: ReadonlyArray<string>
  readonly command: (event: string) => string
  /** In the agent's own unit (`timeoutUnitMs`). */
  readonly timeout: number
}

/**
 * The file with install's entries: the old own entries out first (another path or timeout), then one
 * entry per event, appended after the entries already there. The same text when it is already so.
 */
export const addOwn = (form: JsonForm, plan: InstallPlan, text: string | undefined, file: string): string =>
  addEntries(form, plan.agent, entriesOf(plan), text, file)

/**
 * The file with `entries` (`migrate --to`'s may be several on one event): install's old entries out
 * first, then the entries, appended after those already there, event by event.
 */
export const addEntries = (
  form: JsonForm,
  agent: HostMode.Agent,
  entries: ReadonlyArray<ConfigEntry>,
  text: string | undefined,
  file: string
): string => {
  const events = byEvent(entries).map(([event, list]) => [event, list.map(form.entry)] as const)
  const base = text === undefined ? undefined : removeOwn(form, agent, text, file)
  if (base === undefined) return newFile(form, events)
  const root = read(form, base, file)
  if (root.kind !== "object") return base
  const unit = indentUnit(base)
  const hooks = root.members.find((member) => member.key === form.key)
  if (hooks === undefined) {
    const hooksMember = (indent: string): string =>
      `${JSON.stringify(form.key)}: {\n${events.map(([event, list]) => `${indent}${unit}${eventMember(event, list, unit)(indent + unit)}`).join(",\n")}\n${indent}}`
    return apply(base, [
      insertInto(base, root, root.members.at(-1) === undefined ? undefined : memberSpan(root.members.at(-1)!), [hooksMember])
    ])
  }
  const object = hooks.value as Extract<Node, { kind: "object" }>
  const edits: Array<Edit> = []
  const missing: Array<readonly [string, ReadonlyArray<string>]> = []
  for (const [event, list] of events) {
    const member = object.members.find((m) => m.key === event)
    if (member === undefined) {
      missing.push([event, list])
      continue
    }
    if (member.value.kind !== "array") {
      throw new ConfigError(`${file}: "${form.key}"."${event}" must be an array of hooks, found ${describe(member.value)}`)
    }
    edits.push(
      insertInto(
        base,
        member.value,
        member.value.elements.at(-1),
        list.map((entry) => () => entry)
      )
    )
  }
  if (missing.length > 0) {
    const last = object.members.at(-1)
    edits.push(
      insertInto(
        base,
        object,
        last === undefined ? undefined : memberSpan(last),
        missing.map(([event, list]) => eventMember(event, list, unit))
      )
    )
  }
  return apply(base, edits)
}

/**
 * A file install owns whole (Kiro's `.kiro/hooks/agent-hooks.json`, Copilot CLI's and VS Code's
 * `agent-hooks-*.json`, a Cline hook script): `render` writes it from the entries, `entries` reads
 * them back (or `undefined`: not a file install wrote). A file is install's only when rendering what
 * it holds gives its very bytes back: a file a user wrote or changed is never overwritten or removed.
 */
export interface OwnFile {
  readonly render: (entries: ReadonlyArray<ConfigEntry>) => string
  /** Whether an entry has a matcher the agent reads (`render` writes an entry's `matcher` only then). */
  readonly matchers: boolean
  readonly entries: (agent: HostMode.Agent, text: string) => ReadonlyArray<{ readonly event: string } & OwnEntry> | undefined
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

const plainJson = (text: string): unknown => {
  try {
    return toValue(parse(text))
  } catch {
    return undefined
  }
}

/** Install's own entries of a file it owns, when every entry is one and the file is exactly as it writes it. */
const exactly = (
  file: OwnFile,
  _agent: HostMode.Agent,
  text: string,
  found: ReadonlyArray<{ readonly event: string } & OwnEntry> | undefined
) => {
  if (found === undefined || found.length === 0 || found.some((entry) => entry.timeout === undefined)) return undefined
  return file.render(found.map((entry) => ({ event: entry.event, command: entry.command, timeout: entry.timeout, hostMode: true }))) ===
    text
    ? found
    : undefined
}

/**
 * A file of triggers (Kiro's v1): `{ version: "v1", hooks: [{ name, trigger, matcher?, action: { type: "command", command }, timeout }] }`;
 * a source hook's own command (`migrate --to --lossy`) is named `migrated <event> <n>`.
 */
export const triggersFile: OwnFile = {
  matchers: true,
  render: (entries) =>
    json({
      version: "v1",
      hooks: entries.map((entry, index) => ({
        name: entry.hostMode ? `agent-hooks ${entry.event}` : `migrated ${entry.event} ${index}`,
        trigger: entry.event,
        ...(entry.matcher === undefined ? {} : { matcher: entry.matcher }),
        action: { type: "command", command: entry.command },
        ...(entry.timeout === undefined ? {} : { timeout: entry.timeout })
      }))
    }),
  entries: (agent, text) => {
    const value = plainJson(text)
    if (!isRecord(value) || !Array.isArray(value["hooks"])) return undefined
    const found = value["hooks"].map((hook: unknown) => {
      if (!isRecord(hook) || typeof hook["trigger"] !== "string" || !isRecord(hook["action"])) return undefined
      const own = ownHook(agent, hook["action"], "command", undefined, { type: "command" })
      return own === undefined
        ? undefined
        : { event: hook["trigger"], command: own.command, timeout: typeof hook["timeout"] === "number" ? hook["timeout"] : undefined }
    })
    return found.some((entry) => entry === undefined)
      ? undefined
      : exactly(triggersFile, agent, text, found as ReadonlyArray<{ readonly event: string } & OwnEntry>)
  }
}

/**
 * `{ [version,] hooks: { <event>: [entry, …] } }`: `{ type: "command", <commandKey>, matcher? (where the agent reads one),
 * <timeoutKey>? }`; install's file has one entry per event, read back by `entries`.
 */
export const eventsFile = (head: Readonly<Record<string, unknown>>, commandKey: string, timeoutKey: string, matcher: boolean): OwnFile => {
  const entry = (e: ConfigEntry): Record<string, unknown> => ({
    type: "command",
    [commandKey]: e.command,
    ...(matcher && e.matcher !== undefined ? { matcher: e.matcher } : {}),
    ...(e.timeout === undefined ? {} : { [timeoutKey]: e.timeout })
  })
  const file: OwnFile = {
    matchers: matcher,
    render: (entries) => json({ ...head, hooks: Object.fromEntries(byEvent(entries).map(([event, list]) => [event, list.map(entry)])) }),
    entries: (agent, text) => {
      const value = plainJson(text)
      if (!isRecord(value) || !isRecord(value["hooks"])) return undefined
      const found: Array<{ readonly event: string } & OwnEntry> = []
      for (const [event, list] of Object.entries(value["hooks"])) {
        if (!Array.isArray(list) || list.length !== 1) return undefined
        const own = ownHook(agent, list[0], commandKey, timeoutKey, { type: "command" })
        if (own === undefined) return undefined
        found.push({ event, ...own })
      }
      return exactly(file, agent, text, found)
    }
  }
  return file
}

/** The first line after the shebang of a Cline hook script install writes. */
const SCRIPT_MARK = "# Written by agent-hooks install --host cline; agent-hooks uninstall --host cline removes it."

/**
 * A Cline hook: an executable named after its event (its first entry: Cline runs one per event),
 * running host mode in place of the shell (Cline's timeout is its own 30 s); a source hook's own
 * command (`migrate --to --lossy`) runs as its shell line, unmarked.
 */
export const clineScript: OwnFile = {
  matchers: false,
  render: (entries) =>
    entries[0]!.hostMode ? `#!/bin/sh\n${SCRIPT_MARK}\nexec ${entries[0]!.command}\n` : `#!/bin/sh\n${entries[0]!.command}\n`,
  entries: (agent, text) => {
    const match = /^#!\/bin\/sh\n(.*)\nexec (.*)\n$/.exec(text)
    if (match === null || match[1] !== SCRIPT_MARK || readOwnCommand(match[2]!)?.host !== agent.name) return undefined
    return [{ event: "", command: match[2]!, timeout: agent.hookTimeout }]
  }
}

/** The lines around install's block in Codex's `config.toml`. */
const TOML_BEGIN = "# >>> agent-hooks install --host codex: agent-hooks uninstall --host codex removes this block"
const TOML_END = "# <<< agent-hooks"

/** The TOML form of `hooks.json`: `[[hooks.<Event>]]` then `[[hooks.<Event>.hooks]]` with the command and its timeout. */
export const tomlBlock = (plan: InstallPlan): string =>
  [
    TOML_BEGIN,
    ...plan.events.flatMap((event) => [
      `[[hooks.${event}]]`,
      `[[hooks.${event}.hooks]]`,
      `type = "command"`,
      `command = ${JSON.stringify(plan.command(event))}`,
      `timeout = ${plan.timeout}`
    ]),
    TOML_END
  ].join("\n") + "\n"

/**
 * Where install's block is in a `config.toml`: from the new line install put before its first line
 * (after the file's own last new line, so a blank line; or the file's missing last new line) to the
 * end of its last line.
 */
const tomlBlockSpan = (text: string): { readonly start: number; readonly end: number } | undefined => {
  const start = text.indexOf(`\n${TOML_BEGIN}\n`)
  if (start < 0) return undefined
  const endAt = text.indexOf(`\n${TOML_END}`, start + 1)
  if (endAt < 0) return undefined
  const end = endAt + 1 + TOML_END.length
  return { start, end: text[end] === "\n" ? end + 1 : end }
}

/** `config.toml` without install's block (the bytes before install). */
export const removeTomlBlock = (text: string): string => {
  const span = tomlBlockSpan(text)
  return span === undefined ? text : text.slice(0, span.start) + text.slice(span.end)
}

/** `config.toml` with install's block at its end: after a blank line, or after a new line when the file did not end in one. */
export const addTomlBlock = (plan: InstallPlan, text: string): string => {
  const base = removeTomlBlock(text)
  return `${base}\n${tomlBlock(plan)}`
}

/** The commands of install's block in `config.toml`, per event. */
export const tomlOwnEntries = (agent: HostMode.Agent, text: string): ReadonlyArray<{ readonly event: string } & OwnEntry> => {
  const span = tomlBlockSpan(text)
  if (span === undefined) return []
  const found: Array<{ event: string } & OwnEntry> = []
  let event = ""
  let command: string | undefined
  for (const line of text.slice(span.start, span.end).split("\n")) {
    const header = /^\[\[hooks\.([A-Za-z]+)\.hooks\]\]$/.exec(line)
    if (header !== null) event = header[1]!
    const commandLine = /^command = (".*")$/.exec(line)
    if (commandLine !== null) command = JSON.parse(commandLine[1]!) as string
    const timeoutLine = /^timeout = (\d+)$/.exec(line)
    if (timeoutLine !== null && command !== undefined && readOwnCommand(command)?.host === agent.name) {
      found.push({ event, command, timeout: Number(timeoutLine[1]) })
      command = undefined
    }
  }
  return found
}
