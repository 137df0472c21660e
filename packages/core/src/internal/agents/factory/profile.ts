/** Factory Droid: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { hookSpecific } from "../claude/profile.ts"
import { factory as dialect } from "./dialect.ts"
import { factory as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "json",
      shape: { shape: "nested", group: "hooks" },
      file: scope === "user" ? join(home, ".factory/settings.json") : join(projectDir, ".factory/settings.json")
    }),
    timeout: { unit: "seconds" },
    needs: (scope, projectDir) => [
      scope === "project"
        ? `Droid reads ${projectDir}/.factory/settings.json when a session starts: restart running sessions.`
        : "Droid reads ~/.factory/settings.json when a session starts: restart running sessions."
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, _projectDir, common) => ({
        ...common,
        hook_event_name: "PreToolUse",
        permission_mode: "auto-high",
        tool_name: "Execute",
        tool_input: { command, summary: "agent-hooks doctor test call", riskLevel: "low", riskLevelReason: "a test call" }
      }),
      exitBlocks: true,
      read: hookSpecific
    }
  },
  docs: { hostPage: "hosts/factory.md", dialectPage: "presets/factory.md" }
}
