/** Kilo CLI: host mode, and how install and doctor wire opencode's plugin into it (no command hooks, no dialect). */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { pluginSample, readPluginAnswer } from "../pluginHost.ts"
import { kilo as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  wiring: {
    // Kilo loads plugins only from its own folders (`.kilo/plugin/`; `.opencode/plugin/` is ignored)
    place: ({ scope, home, projectDir, env, join }) => ({
      kind: "plugin",
      plugin: "opencode",
      file:
        scope === "user"
          ? join(env["XDG_CONFIG_HOME"] || join(home, ".config"), "kilo", "plugin", "agent-hooks.js")
          : join(projectDir, ".kilo", "plugin", "agent-hooks.js")
    }),
    timeout: { unit: "seconds" },
    needs: () => [
      "Kilo loads plugins when it starts: restart running sessions. A plugin runs with your permissions: keep the file as install wrote it (agent-hooks doctor --host kilo checks it)."
    ],
    doctor: { shellEvent: "PreToolUse", sample: pluginSample("bash"), exitBlocks: true, read: readPluginAnswer }
  },
  docs: { hostPage: "hosts/kilo.md" }
}
