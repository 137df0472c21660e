/**
 * Whether another agent has its own agent-hooks entry (`hook --foreign auto` leaves that agent's
 * calls to it, and `doctor` says so): the entries `install` writes, in the agent's user config and
 * in the project's, found as `doctor` finds them. A project's file comes with the project (a cloned
 * repository): its entry counts only when it runs this very agent-hooks, so that a file that merely
 * looks like an entry cannot make host mode step aside.
 */
import type * as HostMode from "@agent-hooks/core/HostMode"
import type { Reader } from "./foreignPayload.ts"
import { readOwnCommand } from "./hostConfig.ts"
import type { Scope } from "./hostFiles.ts"
import { layoutOf, wiredEntries } from "./hostFiles.ts"
import { runner, sameRunner } from "./install.ts"

/** One entry of the agent's own: the file, its scope, and the events it is on. */
export interface OwnEntries {
  readonly scope: Scope
  readonly file: string
  readonly events: ReadonlyArray<string>
}

/**
 * The agent's own agent-hooks entries, per scope (project first); a project's only when its command
 * runs this agent-hooks. Throws (`ConfigError`, a read error) when a file cannot be read: the caller
 * never takes that for "no entry", nor for "an entry".
 */
export const ownEntriesOf = (
  agent: HostMode.Agent,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>
): ReadonlyArray<OwnEntries> => {
  const mine = runner()
  const found: Array<OwnEntries> = []
  for (const scope of ["project", "user"] as const) {
    const entries = [...wiredEntries(layoutOf(agent, scope, projectDir, env), agent, scope, projectDir)].filter(
      ([, entry]) => scope === "user" || (!("error" in mine) && sameRunner(readOwnCommand(entry.command)?.words ?? [], mine))
    )
    if (entries.length > 0) found.push({ scope, file: entries[0]![1].file, events: entries.map(([event]) => event) })
  }
  return found
}

/**
 * The file of the agent's own entry on `hostEvent` (any of its entries when the event is not known),
 * or `undefined` when it has none there.
 */
export const ownEntryOn = (
  agent: HostMode.Agent,
  hostEvent: string | undefined,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>
): string | undefined =>
  ownEntriesOf(agent, projectDir, env).find((entries) => hostEvent === undefined || entries.events.includes(hostEvent))?.file

/**
 * The timeout, in seconds, of `host`'s entry that runs this command, where the other agent whose
 * call it is (`reader`) reads that entry's timeout and it can be told: the entries install wrote in
 * `host`'s config (user and project) that carry this command's `--timeout` each give a timeout in
 * their own key, and the shortest is taken (any of them may be the one that ran). `undefined`
 * otherwise (the reader reads no timeout of the entry, no such entry, one without a timeout, a file
 * that cannot be read). A reader that reads that key (`Reader.readsTimeout`: VS Code a Claude Code
 * entry's `timeout`, Copilot CLI a VS Code entry's `timeout`, its alias of `timeoutSec`) kills its
 * hook at it.
 */
export const entryTimeout = (
  host: HostMode.Agent,
  reader: Reader,
  timeout: number | undefined,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>
): number | undefined => {
  if (!reader.readsTimeout || timeout === undefined) return undefined
  let shortest: number | undefined
  try {
    for (const scope of ["project", "user"] as const) {
      for (const entry of wiredEntries(layoutOf(host, scope, projectDir, env), host, scope, projectDir).values()) {
        if (readOwnCommand(entry.command)?.timeout !== timeout) continue
        if (entry.timeout === undefined || !(entry.timeout > 0)) return undefined
        shortest = Math.min(shortest ?? entry.timeout, entry.timeout)
      }
    }
  } catch {
    return undefined
  }
  return shortest
}
