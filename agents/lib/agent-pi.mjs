// pi (`@mariozechner/pi-coding-agent`), driven headless (`pi -p`) against the scripted model server:
// an `openai-completions` provider in ~/.pi/agent/models.json, `--offline`, no session file. No
// command hooks: agent-hooks is its extension (lib/pluginAgent.mjs); the bare agent is the control.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pluginHooks, wirePlugin } from "./pluginAgent.mjs"

export const pi = {
  name: "pi",
  title: "pi",
  pkg: "@mariozechner/pi-coding-agent",
  bin: "pi",
  plugin: true,
  /** The file install writes (the install scenario's, at user scope). */
  installFile: (home) => join(home, ".pi", "agent", "extensions", "agent-hooks.js"),
  /** @param {import("./agents.mjs").SetupArgs} a */
  setup({ home, project, url, hooks, timeout }) {
    mkdirSync(join(home, ".pi", "agent"), { recursive: true })
    writeFileSync(
      join(home, ".pi", "agent", "models.json"),
      JSON.stringify(
        {
          providers: {
            scripted: { baseUrl: `${url}/v1`, api: "openai-completions", apiKey: "dummy", models: [{ id: "scripted-model" }] }
          }
        },
        null,
        2
      )
    )
    const wired = pluginHooks(hooks)
    if (wired !== undefined)
      wirePlugin({ host: "pi", home, project, ...wired, timeout, file: join(project, ".pi", "extensions", "agent-hooks.js") })
  },
  command: (prompt) => ["-p", "--provider", "scripted", "--model", "scripted-model", "--offline", "--no-session", prompt],
  env: () => ({ PI_SKIP_VERSION_CHECK: "1" })
}
