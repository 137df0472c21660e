/** Copilot CLI: host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { copilot as dialect } from "./dialect.ts"
import { copilotHost as host } from "./host.ts"
import { present } from "./present.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  present,
  payloadNamesNoEvent: true,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "own",
      shape: { shape: "events", head: { version: 1 }, commandKey: "bash", timeoutKey: "timeoutSec", matcher: true },
      file:
        scope === "user"
          ? join(home, ".copilot/hooks/agent-hooks-copilot.json")
          : join(projectDir, ".github/hooks/agent-hooks-copilot.json")
    }),
    timeout: { unit: "seconds" },
    // its hooks name a command per operating system
    perOsCommands: true,
    // Copilot CLI's payload names no event: each entry's command names it
    eventInCommand: true,
    needs: (scope) => [
      `Copilot CLI reads ${scope === "project" ? ".github/hooks/*.json" : "~/.copilot/hooks/*.json"} when a session starts: restart running sessions${scope === "project" ? " (the cloud agent reads the default branch: commit the file)" : ""}. VS Code runs that folder's files too: its calls through this entry are judged as VS Code's (hook --foreign auto), and left to VS Code's own entry once install --host vscode wrote one, so each call is judged once.`
    ],
    doctor: {
      shellEvent: "preToolUse",
      sample: (command, projectDir) => ({
        timestamp: Date.now(),
        cwd: projectDir,
        sessionId: "agent-hooks-doctor",
        toolName: "bash",
        toolArgs: JSON.stringify({ command, description: "agent-hooks doctor test call" })
      }),
      exitBlocks: true,
      read: (json) => ({ decision: json["permissionDecision"], reason: json["permissionDecisionReason"] })
    }
  },
  docs: { hostPage: "hosts/copilot.md", dialectPage: "presets/copilot.md" }
}
