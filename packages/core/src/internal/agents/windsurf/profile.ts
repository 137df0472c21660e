/** Windsurf: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { windsurf as dialect } from "./dialect.ts"
import { windsurf as host } from "./host.ts"
import { present } from "./present.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  present,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "json",
      shape: { shape: "flat", timeout: false, matcher: false },
      file: scope === "user" ? join(home, ".codeium/windsurf/hooks.json") : join(projectDir, ".windsurf/hooks.json")
    }),
    // Windsurf documents no hook timeout
    timeout: { unit: "seconds", fixed: true },
    needs: () => [
      "Windsurf reads hooks.json when Cascade starts: reload the window. Windsurf has no hook timeout to set: host mode answers within its budget below the --timeout written (30 s)."
    ],
    doctor: {
      shellEvent: "pre_run_command",
      sample: (command, projectDir) => ({
        agent_action_name: "pre_run_command",
        trajectory_id: "agent-hooks-doctor",
        execution_id: "agent-hooks-doctor",
        timestamp: new Date().toISOString(),
        tool_info: { command_line: command, cwd: projectDir }
      }),
      exitBlocks: true,
      // exit codes only
      read: () => ({ decision: undefined, reason: undefined })
    }
  },
  docs: { hostPage: "hosts/windsurf.md", dialectPage: "presets/windsurf.md" }
}
