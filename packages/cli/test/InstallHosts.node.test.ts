/**
 * `agent-hooks install`, `uninstall` and `doctor` for the agents whose config is not Claude Code's
 * settings file (Install.node.test.ts holds Claude Code, Codex's hooks.json, Gemini CLI and Qwen
 * Code): Cursor's and Windsurf's hooks.json and Antigravity CLI's two files, edited in place; Kiro's,
 * Copilot CLI's and VS Code's hook folders, where install writes a file of its own; Cline's hooks
 * folder, one executable per event; Codex's config.toml. Run as a user runs them: the BUILT CLI in a
 * fresh HOME and project; each config with the user's own entries, comments and symlinks, and
 * uninstall gives every byte back.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { cliEnv, projectsWithHome, runCli } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-install-hosts-")

type Box = ReturnType<typeof box>

const cli = (b: Box, args: ReadonlyArray<string>) => runCli(args, { cwd: b.dir, env: cliEnv({ HOME: b.home }), timeout: 60_000 })

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** A policy in Claude Code's names: a PreToolUse Bash hook that blocks `rm -rf`, or one that lets everything through. */
const policy = (b: Box, blocks: boolean) =>
  b.put(join(b.home, ".agent-hooks", "settings.json"), {
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: blocks ? "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi" : "cat >/dev/null; exit 0"
            }
          ]
        }
      ]
    }
  })

/** JSON with `//` and `/* *\/` comments, read as the agent reads it. */
const jsonc = (text: string): any => JSON.parse(text.replace(/\/\*.*?\*\/|\/\/.*$/gm, ""))

/** An agent whose config install edits in place, shared with the user's own hooks. */
interface SharedCase {
  readonly host: string
  readonly user: string
  readonly project: string
  /** The user's config: their own hook on the shell event, another setting, comments. */
  readonly existing: string
  /** The entry install wrote on the shell event, as the agent reads it: command and timeout (seconds). */
  readonly entry: (config: any) => { readonly command: string; readonly timeout: number | undefined } | undefined
  readonly seconds: number
  /** The agent's `timeout` unit in milliseconds (Auggie: 1), where it is not seconds. */
  readonly unitMs?: number
}

/** Claude Code's settings shape, as the agents that read it (Droid, CodeBuddy, Auggie) have it. */
const claudeShape = (event: string) => (config: any) => config.hooks[event].at(-1).hooks[0]
const claudeShapeExisting = (event: string) =>
  `{\n  // my settings, keep this comment\n  "model": "keep-me",\n  "hooks": {\n    "${event}": [{ "matcher": ".*", "hooks": [{ "type": "command", "command": "./my-guard.sh", "timeout": 5 }] }] /* mine */\n  }\n}\n`

const shared: ReadonlyArray<SharedCase> = [
  {
    host: "cursor",
    user: ".cursor/hooks.json",
    project: ".cursor/hooks.json",
    existing: `{\n  // my hooks, keep this comment\n  "version": 1,\n  "hooks": {\n    "beforeShellExecution": [\n      { "command": "./my-guard.sh", "timeout": 5 } /* mine */\n    ]\n  }\n}\n`,
    entry: (config) => {
      const last = config.hooks.beforeShellExecution.at(-1)
      return { command: last.command, timeout: last.timeout }
    },
    seconds: 30
  },
  {
    host: "windsurf",
    user: ".codeium/windsurf/hooks.json",
    project: ".windsurf/hooks.json",
    existing: `{\n  // my hooks\n  "hooks": {\n    "pre_run_command": [{ "command": "./my-guard.sh", "show_output": true }]\n  }\n}\n`,
    entry: (config) => ({ command: config.hooks.pre_run_command.at(-1).command, timeout: undefined }),
    seconds: 30
  },
  {
    host: "antigravity",
    user: ".gemini/antigravity-cli/hooks.json",
    project: ".agents/hooks.json",
    existing: `{\n  // my named hooks\n  "my-guard": {\n    "PreToolUse": [{ "matcher": ".*", "hooks": [{ "type": "command", "command": "./my-guard.sh", "timeout": 5 }] }]\n  }\n}\n`,
    entry: (config) => config["agent-hooks"]?.PreToolUse.at(-1).hooks[0],
    seconds: 60
  },
  {
    host: "factory",
    user: ".factory/settings.json",
    project: ".factory/settings.json",
    existing: claudeShapeExisting("PreToolUse"),
    entry: claudeShape("PreToolUse"),
    seconds: 60
  },
  {
    host: "codebuddy",
    user: ".codebuddy/settings.json",
    project: ".codebuddy/settings.json",
    existing: claudeShapeExisting("PreToolUse"),
    entry: claudeShape("PreToolUse"),
    seconds: 60
  },
  {
    host: "auggie",
    user: ".augment/settings.json",
    project: ".augment/settings.json",
    existing: claudeShapeExisting("PreToolUse"),
    entry: claudeShape("PreToolUse"),
    seconds: 60,
    // Auggie reads a hook's timeout in milliseconds: 60 is 60 ms there
    unitMs: 1000
  },
  {
    host: "antigravity-1.0",
    user: ".gemini/config/hooks.json",
    project: ".antigravitycli/hooks.json",
    existing: `{\n  "model": "keep-me", // a comment\n  "hooks": {\n    "PreToolUse": [{ "matcher": "run_command", "hooks": [{ "type": "command", "command": "./my-guard.sh" }] }]\n  }\n}\n`,
    entry: (config) => config.hooks.PreToolUse.at(-1).hooks[0],
    seconds: 60
  }
]

/** The command's `--timeout`, and that it names the host. */
const ownTimeout = (command: string, host: string): number => {
  const match = new RegExp(`^'.*' hook --host ${host.replace(".", "\\.")}(?: --event \\w+)? --timeout (\\d+)$`).exec(command)
  expect(match, command).not.toBeNull()
  return Number(match![1])
}

describe.each(shared)("install --host $host (the config shared with the user's hooks)", (c) => {
  it("round trips the user's config with their entries and comments, through a symlink in its folder; idempotent; doctor judges the policy", () => {
    const b = box()
    const file = join(b.home, c.user)
    const real = join(dirname(file), "real-hooks.json")
    write(real, c.existing)
    symlinkSync("real-hooks.json", file)
    const installed = cli(b, ["install", "--host", c.host])
    expect(installed.status, installed.stderr).toBe(0)
    expect(installed.stdout).toContain("next: ")
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    const after = readFileSync(real, "utf8")
    expect(after).toContain("./my-guard.sh")
    for (const comment of c.existing.match(/\/\/.*$|\/\*.*?\*\//gm) ?? []) expect(after).toContain(comment)
    const entry = c.entry(jsonc(after))!
    const seconds = ownTimeout(entry.command, c.host)
    expect(seconds).toBe(c.seconds)
    // the hook timeout the agent reads is the one host mode keeps its budget below (none to set: the agent's own 30 s)
    expect(entry.timeout).toBe(c.host === "windsurf" ? undefined : seconds * (c.unitMs ?? 1))
    // Cursor denies itself when its before* hook cannot start or answers garbage; not on an event that cannot block
    if (c.host === "cursor") {
      expect(jsonc(after).hooks.beforeShellExecution.at(-1).failClosed).toBe(true)
      expect(jsonc(after).hooks.afterFileEdit.at(-1).failClosed).toBeUndefined()
    }
    const again = cli(b, ["install", "--host", c.host])
    expect(again.stdout).toContain("already installed")
    expect(readFileSync(real, "utf8")).toBe(after)
    policy(b, false)
    const lets = cli(b, ["doctor", "--host", c.host])
    expect(lets.status, lets.stdout).toBe(1)
    expect(lets.stderr).toContain(`would run "rm -rf /"`)
    policy(b, true)
    const blocks = cli(b, ["doctor", "--host", c.host])
    expect(blocks.status, blocks.stdout + blocks.stderr).toBe(0)
    expect(blocks.stdout).toContain("no rm -rf here")
    const removed = cli(b, ["uninstall", "--host", c.host])
    expect(removed.status, removed.stderr).toBe(0)
    expect(readlinkText(file)).toBe("real-hooks.json")
    expect(readFileSync(real, "utf8")).toBe(c.existing)
  }, 120_000)

  it("round trips no config at all (the project's): --dry-run writes nothing, uninstall removes the file install created", () => {
    const b = box()
    const file = join(b.dir, c.project)
    const dry = cli(b, ["install", "--host", c.host, "--project", "--dry-run"])
    expect(dry.status, dry.stderr).toBe(0)
    expect(dry.stdout).toContain(`+++ ${file}`)
    expect(existsSync(file)).toBe(false)
    expect(cli(b, ["install", "--host", c.host, "--project"]).status).toBe(0)
    expect(existsSync(file)).toBe(true)
    expect(cli(b, ["uninstall", "--host", c.host, "--project"]).status).toBe(0)
    expect(existsSync(file)).toBe(false)
  })

  it("refuses a config that is a symlink out of its folder, and doctor fails when nothing is wired", () => {
    const b = box()
    const outside = join(b.home, "bashrc")
    write(outside, "echo hi\n")
    const file = join(b.home, c.user)
    mkdirSync(dirname(file), { recursive: true })
    symlinkSync(outside, file)
    const refused = cli(b, ["install", "--host", c.host])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(`${file} is a symlink to ${outside}, outside`)
    expect(readFileSync(outside, "utf8")).toBe("echo hi\n")
    const other = box()
    write(join(other.home, c.user), c.existing)
    policy(other, true)
    const doctor = cli(other, ["doctor", "--host", c.host])
    expect(doctor.status).toBe(1)
    expect(doctor.stderr).toContain(`agent-hooks install --host ${c.host}`)
  })
})

const readlinkText = (file: string): string => (lstatSync(file).isSymbolicLink() ? readlinkSync(file) : "(not a link)")

/** An agent that reads every file of a folder: install writes a file of its own there. */
interface OwnCase {
  readonly host: string
  readonly user: string
  readonly project: string
  /** A hook file of the user's in the same folder. */
  readonly mine: string
  readonly entry: (config: any) => { readonly command: string; readonly timeout: number }
  readonly seconds: number
}

const owned: ReadonlyArray<OwnCase> = [
  {
    host: "kiro",
    user: ".kiro/hooks/agent-hooks.json",
    project: ".kiro/hooks/agent-hooks.json",
    mine: `{ "version": "v1", "hooks": [{ "name": "mine", "trigger": "PreToolUse", "action": { "type": "command", "command": "./my-guard.sh" } }] }\n`,
    entry: (config) => {
      const hook = config.hooks.find((h: any) => h.trigger === "PreToolUse")
      return { command: hook.action.command, timeout: hook.timeout }
    },
    seconds: 60
  },
  {
    host: "copilot",
    user: ".copilot/hooks/agent-hooks-copilot.json",
    project: ".github/hooks/agent-hooks-copilot.json",
    mine: `{ "version": 1, "hooks": { "preToolUse": [{ "type": "command", "bash": "./my-guard.sh", "timeoutSec": 5 }] } }\n`,
    entry: (config) => ({ command: config.hooks.preToolUse[0].bash, timeout: config.hooks.preToolUse[0].timeoutSec }),
    seconds: 30
  },
  {
    host: "vscode",
    user: ".copilot/hooks/agent-hooks-vscode.json",
    project: ".github/hooks/agent-hooks-vscode.json",
    mine: `{ "hooks": { "PreToolUse": [{ "type": "command", "command": "./my-guard.sh" }] } }\n`,
    entry: (config) => ({ command: config.hooks.PreToolUse[0].command, timeout: config.hooks.PreToolUse[0].timeout }),
    seconds: 30
  }
]

describe.each(owned)("install --host $host (a hook file of its own)", (c) => {
  it("writes its own file beside the user's and removes exactly it; idempotent; doctor judges the policy", () => {
    const b = box()
    const file = join(b.dir, c.project)
    const mine = join(dirname(file), "mine.json")
    write(mine, c.mine)
    const installed = cli(b, ["install", "--host", c.host, "--project"])
    expect(installed.status, installed.stderr).toBe(0)
    const config = JSON.parse(readFileSync(file, "utf8"))
    const entry = c.entry(config)
    expect(entry.timeout).toBe(ownTimeout(entry.command, c.host))
    expect(entry.timeout).toBe(c.seconds)
    if (c.host === "copilot") expect(entry.command).toContain("--event preToolUse")
    const text = readFileSync(file, "utf8")
    expect(cli(b, ["install", "--host", c.host, "--project"]).stdout).toContain("already installed")
    expect(readFileSync(file, "utf8")).toBe(text)
    policy(b, false)
    expect(cli(b, ["doctor", "--host", c.host]).status).toBe(1)
    policy(b, true)
    const blocks = cli(b, ["doctor", "--host", c.host])
    expect(blocks.status, blocks.stdout + blocks.stderr).toBe(0)
    expect(blocks.stdout).toContain("no rm -rf here")
    expect(cli(b, ["uninstall", "--host", c.host, "--project"]).status).toBe(0)
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(dirname(file))).toEqual(["mine.json"])
    expect(readFileSync(mine, "utf8")).toBe(c.mine)
  })

  it("never overwrites or removes a file of that name it did not write (nor one changed since)", () => {
    const b = box()
    const file = join(b.home, c.user)
    write(file, c.mine)
    const refused = cli(b, ["install", "--host", c.host])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("not overwritten")
    expect(readFileSync(file, "utf8")).toBe(c.mine)
    const other = box()
    const ours = join(other.home, c.user)
    expect(cli(other, ["install", "--host", c.host]).status).toBe(0)
    const changed = readFileSync(ours, "utf8").replace(`"hooks"`, `"note": "mine now",\n  "hooks"`)
    write(ours, changed)
    expect(cli(other, ["uninstall", "--host", c.host]).status).toBe(0)
    expect(readFileSync(ours, "utf8")).toBe(changed)
  })

  it("refuses a hooks folder that leads out of the project, writing nothing there", () => {
    const b = box()
    const elsewhere = join(b.home, "elsewhere")
    mkdirSync(elsewhere, { recursive: true })
    const folder = dirname(join(b.dir, c.project))
    mkdirSync(dirname(folder), { recursive: true })
    symlinkSync(elsewhere, folder)
    const refused = cli(b, ["install", "--host", c.host, "--project"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(`${folder} leads out of ${b.dir}`)
    expect(readdirSync(elsewhere)).toEqual([])
  })
})

describe("install --host cline (one executable per event)", () => {
  it("writes an executable per event beside the user's own files, removes exactly them, and doctor runs the PreToolUse one", () => {
    const b = box()
    const folder = join(b.dir, ".clinerules", "hooks")
    write(join(folder, "README.md"), "my notes\n")
    const installed = cli(b, ["install", "--host", "cline", "--project"])
    expect(installed.status, installed.stderr).toBe(0)
    const events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "TaskStart", "TaskResume", "PreCompact", "TaskCancel", "TaskComplete"]
    expect(readdirSync(folder).sort()).toEqual([...events, "README.md"].sort())
    const script = readFileSync(join(folder, "PreToolUse"), "utf8")
    expect(script.startsWith("#!/bin/sh\n")).toBe(true)
    expect(ownTimeout(/^exec (.*)$/m.exec(script)![1]!, "cline")).toBeLessThanOrEqual(30)
    expect(statSync(join(folder, "PreToolUse")).mode & 0o111).toBe(0o111)
    expect(cli(b, ["install", "--host", "cline", "--project"]).stdout).toContain("already installed")
    policy(b, false)
    expect(cli(b, ["doctor", "--host", "cline"]).status).toBe(1)
    policy(b, true)
    const blocks = cli(b, ["doctor", "--host", "cline"])
    expect(blocks.status, blocks.stdout + blocks.stderr).toBe(0)
    expect(blocks.stdout).toContain("no rm -rf here")
    expect(cli(b, ["uninstall", "--host", "cline", "--project"]).status).toBe(0)
    expect(readdirSync(folder)).toEqual(["README.md"])
  })

  it("never overwrites a hook the user wrote: nothing is written, and uninstall leaves it", () => {
    const b = box()
    const theirs = join(b.home, "Documents", "Cline", "Hooks", "PostToolUse")
    write(theirs, "#!/bin/sh\necho '{\"cancel\": false}'\n")
    chmodSync(theirs, 0o755)
    const refused = cli(b, ["install", "--host", "cline"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("not overwritten")
    expect(readdirSync(dirname(theirs))).toEqual(["PostToolUse"])
    expect(cli(b, ["uninstall", "--host", "cline"]).status).toBe(0)
    expect(readFileSync(theirs, "utf8")).toBe("#!/bin/sh\necho '{\"cancel\": false}'\n")
  })

  it("refuses a --timeout above Cline's own 30 s", () => {
    const b = box()
    const refused = cli(b, ["install", "--host", "cline", "--timeout", "60"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("30 s")
    expect(existsSync(join(b.home, "Documents"))).toBe(false)
  })
})

describe.each(["kiro", "copilot", "vscode", "cline"])("doctor --host %s", (host) => {
  it("fails when nothing is wired, saying how to wire it", () => {
    const b = box()
    policy(b, true)
    const doctor = cli(b, ["doctor", "--host", host])
    expect(doctor.status).toBe(1)
    expect(doctor.stdout).toContain("no agent-hooks entries")
    expect(doctor.stderr).toContain(`not wired to agent-hooks`)
    expect(doctor.stderr).toContain(`agent-hooks install --host ${host}`)
  })
})

describe.each([
  ["factory", ".factory/settings.json"],
  ["codebuddy", ".codebuddy/settings.json"],
  ["auggie", ".augment/settings.json"]
])("doctor --host %s and an entry wired as --host claude", (host, file) => {
  it("names the entries (their answers are read by rules the agent does not follow) and says to re-install with its own host", () => {
    const b = box()
    policy(b, true)
    // what the Claude Code docs' recipe gives an agent that reads Claude Code's settings
    const installed = cli(b, ["install", "--host", "claude", "--project", "--dry-run"])
    const command = /'[^\n]*hook --host claude --timeout \d+/.exec(installed.stdout)![0]
    b.put(join(b.dir, file), { hooks: { PreToolUse: [{ hooks: [{ type: "command", command, timeout: 600 }] }] } })
    const doctor = cli(b, ["doctor", "--host", host, "--project"])
    expect(doctor.status).toBe(1)
    expect(doctor.stdout).toContain(`${join(b.dir, file)} runs agent-hooks as --host claude (on PreToolUse)`)
    expect(doctor.stdout).toContain(`remove those entries and run agent-hooks install --host ${host} --project`)
    // once wired as itself, doctor is content
    b.put(join(b.dir, file), { hooks: {} })
    expect(cli(b, ["install", "--host", host, "--project"]).status).toBe(0)
    const fixed = cli(b, ["doctor", "--host", host, "--project"])
    expect(fixed.status, fixed.stdout + fixed.stderr).toBe(0)
    expect(fixed.stdout).not.toContain("--host claude")
  })
})

describe("doctor and a project's hostile config", () => {
  it.each([
    ["cursor", ".cursor/hooks.json", (command: string) => ({ version: 1, hooks: { beforeShellExecution: [{ command, timeout: 30 }] } })],
    [
      "claude",
      ".claude/settings.json",
      (command: string) => ({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command, timeout: 600 }] }] } })
    ]
  ] as const)("--host %s never runs a command a cloned project's config names in install's shape", (host, file, config) => {
    const b = box()
    policy(b, true)
    const command = `'/bin/sh' '-c' 'touch PWNED' hook --host ${host} --timeout 30`
    b.put(join(b.dir, file), config(command))
    const doctor = cli(b, ["doctor", "--host", host])
    expect(doctor.status).toBe(1)
    expect(doctor.stderr).toContain("doctor does not run a command a project's file names")
    expect(existsSync(join(b.dir, "PWNED"))).toBe(false)
  })
})

describe("install --host codex and config.toml", () => {
  const toml = [
    "# my Codex config, keep this comment",
    `model = "gpt-5-codex" # and this one`,
    "",
    "[[hooks.PreToolUse]]",
    `matcher = "Bash"`,
    "[[hooks.PreToolUse.hooks]]",
    `type = "command"`,
    `command = "./my-guard.sh" # mine`,
    "",
    '[projects."/work/p"]',
    `trust_level = "trusted"`
  ].join("\n")

  it("writes its [[hooks.<Event>]] tables into config.toml when the layer keeps its hooks there, doctor reads them, uninstall gives every byte back", () => {
    const b = box()
    const file = join(b.home, ".codex", "config.toml")
    write(file, toml)
    const installed = cli(b, ["install", "--host", "codex"])
    expect(installed.status, installed.stderr).toBe(0)
    expect(existsSync(join(b.home, ".codex", "hooks.json"))).toBe(false)
    const after = readFileSync(file, "utf8")
    expect(after.startsWith(toml)).toBe(true)
    expect(after).toContain("[[hooks.PreToolUse.hooks]]")
    expect(after).toMatch(/^command = "'.*' hook --host codex --timeout 600"\ntimeout = 600$/m)
    expect(cli(b, ["install", "--host", "codex"]).stdout).toContain("already installed")
    policy(b, true)
    const doctor = cli(b, ["doctor", "--host", "codex"])
    expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
    expect(doctor.stdout).toContain("config.toml")
    expect(cli(b, ["uninstall", "--host", "codex"]).status).toBe(0)
    expect(readFileSync(file, "utf8")).toBe(toml)
  })

  it("writes hooks.json when config.toml holds only Codex's own trust records, and leaves config.toml", () => {
    const b = box()
    const file = join(b.home, ".codex", "config.toml")
    const trust = `[hooks.state."/x/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "abc"\n`
    write(file, trust)
    expect(cli(b, ["install", "--host", "codex"]).status).toBe(0)
    expect(readFileSync(file, "utf8")).toBe(trust)
    expect(readFileSync(join(b.home, ".codex", "hooks.json"), "utf8")).toContain("hook --host codex")
  })

  it("refuses hooks written as an inline array in config.toml (its tables could not be added), writing nothing", () => {
    const b = box()
    const file = join(b.home, ".codex", "config.toml")
    const inline = `[hooks]\nPreToolUse = [{ hooks = [{ type = "command", command = "./my-guard.sh" }] }]\n`
    write(file, inline)
    const refused = cli(b, ["install", "--host", "codex"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(file)
    expect(readFileSync(file, "utf8")).toBe(inline)
    expect(existsSync(join(b.home, ".codex", "hooks.json"))).toBe(false)
  })
})
