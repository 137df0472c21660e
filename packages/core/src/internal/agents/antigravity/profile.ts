/**
 * Antigravity CLI (agy): host mode, dialect, and how install, doctor and migrate wire it; the
 * hooks file agy 1.0 builds were seen reading is its own host, `antigravity-1.0`.
 */
import type { AgentProfile, Wiring } from "../../../AgentProfile.ts"
import { antigravity10 as dialect10, antigravity as dialect } from "./dialect.ts"
import { antigravity10 as host10, antigravity as host } from "./host.ts"
import { present } from "./present.ts"

const sample =
  (named: boolean): Wiring["doctor"]["sample"] =>
  (command, projectDir) => ({
    ...(named ? { hookEventName: "PreToolUse" } : {}),
    conversationId: "agent-hooks-doctor",
    stepIdx: 0,
    toolCall: { name: "run_command", args: { CommandLine: command, Cwd: projectDir } },
    workspacePaths: [projectDir]
  })

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  present,
  wiring: {
    // the documented file groups hooks under a name: ours is "agent-hooks"
    place: ({ scope, home, projectDir, join }) => ({
      kind: "json",
      shape: { shape: "nested", group: "agent-hooks" },
      file: scope === "user" ? join(home, ".gemini/antigravity-cli/hooks.json") : join(projectDir, ".agents/hooks.json")
    }),
    timeout: { unit: "seconds" },
    needs: () => [
      "This is the hooks file Antigravity CLI documents; agy 1.0 builds were seen reading ~/.gemini/config/hooks.json instead: if agy does not stop the call, install --host antigravity-1.0 as well. agy reads it at start: restart running sessions."
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: sample(true),
      // Antigravity CLI documents no exit codes: only its JSON answer counts
      exitBlocks: false,
      read: (json) => ({ decision: json["allowTool"] === false ? "deny" : undefined, reason: json["denyReason"] })
    }
  },
  docs: { hostPage: "hosts/antigravity.md", dialectPage: "presets/antigravity.md" }
}

/** @internal */
export const profile10: AgentProfile = {
  name: host10.name,
  host: host10,
  dialect: dialect10,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "json",
      shape: { shape: "nested", group: "hooks" },
      file: scope === "user" ? join(home, ".gemini/config/hooks.json") : join(projectDir, ".antigravitycli/hooks.json")
    }),
    timeout: { unit: "seconds" },
    needs: () => ["agy 1.0 reads this file at start and runs only PreToolUse and PostToolUse hooks: restart running sessions."],
    doctor: {
      shellEvent: "PreToolUse",
      sample: sample(false),
      exitBlocks: false,
      read: (json) => ({ decision: json["decision"], reason: json["reason"] })
    }
  },
  docs: { hostPage: "hosts/antigravity-1.0.md", dialectPage: "presets/antigravity.md" }
}
