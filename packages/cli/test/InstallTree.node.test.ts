/**
 * `agent-hooks install` and `uninstall` over every host the host mode knows, judged by the whole
 * tree a user has (HOME and the project, every folder and byte): `--dry-run` shows a diff and writes
 * nothing; install then uninstall leaves the tree as it was, including the folders install created
 * (and never one that was there before or holds anything else). Then the agents that run each
 * other's hook files (VS Code, Copilot CLI, Claude Code's settings), and Cursor's Tab events. The
 * BUILT CLI, in a fresh HOME and project.
 */
import * as HostMode from "@agent-hooks/core/HostMode"
import { spawnSync } from "node:child_process"
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-install-tree-")

type Box = ReturnType<typeof box>

const cli = (b: Box, args: ReadonlyArray<string>) => runCli(args, { cwd: b.dir, env: cliEnv({ HOME: b.home }), timeout: 60_000 })

/**
 * Every folder, file (its bytes and mode) and symlink under `root`, as sorted lines; but the CLI's
 * own start-up cache (`~/.cache/agent-hooks`, Node's compile cache), which is not the agent's config.
 */
const tree = (root: string): ReadonlyArray<string> => {
  const lines: Array<string> = []
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name)
      if (path === join(root, "home", ".cache")) continue
      const stat = lstatSync(path)
      const rel = path.slice(root.length)
      if (stat.isSymbolicLink()) lines.push(`${rel} -> ${readlinkSync(path)}`)
      else if (stat.isDirectory()) {
        lines.push(`${rel}/`)
        walk(path)
      } else lines.push(`${rel} ${(stat.mode & 0o7777).toString(8)} ${JSON.stringify(readFileSync(path, "utf8"))}`)
    }
  }
  walk(root)
  return lines
}

const cases = HostMode.agents.flatMap((agent) => (["project", "user"] as const).map((scope) => ({ host: agent.name, scope })))

describe.each(cases)("install --host $host --$scope, over the whole tree", ({ host, scope }) => {
  it("--dry-run shows a diff and writes nothing; install then uninstall leaves every folder and byte as it was", () => {
    const b = box()
    writeFileSync(join(b.dir, "README.md"), "my project\n")
    writeFileSync(join(b.home, ".profile"), "export X=1\n")
    const before = tree(b.root)
    const dry = cli(b, ["install", "--host", host, `--${scope}`, "--dry-run"])
    expect(dry.status, dry.stderr).toBe(0)
    const files = /^\(--dry-run: (.*) not written\)$/m.exec(dry.stdout)?.[1]?.split(", ") ?? []
    expect(files.length, dry.stdout).toBeGreaterThan(0)
    for (const file of files) {
      expect(dry.stdout).toContain(`--- /dev/null\n+++ ${file}\n`)
      expect(file.startsWith(scope === "project" ? b.dir : b.home), file).toBe(true)
    }
    expect(tree(b.root)).toEqual(before)
    const installed = cli(b, ["install", "--host", host, `--${scope}`])
    expect(installed.status, installed.stderr).toBe(0)
    for (const file of files) expect(existsSync(file), file).toBe(true)
    const wired = tree(b.root)
    const dryOut = cli(b, ["uninstall", "--host", host, `--${scope}`, "--dry-run"])
    expect(dryOut.status, dryOut.stderr).toBe(0)
    for (const file of files) expect(dryOut.stdout).toContain(`--- ${file}\n+++ /dev/null\n`)
    expect(tree(b.root)).toEqual(wired)
    const removed = cli(b, ["uninstall", "--host", host, `--${scope}`])
    expect(removed.status, removed.stderr).toBe(0)
    expect(tree(b.root)).toEqual(before)
  })
})

describe("uninstall and the folders install did not create alone", () => {
  it("keeps a folder that was there before, even empty", () => {
    const b = box()
    mkdirSync(join(b.dir, ".cursor"))
    mkdirSync(join(b.dir, ".kiro"))
    const before = tree(b.root)
    expect(cli(b, ["install", "--host", "cursor", "--project"]).status).toBe(0)
    expect(cli(b, ["install", "--host", "kiro", "--project"]).status).toBe(0)
    expect(cli(b, ["uninstall", "--host", "cursor", "--project"]).status).toBe(0)
    const kiro = cli(b, ["uninstall", "--host", "kiro", "--project"])
    expect(kiro.stdout).toContain(`${join(b.dir, ".kiro", "hooks")}/ removed`)
    expect(tree(b.root)).toEqual(before)
  })

  it("keeps a folder it created that holds the user's file now, and removes it once it holds nothing", () => {
    const b = box()
    expect(cli(b, ["install", "--host", "kiro", "--project"]).status).toBe(0)
    const mine = join(b.dir, ".kiro", "hooks", "mine.json")
    writeFileSync(mine, "{}\n")
    expect(cli(b, ["uninstall", "--host", "kiro", "--project"]).status).toBe(0)
    expect(readdirSync(dirname(mine))).toEqual(["mine.json"])
    expect(readFileSync(mine, "utf8")).toBe("{}\n")
    rmSync(mine)
    expect(cli(b, ["install", "--host", "kiro", "--project"]).status).toBe(0)
    expect(cli(b, ["uninstall", "--host", "kiro", "--project"]).status).toBe(0)
    expect(existsSync(join(b.dir, ".kiro"))).toBe(false)
  })

  it("Copilot CLI and VS Code share .github/hooks/: the folder goes with the last of the two", () => {
    const b = box()
    const before = tree(b.root)
    expect(cli(b, ["install", "--host", "copilot", "--project"]).status).toBe(0)
    expect(cli(b, ["install", "--host", "vscode", "--project"]).status).toBe(0)
    expect(cli(b, ["uninstall", "--host", "copilot", "--project"]).status).toBe(0)
    expect(readdirSync(join(b.dir, ".github", "hooks"))).toEqual(["agent-hooks-vscode.json"])
    expect(cli(b, ["uninstall", "--host", "vscode", "--project"]).status).toBe(0)
    expect(tree(b.root)).toEqual(before)
  })
})

/** A policy in Claude Code's names: a PreToolUse Bash hook that blocks `rm -rf`. */
const policy = (b: Box) =>
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" }] }
      ]
    }
  })

/** Runs a command install wrote as the agent runs it (`sh -c`, in the project) with `payload`. */
const runHook = (b: Box, command: string, payload: unknown) => {
  const result = spawnSync("/bin/sh", ["-c", command], {
    input: JSON.stringify(payload),
    cwd: b.dir,
    env: cliEnv({ HOME: b.home }),
    encoding: "utf8",
    timeout: 60_000
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const copilotCall = (b: Box) => ({
  timestamp: Date.now(),
  cwd: b.dir,
  sessionId: "s",
  toolName: "bash",
  toolArgs: JSON.stringify({ command: "rm -rf /" })
})
const vscodeCall = (b: Box) => ({
  timestamp: new Date().toISOString(),
  cwd: b.dir,
  sessionId: "s",
  hookEventName: "PreToolUse",
  tool_name: "runTerminalCommand",
  tool_input: { command: "rm -rf /" },
  tool_use_id: "t"
})

describe("an agent that runs another agent's hook files", () => {
  it.each([
    [
      "copilot",
      ".github/hooks/agent-hooks-copilot.json",
      (config: any) => config.hooks.preToolUse[0].bash,
      vscodeCall,
      copilotCall,
      "VS Code"
    ],
    [
      "vscode",
      ".github/hooks/agent-hooks-vscode.json",
      (config: any) => config.hooks.PreToolUse[0].command,
      copilotCall,
      vscodeCall,
      "Copilot CLI"
    ],
    ["claude", ".claude/settings.json", (config: any) => config.hooks.PreToolUse[0].hooks[0].command, vscodeCall, undefined, "VS Code"]
  ] as const)(
    "--host %s: the other agent's payload is judged as that agent's (it has no entry of its own), visibly; its own is still judged",
    (host, file, command, foreign, own, other) => {
      const b = box()
      policy(b)
      expect(cli(b, ["install", "--host", host, "--project"]).status).toBe(0)
      const hook = command(JSON.parse(readFileSync(join(b.dir, file), "utf8")))
      const theirs = runHook(b, hook, foreign(b))
      expect(theirs.stdout + theirs.stderr).toContain("no rm -rf here")
      expect(theirs.stderr).toContain(`judged as ${other}'s call`)
      const left = runHook(b, `${hook} --foreign leave`, foreign(b))
      expect(left.status, left.stderr).toBe(0)
      expect(left.stdout).toBe("")
      expect(left.stderr).toContain(`this call comes from ${other}`)
      if (own !== undefined) {
        const mine = runHook(b, hook, own(b))
        expect(mine.stdout + mine.stderr).toContain("no rm -rf here")
      }
      const doctor = cli(b, ["doctor", "--host", host])
      expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
      expect(doctor.stdout).toContain(`note: ${other} runs`)
      expect(doctor.stdout).toContain(`host mode judges ${other}'s calls here`)
    }
  )

  it("doctor says so when both are wired, the other in the user's config: each agent's calls are judged once; a project's entry of the other is judged here", () => {
    const b = box()
    policy(b)
    expect(cli(b, ["install", "--host", "copilot", "--project"]).status).toBe(0)
    expect(cli(b, ["install", "--host", "vscode", "--project"]).status).toBe(0)
    // a project's file comes with a cloned repository: it does not judge in host mode's place
    const project = cli(b, ["doctor", "--host", "vscode"])
    expect(project.status, project.stdout + project.stderr).toBe(0)
    expect(project.stdout).not.toContain("judged once")
    expect(project.stdout).toContain("host mode judges Copilot CLI's calls here")
    expect(cli(b, ["install", "--host", "copilot", "--user"]).status).toBe(0)
    const doctor = cli(b, ["doctor", "--host", "vscode"])
    expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
    expect(doctor.stdout).toContain("each agent's calls are judged once")
  }, 180_000)
})

describe("install --host cursor and its Tab events", () => {
  it("leaves Tab's events out by default; --tab adds them (failing closed on the read); --tab is Cursor's only", () => {
    const b = box()
    const file = join(b.dir, ".cursor", "hooks.json")
    const installed = cli(b, ["install", "--host", "cursor", "--project"])
    expect(installed.status).toBe(0)
    expect(installed.stdout).toContain("note: beforeTabFileRead and afterTabFileEdit (Cursor's Tab completions) are not wired")
    const plain = JSON.parse(readFileSync(file, "utf8"))
    expect(plain.hooks.beforeShellExecution).toHaveLength(1)
    expect(plain.hooks.beforeTabFileRead).toBeUndefined()
    expect(plain.hooks.afterTabFileEdit).toBeUndefined()
    policy(b)
    expect(cli(b, ["doctor", "--host", "cursor"]).status).toBe(0)
    expect(cli(b, ["install", "--host", "cursor", "--project", "--tab"]).status).toBe(0)
    const tab = JSON.parse(readFileSync(file, "utf8"))
    expect(tab.hooks.beforeTabFileRead[0].failClosed).toBe(true)
    expect(tab.hooks.afterTabFileEdit[0].command).toContain("hook --host cursor")
    expect(cli(b, ["uninstall", "--host", "cursor", "--project"]).status).toBe(0)
    expect(existsSync(join(b.dir, ".cursor"))).toBe(false)
    const refused = cli(b, ["install", "--host", "claude", "--tab"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("--tab is for --host cursor")
  })
})
