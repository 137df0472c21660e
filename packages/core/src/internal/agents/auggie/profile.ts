/** Auggie: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { hookSpecific } from "../claude/profile.ts"
import { auggie as dialect } from "./dialect.ts"
import { auggie as host } from "./host.ts"
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
      shape: { shape: "nested", group: "hooks" },
      file: scope === "user" ? join(home, ".augment/settings.json") : join(projectDir, ".augment/settings.json")
    }),
    // "timeout": 30 is 30 ms to Auggie, and a timed-out PreToolUse hook lets the call run
    timeout: { unit: "milliseconds" },
    needs: () => [
      "Auggie reads its settings when a session starts: restart running sessions. Its hooks run only where the Augment service turns hooks on for the account (auggie's /hooks lists them)."
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, projectDir) => ({
        hook_event_name: "PreToolUse",
        conversation_id: "agent-hooks-doctor",
        workspace_roots: [projectDir],
        tool_name: "launch-process",
        tool_input: { command, wait: true, max_wait_seconds: 60 },
        is_mcp_tool: false
      }),
      exitBlocks: true,
      read: hookSpecific
    }
  },
  docs: { hostPage: "hosts/auggie.md", dialectPage: "presets/auggie.md" }
}
