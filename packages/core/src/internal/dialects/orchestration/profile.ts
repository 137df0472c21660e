/** The orchestration dialect (hooks written for orchestration; not an agent host mode speaks for). */
import type { DialectProfile } from "../../../AgentProfile.ts"
import { orchestration as dialect } from "./dialect.ts"

/** @internal */
export const profile: DialectProfile = { name: dialect.name, dialect, docs: { dialectPage: "presets/orchestration.md" } }
