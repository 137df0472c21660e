/**
 * Agents that run another agent's hook files: VS Code reads Claude Code's settings files and Copilot
 * CLI's hook folders (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`), and Copilot CLI reads VS
 * Code's files in those folders. The command `agent-hooks install` wrote for one agent is then also
 * started by the other, with the other's payload. Host mode tells such a payload by its keys (the
 * agent sets them; a model only steers their values), never misreads it as its own agent's (that
 * would block every call of the other agent, or let it through as a tool it does not know), and
 * does with it what `--foreign` (or `AGENT_HOOKS_FOREIGN`) says:
 * - `judge`: judged as the other agent's call (its payload read, its answer written, as host mode
 *   for that agent would), with the same policy;
 * - `leave`: not judged (exit 0), said on stderr: the other agent's own entry judges it;
 * - `block`: blocked in the other agent's own blocking form;
 * - `auto` (the default): left where the other agent's own agent-hooks entry is wired on that event
 *   (judged once, not twice), judged here otherwise, and when that cannot be told.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Presets from "@agent-hooks/core/Presets"
import * as Option from "effect/Option"
import type { HookOptions } from "./hook.ts"
import { projectRoot } from "./projectRoot.ts"

/** A reader of this agent's files, and how its payload differs from the agent's own. */
export interface Reader {
  readonly agent: HostMode.HostName
  readonly displayName: string
  readonly is: (payload: Readonly<Record<string, unknown>>) => boolean
  /** Where the reader finds this agent's files. */
  readonly reads: string
  /**
   * Whether the reader's own reference says it reads the timeout this agent's entry carries (its
   * hook then runs for that time): where it does not, its default holds (`foreignOptions`).
   */
  readonly readsTimeout: boolean
}

const has = (payload: Readonly<Record<string, unknown>>, key: string): boolean => Object.hasOwn(payload, key)

/** VS Code names the event `hookEventName` (camelCase), with snake_case tool fields. */
const vscodePayload = (payload: Readonly<Record<string, unknown>>): boolean =>
  typeof payload["hookEventName"] === "string" && !has(payload, "hook_event_name")

/** The agents whose payload can reach each host's command, per host. */
export const READERS: Readonly<Partial<Record<HostMode.HostName, ReadonlyArray<Reader>>>> = {
  // Claude Code always names its event in hook_event_name
  claude: [
    {
      agent: "vscode",
      displayName: "VS Code",
      is: vscodePayload,
      reads: "Claude Code's settings files (.claude/settings.json, ~/.claude/settings.json)",
      // a Claude Code hook's `timeout` is VS Code's own property, in seconds
      readsTimeout: true
    }
  ],
  // Copilot CLI names no event, and gives its tool as toolName / toolArgs
  copilot: [
    {
      agent: "vscode",
      displayName: "VS Code",
      is: (payload) => vscodePayload(payload) && !has(payload, "toolName") && !has(payload, "toolArgs"),
      reads: "Copilot CLI's hook folders (.github/hooks/*.json, ~/.copilot/hooks/*.json)",
      // VS Code's reference names `timeout`, not Copilot CLI's `timeoutSec`: its 30 s default is assumed
      readsTimeout: false
    }
  ],
  // VS Code always names its event; Copilot CLI never does, and its timestamp is a number
  vscode: [
    {
      agent: "copilot",
      displayName: "Copilot CLI",
      is: (payload) =>
        !has(payload, "hookEventName") &&
        !has(payload, "hook_event_name") &&
        (has(payload, "toolName") || typeof payload["timestamp"] === "number"),
      reads: "VS Code's hook files in the folders they share (.github/hooks/*.json, ~/.copilot/hooks/*.json)",
      // Copilot CLI reads `timeout` as its alias of `timeoutSec`, in seconds
      readsTimeout: true
    }
  ]
}

/** The agent that really sent `payload` to host mode for `host`, when it is another one that reads `host`'s files. */
export const foreignReader = (host: HostMode.HostName, payload: Readonly<Record<string, unknown>>): Reader | undefined =>
  READERS[host]?.find((reader) => reader.is(payload))

/** What host mode does with another agent's call (`hook --foreign`, `AGENT_HOOKS_FOREIGN`). */
export type ForeignMode = "auto" | "judge" | "leave" | "block"

/** The values of `--foreign`. */
export const FOREIGN_MODES: ReadonlyArray<ForeignMode> = ["auto", "judge", "leave", "block"]

/** The variable that sets `--foreign` for every hook command (the flag wins). */
export const FOREIGN_ENV = "AGENT_HOOKS_FOREIGN"

const isMode = (value: string): value is ForeignMode => (FOREIGN_MODES as ReadonlyArray<string>).includes(value)

/**
 * The mode for this call: the flag, else `AGENT_HOOKS_FOREIGN`, else `auto`. A variable set to
 * anything else is an error (the call then fails as host mode's own failures do), never a silent
 * default.
 */
export const foreignMode = (
  flag: ForeignMode | undefined,
  env: Readonly<Record<string, string | undefined>>
): ForeignMode | { readonly error: string } => {
  if (flag !== undefined) return flag
  const value = env[FOREIGN_ENV]
  if (value === undefined || value === "") return "auto"
  const mode = value.trim().toLowerCase()
  return isMode(mode) ? mode : { error: `${FOREIGN_ENV} is "${value}": expected one of ${FOREIGN_MODES.join(", ")}; fix or unset it` }
}

/** Copilot CLI's name for an event of a VS Code file (Copilot CLI reads PascalCase names as its own). */
const COPILOT_OF_VSCODE: Readonly<Record<string, string>> = { Stop: "agentStop", UserPromptSubmit: "userPromptSubmitted" }

/**
 * Copilot CLI's event of a call that reached VS Code's entry: the event the command line names (the
 * file's key, mapped to Copilot CLI's name), else the one its payload's keys tell (Copilot CLI sets
 * them: `toolResult` after the tool, `toolName` before it, `prompt` on a prompt), else `undefined`.
 */
const copilotEvent = (given: string | undefined, payload: Readonly<Record<string, unknown>>): string | undefined => {
  const copilot = HostMode.byName("copilot")!
  if (given !== undefined) {
    const name = COPILOT_OF_VSCODE[given] ?? Object.keys(copilot.events).find((event) => event.toLowerCase() === given.toLowerCase())
    if (name !== undefined) return name
  }
  if (has(payload, "toolName")) return has(payload, "toolResult") ? "postToolUse" : "preToolUse"
  if (has(payload, "prompt")) return "userPromptSubmitted"
  return undefined
}

/**
 * The options another agent's call is judged under: that agent as the host (its payload read, its
 * answer written), the same policy and flags; the event it names (Copilot CLI's, which names none,
 * as `copilotEvent` tells it); and that agent's hook timeout for the entry it ran, so that it
 * answers before that agent kills it: `entryTimeout` where the entry's own timeout is told and that
 * agent reads it (`Reader.readsTimeout`, `foreignEntry.ts`), else that agent's default (or this
 * command's `--timeout` when lower).
 */
export const foreignOptions = (
  options: HookOptions,
  reader: Reader,
  payload: Readonly<Record<string, unknown>>,
  entryTimeout?: number | undefined
): HookOptions => {
  const other = HostMode.byName(reader.agent)!
  const event = reader.agent === "copilot" ? copilotEvent(options.event, payload) : undefined
  const { event: _event, ...rest } = options
  return {
    ...rest,
    host: reader.agent,
    timeout: entryTimeout ?? Math.min(options.timeout ?? other.hookTimeout, other.hookTimeout),
    ...(event === undefined ? {} : { event })
  }
}

/** Where another agent's call looks for the agents' configs: `--project-dir`, else the project that agent names, else the project found upward from the working folder (`projectRoot`). */
export const foreignProjectDir = (
  options: HookOptions,
  reader: Reader,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string
): string =>
  Option.isSome(options.projectDir)
    ? options.projectDir.value
    : (HostMode.projectDir(HostMode.byName(reader.agent)!, env) ?? projectRoot(cwd, Presets.byName(options.preset), env))

/** The other agent's own event for its call, as its host mode reads it (`undefined`: it names none). */
export const foreignEvent = (options: HookOptions, payload: Readonly<Record<string, unknown>>): string | undefined => {
  const agent = HostMode.byName(options.host)!
  return options.event ?? HostMode.hostEvent(agent, payload)
}

/** `--foreign leave` (and `auto` where the other agent's entry is wired): nothing decided (exit 0), and why on stderr. */
export const foreignReply = (agent: HostMode.Agent, reader: Reader, why: string): HostMode.HostReply => ({
  exitCode: 0,
  stdout: "",
  stderr: `agent-hooks: this call comes from ${reader.displayName}, which runs ${reader.reads} too, but this command is ${agent.displayName}'s (hook --host ${agent.name}): not judged here (${why}). ${reader.displayName}'s calls are judged by its own entry: agent-hooks install --host ${reader.agent} (agent-hooks doctor --host ${reader.agent} tells whether it is there)\n`
})

/** `--foreign block`: the call blocked in the other agent's own blocking form (a visible hook error where it has none). */
export const foreignBlock = (agent: HostMode.Agent, reader: Reader, hostEvent: string | undefined): HostMode.HostReply =>
  HostMode.failure(
    HostMode.byName(reader.agent)!,
    hostEvent,
    `this call comes from ${reader.displayName}, which runs ${reader.reads} too; this command is ${agent.displayName}'s (hook --host ${agent.name}) and blocks every ${reader.displayName} call (--foreign block). To judge ${reader.displayName}'s calls with the policy here, set --foreign judge or auto (${FOREIGN_ENV}); to judge them in ${reader.displayName}'s own entry, run agent-hooks install --host ${reader.agent} and set --foreign auto`
  )

/**
 * The stderr line of a call judged here as the other agent's, with the time it was answered within
 * (`timeout`, seconds: its entry's own when `known`, else its default).
 */
export const judgedLine = (agent: HostMode.Agent, reader: Reader, why: string, timeout: number, known: boolean): string =>
  `agent-hooks: judged as ${reader.displayName}'s call under ${agent.displayName}'s entry (hook --host ${agent.name}; ${reader.displayName} runs ${reader.reads}): ${why}; answered within ${timeout} s (${known ? `this entry's own timeout, which ${reader.displayName} reads` : `${reader.displayName}'s default hook timeout, or --timeout when lower: no timeout of this entry's that ${reader.displayName} reads could be told`})\n`
