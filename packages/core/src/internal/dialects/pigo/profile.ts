/** The pigo dialect (hooks written for pigo; not an agent host mode speaks for). */
import type { DialectProfile } from "../../../AgentProfile.ts"
import { pigo as dialect } from "./dialect.ts"

/** @internal */
export const profile: DialectProfile = { name: dialect.name, dialect, docs: { dialectPage: "presets/pigo.md" } }
