import type { Agent } from "../../HostModel.ts"
import { profiles } from "./profiles.ts"

/** @internal */
export const agents: ReadonlyArray<Agent> = profiles.map((profile) => profile.host)

/** @internal */
export const byName = (name: string): Agent | undefined => agents.find((agent) => agent.name === name)
