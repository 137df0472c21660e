/** opencode: host mode, and how install and doctor wire its plugin (opencode has no command hooks, no dialect). */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { pluginSample, readPluginAnswer } from "../pluginHost.ts"
import { opencode as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  wiring: {
    // opencode loads every `*.ts`/`*.js` of `plugin/` (or `plugins/`) in its config folders
    place: ({ scope, home, projectDir, env, join }) => ({
      kind: "plugin",
      plugin: "opencode",
      file:
        scope === "user"
          ? join(env["XDG_CONFIG_HOME"] || join(home, ".config"), "opencode", "plugin", "agent-hooks.js")
          : join(projectDir, ".opencode", "plugin", "agent-hooks.js")
    }),
    timeout: { unit: "seconds" },
    needs: () => [
      "opencode loads plugins when it starts: restart running sessions. A plugin runs with your permissions: keep the file as install wrote it (agent-hooks doctor --host opencode checks it)."
    ],
    doctor: { shellEvent: "PreToolUse", sample: pluginSample("bash"), exitBlocks: true, read: readPluginAnswer }
  },
  docs: { hostPage: "hosts/opencode.md" }
}
