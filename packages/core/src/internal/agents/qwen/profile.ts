/** Qwen Code: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { hookSpecific } from "../claude/profile.ts"
import { qwen as dialect } from "./dialect.ts"
import { qwen as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "json",
      shape: { shape: "nested", group: "hooks" },
      file: scope === "user" ? join(home, ".qwen/settings.json") : join(projectDir, ".qwen/settings.json")
    }),
    // Qwen Code reads 1000 or more as milliseconds (1000 seconds is written 1000000)
    timeout: { unit: "secondsBelow1000" },
    needs: (scope, projectDir) =>
      scope === "project"
        ? [`Qwen Code loads a project's hooks only in a trusted folder: trust ${projectDir} when Qwen Code asks.`]
        : ["Qwen Code reads ~/.qwen/settings.json at start: restart running sessions."],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, _projectDir, common) => ({
        ...common,
        hook_event_name: "PreToolUse",
        timestamp: new Date().toISOString(),
        permission_mode: "default",
        tool_name: "run_shell_command",
        tool_input: { command, is_background: false, description: "agent-hooks doctor test call" },
        tool_use_id: "toolu_agent_hooks_doctor",
        tool_call_id: "call_agent_hooks_doctor"
      }),
      exitBlocks: true,
      // exit 2 blocks, but Qwen Code runs the tool when stderr is empty
      blockNeedsReason: true,
      read: hookSpecific
    }
  },
  docs: { hostPage: "hosts/qwen.md", dialectPage: "presets/qwen.md" }
}
