/**
 * Gemini CLI's tools as actions in Claude Code's names: `read_many_files` is one `Read` per path of
 * `paths[]`, `web_fetch` one `WebFetch` per URL of its `prompt` (it takes no `url`).
 */
import type { ToolActions } from "../../../HostModel.ts"
import { fetches, perFile, table } from "../actions.ts"

/** @internal */
export const GEMINI_ACTIONS: ReadonlyArray<ToolActions> = table({
  read_many_files: [["Read"], perFile("Read", "paths")],
  web_fetch: [["WebFetch"], fetches]
})
