/**
 * The switches that skip an agent's agent-hooks entry (`hookSwitches.ts`, what `doctor` says "not
 * protected" for), read as each agent reads them: which scope wins, drop-in order, the older keys,
 * the folders the agent's own variables name, and a file whose state cannot be told. Files in a
 * fresh temp folder; no process.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { offSwitches } from "../src/internal/hookSwitches.ts"

const roots: Array<string> = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const fresh = () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-switches-unit-")))
  roots.push(root)
  const home = join(root, "home")
  const projectDir = join(root, "project")
  const managedDir = join(root, "managed")
  const put = (file: string, value: unknown) => {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value))
  }
  const keys = (agent: HostMode.HostName, extra: { env?: Record<string, string>; command?: string; platform?: NodeJS.Platform } = {}) =>
    offSwitches(HostMode.byName(agent)!, {
      home,
      projectDir,
      managedDir,
      env: { HOME: home, ...extra.env },
      command: extra.command,
      ...(extra.platform === undefined ? {} : { platform: extra.platform })
    }).map((off) => `${off.file.replace(root, "")}: ${off.key}`)
  return { root, home, projectDir, managedDir, put, keys }
}

describe("Claude Code", () => {
  it("managed drop-ins in alphabetical order, the last one that sets a key wins; strictPluginOnlyCustomization only when it covers hooks", () => {
    const t = fresh()
    expect(t.keys("claude")).toEqual([])
    t.put(join(t.managedDir, "managed-settings.d", "20-lock.json"), { allowManagedHooksOnly: true })
    t.put(join(t.managedDir, "managed-settings.d", "10-open.json"), { allowManagedHooksOnly: false })
    expect(t.keys("claude")).toEqual(["/managed/managed-settings.d/20-lock.json: allowManagedHooksOnly"])
    t.put(join(t.managedDir, "managed-settings.d", "30-open.json"), { allowManagedHooksOnly: false })
    expect(t.keys("claude")).toEqual([])
    t.put(join(t.managedDir, "managed-settings.json"), { strictPluginOnlyCustomization: ["skills"] })
    expect(t.keys("claude")).toEqual([])
    t.put(join(t.managedDir, "managed-settings.json"), { strictPluginOnlyCustomization: true })
    expect(t.keys("claude")).toEqual(["/managed/managed-settings.json: strictPluginOnlyCustomization"])
  })

  it("disableAllHooks: managed > local > project > user; a managed false wins over a user's true; CLAUDE_CONFIG_DIR is the user's folder", () => {
    const t = fresh()
    t.put(join(t.root, "config", "settings.json"), { disableAllHooks: true })
    expect(t.keys("claude", { env: { CLAUDE_CONFIG_DIR: join(t.root, "config") } })).toEqual(["/config/settings.json: disableAllHooks"])
    t.put(join(t.projectDir, ".claude", "settings.json"), { disableAllHooks: false })
    expect(t.keys("claude", { env: { CLAUDE_CONFIG_DIR: join(t.root, "config") } })).toEqual([])
    t.put(join(t.home, ".claude", "settings.json"), { disableAllHooks: true })
    t.put(join(t.projectDir, ".claude", "settings.json"), {})
    expect(t.keys("claude")).toEqual(["/home/.claude/settings.json: disableAllHooks"])
    t.put(join(t.managedDir, "managed-settings.json"), { disableAllHooks: false })
    expect(t.keys("claude")).toEqual([])
  })

  it("a settings file that is not JSON is said: whether it turns hooks off cannot be told", () => {
    const t = fresh()
    t.put(join(t.projectDir, ".claude", "settings.json"), "{ not json")
    expect(t.keys("claude")).toEqual(["/project/.claude/settings.json: (the file)"])
  })
})

describe("the other agents", () => {
  it("Gemini CLI: the system file ($GEMINI_CLI_SYSTEM_SETTINGS_PATH without a managed folder) wins; the older tools.enableHooks; a disabled list naming another hook is no switch", () => {
    const t = fresh()
    t.put(join(t.home, ".gemini", "settings.json"), { hooksConfig: { enabled: false } })
    expect(t.keys("gemini")).toEqual(["/home/.gemini/settings.json: hooksConfig.enabled"])
    t.put(join(t.managedDir, "settings.json"), { hooksConfig: { enabled: true }, tools: { enableHooks: false } })
    expect(t.keys("gemini")).toEqual(["/managed/settings.json: tools.enableHooks"])
    t.put(join(t.managedDir, "settings.json"), {})
    t.put(join(t.home, ".gemini", "settings.json"), { hooksConfig: { disabled: ["other"] } })
    expect(t.keys("gemini", { command: "mine" })).toEqual([])
    t.put(join(t.projectDir, ".gemini", "settings.json"), { hooks: { disabled: ["mine"] } })
    expect(t.keys("gemini", { command: "mine" })).toEqual(["/project/.gemini/settings.json: hooks.disabled"])
  })

  it("Copilot CLI reads $COPILOT_HOME; VS Code's user settings under $XDG_CONFIG_HOME on Linux and Library on macOS", () => {
    const t = fresh()
    t.put(join(t.root, "copilot-home", "settings.json"), { disableAllHooks: true })
    expect(t.keys("copilot")).toEqual([])
    expect(t.keys("copilot", { env: { COPILOT_HOME: join(t.root, "copilot-home") } })).toEqual([
      "/copilot-home/settings.json: disableAllHooks"
    ])
    t.put(join(t.root, "xdg", "Code", "User", "settings.json"), { "chat.useChatHooks": false })
    expect(t.keys("vscode", { env: { XDG_CONFIG_HOME: join(t.root, "xdg") }, platform: "linux" })).toEqual([
      "/xdg/Code/User/settings.json: chat.useChatHooks"
    ])
    t.put(join(t.home, "Library", "Application Support", "Code", "User", "settings.json"), {
      "chat.hookFilesLocations": { "~/.copilot/hooks/": false }
    })
    expect(t.keys("vscode", { platform: "darwin" })).toEqual([
      `/home/Library/Application Support/Code/User/settings.json: chat.hookFilesLocations["~/.copilot/hooks/"]`
    ])
  })

  it("Codex: the project's config layer over the user's; the deprecated codex_hooks only where hooks is not set; requirements.toml for everyone", () => {
    const t = fresh()
    t.put(join(t.home, ".codex", "config.toml"), "[features]\ncodex_hooks = false\n")
    expect(t.keys("codex")).toEqual(["/home/.codex/config.toml: [features] codex_hooks"])
    t.put(join(t.home, ".codex", "config.toml"), "[features]\ncodex_hooks = false\nhooks = true\n")
    expect(t.keys("codex")).toEqual([])
    t.put(join(t.home, ".codex", "config.toml"), "features.hooks = false\n")
    t.put(join(t.projectDir, ".codex", "config.toml"), "[features]\nhooks = true\n")
    expect(t.keys("codex")).toEqual([])
    t.put(join(t.managedDir, "requirements.toml"), "[features]\nhooks = false\n")
    expect(t.keys("codex")).toEqual(["/managed/requirements.toml: [features] hooks"])
  })
})
