/** CodeBuddy Code: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { hookSpecific } from "../claude/profile.ts"
import { codebuddy as dialect } from "./dialect.ts"
import { codebuddy as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "json",
      shape: { shape: "nested", group: "hooks" },
      file: scope === "user" ? join(home, ".codebuddy/settings.json") : join(projectDir, ".codebuddy/settings.json")
    }),
    timeout: { unit: "seconds" },
    needs: (scope, projectDir) => [
      scope === "project"
        ? `CodeBuddy Code reads ${projectDir}/.codebuddy/settings.json when a session starts: restart running sessions.`
        : "CodeBuddy Code reads ~/.codebuddy/settings.json when a session starts: restart running sessions."
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, _projectDir, common) => ({
        ...common,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command, description: "agent-hooks doctor test call" },
        call_id: "call_agent_hooks_doctor"
      }),
      exitBlocks: true,
      read: hookSpecific
    }
  },
  docs: { hostPage: "hosts/codebuddy.md", dialectPage: "presets/codebuddy.md" }
}
