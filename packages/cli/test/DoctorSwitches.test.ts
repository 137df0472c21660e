/**
 * `doctor` and the switches that skip the entry it checks: an administrator's managed settings
 * (Claude Code's `allowManagedHooksOnly`), a cloned repository's settings (`disableAllHooks`,
 * `chat.useChatHooks`, Codex's `[features] hooks`, Gemini CLI's `hooksConfig.disabled`), the
 * environment. Whatever the test call says, doctor says "not protected", naming the file and the
 * key and what to do, and exits 1; a switch another scope overrides (as the agent reads it) is no
 * problem. The BUILT CLI, in a fresh HOME, project and managed folder.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-switches-")

/** A fresh HOME, project and managed folder with a policy that blocks rm -rf, and host mode installed for `host`. */
const wired = (host: string, scope: "--user" | "--project") => {
  const b = box()
  const managed = join(b.root, "managed")
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" }] }
      ]
    }
  })
  const doctor = (extra: Record<string, string> = {}) =>
    runCli(["doctor", "--host", host, "--agent-managed-dir", managed], {
      cwd: b.dir,
      env: cliEnv({ HOME: b.home, AGENT_HOOKS_DAEMON: "0", ...extra }),
      timeout: 60_000
    })
  const installed = runCli(["install", "--host", host, scope], {
    cwd: b.dir,
    env: cliEnv({ HOME: b.home, AGENT_HOOKS_DAEMON: "0" }),
    timeout: 60_000
  })
  expect(installed.status, installed.stdout + installed.stderr).toBe(0)
  return { b, managed, doctor }
}

/** Doctor said "not protected" for `file` and `key`, exit 1, never the line that calls the agent wired and blocking. */
const notProtected = (result: ReturnType<typeof runCli>, file: string, key: string) => {
  const out = result.stdout + result.stderr
  expect(result.status, out).toBe(1)
  expect(out).toContain(`not protected: ${file}: ${key}:`)
  expect(out).toContain("To fix:")
  expect(out).not.toMatch(/: wired \(.*\), and the test call is blocked/)
}

const isProtected = (result: ReturnType<typeof runCli>) => {
  const out = result.stdout + result.stderr
  expect(result.status, out).toBe(0)
  expect(out).not.toContain("not protected")
  expect(out).toMatch(/: wired \(.*\), and the test call is blocked/)
}

describe("Claude Code", () => {
  it("attacker's view of the administrator's switch: managed allowManagedHooksOnly (file or drop-in) skips the user's entry: not protected; a later drop-in that lifts it: protected", () => {
    const { b, managed, doctor } = wired("claude", "--user")
    isProtected(doctor())
    b.put(join(managed, "managed-settings.json"), { allowManagedHooksOnly: true })
    notProtected(doctor(), join(managed, "managed-settings.json"), "allowManagedHooksOnly")
    b.put(join(managed, "managed-settings.d", "90-open.json"), { allowManagedHooksOnly: false })
    isProtected(doctor())
    b.put(join(managed, "managed-settings.d", "95-lock.json"), { strictPluginOnlyCustomization: ["hooks"] })
    notProtected(doctor(), join(managed, "managed-settings.d", "95-lock.json"), "strictPluginOnlyCustomization")
  }, 180_000)

  it("disableAllHooks as Claude Code reads the scalar: a cloned project's true turns the user's entry off; the local file's false wins over it; managed true turns everything off", () => {
    const { b, managed, doctor } = wired("claude", "--user")
    b.put(join(b.dir, ".claude", "settings.json"), { disableAllHooks: true })
    notProtected(doctor(), join(b.dir, ".claude", "settings.json"), "disableAllHooks")
    b.put(join(b.dir, ".claude", "settings.local.json"), { disableAllHooks: false })
    isProtected(doctor())
    b.put(join(managed, "managed-settings.json"), { disableAllHooks: true })
    notProtected(doctor(), join(managed, "managed-settings.json"), "disableAllHooks")
  }, 180_000)

  it("a project's env key or the environment that starts Claude Code without its settings' hooks (CLAUDE_CODE_SIMPLE, CLAUDE_CODE_SAFE_MODE)", () => {
    const { b, doctor } = wired("claude", "--user")
    notProtected(doctor({ CLAUDE_CODE_SAFE_MODE: "1" }), "the environment", "CLAUDE_CODE_SAFE_MODE")
    isProtected(doctor({ CLAUDE_CODE_SAFE_MODE: "0" }))
    b.put(join(b.dir, ".claude", "settings.json"), { env: { CLAUDE_CODE_SIMPLE: "1" } })
    notProtected(doctor(), join(b.dir, ".claude", "settings.json"), "env.CLAUDE_CODE_SIMPLE")
  }, 180_000)
})

describe("the other agents' switches, each as a cloned repository or the user's config sets it", () => {
  it("Copilot CLI: .github/copilot/settings.json disableAllHooks", () => {
    const { b, doctor } = wired("copilot", "--project")
    isProtected(doctor())
    b.put(join(b.dir, ".github", "copilot", "settings.json"), { disableAllHooks: true })
    notProtected(doctor(), join(b.dir, ".github", "copilot", "settings.json"), "disableAllHooks")
  }, 180_000)

  it("VS Code: .vscode/settings.json chat.useChatHooks false, or chat.hookFilesLocations turning .github/hooks off", () => {
    const { b, doctor } = wired("vscode", "--project")
    isProtected(doctor())
    const file = join(b.dir, ".vscode", "settings.json")
    b.put(file, { "chat.useChatHooks": false })
    notProtected(doctor(), file, "chat.useChatHooks")
    b.put(file, { "chat.hookFilesLocations": { ".github/hooks": false } })
    notProtected(doctor(), file, `chat.hookFilesLocations[".github/hooks"]`)
  }, 180_000)

  it("Gemini CLI: the entry's command in hooksConfig.disabled; hooksConfig.enabled false in the system settings", () => {
    const { b, managed, doctor } = wired("gemini", "--project")
    isProtected(doctor())
    const file = join(b.dir, ".gemini", "settings.json")
    const settings = JSON.parse(readFileSync(file, "utf8"))
    const command = settings.hooks.BeforeTool[0].hooks[0].command as string
    b.put(file, { ...settings, hooksConfig: { disabled: [command] } })
    notProtected(doctor(), file, "hooksConfig.disabled")
    b.put(file, settings)
    b.put(join(managed, "settings.json"), { hooksConfig: { enabled: false } })
    notProtected(doctor(), join(managed, "settings.json"), "hooksConfig.enabled")
  }, 180_000)

  it("Qwen Code: a project's disableAllHooks over the user's entry", () => {
    const { b, doctor } = wired("qwen", "--user")
    isProtected(doctor())
    b.put(join(b.dir, ".qwen", "settings.json"), { disableAllHooks: true })
    notProtected(doctor(), join(b.dir, ".qwen", "settings.json"), "disableAllHooks")
  }, 180_000)

  it("Codex: a project's [features] hooks = false; the managed requirements.toml's allow_managed_hooks_only", () => {
    const { b, managed, doctor } = wired("codex", "--user")
    isProtected(doctor())
    b.put(join(b.dir, ".codex", "config.toml"), "[features]\nhooks = false\n")
    notProtected(doctor(), join(b.dir, ".codex", "config.toml"), "[features] hooks")
    b.put(join(b.dir, ".codex", "config.toml"), "[features]\nhooks = true\n")
    isProtected(doctor())
    b.put(join(managed, "requirements.toml"), "allow_managed_hooks_only = true\n")
    notProtected(doctor(), join(managed, "requirements.toml"), "allow_managed_hooks_only")
  }, 180_000)

  it("Codex: the user's [hooks.state] turning the entry off (another hook's state is no problem)", () => {
    const { b, doctor } = wired("codex", "--user")
    const hooks = join(b.home, ".codex", "hooks.json")
    const config = join(b.home, ".codex", "config.toml")
    b.put(config, `[hooks.state."${hooks}:pre_tool_use:0:7"]\nenabled = false\n`)
    isProtected(doctor())
    b.put(config, `[hooks.state."${hooks}:pre_tool_use:0:0"]\nenabled = false\n`)
    notProtected(doctor(), config, `[hooks.state."${hooks}:pre_tool_use:0:0"] enabled`)
  }, 180_000)
})
