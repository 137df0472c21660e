/**
 * The dialects that are not agents (wingman, pigo, wave, orchestration): one folder each
 * (`./<name>/profile.ts`), and this list is the only place that names them.
 */
import type { DialectProfile } from "../../AgentProfile.ts"
import { profile as orchestration } from "./orchestration/profile.ts"
import { profile as pigo } from "./pigo/profile.ts"
import { profile as wave } from "./wave/profile.ts"
import { profile as wingman } from "./wingman/profile.ts"

/** @internal */
export const dialects: ReadonlyArray<DialectProfile> = [wingman, orchestration, pigo, wave]
