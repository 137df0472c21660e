/**
 * `agent-hooks init` as a new user runs it: the BUILT CLI scaffolds a project in an empty temp
 * folder, and the scaffold validates and really blocks `rm -rf /` through `run`.
 */
import { spawnSync } from "node:child_process"
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Ajv2020 } from "ajv/dist/2020.js"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import * as Permissions from "../../core/src/internal/permissions.ts"
import { bin, cliEnv, node, requireBuild } from "./cliHarness.ts"

const folders: Array<string> = []
const freshProject = (): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-init-")))
  folders.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})
beforeAll(() => {
  requireBuild()
})

const cli = (cwd: string, args: ReadonlyArray<string>, stdin = "") => {
  const env = cliEnv({ HOME: cwd })
  const result = spawnSync(node, [bin, ...args], { cwd, env, input: stdin, encoding: "utf8", timeout: 20_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const bash = (command: string) => JSON.stringify({ tool_name: "Bash", tool_input: { command } })

describe("agent-hooks init", () => {
  it("scaffolds .agent-hooks/settings.json and executable scripts, and says what it wrote", () => {
    const dir = freshProject()
    const result = cli(dir, ["init"])
    expect(result.status, result.stderr).toBe(0)
    for (const file of ["settings.json", "settings.schema.json", "hooks/format.sh", "hooks/run-tests.sh"]) {
      expect(result.stdout).toContain(`wrote .agent-hooks/${file}`)
      expect(existsSync(join(dir, ".agent-hooks", file))).toBe(true)
    }
    // dangerous calls are the recommended rules' (in-process), not a script's
    expect(existsSync(join(dir, ".agent-hooks", "hooks", "block-dangerous.sh"))).toBe(false)
    for (const script of ["format.sh", "run-tests.sh"]) {
      expect(statSync(join(dir, ".agent-hooks", "hooks", script)).mode & 0o111).not.toBe(0)
    }
    const settings = JSON.parse(readFileSync(join(dir, ".agent-hooks", "settings.json"), "utf8"))
    expect(settings.$schema).toBe("./settings.schema.json")
    const schema = JSON.parse(readFileSync(join(dir, ".agent-hooks", "settings.schema.json"), "utf8"))
    expect(new Ajv2020({ strict: false }).compile(schema)(settings)).toBe(true)
  })

  it("validates, blocks rm -rf / and lets ls through", () => {
    const dir = freshProject()
    expect(cli(dir, ["init"]).status).toBe(0)
    const validate = cli(dir, ["validate"])
    expect(validate.status, validate.stdout + validate.stderr).toBe(0)
    expect(validate.stdout).toContain("registered 2 hooks")
    const blocked = cli(dir, ["run", "PreToolUse"], bash("rm -rf /"))
    expect(blocked.status).toBe(2)
    expect(JSON.parse(blocked.stdout)).toMatchObject({ blocked: true, decision: "deny" })
    expect(JSON.parse(blocked.stdout).reason).toContain("agent-hooks:recommended#rm-root")
    expect(JSON.parse(blocked.stdout).reason).toContain("rm -rf /")
    const allowed = cli(dir, ["run", "PreToolUse"], bash("ls -la"))
    expect(allowed.status).toBe(0)
    expect(JSON.parse(allowed.stdout).blocked).toBe(false)
  })

  it("Stop: failing tests keep the agent working, unless it is already continuing", () => {
    const dir = freshProject()
    expect(cli(dir, ["init"]).status).toBe(0)
    writeFileSync(join(dir, "package.json"), JSON.stringify({ scripts: { test: "echo one test failed >&2; exit 1" } }))
    const stop = cli(dir, ["run", "Stop"], JSON.stringify({ stop_hook_active: false }))
    expect(stop.status, stop.stderr).toBe(2)
    expect(JSON.parse(stop.stdout).reason).toContain("one test failed")
    expect(cli(dir, ["run", "Stop"], JSON.stringify({ stop_hook_active: true })).status).toBe(0)
  })

  it("Stop: a project whose test script is npm init's placeholder lets the agent stop (no tests to run)", () => {
    const dir = freshProject()
    expect(cli(dir, ["init"]).status).toBe(0)
    // What `npm init -y` writes.
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify(
        {
          name: "fresh",
          version: "1.0.0",
          scripts: { test: 'echo "Error: no test specified" && exit 1' }
        },
        null,
        2
      )
    )
    const stop = cli(dir, ["run", "Stop"], JSON.stringify({ stop_hook_active: false }))
    expect(stop.status, stop.stdout + stop.stderr).toBe(0)
    expect(JSON.parse(stop.stdout).blocked).toBe(false)
  })

  it("never writes through a symlinked folder that leaves the project; writes nothing at all then", () => {
    const dir = freshProject()
    const outside = freshProject()
    mkdirSync(join(dir, ".agent-hooks"))
    symlinkSync(outside, join(dir, ".agent-hooks", "hooks"))
    const result = cli(dir, ["init"])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(".agent-hooks/hooks")
    expect(result.stderr).toContain("outside the project")
    expect(readdirSync(outside)).toEqual([])
    expect(existsSync(join(dir, ".agent-hooks", "settings.json"))).toBe(false)
    // The whole settings folder as a link out of the project, too.
    const other = freshProject()
    symlinkSync(outside, join(other, ".agent-hooks"))
    expect(cli(other, ["init"]).status).toBe(1)
    expect(readdirSync(outside)).toEqual([])
  })

  it("never overwrites: a second init writes nothing and exits 1, naming the files", () => {
    const dir = freshProject()
    expect(cli(dir, ["init"]).status).toBe(0)
    const path = join(dir, ".agent-hooks", "settings.json")
    writeFileSync(path, '{"hooks": {}}\n')
    const again = cli(dir, ["init"])
    expect(again.status).toBe(1)
    expect(again.stderr).toContain("not overwriting .agent-hooks/settings.json")
    expect(readFileSync(path, "utf8")).toBe('{"hooks": {}}\n')
  })

  it("--preset claude writes .claude/settings.json that --preset claude reads", () => {
    const dir = freshProject()
    const result = cli(dir, ["init", "--preset", "claude"])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain("wrote .claude/settings.json")
    const blocked = cli(dir, ["run", "PreToolUse", "--preset", "claude"], bash("rm -rf ~"))
    expect(blocked.status, blocked.stderr).toBe(2)
    expect(cli(dir, ["validate", "--preset", "claude"]).status).toBe(0)
  })

  it("refuses an unknown preset, writing nothing", () => {
    const dir = freshProject()
    const result = cli(dir, ["init", "--preset", "cursor"])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('unknown preset "cursor"')
    expect(result.stderr).toContain("gemini")
    expect(existsSync(join(dir, ".agent-hooks"))).toBe(false)
  })

  // Each dialect's starter is written where that dialect reads it, in its own shape, validates
  // clean, and its guard blocks a dangerous shell command given in that agent's own tool names.
  const dialects: ReadonlyArray<readonly [preset: string, file: string, event: string, tool: string]> = [
    ["wave", ".wave/settings.json", "PreToolUse", "Bash"],
    ["gemini", ".gemini/settings.json", "BeforeTool", "run_shell_command"],
    ["wingman", ".wingman/wingman.config.json", "PreToolUse", "command_execute"],
    ["orchestration", ".claude/settings.json", "PreToolUse", "Bash"],
    ["pigo", ".pigo/config.json", "tool_start", "bash"]
  ]
  for (const [preset, file, event, tool] of dialects) {
    it(`--preset ${preset} writes ${file}, which validates clean and blocks rm -rf / under run --preset ${preset}`, () => {
      const dir = freshProject()
      const result = cli(dir, ["init", "--preset", preset])
      expect(result.status, result.stderr).toBe(0)
      // pigo's file is the user's (HOME is the temp folder here): shown as an absolute path
      expect(result.stdout).toContain(preset === "pigo" ? join(dir, file) : `wrote ${file}`)
      expect(existsSync(join(dir, file))).toBe(true)
      // only the canonical dialects know "$schema"
      expect(readFileSync(join(dir, file), "utf8")).not.toContain("$schema")
      const validated = cli(dir, ["validate", "--preset", preset])
      expect(validated.status, validated.stderr).toBe(0)
      expect(validated.stderr).not.toMatch(/warning|error/i)
      const payload = (command: string) => JSON.stringify({ tool_name: tool, tool_input: { command }, cwd: dir })
      const blocked = cli(dir, ["run", event, "--preset", preset], payload("rm -rf /"))
      expect(blocked.status, blocked.stderr).toBe(2)
      expect(JSON.parse(blocked.stdout).blocked).toBe(true)
      expect(blocked.stderr).not.toContain("never matches")
      const allowed = cli(dir, ["run", event, "--preset", preset], payload("ls"))
      expect(allowed.status, allowed.stderr).toBe(0)
      expect(JSON.parse(allowed.stdout).blocked).toBe(false)
      // and never over an existing file
      const again = cli(dir, ["init", "--preset", preset])
      expect(again.status).toBe(1)
      expect(again.stderr).toContain("not overwriting")
    })
  }
})

describe("agent-hooks init and the docs' recipe agree", () => {
  // The two official policies for dangerous commands: what init writes and what
  // docs/recipes/block-dangerous-commands.md shows. They must decide alike on the recommended set's
  // tables (packages/core/test/fixtures/recommended), judged as the engine judges permissions.
  const repo = fileURLToPath(new URL("../../..", import.meta.url))
  const fixtures = join(repo, "packages", "core", "test", "fixtures", "recommended")
  const lines = (name: string) =>
    readFileSync(join(fixtures, `${name}.txt`), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  const call = (line: string) => {
    const m = /^@(Read|Edit|Write) (.+)$/.exec(line)
    return m === null ? { toolName: "Bash", toolInput: { command: line } } : { toolName: m[1]!, toolInput: { file_path: m[2]! } }
  }
  const context = { cwd: "/home/dev/project", projectDir: "/home/dev/project", home: "/home/dev" }

  /** The decision of a settings document's permissions on each line: "deny", "ask", or "none". */
  const decisions = (document: Record<string, unknown>, table: ReadonlyArray<string>): Array<string> => {
    const problems: Array<string> = []
    const decoded = Permissions.decode(document, "/home/dev/project/.agent-hooks/settings.json", "project", {
      warn: (_, message) => problems.push(message),
      drop: (_, message) => problems.push(message)
    })
    expect(problems).toEqual([])
    const compiled = Permissions.compile(decoded.permissions)
    return table.map((line) => {
      const { toolName, toolInput } = call(line)
      return compiled === undefined ? "none" : (Permissions.judge(compiled, toolName, toolInput, context)?.entry.list ?? "none")
    })
  }

  it("decide the same on every dangerous and ordinary call, and block every dangerous one", () => {
    const dir = freshProject()
    expect(cli(dir, ["init"]).status).toBe(0)
    const written = JSON.parse(readFileSync(join(dir, ".agent-hooks", "settings.json"), "utf8")) as Record<string, unknown>
    const recipePage = readFileSync(join(repo, "docs", "recipes", "block-dangerous-commands.md"), "utf8")
    const block = /```json file=\.agent-hooks\/settings\.json\n([\s\S]*?)\n```/.exec(recipePage)
    expect(block, "the recipe's first settings block").not.toBeNull()
    const recipe = JSON.parse(block![1]!) as Record<string, unknown>
    for (const table of [lines("dangerous"), lines("ordinary")]) {
      const fromInit = decisions(written, table)
      const fromRecipe = decisions(recipe, table)
      const differ = table.filter((_, k) => fromInit[k] !== fromRecipe[k])
      expect(differ).toEqual([])
    }
    const dangerous = lines("dangerous")
    const missed = decisions(written, dangerous).flatMap((decision, k) => (decision === "deny" ? [] : [dangerous[k]]))
    expect(missed).toEqual([])
  })
})
