/**
 * The CLI's way to an agent's record (`Agents` in the core): install, uninstall, doctor, migrate
 * and help read an agent's wiring from its profile, never from a `switch` on its name.
 */
import * as Agents from "@agent-hooks/core/Agents"
import type * as HostMode from "@agent-hooks/core/HostMode"

/** The profile of a host-mode agent (every agent host mode knows has one). */
export const profileOf = (agent: HostMode.Agent): Agents.AgentProfile => {
  const found = Agents.profiles.find((profile) => profile.host === agent) ?? Agents.byName(agent.name)
  if (found === undefined) throw new Error(`agent-hooks: no profile for the agent ${JSON.stringify(agent.name)}`)
  return found
}

/** The agent's wiring: where install writes, its timeout unit, doctor's sample call. */
export const wiringOf = (agent: HostMode.Agent): Agents.Wiring => profileOf(agent).wiring
