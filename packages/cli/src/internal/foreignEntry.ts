/**
 * Whether another agent has its own agent-hooks entry (`hook --foreign auto` leaves that agent's
 * calls to it, and `doctor` says so): the entries `install` writes, in the agent's user config and
 * in the project's, found as `doctor` finds them. Only an entry that can judge the call counts
 * (`foreignAuto`): a project's file comes with the project (a cloned repository), and an entry that
 * is in it, or that the agent kills before host mode answers, would make host mode step aside for
 * a call nobody judges.
 */
import type * as HostMode from "@agent-hooks/core/HostMode"
import { realpathSync, statSync } from "node:fs"
import { dirname, isAbsolute, relative } from "node:path"
import type { Reader } from "./foreignPayload.ts"
import { budgetMs } from "./hook.ts"
import type { OwnEntry } from "./hostConfig.ts"
import { fixedTimeout, readOwnCommand, secondsOf, timeoutIn } from "./hostConfig.ts"
import { layoutOf, wiredEntries } from "./hostFiles.ts"

/**
 * The time, in seconds, after which `agent` kills the hook of `entry` (one install wrote): the
 * entry's own timeout in the agent's unit, its default where the entry has none, its fixed time
 * where its config has no timeout (Cline, Windsurf).
 */
export const killSeconds = (agent: HostMode.Agent, entry: OwnEntry): number =>
  fixedTimeout(agent) ? agent.hookTimeout : secondsOf(agent, entry.timeout ?? timeoutIn(agent, agent.hookTimeout))

/**
 * Whether `agent` lets the entry's host mode answer: it kills the hook only after host mode's own
 * budget for the entry's `--timeout` (else it kills host mode first and, as a timed-out hook does
 * not block, runs the call). `undefined` when it does; otherwise why not, in words. One rule for
 * doctor's check of the agent's own entries and for `--foreign auto`.
 */
export const killedBeforeAnswer = (agent: HostMode.Agent, entry: OwnEntry): string | undefined => {
  const own = readOwnCommand(entry.command)
  if (own === undefined) return "its command is not one agent-hooks install writes"
  const seconds = killSeconds(agent, entry)
  const budget = budgetMs(own.timeout)
  return seconds * 1000 > budget
    ? undefined
    : `the hook timeout (${seconds} s) is not above host mode's budget for --timeout ${own.timeout} (${budget / 1000} s): ${agent.displayName} would kill host mode first and run the tool`
}

/** `child` is `parent` or inside it (both real paths). */
const within = (parent: string, child: string): boolean => {
  const path = relative(parent, child)
  return path === "" || (!path.startsWith("..") && !isAbsolute(path))
}

/** The real path of `file` (of its folder when it has none yet), or `file`. */
const real = (file: string): string => {
  try {
    return realpathSync(file)
  } catch {
    return file
  }
}

/**
 * Why a file of the user's scope could still be written by the project or by someone else, or
 * `undefined` when it cannot: it is inside the project (a variable that places the agent's config,
 * `HOME` or `CODEX_HOME`, can come from the project's own settings), or it, or its folder, is not
 * the user's (or root's), or others may write it.
 */
const writableByOthers = (file: string, projectDir: string): string | undefined => {
  const path = real(file)
  if (within(real(projectDir), path)) return `it is inside the project (${path}), which can write it`
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined
  for (const at of [path, dirname(path)]) {
    let stat: ReturnType<typeof statSync>
    try {
      stat = statSync(at)
    } catch {
      return `${at} cannot be read`
    }
    if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) return `${at} belongs to another user (uid ${stat.uid})`
    if ((stat.mode & 0o022) !== 0 && !(stat.isDirectory() && (stat.mode & 0o1000) !== 0))
      return `${at} may be written by others (mode ${(stat.mode & 0o777).toString(8)})`
  }
  return undefined
}

/**
 * What `--foreign auto` does with another agent's call (`agent` is that other agent), and `doctor`
 * says: `leave` only for that agent's own agent-hooks entry on the call's event (any of its
 * entries when the event is not known) that can judge it: in a scope the project cannot write (the
 * user's; a project's file comes with a cloned repository, which may write install's exact command
 * with a timeout of 1 s), the user's and no one else's, and given the time to answer
 * (`killedBeforeAnswer`). Every other case is `judge`, with why: no entry, an entry that cannot
 * judge, a config that cannot be read. Never throws.
 */
export const foreignAuto = (
  agent: HostMode.Agent,
  hostEvent: string | undefined,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>
): { readonly leave: true; readonly file: string } | { readonly leave: false; readonly why: string } => {
  const on = (event: string) => hostEvent === undefined || event === hostEvent
  const event = hostEvent === undefined ? "" : ` on ${hostEvent}`
  const untrusted: Array<string> = []
  try {
    for (const [name, entry] of wiredEntries(layoutOf(agent, "user", projectDir, env), agent, "user", projectDir)) {
      if (!on(name)) continue
      const why = writableByOthers(entry.file, projectDir) ?? killedBeforeAnswer(agent, entry)
      if (why === undefined) return { leave: true, file: entry.file }
      untrusted.push(`its entry in ${entry.file} cannot judge it: ${why}`)
      break
    }
  } catch (error) {
    return {
      leave: false,
      why: `whether ${agent.displayName} has an agent-hooks entry of its own could not be told (${error instanceof Error ? error.message : String(error)})`
    }
  }
  // a project's entry is never trusted to judge in host mode's place, whatever it runs
  try {
    for (const [name, entry] of wiredEntries(layoutOf(agent, "project", projectDir, env), agent, "project", projectDir)) {
      if (!on(name)) continue
      untrusted.push(
        `its entry in ${entry.file} is the project's, which a cloned repository can write (any command, any timeout): judged here, not trusted`
      )
      break
    }
  } catch (error) {
    untrusted.push(
      `whether the project's ${agent.displayName} config holds one could not be told (${error instanceof Error ? error.message : String(error)})`
    )
  }
  return {
    leave: false,
    why:
      untrusted.length === 0
        ? `${agent.displayName} has no agent-hooks entry of its own${event}`
        : `${agent.displayName} has no agent-hooks entry of its own${event} that can judge it (${untrusted.join("; ")})`
  }
}

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
