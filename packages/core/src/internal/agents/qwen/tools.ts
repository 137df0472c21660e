/**
 * Qwen Code's tools as actions in Claude Code's names: `read_many_files` is one `Read` per path of
 * `paths[]`, `web_fetch` one `WebFetch` per URL (its `url`, and any in its `prompt`).
 */
import type { ToolActions } from "../../../HostModel.ts"
import { fetches, perFile, table } from "../actions.ts"

/** @internal */
export const QWEN_ACTIONS: ReadonlyArray<ToolActions> = table({
  read_many_files: [["Read"], perFile("Read", "paths")],
  web_fetch: [["WebFetch"], fetches]
})
