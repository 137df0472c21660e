/**
 * Conformance of each preset to its seed document, with real hook processes: the dialect's own
 * files in a temporary project (and a temporary HOME), loaded through `createHookEngine({ preset })`.
 */
import { afterEach, describe, expect, it } from "vitest"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { createHookEngine } from "@agent-hooks/node"
import { Presets } from "@agent-hooks/core"
import type { PromiseEngine } from "@agent-hooks/core"

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/presets/${name}`, import.meta.url))
const record = (label: string, exit = 0) => `sh ${JSON.stringify(fixture("record.sh"))} ${label} ${exit}`

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const tempDir = (prefix = "agent-hooks-presets-") => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
const put = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2))
}
const lines = (file: string): Array<string> =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    : []

interface Project {
  readonly dir: string
  readonly home: string
  readonly log: string
  readonly warnings: Array<string>
  readonly engine: (preset: string, extra?: Record<string, unknown>) => Promise<PromiseEngine.PromiseHookEngine>
}
const project = (prefix?: string): Project => {
  const root = tempDir(prefix)
  const dir = join(root, "project")
  const home = join(root, "home")
  mkdirSync(dir, { recursive: true })
  mkdirSync(home, { recursive: true })
  const log = join(root, "record.log")
  const warnings: Array<string> = []
  return {
    dir,
    home,
    log,
    warnings,
    engine: async (name, extra = {}) => {
      const preset = Presets.byName(name)!
      const engine = await createHookEngine({
        preset,
        projectDir: dir,
        env: { PATH: process.env["PATH"], HOME: home, RECORD: log, TMPDIR: root },
        onWarning: (warning) => warnings.push(warning),
        ...extra
      })
      cleanups.push(() => engine.close())
      return engine
    }
  }
}
const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: cmd, ...extra })

describe("Wingman preset", () => {
  const files = (p: Project, global: unknown, agent?: unknown) => {
    put(join(p.dir, ".wingman", "wingman.config.json"), global)
    if (agent !== undefined) put(join(p.dir, ".wingman", "agents", "reviewer", "agent.json"), { name: "reviewer", ...(agent as object) })
  }

  it("global hooks first, then the agent's, no dedup", async () => {
    const p = project()
    files(
      p,
      { hooks: { PreToolUse: [{ matcher: "write_file", hooks: [command(record("same")), command(record("global"))] }] } },
      { hooks: { PreToolUse: [{ matcher: "write_file", hooks: [command(record("same")), command(record("agent"))] }] } }
    )
    const engine = await p.engine("wingman", { agent: "reviewer" })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "write_file", tool_input: { file_path: "a.ts" } })
    expect(outcome.blocked).toBe(false)
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["same", "global", "same", "agent"])
    // Without --agent only the global file is read.
    const globalOnly = await p.engine("wingman")
    expect(globalOnly.settings.hooks["PreToolUse"]).toHaveLength(2)
  })

  it("exit 2 blocks PreToolUse; other codes allow; PostToolUse and Stop never block", async () => {
    const p = project()
    files(p, {
      hooks: {
        PreToolUse: [
          { matcher: "command_execute", hooks: [command("echo 'rm -rf / is blocked' >&2; exit 2")] },
          { matcher: "edit_file", hooks: [command("exit 1")] }
        ],
        PostToolUse: [{ matcher: "*", hooks: [command("echo lint failed >&2; exit 2")] }],
        Stop: [{ hooks: [command("exit 2")] }]
      }
    })
    const engine = await p.engine("wingman")
    const blocked = await engine.dispatch("PreToolUse", { tool_name: "command_execute", tool_input: { command: "rm -rf /" } })
    expect(blocked).toMatchObject({ blocked: true, decision: "deny", reason: "rm -rf / is blocked" })
    const allowed = await engine.dispatch("PreToolUse", { tool_name: "edit_file", tool_input: {} })
    expect(allowed.blocked).toBe(false)
    expect(allowed.hooks[0]).toMatchObject({ exitCode: 1, status: "non-blocking-error" })
    const post = await engine.dispatch("PostToolUse", { tool_name: "write_file", tool_input: {}, tool_output: "ok" })
    expect(post.blocked).toBe(false)
    expect(post.hooks[0]!.exitCode).toBe(2)
    // Logged as an error, as exit 1 is: its status does not say "blocking".
    expect(post.hooks[0]!.status).toBe("non-blocking-error")
    const stop = await engine.dispatch("Stop", {})
    expect(stop.blocked).toBe(false)
    expect(stop.hooks[0]!.status).toBe("non-blocking-error")
  })

  it("exact, pipe, * / empty, regex; an invalid regex falls back to exact match; case-sensitive", async () => {
    const p = project()
    files(p, {
      hooks: {
        PreToolUse: [
          { matcher: "write_file", hooks: [command(record("exact"))] },
          { matcher: "write_file|edit_file", hooks: [command(record("pipe"))] },
          { matcher: "*", hooks: [command(record("star"))] },
          { matcher: "", hooks: [command(record("empty"))] },
          { matcher: ".*_file", hooks: [command(record("regex"))] },
          { matcher: "write_file(", hooks: [command(record("invalid"))] }
        ]
      }
    })
    const engine = await p.engine("wingman")
    const ran = async (tool: string) => {
      rmSync(p.log, { force: true })
      await engine.dispatch("PreToolUse", { tool_name: tool, tool_input: {} })
      return lines(p.log).map((line) => line.split(" ")[0])
    }
    expect(await ran("write_file")).toEqual(["exact", "pipe", "star", "empty", "regex"])
    expect(await ran("edit_file")).toEqual(["pipe", "star", "empty", "regex"])
    expect(await ran("command_execute")).toEqual(["star", "empty"])
    expect(await ran("Write_File")).toEqual(["star", "empty"])
    expect(await ran("write_file_v2")).toEqual(["star", "empty", "regex"])
    expect(await ran("write_file(")).toEqual(["star", "empty", "regex", "invalid"])
    expect(p.warnings.filter((warning) => warning.includes("never run"))).toEqual([])
  })

  it("default timeout 60 s; timeouts are clamped to 1..600 s with a warning", async () => {
    const p = project()
    files(p, {
      hooks: {
        PreToolUse: [
          { hooks: [command("sleep 0.3; echo slow >&2; exit 2", { timeout: 0.1 }), command("true", { timeout: 5000 }), command("true")] }
        ]
      }
    })
    const engine = await p.engine("wingman")
    expect(p.warnings.some((w) => w.includes("hooks.PreToolUse[0].hooks[0].timeout") && w.includes("minimum of 1 s"))).toBe(true)
    expect(p.warnings.some((w) => w.includes("hooks.PreToolUse[0].hooks[1].timeout") && w.includes("maximum of 600 s"))).toBe(true)
    const [first, second, third] = engine.settings.hooks["PreToolUse"]!
    expect([first!.handler.timeout, second!.handler.timeout, third!.handler.timeout]).toEqual([1, 600, undefined])
    // Clamped to 1 s, the 0.3 s hook finishes and blocks (at 0.1 s it would have been killed).
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "write_file", tool_input: {} })
    expect(outcome).toMatchObject({ blocked: true, reason: "slow" })
    const timeouts = Presets.wingman.events.map((event) => event.defaultTimeout)
    expect(timeouts).toEqual([60, 60, 60])
  })

  it("a hook running past its timeout is killed and reported, and does not block", async () => {
    const p = project()
    files(p, { hooks: { PreToolUse: [{ hooks: [command("sleep 30; exit 2", { timeout: 1 })] }] } })
    const engine = await p.engine("wingman")
    const started = Date.now()
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "write_file", tool_input: {} })
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]!.timedOut).toBe(true)
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it("hooks get session_id, cwd, hook_event_name, tool_name, tool_use_id, tool_input, tool_output on stdin", async () => {
    const p = project()
    files(p, { hooks: { PostToolUse: [{ matcher: "write_file", hooks: [command(record("post"))] }] } })
    const engine = await p.engine("wingman")
    await engine.dispatch("PostToolUse", {
      tool_name: "write_file",
      tool_use_id: "t1",
      tool_input: { file_path: "a.ts" },
      tool_output: "written"
    })
    const input = JSON.parse(lines(p.log)[0]!.slice("post ".length))
    expect(input).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "write_file",
      tool_use_id: "t1",
      tool_input: { file_path: "a.ts" },
      tool_output: "written",
      cwd: p.dir
    })
    expect(typeof input.session_id).toBe("string")
  })

  it("the execution log has timestamp, event, matcher pattern, command, exit code, duration and errors", async () => {
    const p = project()
    files(p, {
      executionLog: "hooks.jsonl",
      hooks: { PreToolUse: [{ matcher: "command_.*", hooks: [command("echo nope >&2; exit 1"), command("sleep 1.2")] }] }
    })
    const engine = await p.engine("wingman")
    await engine.dispatch("PreToolUse", { tool_name: "command_execute", tool_input: { command: "ls" } })
    const [entry, second] = lines(join(p.dir, ".wingman", "hooks.jsonl")).map((line) => JSON.parse(line))
    expect(entry).toMatchObject({ event: "PreToolUse", matcher: "command_.*", command: "echo nope >&2; exit 1", exitCode: 1 })
    // Each line has the time its own hook ran: the second hook started after the first ended.
    expect(Date.parse(second.timestamp)).toBeGreaterThanOrEqual(Date.parse(entry.timestamp) + entry.duration_ms - 1)
    expect(Date.parse(entry.timestamp)).toBeLessThan(Date.parse(second.timestamp))
    expect(Date.parse(entry.timestamp)).not.toBeNaN()
    expect(typeof entry.duration_ms).toBe("number")
    expect(entry.error).toContain("nope")
  })

  it("an agent without .wingman/agents/<name>/agent.json is an error naming the file", async () => {
    const p = project()
    files(p, { hooks: {} })
    await expect(p.engine("wingman", { agent: "ghost" })).rejects.toThrow(/agents\/ghost\/agent\.json/)
  })
})

describe("orchestration preset", () => {
  const settings = (p: Project, value: unknown) => put(join(p.dir, ".claude", "settings.json"), value)

  it("Pattern 1 (Block-at-Submit): Bash(git push:*) runs test -f; continueOnError false blocks a failing gate; git pull is not matched", async () => {
    const p = project()
    const marker = join(p.home, "functional-tests-passing")
    settings(p, {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash(git push:*)",
            hooks: [{ type: "command", command: "test", args: ["-f", marker], timeout: 5000, continueOnError: false }]
          }
        ]
      }
    })
    const engine = await p.engine("orchestration")
    const push = { tool_name: "Bash", tool_input: { command: "git push origin main" } }
    expect((await engine.dispatch("PreToolUse", push)).blocked).toBe(true)
    const pull = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "git pull" } })
    expect(pull).toMatchObject({ blocked: false, hooks: [] })
    writeFileSync(marker, "tests passed")
    const allowed = await engine.dispatch("PreToolUse", push)
    expect(allowed.blocked).toBe(false)
    expect(allowed.hooks[0]).toMatchObject({ exitCode: 0, status: "success" })
  })

  it("reads only the project's .claude/settings.json and settings.local.json: the user's ~/.claude/settings.json holds Claude Code's own hooks", async () => {
    const p = project()
    // ordinary Claude Code hooks (shell form), which Claude Code itself runs
    put(join(p.home, ".claude", "settings.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "jq -r .tool_input.command | grep -q 'rm -rf' && exit 2; exit 0" }] }
        ]
      }
    })
    settings(p, {
      hooks: { Stop: [{ matcher: "*", hooks: [{ type: "command", command: "sh", args: [fixture("record.sh"), "project"] }] }] }
    })
    put(join(p.dir, ".claude", "settings.local.json"), {
      hooks: { Stop: [{ matcher: "*", hooks: [{ type: "command", command: "sh", args: [fixture("record.sh"), "local"] }] }] }
    })
    const engine = await p.engine("orchestration")
    expect(engine.settings.files.filter((file) => file.found).map((file) => [file.scope, file.path])).toEqual([
      ["project", join(p.dir, ".claude", "settings.json")],
      ["local", join(p.dir, ".claude", "settings.local.json")]
    ])
    expect(engine.settings.hooks["PreToolUse"]).toBeUndefined()
    expect(engine.settings.errors).toEqual([])
    // no file moves the design's default log: nothing to say about it
    expect(p.warnings.filter((w) => w.includes("executionLog"))).toEqual([])
    await engine.dispatch("Stop", {})
    // (hooks of one event run in parallel)
    expect(
      lines(p.log)
        .map((line) => line.split(" ")[0])
        .sort()
    ).toEqual(["local", "project"])
  })

  it("Pattern 3: the design's cleanup (rm -rf /tmp/claude-temp-* in exec form) deletes what its glob matches, and only that", async () => {
    const p = project()
    const tmp = join(dirname(p.dir), "tmp")
    const odd = join(tmp, "it's a dir")
    for (const name of ["claude-temp-a", "claude-temp-b/inner", "keep.txt"]) put(join(tmp, name), "x")
    put(join(odd, "claude-temp-1"), "x")
    // a name an attacker chose: expanded as a name, never read as code
    put(join(tmp, "claude-temp-$(touch pwned)"), "x")
    settings(p, {
      hooks: {
        SessionEnd: [
          {
            matcher: "*",
            hooks: [
              { type: "command", command: "rm", args: ["-rf", join(tmp, "claude-temp-*")], timeout: 10000 },
              { type: "command", command: "rm", args: ["-f", join(odd, "claude-temp-?")] }
            ]
          }
        ],
        // not path globs: find and grep read their own patterns, and stay exec form
        Stop: [
          {
            hooks: [
              { type: "command", command: "find", args: [".", "-name", "*.tmp"] },
              { type: "command", command: "grep", args: ["-E", "a*b", "notes"] }
            ]
          }
        ]
      }
    })
    const engine = await p.engine("orchestration")
    expect(p.warnings.filter((w) => w.includes("glob"))).toEqual([])
    const outcome = await engine.dispatch("SessionEnd", { reason: "other", cwd: p.dir })
    expect(outcome.hooks.map((hook) => hook.status)).toEqual(["success", "success"])
    expect(readdirSync(tmp).sort()).toEqual(["it's a dir", "keep.txt"])
    expect(readdirSync(odd)).toEqual([])
    expect(existsSync(join(p.dir, "pwned"))).toBe(false)
    // the HookLogger's line names the command as the user wrote it
    const logged = lines(join(p.home, ".config", "claude", "logs", "hooks.log")).map((line) => JSON.parse(line).command)
    expect(logged).toEqual([`rm -rf ${join(tmp, "claude-temp-*")}`, `rm -f '${join(odd, "claude-temp-").replace(/'/g, "'\\''")}'?`])
    expect(engine.settings.hooks["Stop"]!.map((entry) => entry.handler)).toMatchObject([
      { command: "find", args: [".", "-name", "*.tmp"] },
      { command: "grep", args: ["-E", "a*b", "notes"] }
    ])
  })

  it("with the command allowlist on, a path glob stays exec form (a shell is never allowed): said at load", async () => {
    const p = project()
    settings(p, {
      allowedCommands: ["rm"],
      hooks: { SessionEnd: [{ matcher: "*", hooks: [{ type: "command", command: "rm", args: ["-rf", "/tmp/claude-temp-*"] }] }] }
    })
    await p.engine("orchestration")
    const globs = p.warnings.filter((w) => w.includes("exec form runs no shell"))
    expect(globs).toEqual([expect.stringContaining("hooks.SessionEnd[0].hooks[0].args[1]")])
    expect(globs[0]).toContain('"/tmp/claude-temp-*" is a path glob')
  })

  it("exit codes: 0 allows, 2 blocks, other is an error that does not block (without continueOnError: false)", async () => {
    const p = project()
    settings(p, {
      hooks: {
        PreToolUse: [
          { matcher: "Edit", hooks: [{ type: "command", command: "sh", args: ["-c", "exit 2"] }] },
          { matcher: "Write", hooks: [{ type: "command", command: "sh", args: ["-c", "exit 1"] }] }
        ]
      }
    })
    const engine = await p.engine("orchestration")
    expect((await engine.dispatch("PreToolUse", { tool_name: "Edit", tool_input: {} })).blocked).toBe(true)
    const write = await engine.dispatch("PreToolUse", { tool_name: "Write", tool_input: {} })
    expect(write.blocked).toBe(false)
    expect(write.hooks[0]!.status).toBe("non-blocking-error")
  })

  it("Pattern 2: env ${FILE_PATH} and args $FILE_PATH reach the command verbatim (no shell, no shlex quotes)", async () => {
    const p = project()
    settings(p, {
      hooks: {
        PostToolUse: [
          {
            matcher: "Edit|Write",
            hooks: [
              {
                type: "command",
                command: "sh",
                args: [fixture("print-args.sh"), "--write", "$FILE_PATH", "${TOOL_NAME}", "$ARGS"],
                env: { FILE_PATH: "${FILE_PATH}", CMD: "${COMMAND}" },
                timeout: 30000,
                continueOnError: true
              }
            ]
          }
        ]
      }
    })
    const engine = await p.engine("orchestration")
    const path = "src/it's $(rm -rf ~) a.ts"
    await engine.dispatch("PostToolUse", { tool_name: "Write", tool_input: { file_path: path }, tool_response: {} })
    expect(lines(p.log)).toEqual(["--write", path, "Write", JSON.stringify({ file_path: path })])
    expect((await engine.dispatch("PostToolUse", { tool_name: "Read", tool_input: { file_path: path } })).hooks).toEqual([])
  })

  it("timeouts are milliseconds: 300 ms kills a 5 s hook", async () => {
    const p = project()
    settings(p, { hooks: { Stop: [{ matcher: "*", hooks: [{ type: "command", command: "sleep", args: ["5"], timeout: 300 }] }] } })
    const engine = await p.engine("orchestration")
    expect(engine.settings.hooks["Stop"]![0]!.handler.timeout).toBe(0.3)
    const started = Date.now()
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks[0]!.timedOut).toBe(true)
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it("SessionStart and SessionEnd hooks run (Pattern 3: session cleanup)", async () => {
    const p = project()
    settings(p, {
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: "sh", args: [fixture("record.sh"), "start"] }] }],
        SessionEnd: [{ matcher: "*", hooks: [{ type: "command", command: "sh", args: [fixture("record.sh"), "end"] }] }]
      }
    })
    const engine = await p.engine("orchestration")
    await engine.dispatch("SessionStart", { source: "startup" })
    await engine.dispatch("SessionEnd", { reason: "other" })
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["start", "end"])
  })

  it("HookLogger: one JSONL line per execution with timestamp, event, pattern, command, exitCode, duration_ms, blocked", async () => {
    const p = project()
    settings(p, {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash(git push:*)",
            hooks: [
              { type: "command", command: "sh", args: ["-c", "exit 2", "gate", "$COMMAND"], env: { COMMAND: "${COMMAND}" }, timeout: 5000 }
            ]
          }
        ]
      }
    })
    const engine = await p.engine("orchestration")
    await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "git push 'origin' main" } })
    const [entry] = lines(join(p.home, ".config", "claude", "logs", "hooks.log")).map((line) => JSON.parse(line))
    // The command as it ran: $COMMAND substituted, and each word quoted as a shell would need it.
    expect(entry).toMatchObject({
      event: "PreToolUse",
      command: `sh -c 'exit 2' gate 'git push '\\''origin'\\'' main'`,
      exitCode: 2,
      blocked: true
    })
    // The matcher as the user wrote it, not its translation (matcher Bash plus an argument rule).
    expect(entry.pattern).toBe("Bash(git push:*)")
    expect(Date.parse(entry.timestamp)).not.toBeNaN()
    expect(typeof entry.duration_ms).toBe("number")
  })

  it('the command allowlist is off by default; "allowedCommands": "default" refuses commands outside the design\'s list', async () => {
    const p = project()
    const hooks = {
      PreToolUse: [
        {
          hooks: [
            { type: "command", command: "sh", args: ["-c", "exit 2"] },
            { type: "command", command: "test", args: ["-n", "x"] }
          ]
        }
      ]
    }
    settings(p, { hooks })
    const open = await p.engine("orchestration")
    expect((await open.dispatch("PreToolUse", { tool_name: "Bash", tool_input: {} })).blocked).toBe(true)
    settings(p, { allowedCommands: "default", hooks })
    const strict = await p.engine("orchestration")
    const outcome = await strict.dispatch("PreToolUse", { tool_name: "Bash", tool_input: {} })
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]!.stderr).toContain(`command "sh" is not in allowedCommands`)
    expect(outcome.hooks[1]).toMatchObject({ exitCode: 0, status: "success" })
  })
})

describe("pigo preset", () => {
  const config = (p: Project, plugins: unknown) => put(join(p.home, ".pigo", "config.json"), { api_key: "sk-x", model: "gpt-4o", plugins })

  it("tool_start: any non-zero exit of a blocking hook cancels the tool with stderr as the reason; match bash|write", async () => {
    const p = project()
    config(p, [
      {
        name: "safety-gate",
        enabled: true,
        hooks: { tool_start: [{ command: 'echo "no: $PIGO_TOOL_INPUT" >&2; exit 1', match: { tool: "bash|write" }, timeout: 5 }] }
      }
    ])
    const engine = await p.engine("pigo")
    const outcome = await engine.dispatch("tool_start", { tool_name: "bash", tool_input: { command: "rm -rf /" } })
    expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "no: rm -rf /" })
    expect((await engine.dispatch("tool_start", { tool_name: "write", tool_input: {} })).blocked).toBe(true)
    expect(await engine.dispatch("tool_start", { tool_name: "read", tool_input: {} })).toMatchObject({ blocked: false, hooks: [] })
    expect(await engine.dispatch("tool_start", { tool_name: "Bash", tool_input: {} })).toMatchObject({ blocked: false, hooks: [] })
  })

  it("other events: exit != 0 is a warning, never a block", async () => {
    const p = project()
    const failing = [{ command: "exit 1" }]
    config(p, [
      { name: "x", hooks: { agent_start: failing, turn_start: failing, tool_end: failing, turn_end: failing, agent_end: failing } }
    ])
    const engine = await p.engine("pigo")
    for (const event of ["agent_start", "turn_start", "tool_end", "turn_end", "agent_end"]) {
      const outcome = await engine.dispatch(event, { tool_name: "bash", tool_input: {} })
      expect(outcome.blocked, event).toBe(false)
      expect(outcome.hooks[0]!.exitCode, event).toBe(1)
    }
  })

  it("timeout in seconds (default 10); a timed-out blocking tool_start hook cancels the tool", async () => {
    const p = project()
    config(p, [{ name: "slow", hooks: { tool_start: [{ command: "sleep 10", timeout: 1 }, { command: "true" }] } }])
    const engine = await p.engine("pigo")
    const [first, second] = engine.settings.hooks["tool_start"]!
    expect(first!.handler.timeout).toBe(1)
    expect(second!.handler.timeout).toBeUndefined()
    expect(Presets.pigo.events.find((event) => event.name === "tool_start")!.defaultTimeout).toBe(10)
    const outcome = await engine.dispatch("tool_start", { tool_name: "bash", tool_input: {} })
    expect(outcome.blocked).toBe(true)
    expect(outcome.hooks[0]!.timedOut).toBe(true)
  })

  it("blocking: false is fire and forget: it cannot block, and its process is reaped", async () => {
    const p = project()
    config(p, [{ name: "bg", hooks: { tool_start: [{ command: `sleep 0.2; ${record("bg", 1)}`, blocking: false }] } }])
    const engine = await p.engine("pigo")
    const outcome = await engine.dispatch("tool_start", { tool_name: "bash", tool_input: {} })
    expect(outcome.blocked).toBe(false)
    await engine.awaitAsync()
    const results = await engine.takeAsyncResults()
    expect(results).toHaveLength(1)
    expect(results[0]!.hook.exitCode).toBe(1)
    expect(lines(p.log)).toHaveLength(1)
  })

  it("plugins run in order; a disabled plugin does not run", async () => {
    const p = project()
    config(p, [
      { name: "a", hooks: { agent_end: [{ command: record("a") }] } },
      { name: "off", enabled: false, hooks: { agent_end: [{ command: record("off") }] } },
      { name: "b", hooks: { agent_end: [{ command: record("b") }] } }
    ])
    const engine = await p.engine("pigo")
    await engine.dispatch("agent_end", {})
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["a", "b"])
  })

  it("PIGO_* variables per event; tool output truncated to 10 000 characters; no value can cause E2BIG", async () => {
    const p = project()
    const dump = (name: string) => `printf '%s\\n' "${name}=$(printenv ${name} | wc -c)" >> "$RECORD"`
    const names = [
      "PIGO_EVENT",
      "PIGO_WORK_DIR",
      "PIGO_MODEL",
      "PIGO_USER_MESSAGE",
      "PIGO_ASSISTANT_MESSAGE",
      "PIGO_TOOL_NAME",
      "PIGO_TOOL_ARGS",
      "PIGO_TOOL_OUTPUT",
      "PIGO_TOOL_ERROR"
    ]
    config(p, [
      {
        name: "env",
        hooks: {
          tool_end: [
            {
              command: `printf '%s|%s|%s|%s|%s\\n' "$PIGO_EVENT" "$PIGO_TOOL_NAME" "$PIGO_TOOL_ARGS" "$PIGO_TOOL_ERROR" "$PIGO_MODEL" >> "$RECORD"; ${names.map(dump).join("; ")}`
            }
          ],
          turn_start: [{ command: `printf 'turn %s\\n' "$PIGO_TURN_NUMBER" >> "$RECORD"` }]
        }
      }
    ])
    const engine = await p.engine("pigo")
    const huge = "é".repeat(300_000)
    const outcome = await engine.dispatch("tool_end", {
      tool_name: "bash",
      tool_input: { command: "ls" },
      tool_response: huge,
      tool_error: false,
      user_message: huge,
      assistant_message: huge,
      model: "gpt-4o"
    })
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 0, status: "success" })
    const out = lines(p.log)
    expect(out[0]).toBe(`tool_end|bash|{"command":"ls"}|false|gpt-4o`)
    const sizes = Object.fromEntries(out.slice(1).map((line) => line.split("=") as [string, string]))
    // 10 000 characters (2 bytes each in UTF-8) plus printenv's newline.
    expect(sizes["PIGO_TOOL_OUTPUT"]).toBe(String(20_001))
    expect(sizes["PIGO_USER_MESSAGE"]).toBe(String(20_001))
    expect(sizes["PIGO_WORK_DIR"]).toBe(String(p.dir.length + 1))
    await engine.dispatch("turn_start", { turn_number: 3 })
    expect(lines(p.log).at(-1)).toBe("turn 3")
  })

  it("PIGO_MODEL is the payload's model, else the config's model", async () => {
    const p = project()
    config(p, [{ name: "model", hooks: { agent_end: [{ command: `printf '%s\\n' "$PIGO_MODEL" >> "$RECORD"` }] } }])
    const engine = await p.engine("pigo")
    await engine.dispatch("agent_end", {})
    await engine.dispatch("agent_end", { model: "o3" })
    expect(lines(p.log)).toEqual(["gpt-4o", "o3"])
  })

  it("config problems are warnings that name the file and JSON path; the rest still loads", async () => {
    const p = project()
    config(p, [
      {
        name: "ok",
        hooks: {
          tool_start: [{ command: "true" }],
          tool_begin: [{ command: "true" }],
          agent_start: [{ match: { tool: "bash" }, command: "true" }]
        }
      },
      "named-plugin",
      { name: "broken", hooks: { tool_end: [{ blocking: false }] } }
    ])
    const engine = await p.engine("pigo")
    const file = join(p.home, ".pigo", "config.json")
    expect(p.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${file} at plugins\\[0\\]\\.hooks\\.tool_begin: unknown pigo event "tool_begin"`)),
        expect.stringContaining(`${file} at plugins[0].hooks.agent_start[0].match.tool: agent_start has no tool`),
        expect.stringContaining(`${file} at plugins[1]: plugin "named-plugin" is a name`),
        expect.stringContaining(`${file} at plugins[2].hooks.tool_end[0].command: expected string, got nothing`)
      ])
    )
    expect(Object.keys(engine.settings.hooks).sort()).toEqual(["agent_start", "tool_start"])
  })
})

describe("Wave preset", () => {
  it("user and project settings both load; hooks see WAVE_PROJECT_DIR", async () => {
    const p = project()
    const hook = (label: string) => command(`printf '%s %s\\n' ${label} "$WAVE_PROJECT_DIR" >> "$RECORD"`)
    put(join(p.home, ".wave", "settings.json"), { hooks: { Stop: [{ hooks: [hook("user")] }] } })
    put(join(p.dir, ".wave", "settings.json"), { hooks: { Stop: [{ hooks: [hook("project")] }] } })
    const engine = await p.engine("wave")
    await engine.dispatch("Stop", {})
    expect(lines(p.log)).toEqual([`user ${p.dir}`, `project ${p.dir}`])
  })

  it("hooks of one event run in their configured order, one after another", async () => {
    const p = project()
    put(join(p.dir, ".wave", "settings.json"), {
      hooks: { PostToolUse: [{ matcher: "Edit|Write", hooks: [command(`sleep 0.5; ${record("first")}`), command(record("second"))] }] }
    })
    const engine = await p.engine("wave")
    await engine.dispatch("PostToolUse", { tool_name: "Edit", tool_input: {}, tool_response: {} })
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["first", "second"])
  })

  it("the JSON input of the data model; transcript_path names the host's transcript, which hooks read", async () => {
    const p = project()
    const transcript = join(p.home, ".wave", "sessions", "session_xyz789.json")
    put(transcript, `${JSON.stringify({ state: { messages: [{ role: "user", content: "hi" }] } })}\n`)
    put(join(p.dir, ".wave", "settings.json"), {
      hooks: {
        PreToolUse: [
          {
            matcher: "Write",
            hooks: [
              command(
                `node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>process.stdout.write(require("fs").readFileSync(JSON.parse(s).transcript_path,"utf8")))' >> "$RECORD"`
              )
            ]
          }
        ],
        PostToolUse: [{ matcher: "Write", hooks: [command(record("post"))] }],
        UserPromptSubmit: [{ hooks: [command(record("prompt"))] }]
      }
    })
    const engine = await p.engine("wave")
    const base = { session_id: "wave_session_abc123_xyz789", transcript_path: transcript, cwd: p.dir }
    await engine.dispatch("PreToolUse", {
      ...base,
      tool_name: "Write",
      tool_input: { file_path: join(p.dir, "src/index.ts"), content: "x" }
    })
    expect(JSON.parse(lines(p.log)[0]!)).toEqual({ state: { messages: [{ role: "user", content: "hi" }] } })
    await engine.dispatch("PostToolUse", {
      ...base,
      tool_name: "Write",
      tool_input: { file_path: "a" },
      tool_response: { success: true, message: "File written successfully" }
    })
    await engine.dispatch("UserPromptSubmit", { ...base, prompt: "Please create a file" })
    const post = JSON.parse(lines(p.log)[1]!.slice("post ".length))
    expect(post).toEqual({
      ...base,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: "a" },
      tool_response: { success: true, message: "File written successfully" }
    })
    const prompt = JSON.parse(lines(p.log)[2]!.slice("prompt ".length))
    expect(prompt).toEqual({ ...base, hook_event_name: "UserPromptSubmit", prompt: "Please create a file" })
  })

  it("a failing hook, or one that never reads stdin, does not interrupt the tool", async () => {
    const p = project()
    put(join(p.dir, ".wave", "settings.json"), {
      hooks: { PostToolUse: [{ matcher: "Edit", hooks: [command("exit 1"), command("exit 0")] }] }
    })
    const engine = await p.engine("wave")
    const outcome = await engine.dispatch("PostToolUse", {
      tool_name: "Edit",
      tool_input: { content: "x".repeat(300_000) },
      tool_response: {}
    })
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks.map((hook) => hook.exitCode)).toEqual([1, 0])
  })

  it("Wave's executor environment: HOOK_EVENT and HOOK_TOOL_NAME besides WAVE_PROJECT_DIR; a handler's own env wins", async () => {
    const p = project()
    const hook = command(`printf '%s|%s|%s\\n' "$HOOK_EVENT" "$HOOK_TOOL_NAME" "$WAVE_PROJECT_DIR" >> "$RECORD"`)
    put(join(p.dir, ".wave", "settings.json"), {
      hooks: {
        PreToolUse: [{ matcher: "Write", hooks: [hook] }],
        Stop: [{ hooks: [hook, { ...hook, env: { HOOK_EVENT: "mine" } }] }]
      }
    })
    const engine = await p.engine("wave")
    await engine.dispatch("PreToolUse", { tool_name: "Write", tool_input: { file_path: "a" } })
    await engine.dispatch("Stop", {})
    expect(lines(p.log)).toEqual([`PreToolUse|Write|${p.dir}`, `Stop||${p.dir}`, `mine||${p.dir}`])
  })

  it("without a host transcript_path it is derived from the session id, and a missing file is said", async () => {
    const p = project()
    put(join(p.dir, ".wave", "settings.json"), { hooks: { Stop: [{ hooks: [command(record("stop"))] }] } })
    const sessions = join(p.home, ".wave", "sessions")
    put(join(sessions, "session_k3y9.json"), "{}")
    const engine = await p.engine("wave")
    const input = async (payload: Record<string, unknown>) => {
      const outcome = await engine.dispatch("Stop", payload)
      return { input: JSON.parse(lines(p.log).at(-1)!.slice("stop ".length)), warnings: outcome.warnings }
    }
    // A Wave id gives its short id; the file exists, so nothing is said.
    const wave = await input({ session_id: "wave_session_0f8fad5b-d9cb-469f-a165-70867728950e_k3y9" })
    expect(wave.input.transcript_path).toBe(join(sessions, "session_k3y9.json"))
    expect(wave.warnings).toEqual([])
    // The design's own example id: its short id is what follows the last underscore.
    put(join(sessions, "session_xyz789.json"), "{}")
    const example = await input({ session_id: "wave_session_abc123_xyz789" })
    expect(example.input.transcript_path).toBe(join(sessions, "session_xyz789.json"))
    expect(example.warnings).toEqual([])
    // Any other id is used whole; that file does not exist, which is a warning naming it.
    const other = await input({ session_id: "abc" })
    expect(other.input.transcript_path).toBe(join(sessions, "session_abc.json"))
    expect(other.warnings).toEqual([expect.stringContaining(`transcript_path ${join(sessions, "session_abc.json")}`)])
    // Also through onWarning, which `agent-hooks run` prints on stderr.
    expect(p.warnings).toEqual(other.warnings)
    // The host's transcript_path wins; an id that is not a plain file name derives nothing.
    expect((await input({ session_id: "abc", transcript_path: "/t.json" })).input.transcript_path).toBe("/t.json")
    expect((await input({ session_id: "../../etc/passwd" })).input.transcript_path).toBeUndefined()
  })

  it("the data model's validation rules are warnings: a PreToolUse group needs a matcher", async () => {
    const p = project()
    put(join(p.dir, ".wave", "settings.json"), { hooks: { PreToolUse: [{ hooks: [command("true")] }] } })
    await p.engine("wave")
    expect(p.warnings.some((w) => w.includes("hooks.PreToolUse[0].matcher") && w.includes("requires a matcher"))).toBe(true)
  })
})

describe("Claude Code preset", () => {
  it("an existing setup runs unchanged: user, project, local, plugin and managed settings", async () => {
    const p = project()
    const hook = (label: string) => ({ matcher: "Bash", hooks: [command(record(label))] })
    put(join(p.home, ".claude", "settings.json"), { hooks: { PreToolUse: [hook("user")] } })
    put(join(p.dir, ".claude", "settings.json"), { hooks: { PreToolUse: [hook("project")] } })
    put(join(p.dir, ".claude", "settings.local.json"), { hooks: { PreToolUse: [hook("local")] } })
    const plugin = join(p.home, "plugin")
    put(join(plugin, "hooks", "hooks.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(`echo "$CLAUDE_PLUGIN_ROOT" >> "$RECORD"`)] }] }
    })
    const managed = join(p.home, "managed")
    put(join(managed, "managed-settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command("echo managed policy >&2; exit 2")] }] }
    })
    const engine = await p.engine("claude", { plugins: [plugin], managedDir: managed })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome).toMatchObject({ blocked: true, reason: "managed policy" })
    // Claude Code runs the hooks of an event concurrently: all four ran, in any order.
    expect(
      lines(p.log)
        .map((line) => line.split(" ")[0])
        .sort()
    ).toEqual([plugin, "local", "project", "user"].sort())
  })
})

describe("Claude Code preset: dedup", () => {
  it("identical handlers matched by two groups of one file, or two files, run once; a plugin's copy stays separate; the key expands ${CLAUDE_PROJECT_DIR}", async () => {
    const p = project()
    const same = command(record("same"))
    put(join(p.dir, ".claude", "settings.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [same, command(record("bash-only"))] },
          { matcher: "*", hooks: [same, command(`sh "\${CLAUDE_PROJECT_DIR}/x.sh"`)] },
          { matcher: "Edit", hooks: [command(`sh "${p.dir}/x.sh"`)] }
        ]
      }
    })
    put(join(p.dir, ".claude", "settings.local.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash|Edit", hooks: [same, command(`sh "${p.dir}/x.sh"`)] }] }
    })
    put(join(p.dir, "x.sh"), `${record("x").replace("sh ", "sh ")}\n`)
    const plugin = join(p.home, "plugin")
    put(join(plugin, "hooks", "hooks.json"), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [same] }] } })
    const engine = await p.engine("claude", { plugins: [plugin] })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome.hooks.map((hook) => hook.command).sort()).toEqual(
      [same.command, same.command, record("bash-only"), `sh "\${CLAUDE_PROJECT_DIR}/x.sh"`].sort()
    )
    // On Edit, the "same" handler of the local file and the x.sh written two ways run once each.
    const edit = await engine.dispatch("PreToolUse", { tool_name: "Edit", tool_input: {} })
    expect(edit.hooks).toHaveLength(2)
  })

  it("Wingman keeps its documented no-dedup rule: the same command in two matching groups runs twice", async () => {
    const p = project()
    put(join(p.dir, ".wingman", "wingman.config.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "*", hooks: [command(record("same"))] },
          { matcher: "write_file", hooks: [command(record("same"))] }
        ]
      }
    })
    const engine = await p.engine("wingman")
    await engine.dispatch("PreToolUse", { tool_name: "write_file", tool_input: {} })
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["same", "same"])
  })
})

describe("Gemini CLI preset", () => {
  const settings = (p: Project, value: unknown) => put(join(p.dir, ".gemini", "settings.json"), value)

  it("its event names: BeforeTool exit 2 denies with stderr; AfterTool, BeforeAgent, AfterAgent, SessionStart run", async () => {
    const p = project()
    settings(p, {
      hooks: {
        BeforeTool: [{ matcher: "run_shell_command", hooks: [command("echo rm is forbidden >&2; exit 2")] }],
        AfterTool: [{ matcher: "write_file", hooks: [command(record("after"))] }],
        BeforeAgent: [{ hooks: [command(record("before-agent"))] }],
        AfterAgent: [{ hooks: [command(record("after-agent"))] }],
        SessionStart: [{ matcher: "startup", hooks: [command(record("start"))] }]
      }
    })
    const engine = await p.engine("gemini")
    expect(await engine.dispatch("BeforeTool", { tool_name: "run_shell_command", tool_input: { command: "rm -rf /" } })).toMatchObject({
      blocked: true,
      decision: "deny",
      reason: "rm is forbidden"
    })
    await engine.dispatch("AfterTool", { tool_name: "write_file", tool_input: {}, tool_response: {} })
    await engine.dispatch("BeforeAgent", { prompt: "hi" })
    await engine.dispatch("AfterAgent", {})
    await engine.dispatch("SessionStart", { source: "resume" })
    await engine.dispatch("SessionStart", { source: "startup" })
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["after", "before-agent", "after-agent", "start"])
  })

  it("additionalContext reaches the model only on AfterTool, BeforeAgent and SessionStart, as Gemini CLI adds it; elsewhere it is said", async () => {
    const p = project()
    const context = (event: string) => command(`echo '{"hookSpecificOutput":{"additionalContext":"CTX-${event}"}}'`)
    settings(p, {
      hooks: Object.fromEntries(
        ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel"].map((e) => [e, [{ hooks: [context(e)] }]])
      )
    })
    const engine = await p.engine("gemini")
    const call = { tool_name: "run_shell_command", tool_input: { command: "ls" } }
    expect((await engine.dispatch("AfterTool", { ...call, tool_response: {} })).toModel).toEqual(["CTX-AfterTool"])
    expect((await engine.dispatch("BeforeAgent", { prompt: "hi" })).toModel).toEqual(["CTX-BeforeAgent"])
    for (const [event, payload] of [
      ["BeforeTool", call],
      ["AfterAgent", {}],
      ["BeforeModel", { llm_request: {} }]
    ] as const) {
      const outcome = await engine.dispatch(event, payload)
      expect(JSON.stringify([outcome.toModel, outcome.additionalContext, outcome.hookSpecificOutput]), event).not.toContain(`CTX-${event}`)
      expect(outcome.warnings.join("\n"), event).toContain(
        `hookSpecificOutput.additionalContext is ignored on ${event}: Gemini CLI reads it`
      )
    }
    expect(p.warnings.join("\n")).toContain("hookSpecificOutput.additionalContext is ignored on BeforeTool")
  })

  it("hooks answer as the reference documents: JSON on stdout at exit 0, exit 2 blocks with stderr, any other exit warns and proceeds", async () => {
    const p = project()
    settings(p, {
      hooks: {
        BeforeTool: [
          { matcher: "json_deny", hooks: [command(`echo '{"decision":"deny","reason":"not in this repo"}'`)] },
          { matcher: "double", hooks: [command(`echo '"{\\"decision\\":\\"block\\",\\"reason\\":\\"twice encoded\\"}"'`)] },
          { matcher: "exit2", hooks: [command("echo ignored; echo from stderr >&2; exit 2")] },
          { matcher: "exit3", hooks: [command("echo broken policy >&2; exit 3")] },
          { matcher: "missing", hooks: [command("/no/such/hook.sh")] },
          { matcher: "exit1", hooks: [command("echo flaky >&2; exit 1")] },
          { matcher: "stderr_json", hooks: [command(`echo '{"decision":"deny","reason":"from stderr"}' >&2`)] },
          {
            matcher: "claude_deny",
            hooks: [
              command(
                `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"claude says no"}}'`
              )
            ]
          },
          { matcher: "rewrite", hooks: [command(`echo '{"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"ls -la"}}}'`)] }
        ]
      }
    })
    const engine = await p.engine("gemini")
    const call = (tool: string) => engine.dispatch("BeforeTool", { tool_name: tool, tool_input: { command: "ls" } })
    expect(await call("json_deny")).toMatchObject({ blocked: true, decision: "deny", reason: "not in this repo" })
    expect(await call("double")).toMatchObject({ blocked: true, reason: "twice encoded" })
    expect(await call("exit2")).toMatchObject({ blocked: true, decision: "deny", reason: "from stderr" })
    expect(await call("exit3")).toMatchObject({ blocked: false, systemMessages: ["Warning: broken policy"] })
    const missing = await call("missing")
    expect(missing.blocked).toBe(false)
    expect(missing.hooks[0]!.exitCode).toBe(127)
    expect(await call("exit1")).toMatchObject({ blocked: false, systemMessages: ["Warning: flaky"] })
    expect(await call("stderr_json")).toMatchObject({ blocked: false, decision: null })
    expect(await call("claude_deny")).toMatchObject({ blocked: true, decision: "deny", reason: "claude says no", hookSpecificOutput: null })
    expect(await call("rewrite")).toMatchObject({
      blocked: false,
      decision: "allow",
      updatedInput: { command: "ls -la" },
      hookSpecificOutput: null
    })
    settings(p, { hooks: { BeforeModel: [{ hooks: [command(`echo '{"hookSpecificOutput":{"llm_request":{"model":"small"}}}'`)] }] } })
    const model = await p.engine("gemini")
    expect((await model.dispatch("BeforeModel", { llm_request: { model: "big" } })).hookSpecificOutput).toEqual({
      llm_request: { model: "small" }
    })
  })

  it('geminiCompat: "source" reads output as Gemini CLI\'s source does: any exit above 1 denies, stderr JSON counts, permissionDecision is ignored', async () => {
    const p = project()
    settings(p, {
      hooks: {
        BeforeTool: [
          { matcher: "exit3", hooks: [command("echo broken policy >&2; exit 3")] },
          { matcher: "exit1", hooks: [command("echo flaky >&2; exit 1")] },
          { matcher: "stderr_json", hooks: [command(`echo '{"decision":"deny","reason":"from stderr"}' >&2`)] },
          { matcher: "claude_deny", hooks: [command(`echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`)] }
        ]
      }
    })
    const engine = await p.engine("gemini", { preset: Presets.geminiWith({ geminiCompat: "source" }) })
    const call = (tool: string) => engine.dispatch("BeforeTool", { tool_name: tool, tool_input: { command: "ls" } })
    expect(await call("exit3")).toMatchObject({ blocked: true, reason: "broken policy" })
    expect(await call("exit1")).toMatchObject({ blocked: false, systemMessages: ["Warning: flaky"] })
    expect(await call("stderr_json")).toMatchObject({ blocked: true, reason: "from stderr" })
    expect(await call("claude_deny")).toMatchObject({ blocked: false, decision: null })
  })

  it("BeforeToolSelection: decision, continue and systemMessage are not supported and do not change the outcome", async () => {
    const p = project()
    settings(p, {
      hooks: {
        BeforeToolSelection: [
          {
            hooks: [
              command(`echo '{"decision":"deny","continue":false,"systemMessage":"hi","hookSpecificOutput":{"toolConfig":{"mode":"ANY"}}}'`)
            ]
          }
        ]
      }
    })
    const engine = await p.engine("gemini")
    const outcome = await engine.dispatch("BeforeToolSelection", {})
    expect(outcome).toMatchObject({
      blocked: false,
      decision: null,
      continue: true,
      systemMessages: [],
      hookSpecificOutput: { toolConfig: { mode: "ANY" } }
    })
  })

  it("timeouts are milliseconds: 300 kills a 5 s hook; 30000 is 30 s", async () => {
    const p = project()
    settings(p, { hooks: { BeforeTool: [{ hooks: [command("sleep 5; exit 2", { timeout: 300 }), command("true", { timeout: 30000 })] }] } })
    const engine = await p.engine("gemini")
    expect(engine.settings.hooks["BeforeTool"]!.map((entry) => entry.handler.timeout)).toEqual([0.3, 30])
    const started = Date.now()
    const outcome = await engine.dispatch("BeforeTool", { tool_name: "write_file", tool_input: {} })
    expect(outcome.hooks[0]!.timedOut).toBe(true)
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it("tool matchers are unanchored regular expressions; an invalid one matches exactly", async () => {
    const p = project()
    settings(p, {
      hooks: {
        BeforeTool: [
          { matcher: "write_file|replace", hooks: [command(record("re"))] },
          { matcher: "mcp_(", hooks: [command(record("bad"))] }
        ]
      }
    })
    const engine = await p.engine("gemini")
    for (const tool of ["write_file", "replace", "my_write_file_v2", "run_shell_command", "mcp_("])
      await engine.dispatch("BeforeTool", { tool_name: tool, tool_input: {} })
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["re", "re", "re", "bad"])
  })

  it("GEMINI_PROJECT_DIR is set and $GEMINI_PROJECT_DIR in a command survives spaces in the path", async () => {
    const p = project("agent-hooks gemini ")
    put(join(p.dir, ".gemini", "hooks", "note.sh"), `printf '%s\\n' "$GEMINI_PROJECT_DIR" >> "$RECORD"\n`)
    settings(p, { hooks: { AfterAgent: [{ hooks: [command("sh $GEMINI_PROJECT_DIR/.gemini/hooks/note.sh")] }] } })
    const engine = await p.engine("gemini")
    expect((await engine.dispatch("AfterAgent", {})).hooks[0]!.exitCode).toBe(0)
    expect(lines(p.log)).toEqual([p.dir])
  })

  it("hooksConfig.enabled false turns hooks off; hooksConfig.disabled names hooks that do not run; Claude Code names are refused", async () => {
    const p = project()
    settings(p, {
      hooksConfig: { disabled: ["noisy"] },
      hooks: {
        BeforeTool: [{ hooks: [{ ...command(record("noisy")), name: "noisy" }, command(record("kept"))] }],
        PreToolUse: [{ hooks: [command(record("cc"))] }]
      }
    })
    const engine = await p.engine("gemini")
    await engine.dispatch("BeforeTool", { tool_name: "x", tool_input: {} })
    expect(lines(p.log).map((line) => line.split(" ")[0])).toEqual(["kept"])
    expect(p.warnings.some((w) => w.includes(`unknown Gemini CLI event "PreToolUse" (did you mean "BeforeTool"?)`))).toBe(true)
    settings(p, { hooksConfig: { enabled: false }, hooks: { BeforeTool: [{ hooks: [command("exit 2")] }] } })
    const off = await p.engine("gemini")
    expect((await off.dispatch("BeforeTool", { tool_name: "x", tool_input: {} })).blocked).toBe(false)
  })

  // Gemini CLI's planner (hookPlanner.ts createExecutionPlan): a call's matched hooks, after dedup, run
  // one after another when any of them comes from a `sequential: true` group, else all in parallel.
  // Each hook writes its own start and end times (ms); no wall-clock assertion.
  it("sequential: one matched sequential group serialises every matched hook of the call; calls and events it does not match stay parallel", async () => {
    const p = project()
    const timed = (label: string) =>
      command(
        `cat > /dev/null; echo "${label} start $(date +%s%3N)" >> "$RECORD"; sleep 0.5; echo "${label} end $(date +%s%3N)" >> "$RECORD"`
      )
    settings(p, {
      hooks: {
        BeforeTool: [{ matcher: "write_file", sequential: true, hooks: [timed("s")] }, { hooks: [timed("a"), timed("b"), timed("c")] }],
        AfterTool: [{ hooks: [timed("a"), timed("b"), timed("c")] }]
      }
    })
    const engine = await p.engine("gemini")
    /** Pairs of hooks whose runs overlapped, from the times the hooks wrote. */
    const overlaps = async (event: string, tool: string) => {
      rmSync(p.log, { force: true })
      await engine.dispatch(event, { tool_name: tool, tool_input: {}, ...(event === "AfterTool" ? { tool_response: {} } : {}) })
      const spans = new Map<string, { start: number; end: number }>()
      for (const [label, edge, at] of lines(p.log).map((line) => line.split(" "))) {
        spans.set(label!, { ...(spans.get(label!) ?? { start: 0, end: 0 }), [edge!]: Number(at) })
      }
      const runs = [...spans.entries()]
      const pairs: Array<string> = []
      for (const [i, [one, a]] of runs.entries()) {
        for (const [two, b] of runs.slice(i + 1)) if (a.start < b.end && b.start < a.end) pairs.push([one, two].sort().join("+"))
      }
      return { ran: runs.map(([label]) => label).sort(), overlapping: pairs.length }
    }
    // write_file matches the sequential group: all four run one after another, in config order
    expect(await overlaps("BeforeTool", "write_file")).toEqual({ ran: ["a", "b", "c", "s"], overlapping: 0 })
    expect(
      lines(p.log)
        .filter((line) => line.includes(" start "))
        .map((line) => line.split(" ")[0])
    ).toEqual(["s", "a", "b", "c"])
    // read_file does not: its three hooks run together, as Gemini CLI runs them
    expect((await overlaps("BeforeTool", "read_file")).overlapping).toBeGreaterThan(0)
    // another event is not touched by a BeforeTool group's flag
    expect((await overlaps("AfterTool", "write_file")).overlapping).toBeGreaterThan(0)
  })

  it("sequential hooks: each receives tool_input as the earlier hooks rewrote it", async () => {
    const p = project()
    const rewrite = (value: unknown) => command(`echo '${JSON.stringify({ hookSpecificOutput: { tool_input: value } })}'`)
    settings(p, {
      hooks: {
        BeforeTool: [
          {
            sequential: true,
            hooks: [rewrite({ command: "ls -la" }), command(record("second")), rewrite({ dir: "/tmp" }), command(record("third"))]
          }
        ]
      }
    })
    const engine = await p.engine("gemini")
    const outcome = await engine.dispatch("BeforeTool", { tool_name: "run_shell_command", tool_input: { command: "ls", dir: "." } })
    const seen = lines(p.log).map((line) => JSON.parse(line.slice(line.indexOf(" ") + 1)).tool_input)
    expect(seen).toEqual([
      { command: "ls -la", dir: "." },
      { command: "ls -la", dir: "/tmp" }
    ])
    expect(outcome.updatedInput).toEqual({ command: "ls -la", dir: "/tmp" })
  })

  it("BeforeToolSelection: allowed function names are the union across hooks (sorted); a mode of NONE from any hook wins and leaves none allowed", async () => {
    const p = project()
    const config = (value: unknown) => command(`echo '${JSON.stringify({ hookSpecificOutput: { toolConfig: value } })}'`)
    settings(p, {
      hooks: {
        BeforeToolSelection: [
          {
            hooks: [
              config({ mode: "ANY", allowedFunctionNames: ["read_file", "glob"] }),
              config({ mode: "NONE", allowedFunctionNames: ["write_file"] }),
              config({ mode: "AUTO", allowedFunctionNames: ["glob", "replace"] })
            ]
          }
        ]
      }
    })
    const engine = await p.engine("gemini", { sequential: true })
    expect((await engine.dispatch("BeforeToolSelection", {})).hookSpecificOutput).toEqual({
      toolConfig: { mode: "NONE", allowedFunctionNames: [] }
    })
    // without NONE the lists are the union
    settings(p, {
      hooks: {
        BeforeToolSelection: [
          {
            hooks: [
              config({ mode: "ANY", allowedFunctionNames: ["read_file", "glob"] }),
              config({ mode: "AUTO", allowedFunctionNames: ["glob", "replace"] })
            ]
          }
        ]
      }
    })
    const union = await p.engine("gemini", { sequential: true })
    expect((await union.dispatch("BeforeToolSelection", {})).hookSpecificOutput).toEqual({
      toolConfig: { mode: "ANY", allowedFunctionNames: ["glob", "read_file", "replace"] }
    })
  })

  it("BeforeModel: two hooks that rewrite the request merge field by field in hook order (a later hook overrides parts)", async () => {
    const p = project()
    const request = (value: unknown) => command(`echo '${JSON.stringify({ hookSpecificOutput: { llm_request: value } })}'`)
    settings(p, {
      hooks: {
        BeforeModel: [
          { hooks: [request({ model: "small", config: { temperature: 0 } })] },
          { hooks: [request({ messages: [{ role: "user", content: "hi" }] })] }
        ]
      }
    })
    const engine = await p.engine("gemini")
    expect((await engine.dispatch("BeforeModel", { llm_request: { model: "big" } })).hookSpecificOutput).toEqual({
      llm_request: { model: "small", config: { temperature: 0 }, messages: [{ role: "user", content: "hi" }] }
    })
  })

  it("every event's stdin has Gemini's base fields, the model events included; the host's values win", async () => {
    const p = project()
    const events = ["BeforeTool", "BeforeModel", "AfterModel", "BeforeToolSelection", "SessionEnd"]
    settings(p, { hooks: Object.fromEntries(events.map((event) => [event, [{ hooks: [command(record(event))] }]])) })
    const engine = await p.engine("gemini")
    for (const event of events) await engine.dispatch(event, event === "BeforeTool" ? { tool_name: "x", tool_input: {} } : {})
    const inputs = lines(p.log).map((line) => JSON.parse(line.slice(line.indexOf(" ") + 1)))
    expect(inputs.map((input) => input.hook_event_name)).toEqual(events)
    for (const input of inputs) {
      expect(Object.keys(input)).toEqual(expect.arrayContaining(["session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"]))
      expect(new Date(input.timestamp).toISOString()).toBe(input.timestamp)
      expect(input.cwd).toBe(p.dir)
    }
    await engine.dispatch("AfterModel", { session_id: "s1", transcript_path: "/t.json", timestamp: "2026-01-01T00:00:00.000Z" })
    expect(JSON.parse(lines(p.log).at(-1)!.slice("AfterModel ".length))).toMatchObject({
      session_id: "s1",
      transcript_path: "/t.json",
      timestamp: "2026-01-01T00:00:00.000Z"
    })
  })

  it("GEMINI_PLANS_DIR is set, and $CLAUDE_PROJECT_DIR is the alias of $GEMINI_PROJECT_DIR in the command and the environment", async () => {
    const p = project("agent-hooks gemini ")
    put(
      join(p.dir, ".gemini", "hooks", "note.sh"),
      `printf '%s|%s|%s\\n' "$CLAUDE_PROJECT_DIR" "$GEMINI_PROJECT_DIR" "$GEMINI_PLANS_DIR" >> "$RECORD"\n`
    )
    settings(p, {
      hooks: {
        AfterAgent: [
          {
            hooks: [
              command("sh $CLAUDE_PROJECT_DIR/.gemini/hooks/note.sh bare"),
              command("sh ${CLAUDE_PROJECT_DIR}/.gemini/hooks/note.sh braced")
            ]
          }
        ]
      }
    })
    const engine = await p.engine("gemini")
    expect((await engine.dispatch("AfterAgent", {})).hooks.map((hook) => hook.exitCode)).toEqual([0, 0])
    const plans = join(p.dir, ".gemini", "plans")
    expect(lines(p.log)).toEqual([`${p.dir}|${p.dir}|${plans}`, `${p.dir}|${p.dir}|${plans}`])
    // The host's GEMINI_PLANS_DIR is kept.
    const hosted = await p.engine("gemini", { env: { PATH: process.env["PATH"], HOME: p.home, RECORD: p.log, GEMINI_PLANS_DIR: "/plans" } })
    await hosted.dispatch("AfterAgent", {})
    expect(lines(p.log).at(-1)).toBe(`${p.dir}|${p.dir}|/plans`)
  })
})

describe("presets by name", () => {
  it('createHookEngine({ preset: "wingman" }) is the built-in preset, as --preset wingman is', async () => {
    const p = project()
    put(join(p.dir, ".wingman", "wingman.config.json"), {
      hooks: { PreToolUse: [{ matcher: "write_file", hooks: [command("echo no >&2; exit 2")] }] }
    })
    const engine = await createHookEngine({ preset: "wingman", projectDir: p.dir, env: { PATH: process.env["PATH"], HOME: p.home } })
    cleanups.push(() => engine.close())
    expect(await engine.dispatch("PreToolUse", { tool_name: "write_file", tool_input: {} })).toMatchObject({ blocked: true, reason: "no" })
  })

  it("an unknown preset name is a clear settings error that lists the names", async () => {
    const p = project()
    const error = await createHookEngine({ preset: "wingmann", projectDir: p.dir, env: {} }).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(String((error as Error).message)).toBe(
      `engine options at preset: unknown preset "wingmann"; expected one of ${Presets.all.map((preset) => JSON.stringify(preset.name)).join(", ")}, or a Preset object`
    )
  })
})
