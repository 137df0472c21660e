/** Kiro: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { kiro as dialect } from "./dialect.ts"
import { kiro as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  // an MCP tool is `@server/tool`
  mcpToolName: (server, tool) => `@${server}/${tool}`,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "own",
      shape: { shape: "triggers" },
      file: join(scope === "user" ? home : projectDir, ".kiro/hooks/agent-hooks.json")
    }),
    timeout: { unit: "seconds" },
    // Kiro's names from before its v1 format (`preToolUse`, `agentSpawn`: the same events as
    // `PreToolUse`, `SessionStart`, so each call would run host mode twice) and its Manual trigger
    // (a button the user presses, not an event)
    notRegistered: ["agentSpawn", "userPromptSubmit", "preToolUse", "postToolUse", "stop", "Manual"],
    needs: () => [
      "Kiro reads its hooks folder when a session starts: start a new Kiro CLI session (Kiro IDE: reload the window); the hooks show in the Agent Hooks panel."
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, projectDir) => ({
        hook_event_name: "PreToolUse",
        cwd: projectDir,
        tool_name: "execute_bash",
        tool_input: { command }
      }),
      exitBlocks: true,
      // exit codes only
      read: () => ({ decision: undefined, reason: undefined })
    }
  },
  docs: { hostPage: "hosts/kiro.md", dialectPage: "presets/kiro.md" }
}
