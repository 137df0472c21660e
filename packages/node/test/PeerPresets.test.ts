/**
 * The presets of Codex, Cursor, Copilot CLI, VS Code and Qwen Code, with real hook processes: each
 * agent's own files in their own places of a temporary project and HOME, loaded through
 * `createHookEngine({ preset })`.
 */
import { afterEach, describe, expect, it } from "vitest"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { createHookEngine } from "@agent-hooks/node"
import { Presets } from "@agent-hooks/core"
import type { PromiseEngine } from "@agent-hooks/core"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const put = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2), { mode: 0o755 })
}

interface Project {
  readonly root: string
  readonly dir: string
  readonly home: string
  readonly warnings: Array<string>
  readonly engine: (
    preset: string,
    extra?: Record<string, unknown>,
    env?: Record<string, string>
  ) => Promise<PromiseEngine.PromiseHookEngine>
}
const project = (): Project => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-peers-")))
  cleanups.push(() => rmSync(root, { recursive: true, force: true }))
  const dir = join(root, "project")
  const home = join(root, "home")
  mkdirSync(dir, { recursive: true })
  mkdirSync(home, { recursive: true })
  const warnings: Array<string> = []
  return {
    root,
    dir,
    home,
    warnings,
    engine: async (name, extra = {}, env = {}) => {
      warnings.length = 0
      const engine = await createHookEngine({
        preset: Presets.byName(name)!,
        projectDir: dir,
        env: { PATH: process.env["PATH"], HOME: home, TMPDIR: root, AGENT_HOOKS_MANAGED_DIR: join(root, "managed"), ...env },
        onWarning: (warning) => warnings.push(warning),
        ...extra
      })
      cleanups.push(() => engine.close())
      return engine
    }
  }
}
const json = (value: unknown) => `printf '%s' '${JSON.stringify(value)}'`

describe("cursor preset", () => {
  it("reads hooks.json v1 at user, project and enterprise scope; a command runs from its hooks.json folder; permission deny blocks with the agent message", async () => {
    const p = project()
    put(
      join(p.dir, ".cursor", "gate.sh"),
      `#!/bin/sh\n${json({ permission: "deny", user_message: "blocked", agent_message: "rm is not allowed" })}\n`
    )
    put(join(p.dir, ".cursor", "hooks.json"), { version: 1, hooks: { beforeShellExecution: [{ command: "./gate.sh", matcher: "rm" }] } })
    put(join(p.home, ".cursor", "hooks.json"), { version: 1, hooks: { beforeShellExecution: [{ command: 'pwd > "$TMPDIR/user-cwd"' }] } })
    put(join(p.root, "managed", "hooks.json"), { version: 1, hooks: { stop: [{ command: json({ followup_message: "run the tests" }) }] } })
    const engine = await p.engine("cursor")
    expect(
      engine.settings.files
        .filter((file) => file.found)
        .map((file) => file.scope)
        .sort()
    ).toEqual(["managed", "project", "user"])
    const denied = await engine.dispatch("beforeShellExecution", { command: "rm -rf /", cwd: p.dir })
    expect(denied).toMatchObject({ blocked: true, decision: "deny", reason: "rm is not allowed" })
    expect(realpathSync(join(p.home, ".cursor"))).toBe((await import("node:fs")).readFileSync(join(p.root, "user-cwd"), "utf8").trim())
    const other = await engine.dispatch("beforeShellExecution", { command: "ls", cwd: p.dir })
    expect(other.blocked).toBe(false)
    // stop {followup_message}: the agent goes on with that prompt (a Stop block with it as the reason)
    const stop = await engine.dispatch("stop", { status: "completed", loop_count: 0 })
    expect(stop).toMatchObject({ blocked: true, decision: "block", reason: "run the tests" })
  })

  it("exit 2 denies; another failure fails open unless failClosed; beforeSubmitPrompt {continue: false} stops the prompt", async () => {
    const p = project()
    put(join(p.dir, ".cursor", "hooks.json"), {
      version: 1,
      hooks: {
        preToolUse: [
          { command: "echo nope >&2; exit 2", matcher: "Shell" },
          { command: "exit 1", matcher: "Read" },
          { command: "exit 1", matcher: "Write", failClosed: true }
        ],
        beforeSubmitPrompt: [{ command: json({ continue: false, user_message: "no secrets in prompts" }) }]
      }
    })
    const engine = await p.engine("cursor")
    expect(await engine.dispatch("preToolUse", { tool_name: "Shell", tool_input: { command: "ls" } })).toMatchObject({
      blocked: true,
      reason: "nope"
    })
    const open = await engine.dispatch("preToolUse", { tool_name: "Read", tool_input: {} })
    expect(open.blocked).toBe(false)
    expect(open.hooks[0]).toMatchObject({ exitCode: 1, status: "non-blocking-error" })
    expect((await engine.dispatch("preToolUse", { tool_name: "Write", tool_input: {} })).blocked).toBe(true)
    expect(await engine.dispatch("beforeSubmitPrompt", { prompt: "key=abc" })).toMatchObject({
      blocked: true,
      reason: "no secrets in prompts"
    })
    // the engine's failClosed overrides Cursor's fail-open rule
    const closed = await p.engine("cursor", { failClosed: true })
    expect((await closed.dispatch("preToolUse", { tool_name: "Read", tool_input: {} })).blocked).toBe(true)
  })

  // Cursor's docs: a stop hook's followup_message is submitted automatically, at most loop_limit
  // times in a row (default 5, null: no limit), each hook by its own limit; the stop payload's
  // loop_count says how many follow-ups there were.
  it("loop_limit caps each stop hook's follow-ups in a row (default 5, null none); the payload's loop_count counts when present", async () => {
    const p = project()
    put(join(p.dir, ".cursor", "hooks.json"), {
      version: 1,
      hooks: {
        stop: [
          { command: json({ followup_message: "run the tests" }), loop_limit: 2 },
          { command: json({ followup_message: "check the docs" }) },
          { command: json({ followup_message: "keep going" }), loop_limit: null }
        ]
      }
    })
    const engine = await p.engine("cursor", { stopBlockCap: 0 })
    const reasons: Array<string> = []
    for (let i = 0; i < 7; i++) reasons.push((await engine.dispatch("stop", { status: "completed" })).reason ?? "")
    expect(
      reasons.map((reason) =>
        reason
          .split("\n")
          .map((line) => line.split(" ")[0])
          .join(",")
      )
    ).toEqual(["run,check,keep", "run,check,keep", "check,keep", "check,keep", "check,keep", "keep", "keep"])
    // the host's count, when it sends one; the dropped follow-up is said on the hook
    p.warnings.length = 0
    const dropped = await engine.dispatch("stop", { status: "completed", loop_count: 2 })
    expect(dropped.reason).toBe("check the docs\nkeep going")
    expect(dropped.hooks[0]!.messages.join("\n")).toContain("its loop_limit is 2")
    // and on onWarning, as every dropped answer is (the host hears it, not only the outcome)
    expect(p.warnings.filter((line) => line.includes("its loop_limit is 2"))).toHaveLength(1)
    expect((await engine.dispatch("stop", { status: "completed", loop_count: 0 })).reason).toBe("run the tests\ncheck the docs\nkeep going")
  })

  it("a cloned repository's .cursor/hooks.json follows agent-hooks' trust rules; a project allow does not weaken a user deny", async () => {
    const p = project()
    put(join(p.dir, ".cursor", "hooks.json"), { version: 1, hooks: { preToolUse: [{ command: json({ permission: "allow" }) }] } })
    put(join(p.home, ".cursor", "hooks.json"), {
      version: 1,
      hooks: { preToolUse: [{ command: json({ permission: "deny", agent_message: "user says no" }) }] }
    })
    const held = await p.engine("cursor", { requireTrust: true })
    expect(held.settings.files.find((file) => file.path.endsWith(join(".cursor", "hooks.json")) && file.scope === "project")).toMatchObject(
      { heldBack: true }
    )
    expect(p.warnings.join("\n")).toContain("held back")
    const engine = await p.engine("cursor")
    expect(await engine.dispatch("preToolUse", { tool_name: "Shell", tool_input: {} })).toMatchObject({
      blocked: true,
      reason: "user says no"
    })
  })
})

describe("copilot preset", () => {
  it("reads every .github/hooks/*.json; bash runs off Windows; flat permissionDecision denies; matcher on toolName; cwd from the repository root", async () => {
    const p = project()
    put(join(p.dir, "scripts", "deny.sh"), `#!/bin/sh\n${json({ permissionDecision: "deny", permissionDecisionReason: "no pushes" })}\n`)
    put(join(p.dir, ".github", "hooks", "a.json"), {
      version: 1,
      hooks: {
        preToolUse: [{ type: "command", bash: "./deny.sh", powershell: "./deny.ps1", cwd: "scripts", matcher: "bash", timeoutSec: 5 }]
      }
    })
    put(join(p.dir, ".github", "hooks", "b.json"), {
      version: 1,
      hooks: { agentStop: [{ type: "command", powershell: "Write-Output hi" }] }
    })
    const engine = await p.engine("copilot")
    expect(
      await engine.dispatch("preToolUse", { toolName: "bash", toolArgs: '{"command":"git push"}', timestamp: 1, cwd: p.dir })
    ).toMatchObject({
      blocked: true,
      decision: "deny",
      reason: "no pushes"
    })
    expect((await engine.dispatch("preToolUse", { toolName: "view", toolArgs: "{}" })).blocked).toBe(false)
    // a hook with a command for another platform only is named, with file and JSON path
    expect(p.warnings.join("\n")).toContain(
      `${join(p.dir, ".github", "hooks", "b.json")} at hooks.agentStop[0]: no command for this platform (linux): the hook has only powershell`
    )
    expect(engine.settings.hooks["agentStop"] ?? []).toHaveLength(0)
  })

  it("on Windows the powershell command is picked, run by PowerShell", async () => {
    const p = project()
    put(join(p.dir, ".github", "hooks", "a.json"), {
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: "echo sh", powershell: "Write-Output ps" }] }
    })
    const engine = await p.engine("copilot", {}, { AGENT_HOOKS_PLATFORM: "win32" })
    expect(engine.settings.hooks["preToolUse"]![0]!.handler).toMatchObject({ command: "Write-Output ps", shell: "powershell" })
  })
})

describe("vscode preset", () => {
  it("runs Claude Code's settings but ignores their matchers (a documented difference), and says so", async () => {
    const p = project()
    put(join(p.dir, ".claude", "settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "echo vs-block >&2; exit 2" }] }] }
    })
    const engine = await p.engine("vscode")
    expect(
      await engine.dispatch("PreToolUse", { tool_name: "runTerminalCommand", tool_input: {}, sessionId: "s", hookEventName: "PreToolUse" })
    ).toMatchObject({ blocked: true, reason: "vs-block" })
    expect(p.warnings.join("\n")).toContain("VS Code ignores matchers, so this hook runs for every tool")
  })

  it("reads its flat files with linux/osx/windows overrides and Copilot CLI files; Stop blocks from hookSpecificOutput.decision", async () => {
    const p = project()
    put(join(p.dir, ".github", "hooks", "vs.json"), {
      hooks: {
        Stop: [
          {
            type: "command",
            command: "exit 0",
            linux: json({ hookSpecificOutput: { hookEventName: "Stop", decision: "block", reason: "tests failed" } }),
            windows: "exit 0"
          }
        ]
      }
    })
    put(join(p.home, ".copilot", "hooks", "cp.json"), {
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: "echo from-copilot >&2; exit 2" }] }
    })
    const engine = await p.engine("vscode")
    expect(await engine.dispatch("Stop", {})).toMatchObject({ blocked: true, decision: "block", reason: "tests failed" })
    expect(await engine.dispatch("PreToolUse", { tool_name: "editFiles", tool_input: {} })).toMatchObject({
      blocked: true,
      reason: "from-copilot"
    })
    const mac = await p.engine("vscode", {}, { AGENT_HOOKS_PLATFORM: "darwin" })
    expect(mac.settings.hooks["Stop"]![0]!.handler).toMatchObject({ command: "exit 0" })
  })
})

describe("codex preset", () => {
  it("reads ~/.codex and .codex hooks.json; deny blocks; ask and unknown keys fail the hook, which fails open unless failClosed", async () => {
    const p = project()
    put(join(p.home, ".codex", "hooks.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "command",
                command: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } }),
                timeout_sec: 5
              }
            ]
          },
          {
            matcher: "apply_patch",
            hooks: [
              {
                type: "command",
                command: json({
                  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no patches" }
                })
              }
            ]
          }
        ]
      }
    })
    put(join(p.dir, ".codex", "hooks.json"), {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: json({ decision: "block", reason: "r", extra: 1 }) }] }] }
    })
    const engine = await p.engine("codex")
    const ask = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, turn_id: "t", model: "m" })
    expect(ask.blocked).toBe(false)
    expect(ask.hooks[0]).toMatchObject({ status: "non-blocking-error" })
    expect(ask.warnings.join("\n")).toContain("unsupported permissionDecision:ask")
    expect(await engine.dispatch("PreToolUse", { tool_name: "apply_patch", tool_input: {} })).toMatchObject({
      blocked: true,
      reason: "no patches"
    })
    const unknown = await engine.dispatch("UserPromptSubmit", { prompt: "hi" })
    expect(unknown.blocked).toBe(false)
    expect(unknown.warnings.join("\n")).toContain(`unknown field "extra"`)
    const closed = await p.engine("codex", { failClosed: true })
    expect((await closed.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })).blocked).toBe(true)
  })

  it("commandWindows on Windows, command elsewhere; Interrupt cannot block", async () => {
    const p = project()
    put(join(p.dir, ".codex", "hooks.json"), {
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: "echo unix", commandWindows: "echo windows" }] }],
        Interrupt: [{ hooks: [{ type: "command", command: "exit 2" }] }]
      }
    })
    expect((await p.engine("codex", {}, { AGENT_HOOKS_PLATFORM: "win32" })).settings.hooks["PreToolUse"]![0]!.handler).toMatchObject({
      command: "echo windows"
    })
    const engine = await p.engine("codex")
    expect(engine.settings.hooks["PreToolUse"]![0]!.handler).toMatchObject({ command: "echo unix" })
    expect((await engine.dispatch("Interrupt", {})).blocked).toBe(false)
  })
})

describe("codex preset: config.toml and requirements.toml", () => {
  // Codex's plugins (codex-rs core-plugins store.rs, loader.rs, manifest.rs): a plugin config.toml turns
  // on under [plugins."<plugin>@<marketplace>"], installed in $CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>/
  // with .codex-plugin/plugin.json, brings hooks/hooks.json, with ${PLUGIN_ROOT} (and CLAUDE_PLUGIN_ROOT)
  // and PLUGIN_DATA, $CODEX_HOME/plugins/data/<plugin>-<marketplace>; not managed hooks.
  const installPlugin = (p: Project, marketplace: string, name: string, version: string, manifest: Record<string, unknown> = {}) => {
    const root = join(p.home, ".codex", "plugins", "cache", marketplace, name, version)
    put(join(root, ".codex-plugin", "plugin.json"), { name, version, ...manifest })
    return root
  }
  const turnOn = (p: Project, ...lines: Array<string>) => put(join(p.home, ".codex", "config.toml"), lines.join("\n") + "\n")
  const bash = { tool_name: "Bash", tool_input: { command: "ls" } }
  /** A plugin's hooks/hooks.json: one PreToolUse hook that blocks with `word` on stderr. */
  const hook = (root: string, word: string) =>
    put(join(root, "hooks", "hooks.json"), {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `echo ${word} >&2; exit 2` }] }] }
    })

  it("an installed plugin's hooks/hooks.json runs with PLUGIN_ROOT, ${PLUGIN_ROOT} and Codex's PLUGIN_DATA; allow_managed_hooks_only drops it", async () => {
    const p = project()
    const root = installPlugin(p, "team market", "guard", "1.2.0")
    turnOn(p, '[plugins."guard@team market"]', "enabled = true")
    put(join(root, "hooks", "guard.sh"), `#!/bin/sh\necho "from $PLUGIN_ROOT data $PLUGIN_DATA|$CLAUDE_PLUGIN_DATA|$1" >&2\nexit 2\n`)
    put(join(root, "hooks", "hooks.json"), {
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'sh "${PLUGIN_ROOT}/hooks/guard.sh" "${PLUGIN_DATA}"' }] }]
      }
    })
    const engine = await p.engine("codex")
    const data = join(p.home, ".codex", "plugins", "data", "guard-team market")
    expect(await engine.dispatch("PreToolUse", bash)).toMatchObject({ blocked: true, reason: `from ${root} data ${data}|${data}|${data}` })
    expect(engine.settings.hooks["PreToolUse"]![0]).toMatchObject({ scope: "plugin", source: join(root, "hooks", "hooks.json") })
    put(join(p.root, "managed", "requirements.toml"), "allow_managed_hooks_only = true\n")
    const managedOnly = await p.engine("codex")
    expect((await managedOnly.dispatch("PreToolUse", bash)).blocked).toBe(false)
  })

  it("a plugin's manifest names its hooks: paths (then hooks/hooks.json is not read) or inline hooks; a path leaving the plugin is said and ignored", async () => {
    const p = project()
    const paths = installPlugin(p, "m", "paths", "1.0.0", { hooks: ["./hooks/one.json", "./extra/two.json", "../outside.json"] })
    put(join(paths, "hooks", "one.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo one >&2; exit 2" }] }] }
    })
    put(join(paths, "extra", "two.json"), { hooks: { Stop: [{ hooks: [{ type: "command", command: "echo two >&2; exit 2" }] }] } })
    put(join(paths, "hooks", "hooks.json"), {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo default >&2; exit 2" }] }] }
    })
    const inline = installPlugin(p, "m", "inline", "2.0.0", {
      hooks: {
        hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'echo "inline $PLUGIN_ROOT" >&2; exit 2' }] }] }
      }
    })
    turnOn(p, '[plugins."paths@m"]', "enabled = true", '[plugins."inline@m"]', "enabled = true")
    const engine = await p.engine("codex")
    expect(await engine.dispatch("PreToolUse", bash)).toMatchObject({ blocked: true, reason: "one" })
    expect(await engine.dispatch("Stop", { stop_hook_active: false })).toMatchObject({ blocked: true, reason: "two" })
    expect((await engine.dispatch("UserPromptSubmit", { prompt: "hi" })).blocked).toBe(false)
    expect(await engine.dispatch("PostToolUse", { ...bash, tool_response: {} })).toMatchObject({
      blocked: true,
      reason: `inline ${inline}`
    })
    expect(engine.settings.hooks["PostToolUse"]![0]).toMatchObject({
      scope: "plugin",
      source: join(inline, ".codex-plugin", "plugin.json")
    })
    expect(p.warnings.join("\n")).toMatch(/plugin\.json.*hooks\[2\].*"\.\.\/outside\.json".*ignored/)
  })

  it("only plugins config.toml turns on run, each at its active version (local, else the highest); what is skipped is said", async () => {
    const p = project()
    hook(installPlugin(p, "m", "off", "1.0.0"), "off")
    hook(installPlugin(p, "m", "unlisted", "1.0.0"), "unlisted")
    hook(installPlugin(p, "m", "versions", "1.9.0"), "v1.9.0")
    hook(installPlugin(p, "m", "versions", "1.10.0"), "v1.10.0")
    turnOn(p, '[plugins."off@m"]', "enabled = false", '[plugins."versions@m"]', "enabled = true")
    const engine = await p.engine("codex")
    const pre = await engine.dispatch("PreToolUse", bash)
    expect(pre.hooks.map((h) => h.stderr?.trim())).toEqual(["v1.10.0"])
    const said = p.warnings.join("\n")
    expect(said).toMatch(/plugin "off@m" is off .*enabled = false/)
    expect(said).toMatch(/plugin "unlisted@m" is installed but not turned on/)
    expect(said).toMatch(/plugin "versions@m": only its active version "1\.10\.0" runs, not "1\.9\.0"/)
    hook(installPlugin(p, "m", "versions", "local"), "local")
    expect((await (await p.engine("codex")).dispatch("PreToolUse", bash)).hooks.map((h) => h.stderr?.trim())).toEqual(["local"])
  })

  // Codex's discovery: a hook is off when the user's config.toml says [hooks.state."<source>:<event>:<group>:<handler>"]
  // enabled = false (a plugin's source is "<plugin>@<marketplace>:<file in the plugin>"); a managed hook is always on.
  it("[hooks.state] enabled = false in the user's config.toml turns one hook off, said; not a managed one, and not from a project's config.toml", async () => {
    const p = project()
    const userHooks = join(p.home, ".codex", "hooks.json")
    put(userHooks, {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: "echo first >&2" },
              { type: "command", command: "echo second >&2" }
            ]
          }
        ]
      }
    })
    const root = installPlugin(p, "m", "guard", "1.0.0")
    put(join(root, "hooks", "hooks.json"), { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo plugin >&2" }] }] } })
    put(join(p.root, "managed", "hooks.json"), { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo managed >&2" }] }] } })
    turnOn(
      p,
      '[plugins."guard@m"]',
      "enabled = true",
      `[hooks.state."${userHooks}:pre_tool_use:0:0"]`,
      "enabled = false",
      '[hooks.state."guard@m:hooks/hooks.json:pre_tool_use:0:0"]',
      "enabled = false",
      `[hooks.state."${join(p.root, "managed", "hooks.json")}:pre_tool_use:0:0"]`,
      "enabled = false"
    )
    put(
      join(p.dir, ".codex", "config.toml"),
      `[hooks.state."${userHooks}:pre_tool_use:0:1"]\nenabled = false\n[plugins."guard@m"]\nenabled = false\n`
    )
    const engine = await p.engine("codex")
    const ran = (await engine.dispatch("PreToolUse", bash)).hooks.map((h) => h.stderr?.trim()).sort()
    expect(ran).toEqual(["managed", "second"])
    const said = p.warnings.join("\n")
    expect(said).toContain(`off ([hooks.state."${userHooks}:pre_tool_use:0:0"] enabled = false`)
    expect(said).toContain(`off ([hooks.state."guard@m:hooks/hooks.json:pre_tool_use:0:0"] enabled = false`)
    expect(said).toMatch(/cannot turn a managed hook off; it runs/)
    expect(said).toMatch(/\.codex\/config\.toml.*read only in the user's config\.toml.*ignored/)
    expect(said).toMatch(/\.codex\/config\.toml.*plugins: read only in the user's config\.toml.*cannot turn plugins on or off/)
  })

  // Codex's marketplace policy: requirements.toml's [marketplaces] restrict_to_allowed_sources keeps only the plugins whose
  // marketplace (as the user's config.toml declares it) is an allowed source; [features] plugins = false turns them all off.
  it("a managed restrict_to_allowed_sources: a plugin from a marketplace it does not allow does not run, whatever the user's or a cloned repo's config says", async () => {
    const p = project()
    hook(installPlugin(p, "company", "guard", "1.0.0"), "guard")
    hook(installPlugin(p, "rogue", "evil", "1.0.0"), "evil")
    hook(installPlugin(p, "nowhere", "sneaky", "1.0.0"), "sneaky")
    hook(installPlugin(p, "local-market", "tool", "1.0.0"), "tool")
    const requirements = join(p.root, "managed", "requirements.toml")
    const policy = (...rules: Array<string>) =>
      put(requirements, ["[marketplaces]", "restrict_to_allowed_sources = true", ...rules].join("\n") + "\n")
    policy("[marketplaces.allowed_sources.company]", 'source = "git"', 'url = "https://github.com/company/plugins.git"')
    turnOn(
      p,
      '[marketplaces.company]\nsource_type = "git"\nsource = "https://github.com/company/plugins.git"',
      '[marketplaces.rogue]\nsource_type = "git"\nsource = "https://evil.example/plugins.git"',
      `[marketplaces.local-market]\nsource_type = "local"\nsource = "${join(p.root, "markets", "local")}"`,
      ...["guard@company", "evil@rogue", "sneaky@nowhere", "tool@local-market"].map((id) => `[plugins."${id}"]\nenabled = true`)
    )
    // The cloned repository vouches for its marketplace with the allowed URL, and turns the plugin on
    put(
      join(p.dir, ".codex", "config.toml"),
      '[marketplaces.rogue]\nsource_type = "git"\nsource = "https://github.com/company/plugins.git"\n[plugins."evil@rogue"]\nenabled = true\n'
    )
    const ran = async () => (await (await p.engine("codex")).dispatch("PreToolUse", bash)).hooks.map((h) => h.stderr?.trim()).sort()
    expect(await ran()).toEqual(["guard"])
    const said = p.warnings.join("\n")
    expect(said).toMatch(
      /plugin "evil@rogue" does not load: its marketplace "rogue" \(git "https:\/\/evil\.example\/plugins\.git"\) is not an allowed source/
    )
    expect(said).toMatch(/plugin "sneaky@nowhere" does not load: its marketplace "nowhere" is not declared/)
    expect(said).toMatch(/\.codex\/config\.toml at marketplaces: read only in the user's config\.toml.*ignored/)
    // A host pattern and a local path are allowed sources too; one invalid rule allows nothing
    policy("[marketplaces.allowed_sources.gh]", 'source = "host_pattern"', "host_pattern = '^github[.]com$'")
    expect(await ran()).toEqual(["guard"])
    policy("[marketplaces.allowed_sources.here]", 'source = "local"', `path = "${join(p.root, "markets", "local")}/"`)
    expect(await ran()).toEqual(["tool"])
    policy("[marketplaces.allowed_sources.gh]", 'source = "host_pattern"', "host_pattern = '('")
    expect(await ran()).toEqual([])
    expect(p.warnings.join("\n")).toMatch(/host_pattern is not a valid regex.*so no marketplace is allowed/)
    // [features] plugins = false in the managed requirements: no plugin at all
    put(requirements, "[features]\nplugins = false\n")
    expect(await ran()).toEqual([])
    expect(p.warnings.join("\n")).toMatch(/plugin "guard@company" does not load: plugins are turned off by .*requirements\.toml/)
    // Without the policy, the user's choice stands (the project's still does not count)
    rmSync(requirements)
    expect(await ran()).toEqual(["evil", "guard", "sneaky", "tool"])
  })

  // Codex's discovery: the System config layer (/etc/codex/config.toml and the hooks.json beside it)
  // is managed, like requirements.toml: its hooks run under allow_managed_hooks_only.
  it("the system layer's hooks.json and config.toml [hooks] are managed hooks: they run when allow_managed_hooks_only drops the user's", async () => {
    const p = project()
    const system = join(p.root, "managed")
    put(join(system, "requirements.toml"), "allow_managed_hooks_only = true\n")
    put(join(system, "hooks.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo system-json >&2; exit 2" }] }] }
    })
    put(join(system, "config.toml"), `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo system-toml >&2; exit 2"\n`)
    put(join(p.home, ".codex", "hooks.json"), {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo user >&2; exit 2" }] }] }
    })
    const engine = await p.engine("codex")
    const pre = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(pre).toMatchObject({ blocked: true, reason: "system-json" })
    expect(pre.hooks.map((hook) => hook.source)).toEqual([join(system, "hooks.json")])
    expect(await engine.dispatch("Stop", { stop_hook_active: false })).toMatchObject({ blocked: true, reason: "system-toml" })
  })

  it("reads [hooks] in ~/.codex/config.toml (its [hooks.state] is no event); requirements.toml's managed hooks run and allow_managed_hooks_only drops the others", async () => {
    const p = project()
    put(
      join(p.home, ".codex", "config.toml"),
      [
        'model = "gpt-5"',
        "[[hooks.PreToolUse]]",
        'matcher = "Bash"',
        "[[hooks.PreToolUse.hooks]]",
        'type = "command"',
        'command = "echo from-user-toml >&2; exit 2"',
        'command_windows = "echo win"',
        '[hooks.state."x:PreToolUse:0:0"]',
        'trusted_hash = "abc"',
        ""
      ].join("\n")
    )
    const engine = await p.engine("codex")
    expect(await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })).toMatchObject({
      blocked: true,
      reason: "from-user-toml"
    })
    expect(p.warnings.join("\n")).not.toContain("state")
    put(
      join(p.root, "managed", "requirements.toml"),
      [
        "allow_managed_hooks_only = true",
        "[[hooks.PreToolUse]]",
        'matcher = "apply_patch"',
        "[[hooks.PreToolUse.hooks]]",
        'type = "command"',
        'command = "echo managed >&2; exit 2"',
        ""
      ].join("\n")
    )
    const managed = await p.engine("codex")
    expect((await managed.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })).blocked).toBe(false)
    expect(await managed.dispatch("PreToolUse", { tool_name: "apply_patch", tool_input: {} })).toMatchObject({
      blocked: true,
      reason: "managed"
    })
    expect(p.warnings.join("\n")).toContain("allowManagedHooksOnly")
  })

  it("[features].hooks = false in requirements.toml turns every hook off; bad TOML is an error naming the file and line", async () => {
    const p = project()
    put(join(p.dir, ".codex", "hooks.json"), { hooks: { Stop: [{ hooks: [{ type: "command", command: "exit 2" }] }] } })
    put(join(p.root, "managed", "requirements.toml"), "[features]\nhooks = false\n")
    expect((await p.engine("codex")).settings.hooks["Stop"] ?? []).toHaveLength(0)
    put(join(p.dir, ".codex", "config.toml"), "[hooks\nx = 1\n")
    await expect(p.engine("codex")).rejects.toThrow(/config\.toml.*not valid TOML \(line 1/)
  })
})

describe("qwen preset", () => {
  it("reads ~/.qwen and .qwen settings: QWEN_PROJECT_DIR, exit 2 blocks run_shell_command; of its own events the Todo ones block by decision, SessionDelete cannot", async () => {
    const p = project()
    put(join(p.dir, ".qwen", "settings.json"), {
      hooks: {
        PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: 'echo "$QWEN_PROJECT_DIR" >&2; exit 2' }] }],
        TodoCreated: [{ hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"one task at a time"}'` }] }],
        TodoCompleted: [{ hooks: [{ type: "command", command: "echo 'tests first' >&2; exit 2" }] }],
        SessionDelete: [{ hooks: [{ type: "command", command: "exit 2" }] }]
      }
    })
    const engine = await p.engine("qwen")
    expect(await engine.dispatch("PreToolUse", { tool_name: "run_shell_command", tool_input: { command: "ls" } })).toMatchObject({
      blocked: true,
      reason: p.dir
    })
    // Qwen Code's todo_write refuses the change on a "block" decision and tells the model why
    expect(await engine.dispatch("TodoCreated", {})).toMatchObject({
      blocked: true,
      reason: "one task at a time",
      toModel: ["one task at a time"]
    })
    // exit 2 alone does not block there in Qwen Code 0.24 (it reads as "deny"): a block is never dropped here
    expect(await engine.dispatch("TodoCompleted", {})).toMatchObject({ blocked: true, reason: "tests first" })
    expect((await engine.dispatch("SessionDelete", {})).blocked).toBe(false)
  })

  // What Qwen Code 0.24 reads of each event's hookSpecificOutput (checked field by field, event by
  // event, against its engine in agents/oracles.mjs): a field it does not read is not delivered, and named.
  it("each event delivers the hookSpecificOutput fields Qwen Code reads there, and names the others", async () => {
    const p = project()
    const answer = (event: string, fields: Record<string, unknown>) => [
      { hooks: [{ type: "command", command: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...fields } })}'` }] }
    ]
    put(join(p.dir, ".qwen", "settings.json"), {
      hooks: {
        PreCompact: answer("PreCompact", { additionalContext: "keep the test names" }),
        Notification: answer("Notification", { additionalContext: "never read" }),
        SessionStart: answer("SessionStart", { additionalContext: "hello", sessionTitle: "t", watchPaths: ["/tmp"] }),
        PreToolUse: answer("PreToolUse", { permissionDecision: "allow", updatedInput: { command: "rm -rf /" } }),
        PermissionDenied: answer("PermissionDenied", { retry: true })
      }
    })
    const engine = await p.engine("qwen")
    // PreCompact's context is the compaction's extra instructions
    expect((await engine.dispatch("PreCompact", { trigger: "manual" })).additionalContext).toEqual(["keep the test names"])
    const notification = await engine.dispatch("Notification", { message: "m", notification_type: "idle_prompt" })
    expect(notification.additionalContext).toEqual([])
    expect(notification.warnings.join("\n")).toContain(
      "hookSpecificOutput.additionalContext is ignored: Notification reads no hookSpecificOutput field here"
    )
    const start = await engine.dispatch("SessionStart", { source: "startup" })
    expect(start.additionalContext).toEqual(["hello"])
    expect(start.hookSpecificOutput).toBeNull()
    expect(start.warnings.join("\n")).toContain(
      "hookSpecificOutput.sessionTitle is ignored: SessionStart reads only hookSpecificOutput.additionalContext"
    )
    expect(start.warnings.join("\n")).toContain("hookSpecificOutput.watchPaths is ignored")
    // Qwen Code never applies PreToolUse's updatedInput: the call runs as it was
    const pre = await engine.dispatch("PreToolUse", { tool_name: "run_shell_command", tool_input: { command: "ls" } })
    expect(pre).toMatchObject({ blocked: false, decision: "allow", updatedInput: null })
    expect(pre.warnings.join("\n")).toContain("hookSpecificOutput.updatedInput is ignored: PreToolUse reads only")
    const denied = await engine.dispatch("PermissionDenied", { tool_name: "run_shell_command", tool_input: {}, reason: "r" })
    expect(denied.hookSpecificOutput).toBeNull()
    expect(denied.warnings.join("\n")).toContain(
      "hookSpecificOutput.retry is ignored: PermissionDenied reads no hookSpecificOutput field here"
    )
  })

  it("a timeout of 1000 or more is milliseconds, as Qwen Code reads it (said with file and path); a smaller one seconds", async () => {
    const p = project()
    put(join(p.home, ".qwen", "settings.json"), {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: "command", command: "exit 0", timeout: 5000 },
              { type: "command", command: "exit 0", timeout: 30 }
            ]
          }
        ]
      }
    })
    const engine = await p.engine("qwen")
    expect(engine.settings.hooks["Stop"]!.map((entry) => (entry.handler as { timeout?: number }).timeout)).toEqual([5, 30])
    expect(p.warnings.join("\n")).toContain(
      `${join(p.home, ".qwen", "settings.json")} at hooks.Stop[0].hooks[0].timeout: 5000 is 1000 or more, which Qwen Code reads as milliseconds: 5 s`
    )
  })

  // Qwen Code's matchesHookPattern: a matcher naming any alias of the tool (Claude Code's `Bash`, the
  // display name `Shell`), alone or as one alternative of a `|` list, matches it; else an unanchored
  // regular expression on the wire name. Checked against Qwen Code's own engine in agents/oracles.mjs.
  it("a matcher matches what Qwen Code's matches: Claude Code's and Qwen's display names of a tool, alone, in a list or beside a regex", async () => {
    const p = project()
    const guard = (matcher: string) => ({ matcher, hooks: [{ type: "command", command: `echo ${JSON.stringify(matcher)} >&2; exit 2` }] })
    const blockedBy = async (matcher: string, tool: string) => {
      put(join(p.dir, ".qwen", "settings.json"), { hooks: { PreToolUse: [guard(matcher)] } })
      const engine = await p.engine("qwen")
      return (await engine.dispatch("PreToolUse", { tool_name: tool, tool_input: {} })).blocked
    }
    const table: ReadonlyArray<readonly [string, string, boolean]> = [
      ["Bash", "run_shell_command", true],
      ["Shell", "run_shell_command", true],
      ["Write|Bash", "run_shell_command", true],
      ["Edit|write_.*", "edit", true],
      ["Edit|write_.*", "notebook_edit", false],
      ["Read", "read_file", true],
      ["Read", "grep_search", false],
      ["shell", "run_shell_command", true],
      ["Bash", "write_file", false],
      ["^Bash$", "run_shell_command", false]
    ]
    const seen = []
    for (const [matcher, tool] of table) seen.push([matcher, tool, await blockedBy(matcher, tool)])
    expect(seen).toEqual(table)
  })

  it("sequential: true on a group runs the call's matched hooks one after another, as Qwen Code's planner does (no unknown-key warning)", async () => {
    const p = project()
    // each hook writes when it started and ended (ms); none may start before the one before it ended
    const timed = (label: string) => ({
      type: "command",
      command: `echo "${label} $(date +%s%3N)" >> "$TMPDIR/times"; sleep 0.3; echo "${label} $(date +%s%3N)" >> "$TMPDIR/times"`
    })
    put(join(p.dir, ".qwen", "settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", sequential: true, hooks: [timed("a")] }, { hooks: [timed("b"), timed("c")] }] }
    })
    const engine = await p.engine("qwen")
    await engine.dispatch("PreToolUse", { tool_name: "run_shell_command", tool_input: {} })
    const { readFileSync } = await import("node:fs")
    const times = readFileSync(join(p.root, "times"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" "))
    // in order: a a b b c c, each label's start and end together
    expect(times.map(([label]) => label)).toEqual(["a", "a", "b", "b", "c", "c"])
    expect(p.warnings.filter((warning) => warning.includes("sequential"))).toEqual([])
  })
})

// The engine's rule over every preset with scopes: a lower scope never weakens a higher one. For each
// preset, in its own files and answers: a higher scope's hook blocks a call while the lower scope's
// hook explicitly allows it (the call stays blocked), and the lower scope's file switches hooks off
// where its dialect can (the higher hook still runs).
describe("every preset with scopes: a lower scope never weakens a higher one", () => {
  type Scope = "managed" | "user" | "project"
  interface Dialect {
    readonly preset: string
    readonly event: string
    readonly payload: Record<string, unknown>
    readonly scopes: ReadonlyArray<Scope>
    /** The file of a scope and its content with one hook running `command` on the event. */
    readonly file: (p: Project, scope: Scope, command: string) => readonly [string, unknown]
    /** A block and an explicit allow, in the dialect's own answers. */
    readonly block: string
    readonly allow: string
    /** The same file switching hooks off, where the dialect has a key for it. */
    readonly off?: (p: Project, scope: Scope, command: string) => readonly [string, unknown]
  }
  const exit2 = "echo higher-says-no >&2; exit 2"
  const claudeAllow = json({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "lower says yes" }
  })
  const nested = (event: string, command: string, matcher?: string) => ({
    [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command }] }]
  })
  const managedDir = (p: Project) => join(p.root, "managed")
  const dialects: ReadonlyArray<Dialect> = [
    {
      preset: "agent-hooks",
      event: "PreToolUse",
      payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) => [
        scope === "managed"
          ? join(managedDir(p), "managed-settings.json")
          : join(scope === "user" ? p.home : p.dir, ".agent-hooks", "settings.json"),
        { hooks: nested("PreToolUse", command, "Bash") }
      ],
      block: exit2,
      allow: claudeAllow,
      off: (p, scope, command) => [
        join(scope === "user" ? p.home : p.dir, ".agent-hooks", "settings.json"),
        { disableAllHooks: true, hooks: nested("PreToolUse", command, "Bash") }
      ]
    },
    {
      preset: "claude",
      event: "PreToolUse",
      payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) => [
        scope === "managed"
          ? join(managedDir(p), "managed-settings.json")
          : join(scope === "user" ? p.home : p.dir, ".claude", "settings.json"),
        { hooks: nested("PreToolUse", command, "Bash") }
      ],
      block: exit2,
      allow: claudeAllow,
      off: (p, scope, command) => [
        join(scope === "user" ? p.home : p.dir, ".claude", "settings.json"),
        { disableAllHooks: true, hooks: nested("PreToolUse", command, "Bash") }
      ]
    },
    {
      preset: "gemini",
      event: "BeforeTool",
      payload: { tool_name: "run_shell_command", tool_input: { command: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) => [
        scope === "managed"
          ? join(managedDir(p), "gemini-system.json")
          : join(scope === "user" ? p.home : p.dir, ".gemini", "settings.json"),
        { hooks: nested("BeforeTool", command, "run_shell_command") }
      ],
      block: exit2,
      allow: json({ decision: "allow", reason: "lower says yes" }),
      off: (p, scope, command) => [
        join(scope === "user" ? p.home : p.dir, ".gemini", "settings.json"),
        { hooksConfig: { enabled: false }, hooks: nested("BeforeTool", command) }
      ]
    },
    {
      preset: "qwen",
      event: "PreToolUse",
      payload: { tool_name: "run_shell_command", tool_input: { command: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) => [
        scope === "managed" ? join(managedDir(p), "qwen-system.json") : join(scope === "user" ? p.home : p.dir, ".qwen", "settings.json"),
        { hooks: nested("PreToolUse", command, "run_shell_command") }
      ],
      block: exit2,
      allow: claudeAllow,
      off: (p, scope, command) => [
        join(scope === "user" ? p.home : p.dir, ".qwen", "settings.json"),
        { disableAllHooks: true, hooks: nested("PreToolUse", command) }
      ]
    },
    {
      preset: "codex",
      event: "PreToolUse",
      payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) =>
        scope === "managed"
          ? [
              join(managedDir(p), "requirements.toml"),
              `[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(command)}\n`
            ]
          : [
              join(scope === "user" ? join(p.home, ".codex") : join(p.dir, ".codex"), "hooks.json"),
              { hooks: nested("PreToolUse", command) }
            ],
      block: exit2,
      allow: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls" } } }),
      off: (p, scope, command) => [
        join(scope === "user" ? join(p.home, ".codex") : join(p.dir, ".codex"), "config.toml"),
        `[features]\nhooks = false\n\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(command)}\n`
      ]
    },
    {
      preset: "cursor",
      event: "preToolUse",
      payload: { tool_name: "Shell", tool_input: { command: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) => [
        scope === "managed" ? join(managedDir(p), "hooks.json") : join(scope === "user" ? p.home : p.dir, ".cursor", "hooks.json"),
        { version: 1, hooks: { preToolUse: [{ command }] } }
      ],
      block: exit2,
      allow: json({ permission: "allow", agent_message: "lower says yes" })
    },
    {
      preset: "copilot",
      event: "preToolUse",
      payload: { toolName: "bash", toolArgs: "{}" },
      scopes: ["user", "project"],
      file: (p, scope, command) => [
        join(scope === "user" ? join(p.home, ".copilot") : join(p.dir, ".github"), "hooks", "guard.json"),
        { version: 1, hooks: { preToolUse: [{ type: "command", bash: command }] } }
      ],
      block: exit2,
      allow: json({ permissionDecision: "allow", permissionDecisionReason: "lower says yes" })
    },
    {
      preset: "vscode",
      event: "PreToolUse",
      payload: { tool_name: "runTerminalCommand", tool_input: { command: "rm -rf /" } },
      scopes: ["user", "project"],
      file: (p, scope, command) => [
        join(scope === "user" ? join(p.home, ".copilot") : join(p.dir, ".github"), "hooks", "guard.json"),
        { hooks: { PreToolUse: [{ type: "command", command }] } }
      ],
      block: exit2,
      allow: claudeAllow
    },
    {
      preset: "windsurf",
      event: "pre_run_command",
      payload: { agent_action_name: "pre_run_command", tool_info: { command_line: "rm -rf /" } },
      scopes: ["managed", "user", "project"],
      file: (p, scope, command) => [
        scope === "managed"
          ? join(managedDir(p), "windsurf-system.json")
          : scope === "user"
            ? join(p.home, ".codeium", "windsurf", "hooks.json")
            : join(p.dir, ".windsurf", "hooks.json"),
        { hooks: { pre_run_command: [{ command }] } }
      ],
      block: exit2,
      allow: "exit 0"
    },
    {
      preset: "kiro",
      event: "PreToolUse",
      payload: { tool_name: "execute_bash", tool_input: { command: "rm -rf /" } },
      scopes: ["user", "project"],
      file: (p, scope, command) => [
        join(scope === "user" ? p.home : p.dir, ".kiro", "hooks", "guard.json"),
        { version: "v1", hooks: [{ name: "guard", trigger: "PreToolUse", action: { type: "command", command } }] }
      ],
      block: exit2,
      allow: "exit 0"
    },
    {
      preset: "cline",
      event: "PreToolUse",
      payload: {
        clineVersion: "3.36.0",
        hookName: "PreToolUse",
        taskId: "t",
        preToolUse: { toolName: "execute_command", parameters: { command: "rm -rf /" } }
      },
      scopes: ["user", "project"],
      file: (p, scope, command) => [
        join(scope === "user" ? join(p.home, "Documents", "Cline", "Hooks") : join(p.dir, ".clinerules", "hooks"), "PreToolUse"),
        `#!/bin/sh\n${command}\n`
      ],
      block: json({ cancel: true, errorMessage: "higher-says-no" }),
      allow: json({ cancel: false })
    },
    {
      preset: "antigravity",
      event: "PreToolUse",
      payload: { conversationId: "c", tool_name: "run_command", toolCall: { name: "run_command", args: { CommandLine: "rm -rf /" } } },
      scopes: ["user", "project"],
      file: (p, scope, command) => [
        scope === "user" ? join(p.home, ".gemini", "antigravity-cli", "hooks.json") : join(p.dir, ".agents", "hooks.json"),
        { guard: { PreToolUse: [{ hooks: [{ type: "command", command }] }] } }
      ],
      block: json({ allowTool: false, denyReason: "higher-says-no" }),
      allow: json({ allowTool: true })
    },
    {
      preset: "wave",
      event: "PreToolUse",
      payload: { tool_name: "Bash", tool_input: { command: "rm -rf /" } },
      scopes: ["user", "project"],
      file: (p, scope, command) => [
        join(scope === "user" ? p.home : p.dir, ".wave", "settings.json"),
        { hooks: nested("PreToolUse", command, "Bash") }
      ],
      block: exit2,
      allow: claudeAllow
    }
  ]
  const env = (p: Project): Record<string, string> => ({
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(managedDir(p), "gemini-system.json"),
    QWEN_CODE_SYSTEM_SETTINGS_PATH: join(managedDir(p), "qwen-system.json"),
    WINDSURF_SYSTEM_HOOKS_PATH: join(managedDir(p), "windsurf-system.json"),
    AGENT_HOOKS_PLATFORM: "linux"
  })
  const pairs = (scopes: ReadonlyArray<Scope>) =>
    scopes.flatMap((higher, i) => scopes.slice(i + 1).map((lower) => [higher, lower] as const))

  for (const d of dialects) {
    it(`${d.preset}: ${pairs(d.scopes)
      .map(([h, l]) => `${h} over ${l}`)
      .join(", ")}`, async () => {
      const seen: Array<string> = []
      for (const [higher, lower] of pairs(d.scopes)) {
        const p = project()
        const [highFile, highDoc] = d.file(p, higher, d.block)
        put(highFile, highDoc)
        const [lowFile, lowDoc] = d.file(p, lower, d.allow)
        put(lowFile, lowDoc)
        const engine = await p.engine(d.preset, {}, env(p))
        const outcome = await engine.dispatch(d.event, d.payload)
        // both files' hooks ran, each with its own answer
        const ran = [highFile, lowFile].map((file) => (outcome.hooks.some((hook) => hook.source === file) ? "ran" : "MISSING")).join("/")
        seen.push(
          `${higher}>${lower}: ${ran} ${outcome.blocked ? "blocked" : `ALLOWED (${outcome.hooks.map((h) => `${h.source}: ${h.status}`).join("; ")}; ${p.warnings.join("; ")})`}`
        )
        if (d.off !== undefined && lower !== "managed") {
          const [offFile, offDoc] = d.off(p, lower, d.allow)
          rmSync(lowFile, { force: true })
          put(offFile, offDoc)
          const switched = await (await p.engine(d.preset, {}, env(p))).dispatch(d.event, d.payload)
          seen.push(`${higher}>${lower} (lower switches hooks off): ${switched.blocked ? "blocked" : "ALLOWED"}`)
        }
      }
      expect(
        seen.filter((line) => line.includes("ALLOWED") || line.includes("MISSING")),
        seen.join("\n")
      ).toEqual([])
    })
  }
})
