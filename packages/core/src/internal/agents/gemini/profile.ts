/** Gemini CLI: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { gemini as dialect } from "./dialect.ts"
import { gemini as host } from "./host.ts"
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
      file: scope === "user" ? join(home, ".gemini/settings.json") : join(projectDir, ".gemini/settings.json")
    }),
    // Gemini CLI reads a hook's timeout in milliseconds
    timeout: { unit: "milliseconds" },
    needs: (scope, projectDir) => [
      `Gemini CLI runs settings hooks only in a trusted folder: trust ${scope === "project" ? projectDir : "each project folder"} (the trust prompt, or ~/.gemini/trustedFolders.json); an untrusted folder drops every settings hook.`
    ],
    doctor: {
      shellEvent: "BeforeTool",
      sample: (command, _projectDir, common) => ({
        ...common,
        hook_event_name: "BeforeTool",
        timestamp: new Date().toISOString(),
        tool_name: "run_shell_command",
        tool_input: { command, description: "agent-hooks doctor test call" }
      }),
      exitBlocks: true,
      blockNeedsReason: true,
      read: (json) => ({ decision: json["decision"], reason: json["reason"] })
    }
  },
  docs: { hostPage: "hosts/gemini.md", dialectPage: "presets/gemini.md" }
}
