/** The wave dialect (hooks written for wave; not an agent host mode speaks for). */
import type { DialectProfile } from "../../../AgentProfile.ts"
import { wave as dialect } from "./dialect.ts"

/** @internal */
export const profile: DialectProfile = { name: dialect.name, dialect, docs: { dialectPage: "presets/wave.md" } }
