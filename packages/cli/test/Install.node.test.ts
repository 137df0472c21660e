/**
 * `agent-hooks install`, `uninstall` and `doctor --host <agent>`, run as a user runs them: the BUILT
 * CLI in a temp HOME and project. Each agent's real config shape (Claude Code's nested hooks;
 * Gemini CLI's millisecond timeouts), with entries already there, comments and symlinks: install
 * then uninstall gives the same bytes back.
 */
import { spawnSync } from "node:child_process"
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, cliEnv } from "./cliHarness.ts"

let scratch = ""
let n = 0
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-install-")))
})
afterAll(() => {
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
})

/** A fresh HOME and project. */
const sandbox = () => {
  const root = join(scratch, String(++n))
  const home = join(root, "home")
  const project = join(root, "project")
  mkdirSync(home, { recursive: true })
  mkdirSync(project, { recursive: true })
  return { home, project }
}

const cli = (args: ReadonlyArray<string>, box: { home: string; project: string }) => {
  const env = cliEnv({ HOME: box.home })
  const result = spawnSync("node", [bin, ...args], { cwd: box.project, env, encoding: "utf8", timeout: 60_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const hosts = ["claude", "codex", "gemini", "qwen"] as const
type Host = (typeof hosts)[number]

const userFile = (host: Host, home: string): string =>
  ({
    claude: join(home, ".claude", "settings.json"),
    codex: join(home, ".codex", "hooks.json"),
    gemini: join(home, ".gemini", "settings.json"),
    qwen: join(home, ".qwen", "settings.json")
  })[host]
const projectFile = (host: Host, project: string): string =>
  ({
    claude: join(project, ".claude", "settings.json"),
    codex: join(project, ".codex", "hooks.json"),
    gemini: join(project, ".gemini", "settings.json"),
    qwen: join(project, ".qwen", "settings.json")
  })[host]
const preEvent = (host: Host): string => (host === "gemini" ? "BeforeTool" : "PreToolUse")

/** A config as a user has it: their own hook on the PreToolUse event, another setting, comments where the agent reads them. */
const existing = (host: Host): string => {
  const comments = host === "gemini" || host === "qwen"
  return [
    "{",
    comments ? "  // my settings, keep this comment" : undefined,
    `  "model": "keep-me",`,
    `  "hooks": {`,
    `    "${preEvent(host)}": [`,
    `      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./my-guard.sh", "timeout": 5 }] }${comments ? " /* mine */" : ""}`,
    "    ]",
    "  }",
    "}",
    ""
  ]
    .filter((line) => line !== undefined)
    .join("\n")
}

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

describe.each(hosts)("install --host %s", (host) => {
  it("round trips a config with the user's entries and comments: install adds, uninstall gives the same bytes back", () => {
    const box = sandbox()
    const file = userFile(host, box.home)
    const before = existing(host)
    write(file, before)
    const installed = cli(["install", "--host", host], box)
    expect(installed.status, installed.stderr).toBe(0)
    const after = readFileSync(file, "utf8")
    expect(after).toContain("./my-guard.sh")
    if (host === "gemini" || host === "qwen") expect(after).toContain("// my settings, keep this comment")
    expect(after).toContain(`' hook --host ${host} --timeout ${host === "claude" || host === "codex" ? 600 : 60}`)
    // the agent's own reader: the hooks of the PreToolUse event hold the user's entry and ours
    const parsed = JSON.parse(after.replace(/\/\/.*$|\/\*.*?\*\//gm, "")) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>
    }
    const groups = parsed.hooks[preEvent(host)]!
    expect(
      groups.map((group) =>
        group.hooks[0]!.command.endsWith(`hook --host ${host} --timeout ${groups[1]!.hooks[0]!.command.split(" ").at(-1)}`)
      )
    ).toEqual([false, true])
    // the hook timeout is longer than host mode's budget: the same seconds (Gemini CLI: milliseconds)
    const seconds = Number(groups[1]!.hooks[0]!.command.split(" ").at(-1))
    expect(groups[1]!.hooks[0]!.timeout).toBe(host === "gemini" ? seconds * 1000 : seconds)
    // Claude Code blocks the call when the hook cannot start, times out or answers garbage; not on Stop, where it is ignored
    const handler = (event: string) => parsed.hooks[event]!.at(-1)!.hooks[0] as Record<string, unknown>
    expect(handler(preEvent(host))["onFailure"]).toBe(host === "claude" ? "block" : undefined)
    if (host === "claude") expect(handler("Stop")["onFailure"]).toBeUndefined()
    expect(installed.stdout).toMatch(host === "codex" ? /\/hooks/ : host === "gemini" ? /trusted folder/ : /restart/)
    // idempotent
    const again = cli(["install", "--host", host], box)
    expect(again.status).toBe(0)
    expect(again.stdout).toContain("already installed")
    expect(readFileSync(file, "utf8")).toBe(after)
    const removed = cli(["uninstall", "--host", host], box)
    expect(removed.status, removed.stderr).toBe(0)
    expect(readFileSync(file, "utf8")).toBe(before)
  })

  it("round trips no config at all: uninstall removes the file install created", () => {
    const box = sandbox()
    const file = projectFile(host, box.project)
    expect(cli(["install", "--host", host, "--project"], box).status).toBe(0)
    expect(existsSync(file)).toBe(true)
    expect(cli(["uninstall", "--host", host, "--project"], box).status).toBe(0)
    expect(existsSync(file)).toBe(false)
  })

  it("keeps an entry the user added after install when uninstalling, and only that", () => {
    const box = sandbox()
    const file = userFile(host, box.home)
    write(file, '{\n  "hooks": {}\n}\n')
    expect(cli(["install", "--host", host], box).status).toBe(0)
    const installed = readFileSync(file, "utf8")
    const theirs = `,\n      { "hooks": [{ "type": "command", "command": "npx --no-install agent-hooks hook --host ${host}" }] }`
    const at = installed.indexOf("}] }", installed.indexOf(`"${preEvent(host)}"`)) + 4
    write(file, installed.slice(0, at) + theirs + installed.slice(at))
    expect(cli(["uninstall", "--host", host], box).status).toBe(0)
    const left = JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }
    expect(Object.keys(left.hooks)).toEqual([preEvent(host)])
    expect(left.hooks[preEvent(host)]!.map((group) => group.hooks[0]!.command)).toEqual([
      `npx --no-install agent-hooks hook --host ${host}`
    ])
  })

  it("writes through a symlink that stays in the config's folder, and the link stays a link", () => {
    const box = sandbox()
    const file = userFile(host, box.home)
    const real = join(dirname(file), "real-settings.json")
    const before = existing(host)
    write(real, before)
    symlinkSync("real-settings.json", file)
    expect(cli(["install", "--host", host], box).status).toBe(0)
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    expect(readFileSync(real, "utf8")).toContain(`hook --host ${host}`)
    expect(cli(["uninstall", "--host", host], box).status).toBe(0)
    expect(readlinkSync(file)).toBe("real-settings.json")
    expect(readFileSync(real, "utf8")).toBe(before)
  })

  it("refuses a symlink that leads out of the config's folder, and writes nothing", () => {
    const box = sandbox()
    const file = projectFile(host, box.project)
    const outside = join(box.home, "bashrc")
    write(outside, "echo hi\n")
    mkdirSync(dirname(file), { recursive: true })
    symlinkSync(outside, file)
    const result = cli(["install", "--host", host, "--project"], box)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("symlink")
    expect(readFileSync(outside, "utf8")).toBe("echo hi\n")
  })

  it("--dry-run shows the diff and writes nothing", () => {
    const box = sandbox()
    const file = userFile(host, box.home)
    const before = existing(host)
    write(file, before)
    const result = cli(["install", "--host", host, "--dry-run"], box)
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain(`--- ${file}`)
    expect(result.stdout).toMatch(new RegExp(`^\\+.*hook --host ${host} --timeout`, "m"))
    expect(readFileSync(file, "utf8")).toBe(before)
  })

  it("refuses a config that is not JSON, saying where, and leaves it", () => {
    const box = sandbox()
    const file = userFile(host, box.home)
    write(file, '{\n  "hooks": {\n    "x": [1,,]\n  }\n}\n')
    const result = cli(["install", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`${file}: not JSON (line 3 column`)
    expect(readFileSync(file, "utf8")).toBe('{\n  "hooks": {\n    "x": [1,,]\n  }\n}\n')
  })
})

describe("install: hostile and broken configs", () => {
  it("refuses hooks that are not an object of arrays, and a key given twice, naming the JSON path, and writes nothing", () => {
    const box = sandbox()
    const file = userFile("claude", box.home)
    for (const text of ['{ "hooks": [] }\n', '{ "hooks": { "PreToolUse": {} } }\n', '{ "hooks": {}, "hooks": {} }\n']) {
      write(file, text)
      const result = cli(["install", "--host", "claude"], box)
      expect(result.status).toBe(1)
      expect(result.stderr).toMatch(/"hooks" must be an object|"hooks"\."PreToolUse" must be an array|the key "hooks" is given twice/)
      expect(result.stderr).toContain(file)
      expect(readFileSync(file, "utf8")).toBe(text)
    }
  })

  it("refuses a project config folder that is a symlink out of the project", () => {
    const box = sandbox()
    const elsewhere = join(box.home, "elsewhere")
    mkdirSync(elsewhere, { recursive: true })
    symlinkSync(elsewhere, join(box.project, ".qwen"))
    const result = cli(["install", "--host", "qwen", "--project"], box)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("leads out of")
    expect(existsSync(join(elsewhere, "settings.json"))).toBe(false)
  })
})

/** A policy in Claude Code's names: a PreToolUse Bash hook that blocks `rm -rf`, or one that lets everything through. */
const policy = (home: string, blocks: boolean) =>
  write(
    join(home, ".agent-hooks", "settings.json"),
    JSON.stringify({
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
  )

describe.each(hosts)("doctor --host %s", (host) => {
  it("fails when the agent is not wired up", () => {
    const box = sandbox()
    policy(box.home, true)
    write(userFile(host, box.home), existing(host))
    const result = cli(["doctor", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`agent-hooks install --host ${host}`)
  })

  it("fails when the policy would let a dangerous shell call through", () => {
    const box = sandbox()
    policy(box.home, false)
    expect(cli(["install", "--host", host], box).status).toBe(0)
    const result = cli(["doctor", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('would run "rm -rf /"')
  })

  it("fails when host mode blocks everything (no policy at all)", () => {
    const box = sandbox()
    expect(cli(["install", "--host", host], box).status).toBe(0)
    const result = cli(["doctor", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("blocks even `ls`")
  })

  it("fails when the agent's own switch turns every hook off", () => {
    if (host !== "claude" && host !== "qwen") return
    const box = sandbox()
    policy(box.home, true)
    expect(cli(["install", "--host", host], box).status).toBe(0)
    write(projectFile(host, box.project), '{ "disableAllHooks": true }\n')
    const result = cli(["doctor", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("not protected: ")
    expect(result.stdout).toContain(": disableAllHooks: ")
  })

  it("fails when the hook timeout in the config was lowered below host mode's budget", () => {
    const box = sandbox()
    policy(box.home, true)
    expect(cli(["install", "--host", host], box).status).toBe(0)
    const file = userFile(host, box.home)
    const unit = host === "gemini" ? 1000 : 1
    const seconds = host === "claude" || host === "codex" ? 600 : 60
    write(file, readFileSync(file, "utf8").replaceAll(`"timeout": ${seconds * unit} }`, `"timeout": ${5 * unit} }`))
    const result = cli(["doctor", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("is not above host mode's budget")
  })

  it("a --timeout of 1000 s or more is written as the agent reads it (Qwen Code: milliseconds from 1000 on), and doctor reads it back so", () => {
    const box = sandbox()
    policy(box.home, true)
    expect(cli(["install", "--host", host, "--timeout", "1000"], box).status).toBe(0)
    const file = userFile(host, box.home)
    const written = readFileSync(file, "utf8")
    // Gemini CLI and Qwen Code read 1000000 as 1000 s; Claude Code and Codex read seconds
    expect(written).toContain(`"timeout": ${host === "gemini" || host === "qwen" ? 1_000_000 : 1000} }`)
    const passed = cli(["doctor", "--host", host], box)
    expect(passed.stdout).not.toContain("is not above host mode's budget")
    if (host !== "qwen") return
    // 1000 written by hand is 1 s to Qwen Code: host mode would be killed long before its budget
    write(file, written.replaceAll(`"timeout": 1000000 }`, `"timeout": 1000 }`))
    const result = cli(["doctor", "--host", host], box)
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("the hook timeout (1 s) is not above host mode's budget for --timeout 1000")
  })

  it("passes when wired with a policy that blocks it, naming the reason", () => {
    const box = sandbox()
    policy(box.home, true)
    expect(cli(["install", "--host", host, "--project"], box).status).toBe(0)
    const result = cli(["doctor", "--host", host], box)
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("no rm -rf here")
    expect(result.stdout).toContain("wired")
  })
})
