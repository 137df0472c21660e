/** The wingman dialect (hooks written for wingman; not an agent host mode speaks for). */
import type { DialectProfile } from "../../../AgentProfile.ts"
import { wingman as dialect } from "./dialect.ts"

/** @internal */
export const profile: DialectProfile = { name: dialect.name, dialect, docs: { dialectPage: "presets/wingman.md" } }
