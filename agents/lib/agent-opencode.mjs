// opencode (`opencode-ai`), driven headless (`opencode run`) against the scripted model server: an
// `@ai-sdk/openai-compatible` provider in the project's opencode.json, every permission allowed
// (the plugin, not opencode's prompt, decides), no models.dev fetch. No command hooks: agent-hooks
// is its plugin (lib/pluginAgent.mjs); the bare agent is the control. Kilo (lib/agent-kilo.mjs) is
// the same agent under another name and folder.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pluginHooks, wirePlugin } from "./pluginAgent.mjs"

/**
 * opencode (and Kilo) installs its plugin package (`@opencode-ai/plugin`, Kilo's `@kilocode/plugin`)
 * into every config folder it reads, from the npm registry, which the run has no access to (a stray
 * request fails the run). A folder whose package-lock already names the package is left alone:
 * agent-hooks' plugin imports nothing but Node's, so nothing more is needed.
 */
const seedConfigFolder = (dir) => {
  mkdirSync(join(dir, "node_modules"), { recursive: true })
  const deps = { "@opencode-ai/plugin": "*", "@kilocode/plugin": "*" }
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: deps } } }))
}

/** An opencode-like agent: its host name, binary, package and plugin folders. */
export const opencodeLike = ({ name, title, pkg, bin, folder, userFolder, env = {} }) => ({
  name,
  title,
  pkg,
  bin,
  plugin: true,
  installFile: (home) => join(home, ".config", userFolder, "plugin", "agent-hooks.js"),
  /** @param {import("./agents.mjs").SetupArgs} a */
  setup({ home, project, url, hooks, timeout }) {
    writeFileSync(
      join(project, "opencode.json"),
      JSON.stringify(
        {
          $schema: "https://opencode.ai/config.json",
          provider: {
            scripted: {
              npm: "@ai-sdk/openai-compatible",
              name: "scripted",
              options: { baseURL: `${url}/v1`, apiKey: "dummy" },
              models: { "scripted-model": { name: "scripted-model", tool_call: true } }
            }
          },
          model: "scripted/scripted-model",
          permission: { bash: "allow", edit: "allow", external_directory: "allow" },
          autoupdate: false,
          share: "disabled"
        },
        null,
        2
      )
    )
    for (const dir of [join(home, ".config", userFolder), join(project, folder)]) seedConfigFolder(dir)
    const wired = pluginHooks(hooks)
    if (wired !== undefined)
      wirePlugin({ host: name, home, project, ...wired, timeout, file: join(project, folder, "plugin", "agent-hooks.js") })
  },
  command: (prompt) => ["run", "-m", "scripted/scripted-model", prompt],
  env: ({ url }) => ({
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    ...(typeof env === "function" ? env(url) : env)
  })
})

export const opencode = opencodeLike({
  name: "opencode",
  title: "opencode",
  pkg: "opencode-ai",
  bin: "opencode",
  folder: ".opencode",
  userFolder: "opencode"
})
