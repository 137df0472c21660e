/**
 * `permissions` rules through the BUILT CLI, as the agents run it: `hook --host <agent>` for every
 * agent host mode knows, given the agent's own sample shell call (doctor's), answered in the
 * agent's own format. A deny blocks with the rule and its file in the reason and no hook runs; an
 * ask asks where the agent can ask and blocks where it cannot; `run`, `validate` and `list` show
 * the rules.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { testPayload, verdict } from "../src/internal/doctor.ts"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-permissions-")
type Box = ReturnType<typeof box>

const hook = (b: Box, agent: HostMode.Agent, command: string) => {
  // Copilot CLI's payload names no event: its entry gives it
  const event = agent.name === "copilot" ? ["--event", "preToolUse"] : []
  const result = runCli(["hook", "--host", agent.name, ...event], {
    stdin: JSON.stringify(testPayload(agent, command, b.dir)),
    cwd: b.dir,
    env: cliEnv({ HOME: b.home, CLAUDE_PROJECT_DIR: b.dir }),
    timeout: 25_000
  })
  return { ...result, seen: verdict(agent, result.status, result.stdout, result.stderr) }
}

/** Permissions in the user's settings, and a hook on every tool call that leaves a marker when it runs. */
const withRules = (permissions: Record<string, unknown>, where: "user" | "project" = "user") => {
  const b = box()
  const marker = join(b.root, "hook-ran")
  const file = where === "user" ? join(b.home, ".agent-hooks", "settings.json") : join(b.dir, ".agent-hooks", "settings.json")
  b.put(file, {
    permissions,
    hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `touch '${marker}'` }] }] }
  })
  return { b, marker, file }
}

describe("permissions through hook --host", () => {
  it.each(HostMode.agents.map((agent) => [agent.name, agent] as const))(
    "%s: a deny rule blocks the agent's shell call in its own format, naming the rule and its file; no hook runs",
    (_name, agent) => {
      const { b, marker } = withRules({ deny: ["Bash(rm -rf:*)"] })
      const blocked = hook(b, agent, "sudo rm -rf /tmp/x")
      expect(blocked.seen, `${blocked.status} ${blocked.stdout} ${blocked.stderr}`).toMatchObject({ kind: "block" })
      const said = (blocked.stdout + blocked.stderr).replaceAll('\\"', '"')
      expect(said).toContain('denied by permissions rule "Bash(rm -rf:*)" (user settings')
      expect(existsSync(marker), "the hook ran for a denied call").toBe(false)
      // the control: another call is not the rule's, the hook runs and the call goes ahead
      const fine = hook(b, agent, "ls")
      expect(fine.seen.kind, fine.stdout + fine.stderr).toBe("allow")
      expect(existsSync(marker)).toBe(true)
    },
    60_000
  )

  it.each(HostMode.agents.map((agent) => [agent.name, agent] as const))(
    "%s: an ask rule asks where the agent can ask, and blocks where it cannot (never a silent allow)",
    (_name, agent) => {
      const { b } = withRules({ ask: ["Bash(git push:*)"] }, "project")
      const asked = hook(b, agent, "git push origin main")
      expect(asked.seen.kind, asked.stdout + asked.stderr).not.toBe("allow")
      if (!agent.canAsk) expect(asked.seen.kind).toBe("block")
      expect((asked.stdout + asked.stderr).replaceAll('\\"', '"')).toContain('asks the user by permissions rule "Bash(git push:*)"')
    },
    60_000
  )

  it("a project's allow lifts nothing: the user's deny holds, and the answer is never an allow", () => {
    const b = box()
    b.put(join(b.home, ".agent-hooks", "settings.json"), { permissions: { deny: ["Read(~/.ssh/**)"] } })
    b.put(join(b.dir, ".agent-hooks", "settings.json"), { permissions: { allow: ["Read", "Bash"] } })
    const claude = HostMode.byName("claude")!
    const read = runCli(["hook", "--host", "claude"], {
      stdin: JSON.stringify({
        session_id: "s",
        cwd: b.dir,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(b.home, ".ssh", "id_rsa") }
      }),
      cwd: b.dir,
      env: cliEnv({ HOME: b.home, CLAUDE_PROJECT_DIR: b.dir })
    })
    expect(verdict(claude, read.status, read.stdout, read.stderr).kind).toBe("block")
    const other = hook(b, claude, "ls")
    expect(other.status).toBe(0)
    expect(other.stdout).not.toContain('"allow"')
  })
})

describe("Claude Code's own permissions under --preset claude", () => {
  it.each(["claude", "codex", "gemini"])(
    "%s: the deny rules of .claude/settings.json block (Claude Code's other keys are not an error)",
    (host) => {
      const b = box()
      b.put(join(b.dir, ".claude", "settings.json"), {
        permissions: {
          defaultMode: "acceptEdits",
          additionalDirectories: ["../docs"],
          deny: ["Bash(rm -rf:*)"],
          allow: ["Bash(npm test:*)"]
        }
      })
      const agent = HostMode.byName(host)!
      const result = runCli(["hook", "--host", host, "--preset", "claude"], {
        stdin: JSON.stringify(testPayload(agent, "rm -rf build", b.dir)),
        cwd: b.dir,
        env: cliEnv({ HOME: b.home, CLAUDE_PROJECT_DIR: b.dir })
      })
      expect(verdict(agent, result.status, result.stdout, result.stderr).kind, result.stdout + result.stderr).toBe("block")
      expect((result.stdout + result.stderr).replaceAll('\\"', '"')).toContain(
        'denied by permissions rule "Bash(rm -rf:*)" (project settings .claude/settings.json)'
      )
      expect(result.stderr).not.toContain("unknown key")
    }
  )
})

describe("permissions through run, validate and list", () => {
  it("run: the Outcome names the rule that decided, and exits 2", () => {
    const { b } = withRules({ deny: ["Bash(rm -rf:*)"] }, "project")
    const result = runCli(["run", "PreToolUse"], {
      stdin: JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } }),
      cwd: b.dir,
      env: cliEnv({ HOME: b.home })
    })
    expect(result.status, result.stderr).toBe(2)
    const outcome = JSON.parse(result.stdout) as Record<string, unknown>
    expect(outcome).toMatchObject({
      blocked: true,
      decision: "deny",
      hooks: [],
      permission: { list: "deny", rule: "Bash(rm -rf:*)", scope: "project", path: "permissions.deny[0]" }
    })
  })

  it("validate names a bad rule with its file and JSON path and exits 1; list shows the rules with their files", () => {
    const b = box()
    const file = join(b.dir, ".agent-hooks", "settings.json")
    b.put(file, { permissions: { deny: ["Bash(rm -rf:*)", "bash(ls)"], ask: ["Bash(git push:*)"] }, extends: ["agent-hooks:recommended"] })
    const env = cliEnv({ HOME: b.home })
    const validate = runCli(["validate"], { cwd: b.dir, env })
    expect(validate.status).toBe(1)
    expect(validate.stdout + validate.stderr).toContain(`${file} at permissions.deny[1]: tool names are case-sensitive`)
    const list = runCli(["list"], { cwd: b.dir, env })
    expect(list.status, list.stderr).toBe(0)
    expect(validate.stdout).toContain("permissions rules")
    expect(validate.stdout).toContain("deny  Bash(rm -rf:*)")
    expect(list.stdout).toContain("deny  Bash(rm -rf:*)")
    expect(list.stdout).toContain("ask   Bash(git push:*)")
    expect(list.stdout).toContain("agent-hooks:recommended#rm-root")
    expect(list.stdout).toContain(".agent-hooks/settings.json")
    const json = runCli(["list", "--plan"], { cwd: b.dir, env })
    const parsed = JSON.parse(json.stdout) as { readonly permissions?: ReadonlyArray<{ readonly rule: string; readonly list: string }> }
    expect(parsed.permissions?.[0]).toMatchObject({ list: "deny" })
    expect(parsed.permissions?.map((entry) => entry.rule)).toContain("Bash(git push:*)")
  })
})

describe("doctor tests the permissions rules", () => {
  it.each(["claude", "codex", "gemini"])(
    "%s: a permissions-only policy is a policy: doctor sends a call each deny rule names, each is blocked",
    (host) => {
      const b = box()
      b.put(join(b.home, ".agent-hooks", "settings.json"), {
        permissions: { deny: ["Bash(rm -rf:*)", "Bash(git push --force:*)", "Read(./.env)"] }
      })
      const env = cliEnv({ HOME: b.home })
      const install = runCli(["install", "--host", host], { cwd: b.dir, env })
      expect(install.status, install.stderr).toBe(0)
      const doctor = runCli(["doctor", "--host", host], { cwd: b.dir, env, timeout: 60_000 })
      expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
      expect(doctor.stdout).toContain("permissions: 2 of 3 deny rules tested")
      expect(doctor.stdout).toContain('blocked: denied by permissions rule "Bash(rm -rf:*)"')
    },
    90_000
  )
})
