/**
 * The agents agent-hooks knows, one `AgentProfile` each (host mode, dialect, wiring, docs facts),
 * and the dialects that are not agents. Each agent is one folder (`internal/agents/<name>/`) and
 * one line of its list; the CLI's install, uninstall, doctor, migrate, `hook --host` choices and
 * help, and the docs' agent tables, are driven by these records.
 *
 * **Example**
 *
 * ```ts
 * import { Agents } from "@agent-hooks/core"
 *
 * Agents.byName("gemini")?.wiring.timeout.unit // "milliseconds"
 * Agents.profiles.map((profile) => profile.name) // ["claude", "codex", ...]
 * ```
 *
 * @since 0.2.0
 */
import type { AgentProfile, DialectProfile } from "./AgentProfile.ts"
import { profiles as agentProfiles } from "./internal/agents/profiles.ts"
import { dialects as dialectProfiles } from "./internal/dialects/profiles.ts"

export type * from "./AgentProfile.ts"

/**
 * Every agent host mode speaks for, in the order help and docs list them.
 *
 * @since 0.2.0
 * @category registry
 */
export const profiles: ReadonlyArray<AgentProfile> = agentProfiles

/**
 * The dialects that are not agents (wingman, pigo, wave, orchestration).
 *
 * @since 0.2.0
 * @category registry
 */
export const dialects: ReadonlyArray<DialectProfile> = dialectProfiles

/**
 * The agent named `name` (`hook --host <name>`), from `among` (every agent by default).
 *
 * @since 0.2.0
 * @category registry
 */
export const byName = (name: string, among: ReadonlyArray<AgentProfile> = profiles): AgentProfile | undefined =>
  among.find((profile) => profile.name === name)

/**
 * A hook `timeout` of `seconds` as the agent reads it (Gemini CLI: milliseconds; Qwen Code: 1000
 * or more as milliseconds; the others: seconds).
 *
 * @since 0.2.0
 * @category wiring
 */
export const timeoutIn = (profile: AgentProfile, seconds: number): number => {
  switch (profile.wiring.timeout.unit) {
    case "milliseconds":
      return seconds * 1000
    case "secondsBelow1000":
      return seconds >= 1000 ? seconds * 1000 : seconds
    case "seconds":
      return seconds
  }
}

/**
 * A hook `timeout` in the agent's config, in seconds (`timeoutIn` backwards).
 *
 * @since 0.2.0
 * @category wiring
 */
export const secondsOf = (profile: AgentProfile, value: number): number => {
  switch (profile.wiring.timeout.unit) {
    case "milliseconds":
      return value / 1000
    case "secondsBelow1000":
      return value >= 1000 ? value / 1000 : value
    case "seconds":
      return value
  }
}
