/** Cline: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { cline as dialect } from "./dialect.ts"
import { CLI_EVENTS, cline as host } from "./host.ts"
import { present } from "./present.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  present,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "scripts",
      folder: scope === "user" ? join(home, "Documents/Cline/Hooks") : join(projectDir, ".clinerules/hooks")
    }),
    // Cline kills a hook after its fixed 30 s
    timeout: { unit: "seconds", fixed: true },
    // one executable per event
    oneEntryPerEvent: true,
    // the Cline CLI runs the same files under its own event names (PreToolUse as tool_call)
    notRegistered: CLI_EVENTS,
    needs: () => [
      "Cline runs hooks only with hooks on (Settings, Features, Enable Hooks; macOS and Linux) and kills a hook after 30 s: host mode answers within its budget below that."
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, projectDir) => ({
        clineVersion: "agent-hooks-doctor",
        hookName: "PreToolUse",
        timestamp: String(Date.now()),
        taskId: "agent-hooks-doctor",
        workspaceRoots: [projectDir],
        userId: "agent-hooks-doctor",
        preToolUse: { toolName: "execute_command", parameters: { command } }
      }),
      // Cline reads only stdout's JSON (any non-zero exit is an error, and the tool runs)
      exitBlocks: false,
      read: (json) => ({ decision: json["cancel"] === true ? "deny" : undefined, reason: json["errorMessage"] })
    }
  },
  docs: { hostPage: "hosts/cline.md", dialectPage: "presets/cline.md" }
}
