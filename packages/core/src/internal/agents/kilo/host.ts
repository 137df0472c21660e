/**
 * Kilo CLI (`@kilocode/cli`, a fork of opencode) as a host (`agent-hooks hook --host kilo`):
 * opencode's plugin API, events and tools (`../opencode/host.ts`), with the plugin in
 * `.kilo/plugin/` (Kilo ignores `.opencode/plugin/`) or `~/.config/kilo/plugin/`.
 */
import type { Agent } from "../../../HostModel.ts"
import { OPENCODE_TOOL_NAMES, OPENCODE_TOOLS } from "../opencode/host.ts"
import { pluginHost } from "../pluginHost.ts"

/** @internal */
export const kilo: Agent = pluginHost({
  name: "kilo",
  displayName: "Kilo CLI",
  projectDirEnv: ["KILO_PROJECT_DIR"],
  toolNames: OPENCODE_TOOL_NAMES,
  tools: OPENCODE_TOOLS
})
