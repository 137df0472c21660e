/**
 * The help text that names agents, written from their profiles (`Agents`): `--host` choices, each
 * agent's default hook timeout, the agents' own project variables. Help never lists agents by hand.
 */
import type * as Agents from "@agent-hooks/core/Agents"
import type * as HostMode from "@agent-hooks/core/HostMode"

/** `a, b and c`. */
const listed = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`

/** The `--host` values, in the registry's order. */
export const hostNames = (profiles: ReadonlyArray<Agents.AgentProfile>): ReadonlyArray<HostMode.HostName> =>
  profiles.map((profile) => profile.host.name)

/** The agents by their display names: `Claude Code, Codex, ... and VS Code`. */
export const displayNames = (profiles: ReadonlyArray<Agents.AgentProfile>): string =>
  listed(profiles.map((profile) => profile.host.displayName))

/** Each agent's default hook timeout, grouped: `600 claude, codex; 60 gemini, ...` (fixed ones said after). */
export const timeoutDefaults = (profiles: ReadonlyArray<Agents.AgentProfile>): string => {
  const groups = new Map<number, Array<string>>()
  for (const profile of profiles) groups.set(profile.host.hookTimeout, [...(groups.get(profile.host.hookTimeout) ?? []), profile.name])
  const fixed = profiles.filter((profile) => profile.wiring.timeout.fixed === true)
  const defaults = [...groups].map(([seconds, names]) => `${seconds} ${names.join(", ")}`).join("; ")
  return fixed.length === 0
    ? defaults
    : `${defaults}; ${listed(fixed.map((profile) => profile.name))} have no timeout to set: ${listed([...new Set(fixed.map((profile) => String(profile.host.hookTimeout)))])} at most`
}

/** The agents' own project-folder variables (`CLAUDE_PROJECT_DIR, ...`). */
export const projectDirVariables = (profiles: ReadonlyArray<Agents.AgentProfile>): string =>
  [...new Set(profiles.flatMap((profile) => profile.host.projectDirEnv))].join(", ")

/** What a policy's ask becomes by default, per agent: `host on claude, qwen, ...; deny on codex, ...`. */
export const askDefaults = (profiles: ReadonlyArray<Agents.AgentProfile>): string =>
  (["host", "deny"] as const)
    .map((kind) => [kind, profiles.filter((profile) => profile.host.askDefault === kind).map((profile) => profile.name)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([kind, names]) => `${kind} on ${names.join(", ")}`)
    .join("; ")
