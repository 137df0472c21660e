/** pi: host mode, and how install and doctor wire its extension (pi has no command hooks, no dialect). */
import type { AgentProfile } from "../../../AgentProfile.ts"
import { pluginSample, readPluginAnswer } from "../pluginHost.ts"
import { pi as host } from "./host.ts"

/** @internal */
export const profile: AgentProfile = {
  name: host.name,
  host,
  wiring: {
    // pi loads every `*.ts`/`*.js` of its extensions folders (`PI_CODING_AGENT_DIR` moves the user's)
    place: ({ scope, home, projectDir, env, join }) => ({
      kind: "plugin",
      plugin: "pi",
      file:
        scope === "user"
          ? join(env["PI_CODING_AGENT_DIR"] || join(home, ".pi", "agent"), "extensions", "agent-hooks.js")
          : join(projectDir, ".pi", "extensions", "agent-hooks.js")
    }),
    // the extension stops agent-hooks after --timeout (and blocks the call): there is no timeout in pi to set
    timeout: { unit: "seconds" },
    needs: () => [
      "pi loads extensions when it starts: restart running sessions (or /reload). An extension runs with your permissions: keep the file as install wrote it (agent-hooks doctor --host pi checks it)."
    ],
    doctor: { shellEvent: "PreToolUse", sample: pluginSample("bash"), exitBlocks: true, read: readPluginAnswer }
  },
  docs: { hostPage: "hosts/pi.md", configEnv: "PI_CODING_AGENT_DIR" }
}
