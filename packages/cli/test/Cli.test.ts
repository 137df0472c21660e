/**
 * The `agent-hooks` executable as a host sees it: the BUILT CLI (`packages/cli/dist/bin.js`) is
 * spawned with an argv and a stdin, and the tests read its stdout, stderr and exit status. Hooks
 * are real shell scripts in `fixtures/project/hooks/`.
 */
import * as Presets from "@agent-hooks/core/Presets"
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { bin, cliEnv, node, type Result, runCli, scratchFolder } from "./cliHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/", import.meta.url)))
const project = join(fixtures, "project")
const settings = join(project, "settings.json")

const scratch = scratchFolder("agent-hooks-cli-")

const cli = (args: ReadonlyArray<string>, options: { stdin?: string; cwd?: string } = {}): Result =>
  runCli(args, { stdin: options.stdin ?? "", cwd: options.cwd ?? scratch() })

/** `run` prints exactly one JSON object on one line. */
const outcomeOf = (result: Result): Record<string, any> => {
  const lines = result.stdout.split("\n").filter((line) => line !== "")
  expect(lines, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toHaveLength(1)
  return JSON.parse(lines[0]!)
}

const run = (event: string, payload: unknown, extra: ReadonlyArray<string> = []) =>
  cli(["run", event, "--settings", settings, "--project-dir", project, ...extra], {
    stdin: typeof payload === "string" ? payload : JSON.stringify(payload)
  })

describe("agent-hooks run", () => {
  it("an answer the event ignores is a stderr line per field, --quiet included, and in the Outcome's warnings; the result is unchanged", () => {
    const dir = scratch()
    const file = join(dir, "s.json")
    const hook = `echo '{"decision":"block","reason":"x"}'`
    writeFileSync(file, JSON.stringify({ hooks: { Notification: [{ hooks: [{ type: "command", command: hook }] }] } }))
    const payload = JSON.stringify({ session_id: "s", transcript_path: "/tmp/t", cwd: dir, hook_event_name: "Notification", message: "m" })
    const lines = [
      `hook ${JSON.stringify(hook)} (${file}): "decision" is ignored on Notification: it cannot block`,
      `hook ${JSON.stringify(hook)} (${file}): "reason" is ignored on Notification: it cannot block`
    ]
    for (const extra of [[], ["--quiet"]]) {
      const result = cli(["run", "Notification", "--settings", file, "--project-dir", dir, ...extra], { stdin: payload })
      expect(result.status, result.stderr).toBe(0)
      const outcome = outcomeOf(result)
      expect(outcome).toMatchObject({ blocked: false, decision: null, warnings: lines })
      expect(outcome["hooks"][0]).toMatchObject({ status: "success", decision: null })
      expect(result.stderr.split("\n").filter((line) => line !== "")).toEqual(lines.map((line) => `agent-hooks: ${line}`))
    }
  })

  it("allows: exit 0 and an Outcome with every contract field, typed", () => {
    const result = run("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(result.status).toBe(0)
    const outcome = outcomeOf(result)
    expect(outcome).toMatchObject({
      event: "PreToolUse",
      blocked: false,
      decision: null,
      reason: null,
      continue: true,
      stopReason: null,
      updatedInput: null,
      additionalContext: [],
      systemMessages: []
    })
    expect(outcome.hooks).toHaveLength(1)
    const hook = outcome.hooks[0]
    expect(hook).toMatchObject({ exitCode: 0, signal: null, timedOut: false, stdout: "", stderr: "", status: "success" })
    expect(hook.command).toContain("block-rm-rf.sh")
    expect(typeof hook.durationMs).toBe("number")
  })

  it("exit 2 from a PreToolUse hook blocks: exit 2, decision deny, the hook's stderr as reason", () => {
    const result = run("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })
    expect(result.status).toBe(2)
    const outcome = outcomeOf(result)
    expect(outcome).toMatchObject({ event: "PreToolUse", blocked: true, decision: "deny" })
    expect(outcome.reason.trim()).toBe("rm -rf is not allowed here")
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 2, status: "blocking-error" })
  })

  it("a JSON permissionDecision deny blocks with its reason", () => {
    const result = run("PreToolUse", { tool_name: "Write", tool_input: { file_path: "/etc/hosts", content: "" } })
    expect(result.status).toBe(2)
    expect(outcomeOf(result)).toMatchObject({
      blocked: true,
      decision: "deny",
      reason: "writes to /etc are not allowed"
    })
  })

  it("a tool no matcher names runs no hook and is allowed", () => {
    const result = run("PreToolUse", { tool_name: "Read", tool_input: { file_path: "/etc/hosts" } })
    expect(result.status).toBe(0)
    expect(outcomeOf(result)).toMatchObject({ blocked: false, hooks: [] })
  })

  it("UserPromptSubmit: a hook's plain stdout lands in additionalContext", () => {
    const result = run("UserPromptSubmit", { prompt: "hello" })
    expect(result.status).toBe(0)
    const outcome = outcomeOf(result)
    expect(outcome.blocked).toBe(false)
    expect(outcome.additionalContext).toHaveLength(2)
    expect(outcome.additionalContext[0]).toContain(`project=${project}`)
  })

  it("hooks get AGENT_HOOKS_PROJECT_DIR and CLAUDE_PROJECT_DIR, and run in the project dir without a payload cwd", () => {
    const outcome = outcomeOf(run("UserPromptSubmit", { prompt: "hello" }))
    expect(outcome.additionalContext[0].trim()).toBe(`cwd=${project} project=${project} claude=${project}`)
  })

  it("a hook's current directory is the payload's cwd when given", () => {
    const outcome = outcomeOf(run("UserPromptSubmit", { prompt: "hello", cwd: scratch() }))
    expect(outcome.additionalContext[0].trim()).toBe(`cwd=${scratch()} project=${project} claude=${project}`)
  })

  it("keeps the payload's fields as given and fills hook_event_name from the command line", () => {
    const payload = { session_id: "session-42", transcript_path: "/tmp/t.jsonl", permission_mode: "plan", prompt: "hi" }
    const outcome = outcomeOf(run("UserPromptSubmit", payload))
    const echoed = outcome.additionalContext[1].trim()
    expect(echoed.startsWith("input=")).toBe(true)
    const input = JSON.parse(echoed.slice("input=".length))
    expect(input).toMatchObject({ ...payload, hook_event_name: "UserPromptSubmit" })
  })

  it("empty stdin is an empty payload", () => {
    const result = run("Stop", "")
    expect(result.status).toBe(0)
    expect(outcomeOf(result)).toMatchObject({ event: "Stop", blocked: false, hooks: [] })
  })

  it("stdin that is JSON but not an object: exit 1, a message on stderr, nothing on stdout", () => {
    const result = run("PreToolUse", "[1, 2]")
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain("expected one JSON object, got an array")
  })

  it("stdin that is not JSON: exit 1 with a readable message", () => {
    const result = run("PreToolUse", "tool_name=Bash")
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toMatch(/^agent-hooks: invalid event payload on stdin: not JSON/)
  })

  it("a settings file that cannot be read: exit 1, naming the file", () => {
    const missing = join(scratch(), "no-such-settings.json")
    const result = cli(["run", "Stop", "--settings", missing], { stdin: "{}" })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain(missing)
  })

  it("a settings file that is not valid JSON: exit 1, naming the file", () => {
    const malformed = join(fixtures, "malformed.json")
    const result = cli(["run", "Stop", "--settings", malformed], { stdin: "{}" })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain(malformed)
  })

  it("settings warnings go to stderr, prefixed, and stdout still holds only the Outcome", () => {
    const result = cli(["run", "Stop", "--settings", join(project, "with-warnings.json")], { stdin: "{}" })
    expect(result.status).toBe(0)
    expect(outcomeOf(result).hooks).toHaveLength(1)
    expect(result.stderr).toMatch(/^agent-hooks: warning: .*NotAnEvent/m)
  })

  it("accepts the agent-hooks preset and --agent, refuses an unknown preset with exit 1 listing the available ones", () => {
    expect(run("Stop", {}, ["--preset", "agent-hooks", "--agent", "reviewer"]).status).toBe(0)
    const result = run("Stop", {}, ["--preset", "nope"])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    // every preset of the registry, in its order
    expect(result.stderr).toContain(`unknown preset nope (available: ${Presets.all.map((preset) => preset.name).join(", ")})`)
    expect(result.stderr).toContain("agent-hooks, claude, wingman, orchestration, pigo, wave, codex, gemini")
  })

  it("an unknown flag: exit 1 and nothing on stdout", () => {
    const result = cli(["run", "Stop", "--no-such-flag"], { stdin: "{}" })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain("--no-such-flag")
  })

  it("discovers <project>/.agent-hooks/settings.json when no --settings is given", () => {
    const home = join(scratch(), "home")
    const result = spawnSync(node, [bin, "run", "PreToolUse", "--project-dir", join(fixtures, "discovered")], {
      input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } }),
      cwd: scratch(),
      env: { ...process.env, HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks") },
      encoding: "utf8"
    })
    expect(result.status).toBe(2)
    expect(JSON.parse(result.stdout).reason.trim()).toBe("discovered hook says no")
  })
})

describe("agent-hooks validate", () => {
  it("--json prints one object; --quiet prints nothing but keeps the errors and the exit status", () => {
    const file = join(project, "with-warnings.json")
    const json = cli(["validate", "--settings", file, "--json"])
    expect(json.status).toBe(0)
    const report = JSON.parse(json.stdout)
    expect(report).toMatchObject({ ok: true, hooks: { Stop: 1 }, errors: [] })
    expect(report.files).toContainEqual({ path: file, scope: "explicit", status: "read" })
    expect(report.warnings).toEqual([expect.stringContaining(`unknown event "NotAnEvent"`)])
    const quiet = cli(["validate", "--settings", file, "--quiet"])
    expect(quiet).toMatchObject({ status: 0, stdout: "" })
    const broken = join(scratch(), "broken-validate.json")
    writeFileSync(broken, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "/nonexistent/x.sh" }] }] } }))
    const failing = cli(["validate", "--settings", broken, "--quiet"])
    expect(failing.status).toBe(1)
    expect(failing.stdout).toBe("")
    expect(failing.stderr).toContain("/nonexistent/x.sh does not exist")
    const failingJson = cli(["validate", "--settings", broken, "--json"])
    expect(failingJson.status).toBe(1)
    expect(JSON.parse(failingJson.stdout)).toMatchObject({ ok: false, errors: [expect.stringContaining("/nonexistent/x.sh")] })
  })

  it("--json also gives each warning as data (file, JSON path, severity, message), in the order of warnings", () => {
    const file = join(scratch(), "diagnostics-validate.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: "command", command: "true", timeout: "10" },
                { type: "command", command: "true", timout: 5 }
              ]
            }
          ]
        }
      })
    )
    const result = cli(["validate", "--settings", file, "--json"])
    expect(result.status).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(report.diagnostics).toEqual([
      {
        file,
        path: "hooks.Stop[0].hooks[0].timeout",
        severity: "error",
        message: `expected number | undefined, got string "10" (handler at hooks.Stop[0].hooks[0] skipped)`
      },
      {
        file,
        path: "hooks.Stop[0].hooks[1].timout",
        severity: "warning",
        message: `unknown key "timout" (did you mean "timeout"?); ignored`
      }
    ])
    const line = (d: { file: string; path: string; message: string }) => `${d.file} at ${d.path}: ${d.message}`
    expect(report.diagnostics.map(line)).toEqual(report.warnings)
    expect(report.diagnostics.filter((d: { severity: string }) => d.severity === "error").map(line)).toEqual(report.errors)
  })

  it("names every payload placeholder that reaches code, and how it is handled; one in an interpreter's code is an error", () => {
    const file = join(scratch(), "code-validate.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: "command", command: "sh", args: ["-c", 'echo "${tool_input.command}"', "sh", "${tool_input.file_path}"] },
                { type: "command", command: "printf '%s' ${tool_name}" },
                { type: "command", command: "node", args: ["-e", "console.log('${tool_input.command}')"] }
              ]
            }
          ]
        }
      })
    )
    const result = cli(["validate", "--settings", file])
    expect(result.status).toBe(1)
    expect(result.stdout).toContain(
      `2 placeholders reaching code:\n  ${file} at hooks.PreToolUse[0].hooks[0].args[1]: \${tool_input.command} is code for sh -c (quoted as one shell word)\n  ${file} at hooks.PreToolUse[0].hooks[1].command: \${tool_name} is code for sh -c (quoted as one shell word)`
    )
    // an error: on stderr (the report says how many), not also among the warnings
    expect(result.stderr).toContain(
      `${file} at hooks.PreToolUse[0].hooks[2].args[1]: args[1]: placeholder \${tool_input.command} stands in code that node runs`
    )
    expect(result.stdout).toContain("1 error: on stderr, below")
    const json = JSON.parse(cli(["validate", "--settings", file, "--json"]).stdout)
    expect(json.codePlaceholders).toHaveLength(2)
  })

  it("reports the files read, the hooks per event and the count", () => {
    const result = cli(["validate", "--settings", settings, "--project-dir", project])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`registered 4 hooks from 1 file (${settings})`)
    expect(result.stdout).toMatch(/^\s+PreToolUse\s+2$/m)
    expect(result.stdout).toMatch(/^\s+UserPromptSubmit\s+2$/m)
    expect(result.stdout).toMatch(new RegExp(`explicit\\s+${settings.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+read`))
    expect(result.stdout).toContain("no warnings")
  })

  it("lists every warning, and warnings alone do not fail", () => {
    const file = join(project, "with-warnings.json")
    const result = cli(["validate", "--settings", file])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`registered 1 hook from 1 file`)
    expect(result.stdout).toMatch(/1 warning:\n.*NotAnEvent/)
  })

  it("shows discovered files that do not exist as not found", () => {
    const home = join(scratch(), "home")
    const result = spawnSync(node, [bin, "validate", "--project-dir", join(fixtures, "discovered")], {
      cwd: scratch(),
      env: { ...process.env, HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks") },
      encoding: "utf8"
    })
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/user\s+\S+settings\.json\s+not found/)
    expect(result.stdout).toMatch(/project\s+\S+discovered\/\.agent-hooks\/settings\.json\s+read/)
    expect(result.stdout).toContain("registered 1 hook from 1 file")
  })

  it("a malformed file: exit 1, naming the file", () => {
    const malformed = join(fixtures, "malformed.json")
    const result = cli(["validate", "--settings", malformed])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(malformed)
  })
  it("exit 1 on what it can know before anything runs: a handler that cannot be decoded, a script without its run bit or missing", () => {
    const dir = join(scratch(), "validate-errors")
    mkdirSync(join(dir, "hooks"), { recursive: true })
    writeFileSync(join(dir, "hooks", "guard.sh"), "#!/bin/sh\nexit 2\n", { mode: 0o644 })
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "$CLAUDE_PROJECT_DIR/hooks/guard.sh" },
                { type: "command", command: "./hooks/gone.sh" },
                { type: "command", command: "true", timeout: "10" }
              ]
            }
          ]
        }
      })
    )
    const result = cli(["validate", "--settings", file, "--project-dir", dir])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(
      `${join(dir, "hooks", "guard.sh")} is not executable: the hook would fail with exit 126 and guard nothing; run: chmod +x`
    )
    expect(result.stderr).toContain(`${join(dir, "hooks", "gone.sh")} does not exist`)
    expect(result.stderr).toContain(`hooks.PreToolUse[0].hooks[2].timeout: expected number`)
    expect(result.stderr).toContain("3 errors")
  })
})

describe("agent-hooks list", () => {
  it("lists hooks per event with matcher, type, command, source file and JSON path", () => {
    const result = cli(["list", "--settings", settings, "--project-dir", project])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^PreToolUse \(2\)$/m)
    expect(result.stdout).toMatch(
      /^\s+Bash\s+command\s+sh "\$AGENT_HOOKS_PROJECT_DIR"\/hooks\/block-rm-rf\.sh\s+\S*settings\.json:hooks\.PreToolUse\[0\]\.hooks\[0\]$/m
    )
    expect(result.stdout).toMatch(/^\s+Write\|Edit\s+command\s+.*deny-json\.sh/m)
    expect(result.stdout).toMatch(/^UserPromptSubmit \(2\)$/m)
  })

  it("--json prints a JSON array", () => {
    const result = cli(["list", "--settings", settings, "--json"])
    expect(result.status).toBe(0)
    const hooks = JSON.parse(result.stdout)
    expect(hooks).toHaveLength(4)
    expect(hooks[0]).toEqual({
      event: "PreToolUse",
      matcher: "Bash",
      type: "command",
      command: `sh "$AGENT_HOOKS_PROJECT_DIR"/hooks/block-rm-rf.sh`,
      timeout: 30,
      source: settings,
      scope: "explicit",
      path: "hooks.PreToolUse[0].hooks[0]"
    })
    expect(hooks[2]).toMatchObject({ event: "UserPromptSubmit", matcher: null })
  })
  it("--quiet leaves the settings warnings out of stderr", () => {
    const file = join(project, "with-warnings.json")
    expect(cli(["list", "--settings", file]).stderr).toContain(`unknown event "NotAnEvent"`)
    const quiet = cli(["list", "--settings", file, "--quiet", "--json"])
    expect(quiet.status).toBe(0)
    expect(quiet.stderr).toBe("")
    expect(JSON.parse(quiet.stdout)).toHaveLength(1)
  })

  it("--plan prints the compiled plan: the files read and each hook with its effective timeout", () => {
    const result = cli(["list", "--settings", settings, "--plan"])
    expect(result.status, result.stderr).toBe(0)
    const plan = JSON.parse(result.stdout)
    expect(plan.files).toContainEqual({ path: settings, scope: "explicit", found: true })
    expect(plan.hooks).toHaveLength(4)
    expect(plan.hooks[0]).toMatchObject({
      event: "PreToolUse",
      matcher: "Bash",
      command: `sh "$AGENT_HOOKS_PROJECT_DIR"/hooks/block-rm-rf.sh`,
      timeout: 30,
      effectiveTimeout: 30,
      path: "hooks.PreToolUse[0].hooks[0]",
      refusal: null
    })
  })
})

describe("agent-hooks --help and --version", () => {
  it("--version prints the package version", () => {
    const result = cli(["--version"])
    expect(result.status).toBe(0)
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    expect(result.stdout).toContain(version)
  })

  it("--help lists the commands", () => {
    const result = cli(["--help"])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^\s+run\s/m)
    expect(result.stdout).toMatch(/^\s+validate\s/m)
    expect(result.stdout).toMatch(/^\s+list\s/m)
  })

  it("run --help shows the flags", () => {
    const result = cli(["run", "--help"])
    expect(result.status).toBe(0)
    for (const flag of ["--settings", "--project-dir", "--plugin", "--managed-dir", "--preset", "--agent"])
      expect(result.stdout).toContain(flag)
  })
})

describe("plugins and managed policy from the command line", () => {
  it("--plugin loads a plugin's hooks; --managed-dir applies policy", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cli-policy-")))
    try {
      const plugin = join(dir, "guard plugin")
      mkdirSync(join(plugin, "hooks"), { recursive: true })
      writeFileSync(join(plugin, "guard.sh"), 'cat >/dev/null; echo "plugin guard at $CLAUDE_PLUGIN_ROOT" >&2; exit 2\n')
      writeFileSync(
        join(plugin, "hooks", "hooks.json"),
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sh ${CLAUDE_PLUGIN_ROOT}/guard.sh" }] }] }
        })
      )
      const payload = JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })
      const empty = join(dir, "settings.json")
      writeFileSync(empty, "{}")
      const blocked = cli(["run", "PreToolUse", "--settings", empty, "--plugin", plugin], { stdin: payload })
      expect(blocked.status).toBe(2)
      expect(outcomeOf(blocked).reason).toBe(`plugin guard at ${plugin}`)

      mkdirSync(join(dir, "managed"))
      writeFileSync(join(dir, "managed", "managed-settings.json"), JSON.stringify({ allowManagedHooksOnly: true }))
      const policed = cli(["run", "PreToolUse", "--settings", empty, "--plugin", plugin, "--managed-dir", join(dir, "managed")], {
        stdin: payload
      })
      expect(policed.status).toBe(0)
      expect(outcomeOf(policed).hooks).toEqual([])
      expect(policed.stderr).toContain("allowManagedHooksOnly")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("in-process hooks that outlive their timeout", () => {
  it("do not hold the command open: run exits once the outcome is printed", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cli-slow-")))
    try {
      writeFileSync(join(dir, "never.mjs"), "export default () => new Promise(() => setInterval(() => {}, 1000))\n")
      writeFileSync(
        join(dir, "s.json"),
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "module", module: "./never.mjs", timeout: 1 }] }] } })
      )
      const started = Date.now()
      const result = cli(["run", "Stop", "--settings", join(dir, "s.json")], { stdin: "{}" })
      expect(result.status).toBe(0)
      expect(outcomeOf(result).hooks[0]).toMatchObject({ status: "cancelled", timedOut: true })
      // The hook never settles; before the fix the process lived on with it (here: forever).
      expect(Date.now() - started).toBeLessThan(15_000)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("agent-hooks trust", () => {
  it("approves the project's files: with AGENT_HOOKS_REQUIRE_TRUST=1 they are held back until then", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-cli-trust-")))
    const home = join(dir, "home")
    // the CLI's own environment: cliEnv leaves out the runner's values of both
    const env = cliEnv({ AGENT_HOOKS_HOME: home, AGENT_HOOKS_REQUIRE_TRUST: "1" })
    const trusting = (args: ReadonlyArray<string>, stdin = "") => runCli(args, { stdin, cwd: scratch(), env })
    try {
      mkdirSync(join(dir, ".agent-hooks"))
      writeFileSync(
        join(dir, ".agent-hooks", "settings.json"),
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "echo stop >&2; exit 2" }] }] } })
      )
      const before = trusting(["run", "Stop", "--project-dir", dir], "{}")
      expect(before.status).toBe(0)
      expect(before.stderr).toContain("held back: its hooks are not approved")
      const validate = trusting(["validate", "--project-dir", dir])
      expect(validate.stdout).toMatch(/project\s+\S+settings\.json\s+held back \(not approved\)/)

      const trust = trusting(["trust", "--project-dir", dir])
      expect(trust.status).toBe(0)
      expect(trust.stdout).toContain(`approved ${join(dir, ".agent-hooks", "settings.json")}`)
      expect(JSON.parse(readFileSync(join(home, "trusted-settings.json"), "utf8")).files).toHaveProperty(
        join(dir, ".agent-hooks", "settings.json")
      )

      const after = trusting(["run", "Stop", "--project-dir", dir], "{}")
      expect(after.status).toBe(2)
      expect(outcomeOf(after).reason).toBe("stop")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("agent-hooks run: nothing that should have run is skipped in silence", () => {
  const serveSettings = fileURLToPath(new URL("./fixtures/serve/settings.json", import.meta.url))

  it("an event neither in the catalog nor declared: exit 1, 'unknown event X (did you mean Y?)'", () => {
    const result = run("PreToolUs", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim()).toBe("agent-hooks: unknown event PreToolUs (did you mean PreToolUse?)")
    const far = run("Xyzzy", {})
    expect(far.status).toBe(1)
    expect(far.stderr.trim()).toBe("agent-hooks: unknown event Xyzzy")
  })

  it("run's 'did you mean' is the settings check's: the same suggestion, or none, for the same typo", () => {
    const dir = scratch()
    const file = join(dir, "typos.json")
    const typos = ["PreToolUs", "pretooluse", "Pre_Tool_Use", "UsrPrmptSbmt", "Stpo", "SesionEnd"]
    const hook = [{ hooks: [{ type: "command", command: "true" }] }]
    writeFileSync(file, JSON.stringify({ hooks: Object.fromEntries(typos.map((typo) => [typo, hook])) }))
    for (const typo of typos) {
      const result = cli(["run", typo, "--settings", file, "--project-dir", dir], { stdin: "{}" })
      expect(result.status).toBe(1)
      const settingsLine = result.stderr.split("\n").find((line) => line.includes(`at hooks.${typo}: unknown event`))
      expect(settingsLine, result.stderr).toBeDefined()
      const fromSettings = /\(did you mean "([^"]+)"\?\)/.exec(settingsLine!)?.[1]
      const lastLine = result.stderr.trim().split("\n").at(-1)
      expect(lastLine, typo).toBe(
        `agent-hooks: unknown event ${typo}${fromSettings === undefined ? "" : ` (did you mean ${fromSettings}?)`}`
      )
    }
  })

  it("an event the preset declares is accepted (pigo's tool_start)", () => {
    const result = cli(["run", "tool_start", "--preset", "pigo", "--project-dir", scratch()], {
      stdin: JSON.stringify({ tool_name: "bash", tool_input: { command: "ls" } })
    })
    expect(result.status, result.stderr).toBe(0)
    expect(outcomeOf(result)).toMatchObject({ event: "tool_start", blocked: false })
    expect(run("tool_strat", {}).stderr.trim()).toBe("agent-hooks: unknown event tool_strat")
    const typo = cli(["run", "tool_strat", "--preset", "pigo", "--project-dir", scratch()], { stdin: "{}" })
    expect(typo.status).toBe(1)
    expect(typo.stderr.trim()).toBe("agent-hooks: unknown event tool_strat (did you mean tool_start?)")
  })

  it("a hook that could not run gets one stderr line naming its command and file", () => {
    const result = cli(["run", "PreToolUse", "--settings", serveSettings], {
      stdin: JSON.stringify({ tool_name: "Missing", tool_input: {} })
    })
    expect(result.status).toBe(0)
    expect(outcomeOf(result).hooks[0].status).toBe("non-blocking-error")
    const lines = result.stderr.split("\n").filter((line) => line.startsWith("agent-hooks: hook "))
    expect(lines).toHaveLength(1)
    // Not also as a warning: one line per hook.
    expect(
      result.stderr.split("\n").filter((line) => line.includes("/nonexistent/guard.sh") && line.includes("status code 127"))
    ).toHaveLength(1)
    expect(lines[0]).toContain(`agent-hooks: hook "/nonexistent/guard.sh" (${serveSettings}): `)
    // --quiet silences warnings, never this line.
    const quiet = cli(["run", "PreToolUse", "--settings", serveSettings, "--quiet"], {
      stdin: JSON.stringify({ tool_name: "Missing", tool_input: {} })
    })
    expect(quiet.stderr).toContain(`agent-hooks: hook "/nonexistent/guard.sh"`)
  })

  it("--quiet leaves a notice about the payload (Wave's derived transcript_path) out of stderr; the Outcome keeps it", () => {
    const project = mkdtempSync(join(scratch(), "wave-quiet-"))
    mkdirSync(join(project, ".wave"))
    writeFileSync(
      join(project, ".wave", "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } })
    )
    const args = ["run", "Stop", "--preset", "wave", "--project-dir", project]
    const stdin = JSON.stringify({ session_id: "wave_session_abc123_nothere" })
    const loud = cli(args, { stdin })
    expect(loud.stderr).toContain("transcript_path")
    const quiet = cli([...args, "--quiet"], { stdin })
    expect(quiet.status).toBe(0)
    expect(quiet.stderr).toBe("")
    expect(outcomeOf(quiet).warnings.join("\n")).toContain("transcript_path")
  })

  it("a guard whose deny answer is dropped (stdout JSON cut short) gets one stderr line, --quiet or not", () => {
    const broken = join(scratch(), "dropped-answer.json")
    writeFileSync(
      broken,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: `printf '%s' '{"hookSpecificOutput": {"permissionDecision": "deny"'` }] }]
        }
      })
    )
    for (const extra of [[], ["--quiet"], ["--log-level", "error"]]) {
      const result = cli(["run", "PreToolUse", "--settings", broken, ...extra], {
        stdin: JSON.stringify({ tool_name: "Bash", tool_input: {} })
      })
      // Claude Code treats it as plain text, so the tool is allowed; but never silently.
      expect(result.status).toBe(0)
      const lines = result.stderr.split("\n").filter((line) => line.startsWith("agent-hooks: hook "))
      expect(lines, result.stderr).toHaveLength(1)
      expect(lines[0]).toContain("not valid JSON")
    }
  })

  it("a payload nested too deep: one line, exit 1, no stack trace", () => {
    const deep = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`
    const result = run("PreToolUse", deep)
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim()).toBe(
      "agent-hooks: invalid event payload on stdin: nested deeper than 256 levels (the limit for a payload)"
    )
  })

  it("SIGHUP ends run like SIGTERM: no running hook is left behind", async () => {
    const marker = mkdtempSync(join(scratch(), "hup-"))
    const { spawn } = await import("node:child_process")
    const child = spawn(node, [bin, "run", "PreToolUse", "--settings", serveSettings], {
      cwd: scratch(),
      env: { ...process.env, MARKER_DIR: marker },
      stdio: ["pipe", "pipe", "pipe"]
    })
    child.stdin.end(JSON.stringify({ tool_name: "Hang", tool_input: {} }))
    const pids = join(marker, "pids")
    // the shell creates the file before it writes the pid into it: wait for the pid
    const written = () => existsSync(pids) && readFileSync(pids, "utf8").trim() !== ""
    for (let i = 0; i < 1200 && !written(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
    const pid = Number(readFileSync(pids, "utf8").trim())
    expect(pid).toBeGreaterThan(0)
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    child.kill("SIGHUP")
    const code = await exited
    // Deno's node:child_process reports a child that handled the signal as killed by it (Deno 2.9).
    if (!("Deno" in globalThis)) expect(code).toBe(1)
    const alive = (p: number) => {
      try {
        process.kill(p, 0)
        return true
      } catch {
        return false
      }
    }
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(alive(pid)).toBe(false)
  }, 60_000)
})

describe("the project of the current folder", () => {
  it("is found upward from a subfolder, as git finds its repository; never in a folder anybody may write to", () => {
    const root = mkdtempSync(join(scratch(), "upward-"))
    mkdirSync(join(root, ".agent-hooks"))
    writeFileSync(
      join(root, ".agent-hooks", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo 'no rm here' >&2; exit 2" }] }] }
      })
    )
    const deep = join(root, "src", "lib")
    mkdirSync(deep, { recursive: true })
    const payload = JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf build" } })
    const fromSub = cli(["run", "PreToolUse"], { stdin: payload, cwd: deep })
    expect(fromSub.status, fromSub.stderr).toBe(2)
    expect(JSON.parse(fromSub.stdout).reason).toBe("no rm here")
    // a folder anybody may write to (a shared /tmp) is not a project found upward
    chmodSync(root, 0o777)
    const shared = cli(["run", "PreToolUse"], { stdin: payload, cwd: deep })
    expect(shared.status, shared.stderr).toBe(0)
    chmodSync(root, 0o755)
    // a .git marks the project too: the guard of the repository's root is not found from a nested repository
    mkdirSync(join(root, "src", ".git"))
    expect(cli(["run", "PreToolUse"], { stdin: payload, cwd: deep }).status).toBe(0)
  })
})

describe("validate lists each problem once", () => {
  it("an error is on stderr, not also among the report's warnings; a warning stays in the report", () => {
    const file = join(scratch(), "once.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "true", timeout: "10" },
                { type: "command", command: "true", timout: 5 }
              ]
            }
          ]
        }
      })
    )
    const result = cli(["validate", "--settings", file])
    expect(result.status).toBe(1)
    const error = "hooks.PreToolUse[0].hooks[0].timeout"
    expect(result.stdout).not.toContain(error)
    expect(result.stdout).toContain("1 error: on stderr, below")
    expect(result.stderr.split(error).length - 1).toBe(1)
    // the unknown key is a warning: in the report, not an error
    expect(result.stdout).toContain("hooks.PreToolUse[0].hooks[1].timout")
    expect(result.stderr).not.toContain("timout")
  })
})

describe("a hook that can never run (a missing run bit, a bare command not on PATH, a command allowedCommands refuses)", () => {
  it("validate exits 1 naming each, --strict refuses to start, and --fail-closed blocks the event", () => {
    const dir = mkdtempSync(join(scratch(), "never-runs-"))
    mkdirSync(join(dir, "hooks"), { recursive: true })
    writeFileSync(join(dir, "hooks", "guard.sh"), "#!/bin/sh\nexit 2\n", { mode: 0o644 })
    const settingsOf = (hooks: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) => {
      const file = join(dir, `settings-${Math.random().toString(36).slice(2)}.json`)
      writeFileSync(file, JSON.stringify({ ...extra, hooks: { PreToolUse: [{ matcher: "Bash", hooks: hooks }] } }))
      return file
    }
    const cases: ReadonlyArray<readonly [string, string]> = [
      [settingsOf([{ type: "command", command: "$CLAUDE_PROJECT_DIR/hooks/guard.sh" }]), "is not executable"],
      [settingsOf([{ type: "command", command: "no-such-guard-agent-hooks --check" }]), `"no-such-guard-agent-hooks" is not on PATH`],
      [
        settingsOf([{ type: "command", command: "no-such-guard-agent-hooks", args: ["--check"] }]),
        `"no-such-guard-agent-hooks" is not on PATH`
      ],
      [
        settingsOf([{ type: "command", command: "/bin/sh", args: ["-c", "exit 2"] }], { allowedCommands: ["printf"] }),
        `is not in allowedCommands`
      ]
    ]
    const payload = JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf /" } })
    for (const [file, why] of cases) {
      const validate = cli(["validate", "--settings", file, "--project-dir", dir])
      expect(validate.status, `${why}\n${validate.stdout}${validate.stderr}`).toBe(1)
      expect(validate.stderr).toContain(why)
      const strict = cli(["run", "PreToolUse", "--settings", file, "--project-dir", dir, "--strict"], { stdin: payload })
      expect(strict.status, `${why}\n${strict.stderr}`).not.toBe(0)
      expect(strict.status).not.toBe(2)
      expect(strict.stderr).toContain(why)
      const closed = cli(["run", "PreToolUse", "--settings", file, "--project-dir", dir, "--fail-closed"], { stdin: payload })
      expect(JSON.parse(closed.stdout), `${why}\n${closed.stderr}`).toMatchObject({ blocked: true })
    }
  }, 120_000)
})

describe("agent-hooks run with no settings found", () => {
  it("says so on stderr, names the --preset that reads an existing .claude/settings.json, and exits 0", () => {
    const dir = mkdtempSync(join(scratch(), "no-settings-"))
    const home = mkdtempSync(join(scratch(), "home-"))
    const env = { HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks"), AGENT_HOOKS_MANAGED_DIR: join(home, "managed") }
    const bare = spawnSync(node, [bin, "run", "Stop", "--project-dir", dir], {
      input: "{}",
      cwd: dir,
      env: { ...process.env, ...env },
      encoding: "utf8"
    })
    expect(bare.status).toBe(0)
    expect(bare.stderr).toContain("agent-hooks: no settings found (looked for ")
    expect(bare.stderr).toContain(join(dir, ".agent-hooks", "settings.json"))
    expect(bare.stderr).not.toContain("--preset")
    // a file with no hooks (or only agent-hooks' own host-mode entry) is not worth a word
    mkdirSync(join(dir, ".claude"))
    const entry = `'/usr/bin/node' '/x/agent-hooks.cjs' hook --host claude --timeout 600`
    for (const hooks of [{}, { Stop: [{ hooks: [{ type: "command", command: entry }] }] }]) {
      writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks }))
      const quiet = spawnSync(node, [bin, "run", "Stop", "--project-dir", dir], {
        input: "{}",
        cwd: dir,
        env: { ...process.env, ...env },
        encoding: "utf8"
      })
      expect(quiet.stderr).not.toContain("--preset")
    }
    writeFileSync(
      join(dir, ".claude", "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "echo mine" }] }] } })
    )
    const hinted = spawnSync(node, [bin, "run", "Stop", "--project-dir", dir], {
      input: "{}",
      cwd: dir,
      env: { ...process.env, ...env },
      encoding: "utf8"
    })
    expect(hinted.status).toBe(0)
    expect(hinted.stderr).toContain(`${join(dir, ".claude", "settings.json")} exists: --preset claude reads it`)
    expect(JSON.parse(hinted.stdout)).toMatchObject({ event: "Stop", blocked: false, hooks: [] })
  })
})

describe("validate and list take --preset and --agent", () => {
  it("--preset claude reads the project's .claude/settings.json; an unknown preset is exit 1", () => {
    const dir = mkdtempSync(join(scratch(), "claude-project-"))
    const home = mkdtempSync(join(scratch(), "home-"))
    mkdirSync(join(dir, ".claude"))
    writeFileSync(
      join(dir, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 0" }] }] }
      })
    )
    const env = {
      ...process.env,
      HOME: home,
      AGENT_HOOKS_HOME: join(home, ".agent-hooks"),
      AGENT_HOOKS_MANAGED_DIR: join(home, "managed"),
      CLAUDE_CONFIG_DIR: join(home, ".claude")
    }
    const validate = spawnSync(node, [bin, "validate", "--preset", "claude", "--project-dir", dir], { cwd: dir, env, encoding: "utf8" })
    expect(validate.status, validate.stderr).toBe(0)
    expect(validate.stdout).toContain(join(dir, ".claude", "settings.json"))
    expect(validate.stdout).toContain("registered 1 hook from 1 file")
    const list = spawnSync(node, [bin, "list", "--preset", "claude", "--project-dir", dir, "--json"], { cwd: dir, env, encoding: "utf8" })
    expect(list.status, list.stderr).toBe(0)
    expect(JSON.parse(list.stdout)).toMatchObject([{ event: "PreToolUse", matcher: "Bash", command: "exit 0" }])
    const unknown = spawnSync(node, [bin, "validate", "--preset", "nope"], { cwd: dir, env, encoding: "utf8" })
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain("unknown preset nope")
  })
})

describe("run's status line for slow hooks", () => {
  const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0
  const slow = () => {
    const file = join(scratch(), "slow-status.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "sleep 1.5", statusMessage: "Checking the command" }] }] }
      })
    )
    return file
  }

  // `script` (util-linux) gives the CLI a terminal on stderr; without it this test is skipped.
  it.skipIf(!hasScript)("on a terminal, a hook over a second shows its statusMessage on stderr, cleared at the end", () => {
    const command = `echo '{}' | ${JSON.stringify(node)} ${JSON.stringify(bin)} run PreToolUse --settings ${JSON.stringify(slow())} >/dev/null`
    const result = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: scratch(), encoding: "utf8", timeout: 20_000 })
    expect(result.status, result.stdout).toBe(0)
    expect(result.stdout).toContain("\r\x1b[K⋯ Checking the command")
    expect(result.stdout.endsWith("\r\x1b[K")).toBe(true)
  })

  it("when stderr is not a terminal, nothing of the kind is written", () => {
    const result = cli(["run", "PreToolUse", "--settings", slow()], { stdin: "{}" })
    expect(result.status).toBe(0)
    expect(result.stderr).not.toContain("Checking the command")
    expect(result.stderr).not.toContain("\x1b[")
  })
})

describe("run --fail-closed and --strict", () => {
  const serveSettings = fileURLToPath(new URL("./fixtures/serve/settings.json", import.meta.url))

  it("--fail-closed: a PreToolUse hook that cannot start blocks (exit 2) instead of allowing", () => {
    const payload = JSON.stringify({ tool_name: "Missing", tool_input: {} })
    const open = cli(["run", "PreToolUse", "--settings", serveSettings], { stdin: payload })
    expect(open.status).toBe(0)
    expect(outcomeOf(open).blocked).toBe(false)
    const closed = cli(["run", "PreToolUse", "--settings", serveSettings, "--fail-closed"], { stdin: payload })
    expect(closed.status).toBe(2)
    expect(outcomeOf(closed).blocked).toBe(true)
    expect(closed.stderr).toContain(`agent-hooks: hook "/nonexistent/guard.sh"`)
  })

  it("--strict: a handler that does not decode fails the load (exit 1) instead of a warning", () => {
    const file = join(scratch(), "strict.json")
    writeFileSync(
      file,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "exit 0", timeout: "10" }] }] }
      })
    )
    const lax = cli(["run", "PreToolUse", "--settings", file], { stdin: "{}" })
    expect(lax.status).toBe(0)
    expect(lax.stderr).toContain("agent-hooks: warning:")
    const strict = cli(["run", "PreToolUse", "--settings", file, "--strict"], { stdin: "{}" })
    expect(strict.status).toBe(1)
    expect(strict.stdout).toBe("")
    expect(strict.stderr).toContain(file)
  })
})

describe("run with a cedar hook", () => {
  it("loads the Cedar engine only for an event that runs a cedar hook; that hook's run says a broken policy file", () => {
    const dir = scratch()
    // Does not parse: an engine that loads Cedar at start says so before any call.
    writeFileSync(join(dir, "broken.cedar"), "forbid (principal, action, resource")
    const file = join(dir, "settings.json")
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "cedar", policies: "broken.cedar" }] }] } })
    )
    // Another event: Cedar is not loaded, so nothing about it is said.
    const other = cli(["run", "Stop", "--settings", file], { stdin: JSON.stringify({ session_id: "s" }) })
    expect(other.status).toBe(0)
    expect(other.stderr).not.toContain("cedar")
    // The event that runs it: the broken file is a visible failure of the hook, which blocks (a cedar hook is a guard).
    const guarded = cli(["run", "PreToolUse", "--settings", file], {
      stdin: JSON.stringify({ session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } })
    })
    expect(guarded.status).toBe(2)
    expect(guarded.stderr).toContain(`agent-hooks: hook "cedar broken.cedar"`)
    expect(guarded.stderr).toContain(join(dir, "broken.cedar"))
    expect(outcomeOf(guarded)).toMatchObject({ blocked: true })
    expect(outcomeOf(guarded).hooks[0]).toMatchObject({ status: "blocking-error" })
    // validate checks the policies (what an engine that stays up says when it starts): exit 1, naming the file.
    const checked = cli(["validate", "--settings", file])
    expect(checked.status).toBe(1)
    expect(checked.stderr).toContain(`cedar hook broken.cedar: ${join(dir, "broken.cedar")}:`)
    // A settings file without a cedar hook does not load Cedar, and validates.
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }))
    expect(cli(["validate", "--settings", file]).status).toBe(0)
  })
})
