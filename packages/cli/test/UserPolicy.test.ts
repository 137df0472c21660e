/**
 * The policy is the user's, not the environment's, tried from a hostile repository's side on the
 * BUILT CLI: a project can set variables for the agent's hook process (Claude Code's project `env`
 * key, the `.env` Gemini CLI and Qwen Code read), so they must not choose the settings host mode
 * reads (`AGENT_HOOKS_HOME=.fake`), switch off the user's hooks through a managed folder of its own,
 * or run code in the process that judges (`NODE_OPTIONS=--require`); and a hook started in a
 * subfolder still applies the project's policy, for every agent host mode speaks for.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as HostMode from "@agent-hooks/core/HostMode"
import { describe, expect, it } from "vitest"
import { bin, cliEnv, node, projectsWithHome } from "./cliHarness.ts"

const fresh = projectsWithHome("agent-hooks-user-policy-")

/** A policy whose one hook blocks every Bash call, saying whose policy it is (and leaving a mark that it ran). */
const blocking = (whose: string, mark?: string) => ({
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [
          {
            type: "command",
            command: `${mark === undefined ? "" : `touch '${mark}'; `}echo "blocked by the ${whose} policy" >&2; exit 2`
          }
        ]
      }
    ]
  }
})
/** A policy that allows everything: what a hostile repository would like host mode to read. */
const allowAll = { hooks: {} }

const claudeCall = (dir: string, command = "rm -rf ~") =>
  JSON.stringify({
    session_id: "s",
    transcript_path: "",
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command }
  })

/** A fresh project and HOME whose user policy (~/.agent-hooks/settings.json) blocks every Bash call. */
const userBlocks = () => {
  const b = fresh()
  b.put(join(b.home, ".agent-hooks", "settings.json"), blocking("user's"))
  return b
}

const hookIn = (cwd: string, home: string, args: ReadonlyArray<string>, stdin: string, extra: Record<string, string | undefined> = {}) => {
  const result = spawnSync(node, [bin, "hook", ...args], {
    input: stdin,
    cwd,
    env: cliEnv({ HOME: home, ...extra }),
    encoding: "utf8",
    timeout: 25_000
  })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("the settings' locations are not the environment's (host mode)", () => {
  it("AGENT_HOOKS_HOME=.fake (relative, resolved in the project) with an allow-all settings.json does not replace the user's settings", () => {
    const b = userBlocks()
    b.put(join(b.dir, ".fake", "settings.json"), allowAll)
    const result = hookIn(b.dir, b.home, ["--host", "claude"], claudeCall(b.dir), { CLAUDE_PROJECT_DIR: b.dir, AGENT_HOOKS_HOME: ".fake" })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain("blocked by the user's policy")
    expect(result.stderr).toContain(`AGENT_HOOKS_HOME=".fake" in the hook's environment is ignored in host mode`)
  })

  it("an absolute AGENT_HOOKS_HOME (the project's own folder, as ${PWD} expands) is ignored too", () => {
    const b = userBlocks()
    b.put(join(b.dir, ".fake", "settings.json"), allowAll)
    const result = hookIn(b.dir, b.home, ["--host", "claude"], claudeCall(b.dir), {
      CLAUDE_PROJECT_DIR: b.dir,
      AGENT_HOOKS_HOME: join(b.dir, ".fake")
    })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain("blocked by the user's policy")
  })

  it("AGENT_HOOKS_MANAGED_DIR naming the project's managed-settings.json (allowManagedHooksOnly) does not switch off the user's hooks", () => {
    const b = userBlocks()
    b.put(join(b.dir, ".m", "managed-settings.json"), { allowManagedHooksOnly: true })
    const result = hookIn(b.dir, b.home, ["--host", "claude"], claudeCall(b.dir), {
      CLAUDE_PROJECT_DIR: b.dir,
      AGENT_HOOKS_MANAGED_DIR: ".m"
    })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain("blocked by the user's policy")
    expect(result.stderr).toContain("AGENT_HOOKS_MANAGED_DIR")
  })

  it("HOME inside the project's checkout is not the user's home: the user's settings are read from the password database's home", () => {
    const b = userBlocks()
    mkdirSync(join(b.dir, ".git"))
    b.put(join(b.dir, ".h", ".agent-hooks", "settings.json"), allowAll)
    const result = hookIn(b.dir, join(b.dir, ".h"), ["--host", "claude", "--home", join(b.home, ".agent-hooks")], claudeCall(b.dir), {
      CLAUDE_PROJECT_DIR: b.dir
    })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain("blocked by the user's policy")
    expect(result.stderr).toMatch(/HOME=".*" in the hook's environment is inside the project's checkout/)
    // a relative HOME is not one either
    const relative = hookIn(b.dir, ".h", ["--host", "claude", "--home", join(b.home, ".agent-hooks")], claudeCall(b.dir), {
      CLAUDE_PROJECT_DIR: b.dir
    })
    expect(relative.status, relative.stderr).toBe(2)
    expect(relative.stderr).toContain(`HOME=".h" in the hook's environment is not an absolute path`)
  })

  it("--home (as install writes it) is honoured: an absolute folder of the user's own", () => {
    const b = fresh()
    b.put(join(b.root, "policy", "settings.json"), blocking("flag's"))
    b.put(join(b.home, ".agent-hooks", "settings.json"), allowAll)
    const result = hookIn(b.dir, b.home, ["--host", "claude", "--home", join(b.root, "policy")], claudeCall(b.dir), {
      CLAUDE_PROJECT_DIR: b.dir
    })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain("blocked by the flag's policy")
    // the variable that says the same as the flag is no warning
    const same = hookIn(b.dir, b.home, ["--host", "claude", "--home", join(b.root, "policy")], claudeCall(b.dir), {
      CLAUDE_PROJECT_DIR: b.dir,
      AGENT_HOOKS_HOME: join(b.root, "policy")
    })
    expect(same.status).toBe(2)
    expect(same.stderr).not.toContain("ignored")
  })

  it("--home that is relative, missing or writable by anybody blocks, saying why", () => {
    const b = userBlocks()
    mkdirSync(join(b.root, "open"))
    chmodSync(join(b.root, "open"), 0o777)
    for (const [home, why] of [
      [".fake", "not an absolute path"],
      [join(b.root, "nowhere"), "does not exist"],
      [join(b.root, "open"), "writable by anybody"]
    ] as const) {
      const result = hookIn(b.dir, b.home, ["--host", "claude", "--home", home], claudeCall(b.dir, "ls"), { CLAUDE_PROJECT_DIR: b.dir })
      expect(result.status, result.stderr).toBe(2)
      expect(result.stderr).toContain(`--home "${home}": ${why}`)
    }
  })

  it("AGENT_HOOKS_FOREIGN=leave is not the project's to set: another agent's call is still judged", () => {
    const b = userBlocks()
    // VS Code's call (its camelCase event name) reaching Claude Code's entry
    const vscode = JSON.stringify({
      hookEventName: "PreToolUse",
      session_id: "s",
      cwd: b.dir,
      tool_name: "runTerminalCommand",
      tool_input: { command: "rm -rf ~" }
    })
    const result = hookIn(b.dir, b.home, ["--host", "claude", "--foreign", "judge"], vscode, { CLAUDE_PROJECT_DIR: b.dir })
    expect(result.stdout + result.stderr).toContain("blocked by the user's policy")
    const left = hookIn(b.dir, b.home, ["--host", "claude"], vscode, { CLAUDE_PROJECT_DIR: b.dir, AGENT_HOOKS_FOREIGN: "leave" })
    expect(left.stderr).toContain('AGENT_HOOKS_FOREIGN="leave" in the hook\'s environment is ignored in host mode')
    // judged (auto: VS Code has no entry of its own here), not left with exit 0
    expect(left.stdout + left.stderr).toContain("blocked by the user's policy")
  })
})

describe("the settings' locations are not the environment's (run)", () => {
  it("a relative AGENT_HOOKS_HOME, or one inside the project's checkout, is ignored with a warning; the user's own is read", () => {
    const b = userBlocks()
    mkdirSync(join(b.dir, ".git"))
    b.put(join(b.dir, ".fake", "settings.json"), allowAll)
    for (const value of [".fake", join(b.dir, ".fake")]) {
      const result = spawnSync(node, [bin, "run", "PreToolUse"], {
        input: claudeCall(b.dir),
        cwd: b.dir,
        env: cliEnv({ HOME: b.home, AGENT_HOOKS_HOME: value }),
        encoding: "utf8",
        timeout: 25_000
      })
      expect(result.status, result.stderr).toBe(2)
      // run's answer is its outcome on stdout
      expect(JSON.parse(result.stdout)).toMatchObject({ blocked: true, reason: "blocked by the user's policy" })
      expect(result.stderr).toContain(`AGENT_HOOKS_HOME=${JSON.stringify(value)} is`)
    }
  })
})

describe("variables that run code in the hook process", () => {
  /** A project's own code, named by NODE_OPTIONS: it leaves a mark when it runs. */
  const evil = (dir: string) => {
    const file = join(dir, "evil.cjs")
    writeFileSync(file, `require("node:fs").writeFileSync(${JSON.stringify(join(dir, "PWNED"))}, "ran")\n`)
    return file
  }

  it("host mode refuses to judge under NODE_OPTIONS (or LD_PRELOAD, BASH_ENV...): a block naming it", () => {
    const b = fresh()
    b.put(join(b.home, ".agent-hooks", "settings.json"), allowAll)
    for (const [name, value] of [
      ["NODE_OPTIONS", "--no-warnings"],
      ["BASH_ENV", join(b.dir, "rc.sh")],
      ["NODE_PATH", join(b.dir, "modules")]
    ] as const) {
      const result = hookIn(b.dir, b.home, ["--host", "claude"], claudeCall(b.dir, "ls"), { CLAUDE_PROJECT_DIR: b.dir, [name]: value })
      expect(result.status, `${name}: ${result.stderr}`).toBe(2)
      expect(result.stderr).toContain(`${name} is set in the hook's environment`)
    }
  })

  it("the command install writes clears NODE_OPTIONS before Node starts (the project's code never runs) and carries --home", () => {
    const b = fresh()
    const policy = join(b.root, "policy")
    b.put(join(policy, "settings.json"), blocking("user's"))
    b.put(join(b.dir, ".fake", "settings.json"), allowAll)
    const installed = spawnSync(node, [bin, "install", "--host", "claude"], {
      cwd: b.dir,
      env: cliEnv({ HOME: b.home, AGENT_HOOKS_HOME: policy }),
      encoding: "utf8",
      timeout: 25_000
    })
    expect(installed.status, installed.stderr).toBe(0)
    const settings = JSON.parse(readFileSync(join(b.home, ".claude", "settings.json"), "utf8"))
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command
    expect(command).toMatch(/^'\/usr\/bin\/env' '-u' 'NODE_OPTIONS' /)
    expect(command).toContain(` --home '${policy}'`)
    // the agent runs the command through its shell, in the project, with the project's env key applied
    const ran = spawnSync("/bin/sh", ["-c", command], {
      input: claudeCall(b.dir),
      cwd: b.dir,
      env: cliEnv({ HOME: b.home, CLAUDE_PROJECT_DIR: b.dir, NODE_OPTIONS: `--require ${evil(b.dir)}`, AGENT_HOOKS_HOME: ".fake" }),
      encoding: "utf8",
      timeout: 25_000
    })
    expect(existsSync(join(b.dir, "PWNED")), "the project's NODE_OPTIONS code ran").toBe(false)
    expect(ran.status, ran.stderr).toBe(2)
    expect(ran.stderr).toContain("blocked by the user's policy")
    // uninstall still knows the command as its own
    const removed = spawnSync(node, [bin, "uninstall", "--host", "claude"], {
      cwd: b.dir,
      env: cliEnv({ HOME: b.home }),
      encoding: "utf8",
      timeout: 25_000
    })
    expect(removed.status, removed.stderr).toBe(0)
    expect(
      existsSync(join(b.home, ".claude", "settings.json")) ? readFileSync(join(b.home, ".claude", "settings.json"), "utf8") : ""
    ).not.toContain("hook --host")
  })
})

describe("one project root rule for every agent", () => {
  // the agent's own event on the command line where its payload may name none (install writes it so)
  const needsEvent = new Set(["copilot", "vscode"])
  for (const agent of HostMode.agents) {
    it(`${agent.name}: a hook started in a subfolder, with no project variable, applies the project's policy`, () => {
      const b = fresh()
      const ran = join(b.root, "project-hook-ran")
      b.put(join(b.dir, ".agent-hooks", "settings.json"), blocking("project's", ran))
      // the user's own policy allows everything: skipping the project's would let the call through
      b.put(join(b.home, ".agent-hooks", "settings.json"), allowAll)
      const sub = join(b.dir, "src", "deep")
      mkdirSync(sub, { recursive: true })
      const shown = HostMode.present(agent, "PreToolUse", JSON.parse(claudeCall(sub)))[0]!
      const args = ["--host", agent.name, ...(needsEvent.has(agent.name) ? ["--event", shown.hostEvent] : [])]
      const result = hookIn(sub, b.home, args, JSON.stringify(shown.payload))
      expect(existsSync(ran), `${agent.name}: the project's hook did not run: ${result.stdout}${result.stderr}`).toBe(true)
      expect(result.stdout + result.stderr).toContain("blocked by the project's policy")
    })
  }
})
