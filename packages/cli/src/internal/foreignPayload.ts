/**
 * Agents that run another agent's hook files: VS Code reads Claude Code's settings files and Copilot
 * CLI's hook folders (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`), and Copilot CLI reads VS
 * Code's files in those folders. The command `agent-hooks install` wrote for one agent is then also
 * started by the other, with the other's payload. Host mode tells such a payload by its keys (the
 * agent sets them; a model only steers their values) and leaves it to the other agent's own entry,
 * saying so on stderr, instead of misreading it (blocking every call of the other agent, or letting
 * it through as a tool it does not know) or judging the call twice where both are installed.
 */
import type * as HostMode from "@agent-hooks/core/HostMode"

/** A reader of this agent's files, and how its payload differs from the agent's own. */
interface Reader {
  readonly agent: HostMode.HostName
  readonly displayName: string
  readonly is: (payload: Readonly<Record<string, unknown>>) => boolean
  /** Where the reader finds this agent's files. */
  readonly reads: string
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
      reads: "Claude Code's settings files (.claude/settings.json, ~/.claude/settings.json)"
    }
  ],
  // Copilot CLI names no event, and gives its tool as toolName / toolArgs
  copilot: [
    {
      agent: "vscode",
      displayName: "VS Code",
      is: (payload) => vscodePayload(payload) && !has(payload, "toolName") && !has(payload, "toolArgs"),
      reads: "Copilot CLI's hook folders (.github/hooks/*.json, ~/.copilot/hooks/*.json)"
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
      reads: "VS Code's hook files in the folders they share (.github/hooks/*.json, ~/.copilot/hooks/*.json)"
    }
  ]
}

/** The agent that really sent `payload` to host mode for `host`, when it is another one that reads `host`'s files. */
export const foreignReader = (host: HostMode.HostName, payload: Readonly<Record<string, unknown>>): Reader | undefined =>
  READERS[host]?.find((reader) => reader.is(payload))

/** Host mode's answer to another agent's payload: nothing decided (exit 0), and why on stderr. */
export const foreignReply = (agent: HostMode.Agent, reader: Reader): HostMode.HostReply => ({
  exitCode: 0,
  stdout: "",
  stderr: `agent-hooks: this call comes from ${reader.displayName}, which runs ${reader.reads} too, but this command is ${agent.displayName}'s (hook --host ${agent.name}): not judged here. ${reader.displayName}'s calls are judged by its own entry: agent-hooks install --host ${reader.agent} (agent-hooks doctor --host ${reader.agent} tells whether it is there)\n`
})
