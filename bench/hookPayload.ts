/**
 * The policy and the payload of the host-mode benches (`hook-cost.ts`, `daemon-call.ts`): one
 * Claude Code PreToolUse of `Bash`, and a settings file in `dir` with one `true` hook on `matcher`.
 * A module of helpers: run as a bench, it does nothing.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"

/** Writes `dir/settings.json` (one `true` command hook on PreToolUse `matcher`); returns its path and the payload. */
export const hookBench = (dir: string, matcher = "Bash"): { readonly settings: string; readonly payload: string } => {
  const settings = join(dir, "settings.json")
  writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: "command", command: "true" }] }] } }))
  const payload = JSON.stringify({
    session_id: "bench",
    transcript_path: join(dir, "t.jsonl"),
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls", description: "list" },
    tool_use_id: "toolu_bench"
  })
  return { settings, payload }
}
