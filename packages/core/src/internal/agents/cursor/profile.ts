/** Cursor: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { cursor as dialect } from "./dialect.ts"
import { cursorHost as host } from "./host.ts"
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
      shape: {
        shape: "flat",
        head: `"version": 1`,
        timeout: true,
        matcher: true,
        failClosed: {
          key: "failClosed",
          value: true,
          events: ["preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeSubmitPrompt", "beforeTabFileRead"]
        }
      },
      file: join(scope === "user" ? home : projectDir, ".cursor/hooks.json")
    }),
    timeout: { unit: "seconds" },
    // Cursor's Tab (inline completion) events fire on every file Tab reads and every edit it makes,
    // not on the agent's tool calls, so each would start a process for nothing a tool guard needs
    optIn: ["beforeTabFileRead", "afterTabFileEdit"],
    needs: (scope, projectDir) => [
      scope === "project"
        ? `Cursor runs a project's .cursor/hooks.json only in a trusted workspace: trust ${projectDir} in Cursor; Settings, Hooks lists what it loaded.`
        : "Cursor reloads hooks.json when it changes; Settings, Hooks lists what it loaded."
    ],
    doctor: {
      shellEvent: "beforeShellExecution",
      sample: (command, projectDir) => ({
        conversation_id: "agent-hooks-doctor",
        generation_id: "agent-hooks-doctor",
        model: "agent-hooks-doctor",
        hook_event_name: "beforeShellExecution",
        workspace_roots: [projectDir],
        user_email: null,
        command,
        cwd: projectDir
      }),
      exitBlocks: true,
      read: (json) => ({ decision: json["permission"], reason: json["agent_message"] ?? json["user_message"] })
    }
  },
  docs: { hostPage: "hosts/cursor.md", dialectPage: "presets/cursor.md" }
}
