/** VS Code (agent hooks): host mode, dialect, and how install, doctor and migrate wire it. */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { hookSpecific } from "../claude/profile.ts"
import { vscode as dialect } from "./dialect.ts"
import { vscodeHost as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  dialect,
  wiring: {
    place: ({ scope, home, projectDir, join }) => ({
      kind: "own",
      shape: { shape: "events", head: {}, commandKey: "command", timeoutKey: "timeout", matcher: false },
      file:
        scope === "user" ? join(home, ".copilot/hooks/agent-hooks-vscode.json") : join(projectDir, ".github/hooks/agent-hooks-vscode.json")
    }),
    timeout: { unit: "seconds" },
    // its hooks name a command per operating system
    perOsCommands: true,
    // Copilot CLI runs VS Code's entries too (the hook folders they share) with its own payload,
    // which names no event: each entry's command names it
    eventInCommand: true,
    needs: (scope) => [
      `VS Code reads ${scope === "project" ? ".github/hooks/*.json" : "~/.copilot/hooks/*.json"} for its agent hooks (a preview: hooks must be on in its chat settings). Copilot CLI runs that folder's files too: its calls through this entry are judged as Copilot CLI's (hook --foreign auto), and left to Copilot CLI's own entry once install --host copilot wrote one, so each call is judged once.`
    ],
    doctor: {
      shellEvent: "PreToolUse",
      sample: (command, projectDir) => ({
        timestamp: new Date().toISOString(),
        cwd: projectDir,
        sessionId: "agent-hooks-doctor",
        hookEventName: "PreToolUse",
        tool_name: "runTerminalCommand",
        tool_input: { command, explanation: "agent-hooks doctor test call" },
        tool_use_id: "agent-hooks-doctor"
      }),
      exitBlocks: true,
      read: hookSpecific
    }
  },
  docs: { hostPage: "hosts/vscode.md", dialectPage: "presets/vscode.md" }
}
