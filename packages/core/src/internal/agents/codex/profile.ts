/** Codex: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { hookSpecific } from "../claude/profile.ts"
import { codex as dialect } from "./dialect.ts"
import { codex as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  wiring: {
    place: ({ scope, home, projectDir, env, join, resolve }) => {
      const folder = scope === "user" ? resolve(env["CODEX_HOME"] || join(home, ".codex")) : join(projectDir, ".codex")
      return { kind: "layered", json: join(folder, "hooks.json"), toml: join(folder, "config.toml") }
    },
    timeout: { unit: "seconds" },
    // its hooks name a command per operating system
    perOsCommands: true,
    needs: (scope, projectDir) => [
      "Codex runs a new or changed hook only after a review: open `codex`, run /hooks and trust the agent-hooks entries (`codex exec --dangerously-bypass-hook-trust` skips the review, for CI only).",
      ...(scope === "project"
        ? [
            `Codex reads ${projectDir}/.codex only for a trusted project ([projects."${projectDir}"] trust_level = "trusted" in ~/.codex/config.toml).`
          ]
        : [])
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, _projectDir, common) => ({
        ...common,
        turn_id: "agent-hooks-doctor",
        hook_event_name: "PreToolUse",
        model: "agent-hooks-doctor",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: "call_agent_hooks_doctor"
      }),
      exitBlocks: true,
      // exit 2 blocks, but Codex runs the tool when stderr is empty
      blockNeedsReason: true,
      read: hookSpecific
    }
  },
  docs: { hostPage: "hosts/codex.md", dialectPage: "presets/codex.md", configEnv: "CODEX_HOME" }
}
