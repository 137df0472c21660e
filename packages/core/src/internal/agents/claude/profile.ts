/**
 * Claude Code: its protocol is the engine's own (its dialect is the core's `claude` preset); this
 * folder holds its host mode and how install, doctor and migrate wire it.
 */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { claude as dialect } from "../../preset.ts"
import { claude as host } from "./host.ts"

/** The events where a hook's block stops the call or the prompt: there a hook that fails blocks too. */
const GUARDS = ["PreToolUse", "PermissionRequest", "UserPromptSubmit"]

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  wiring: {
    place: ({ scope, home, projectDir, env, join }) => ({
      kind: "json",
      shape: { shape: "nested", group: "hooks", failClosed: { key: "onFailure", value: "block", events: GUARDS } },
      // Never settings.local.json: the project's shared file is the one a team reviews
      file:
        scope === "user"
          ? join(env["CLAUDE_CONFIG_DIR"] || join(home, ".claude"), "settings.json")
          : join(projectDir, ".claude", "settings.json")
    }),
    timeout: { unit: "seconds" },
    needs: (scope, projectDir) =>
      scope === "project"
        ? [
            `Claude Code reads a project's .claude/settings.json only once the project is trusted: open \`claude\` in ${projectDir} and accept the trust prompt (headless \`claude -p\` ignores an untrusted project's settings).`
          ]
        : ["Claude Code reads ~/.claude/settings.json at start: restart running sessions (or review them in /hooks)."],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, _projectDir, common) => ({
        ...common,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command, description: "agent-hooks doctor test call" },
        tool_use_id: "toolu_agent_hooks_doctor"
      }),
      exitBlocks: true,
      read: (json) => hookSpecific(json)
    }
  },
  docs: { hostPage: "hosts/claude.md", dialectPage: "presets/claude.md", configEnv: "CLAUDE_CONFIG_DIR" }
}

/** Claude Code's answer: `hookSpecificOutput.permissionDecision` and its reason. */
export const hookSpecific = (json: Readonly<Record<string, unknown>>) => {
  const specific = (json["hookSpecificOutput"] ?? {}) as Record<string, unknown>
  return { decision: specific["permissionDecision"], reason: specific["permissionDecisionReason"] }
}
