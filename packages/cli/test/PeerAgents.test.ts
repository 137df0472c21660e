/**
 * Kiro, Windsurf, Cline and Antigravity CLI through the BUILT CLI, with real hook processes:
 * `run --preset <agent>` reads each agent's own files in their real layout (temp HOME and project)
 * and applies its exit codes and answers, under the engine's rules (trust for project files,
 * failClosed over the agent's fail-open rules); `hook --host <agent>` takes the agent's payload (the
 * docs fixtures in packages/core/test/fixtures/hosts/) through a policy written in Claude Code's
 * names and answers in the agent's own format and exit status.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { bin, cliEnv, node, projectsWithHome } from "./cliHarness.ts"

const hostFixtures = realpathSync(fileURLToPath(new URL("../../core/test/fixtures/hosts/", import.meta.url)))

const project = projectsWithHome("agent-hooks-peers-")
const setup = () => {
  const { root, dir, home, put } = project()
  const script = (file: string, body: string) => {
    put(file, `#!/bin/sh\n${body}\n`)
    chmodSync(file, 0o755)
  }
  const cli = (args: ReadonlyArray<string>, stdin = "", extra: Record<string, string> = {}) => {
    const env = cliEnv({ HOME: home, AGENT_HOOKS_HOME: join(home, ".agent-hooks"), ...extra })
    const result = spawnSync(node, [bin, ...args], { input: stdin, cwd: dir, env, encoding: "utf8", timeout: 25_000 })
    if (result.error) throw result.error
    return result
  }
  return { root, dir, home, put, script, cli }
}
const bash = (command: string) => JSON.stringify({ tool_name: "execute_bash", tool_input: { command } })

describe("run --preset: each agent's files, in their layout, with its own exit codes and answers", () => {
  it("kiro: .kiro/hooks/*.json of the user and the project; exit 2 blocks a PreToolUse; stdout on exit 0 is context; an agent action is skipped with a warning", () => {
    const t = setup()
    t.put(join(t.home, ".kiro", "hooks", "user.json"), {
      version: "v1",
      hooks: [{ name: "audit", trigger: "PreToolUse", matcher: "execute_bash", action: { type: "command", command: "echo user-saw-it" } }]
    })
    t.put(join(t.dir, ".kiro", "hooks", "guard.json"), {
      version: "v1",
      hooks: [
        {
          name: "no-rm",
          trigger: "PreToolUse",
          matcher: "execute_bash",
          action: { type: "command", command: "grep -q 'rm -rf' && { echo 'no rm here' >&2; exit 2; }; exit 0" }
        },
        { name: "remind", trigger: "PreToolUse", action: { type: "agent", prompt: "check tests" } }
      ]
    })
    const blocked = t.cli(["run", "PreToolUse", "--preset", "kiro"], bash("rm -rf build"))
    expect(blocked.status).toBe(2)
    expect(JSON.parse(blocked.stdout)).toMatchObject({ blocked: true, reason: "no rm here" })
    expect(blocked.stderr).toContain(`guard.json at hooks[1].action: hook "remind" is an agent action`)
    const fine = t.cli(["run", "PreToolUse", "--preset", "kiro"], bash("ls"))
    expect(fine.status).toBe(0)
    expect(JSON.parse(fine.stdout)).toMatchObject({ blocked: false, additionalContext: ["user-saw-it"] })
  })

  it("kiro: a project's hooks are held back until trusted when trust is required; `trust --preset kiro` approves each file of the folder", () => {
    const t = setup()
    t.put(join(t.dir, ".kiro", "hooks", "guard.json"), {
      version: "v1",
      hooks: [{ name: "no", trigger: "PreToolUse", action: { type: "command", command: "echo no >&2; exit 2" } }]
    })
    const held = t.cli(["run", "PreToolUse", "--preset", "kiro"], bash("ls"), { AGENT_HOOKS_REQUIRE_TRUST: "1" })
    expect(held.status).toBe(0)
    expect(held.stderr).toContain("held back")
    const trusted = t.cli(["trust", "--preset", "kiro"], "", { AGENT_HOOKS_REQUIRE_TRUST: "1" })
    expect(trusted.stdout).toContain(join(t.dir, ".kiro", "hooks", "guard.json"))
    expect(t.cli(["run", "PreToolUse", "--preset", "kiro"], bash("ls"), { AGENT_HOOKS_REQUIRE_TRUST: "1" }).status).toBe(2)
  })

  it("windsurf: system, user and workspace hooks.json all run; only exit 2 on pre_* blocks; failClosed blocks a failing one", () => {
    const t = setup()
    const log = join(t.root, "log")
    const system = join(t.root, "etc", "windsurf", "hooks.json")
    t.put(system, { hooks: { pre_run_command: [{ command: `echo system >> ${log}` }] } })
    t.put(join(t.home, ".codeium", "windsurf", "hooks.json"), { hooks: { pre_run_command: [{ command: `echo user >> ${log}` }] } })
    t.put(join(t.dir, ".windsurf", "hooks.json"), {
      hooks: {
        pre_run_command: [
          { command: `echo workspace >> ${log}; grep -q 'rm -rf' && { echo 'blocked by policy' >&2; exit 2; }; exit 0`, show_output: true }
        ],
        post_run_command: [{ command: "exit 2" }],
        pre_read_code: [{ command: "echo broken >&2; exit 1" }]
      }
    })
    const env = { WINDSURF_SYSTEM_HOOKS_PATH: system }
    const payload = (action: string, info: Record<string, unknown>) =>
      JSON.stringify({ agent_action_name: action, trajectory_id: "t", execution_id: "e", timestamp: "now", tool_info: info })
    const blocked = t.cli(
      ["run", "pre_run_command", "--preset", "windsurf"],
      payload("pre_run_command", { command_line: "rm -rf build" }),
      env
    )
    expect(blocked.status).toBe(2)
    expect(JSON.parse(blocked.stdout)).toMatchObject({ blocked: true, reason: "blocked by policy" })
    expect(readFileSync(log, "utf8").trim().split("\n").sort()).toEqual(["system", "user", "workspace"])
    expect(t.cli(["run", "post_run_command", "--preset", "windsurf"], payload("post_run_command", {}), env).status).toBe(0)
    // exit 1 is a warning to Windsurf; the engine's failClosed makes it a block
    expect(t.cli(["run", "pre_read_code", "--preset", "windsurf"], payload("pre_read_code", { file_path: ".env" }), env).status).toBe(0)
    expect(
      t.cli(["run", "pre_read_code", "--preset", "windsurf", "--fail-closed"], payload("pre_read_code", { file_path: ".env" }), env).status
    ).toBe(2)
  })

  it("cline: the executable named after its event runs for every call; cancel blocks; a non-zero exit is an error, not a block (unless failing closed)", () => {
    const t = setup()
    t.script(
      join(t.dir, ".clinerules", "hooks", "PreToolUse"),
      `input=$(cat)
case "$input" in *'"path":"src/a.js"'*) echo '{"cancel": true, "errorMessage": "JavaScript files not allowed in TypeScript project"}'; exit 0;; esac
echo '{"cancel": false, "contextModification": "project uses TypeScript"}'`
    )
    t.script(join(t.home, "Documents", "Cline", "Hooks", "UserPromptSubmit"), "exit 3")
    t.put(join(t.dir, ".clinerules", "hooks", "README.md"), "notes")
    const pre = (parameters: Record<string, unknown>) =>
      JSON.stringify({
        clineVersion: "3.36.0",
        hookName: "PreToolUse",
        timestamp: "1",
        taskId: "t",
        workspaceRoots: [t.dir],
        userId: "u",
        preToolUse: { toolName: "write_to_file", parameters }
      })
    const blocked = t.cli(["run", "PreToolUse", "--preset", "cline"], pre({ path: "src/a.js", content: "x" }))
    expect(blocked.status).toBe(2)
    expect(JSON.parse(blocked.stdout)).toMatchObject({ blocked: true, reason: "JavaScript files not allowed in TypeScript project" })
    const fine = t.cli(["run", "PreToolUse", "--preset", "cline"], pre({ path: "src/a.ts", content: "x" }))
    expect(JSON.parse(fine.stdout)).toMatchObject({ blocked: false, additionalContext: ["project uses TypeScript"] })
    const prompt = JSON.stringify({ clineVersion: "3.36.0", hookName: "UserPromptSubmit", taskId: "t", userPromptSubmit: { prompt: "hi" } })
    const failing = t.cli(["run", "UserPromptSubmit", "--preset", "cline"], prompt)
    expect(failing.status).toBe(0)
    expect(JSON.parse(failing.stdout).hooks[0]).toMatchObject({ exitCode: 3, status: "non-blocking-error" })
    expect(t.cli(["run", "UserPromptSubmit", "--preset", "cline", "--fail-closed"], prompt).status).toBe(2)
  })

  it("antigravity: documented .agents/hooks.json with allowTool: false; antigravity-1.0 reads .antigravitycli/hooks.json with decision: deny", () => {
    const t = setup()
    t.put(join(t.dir, ".agents", "hooks.json"), {
      "guard-suite": {
        PreToolUse: [
          {
            matcher: "run_command",
            hooks: [{ type: "command", command: `echo '{"allowTool": false, "denyReason": "not on this machine"}'`, timeout: 5 }]
          }
        ]
      }
    })
    t.put(join(t.dir, ".antigravitycli", "hooks.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "run_command", hooks: [{ type: "command", command: `echo '{"decision": "deny", "reason": "observed contract"}'` }] }
        ]
      }
    })
    const payload = JSON.stringify({
      conversationId: "c",
      tool_name: "run_command",
      toolCall: { name: "run_command", args: { CommandLine: "rm -rf /" } }
    })
    const documented = t.cli(["run", "PreToolUse", "--preset", "antigravity"], payload)
    expect(documented.status).toBe(2)
    expect(JSON.parse(documented.stdout)).toMatchObject({ blocked: true, reason: "not on this machine" })
    const observed = t.cli(["run", "PreToolUse", "--preset", "antigravity-1.0"], payload)
    expect(observed.status).toBe(2)
    expect(JSON.parse(observed.stdout)).toMatchObject({ blocked: true, reason: "observed contract" })
  })
})

describe("hook --host: the agent's payload through a policy in Claude Code's names, the answer in the agent's format", () => {
  const docs = (host: string): ReadonlyArray<Record<string, unknown>> =>
    JSON.parse(readFileSync(join(hostFixtures, `${host}.docs.json`), "utf8"))
  /** The policy, once: Bash `rm -rf` is denied, Read of .env is denied. */
  const policy = (t: ReturnType<typeof setup>) => {
    const file = join(t.root, "policy.json")
    t.put(file, {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: `grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0` }] },
          { matcher: "Read", hooks: [{ type: "command", command: `grep -q '\\.env' && { echo 'no secrets' >&2; exit 2; }; exit 0` }] }
        ]
      }
    })
    return file
  }
  const cases: ReadonlyArray<readonly [string, number, (stdout: string) => unknown, number]> = [
    ["kiro", 2, () => undefined, 2],
    ["windsurf", 2, () => undefined, 4],
    ["cline", 0, (stdout) => expect(JSON.parse(stdout)).toStrictEqual({ cancel: true, errorMessage: "no rm -rf" }), 4],
    ["antigravity", 0, (stdout) => expect(JSON.parse(stdout)).toStrictEqual({ allowTool: false, denyReason: "no rm -rf" }), 0],
    ["antigravity-1.0", 0, (stdout) => expect(JSON.parse(stdout)).toStrictEqual({ decision: "deny", reason: "no rm -rf" }), 0]
  ]
  it.each(cases)("%s: a denied shell command is the agent's own block; an allowed call says nothing", (host, exitCode, check, index) => {
    const t = setup()
    const settings = policy(t)
    const denied = t.cli(["hook", "--host", host, "--settings", settings], JSON.stringify(docs(host)[index]))
    expect(denied.status, denied.stderr).toBe(exitCode)
    expect(denied.stderr).toContain("no rm -rf")
    check(denied.stdout)
    // the same agent's read of a file that is no secret: allowed, silent
    const read = docs(host).find((payload) => JSON.stringify(payload).includes("README.md") || JSON.stringify(payload).includes("src/a.ts"))
    if (read !== undefined) {
      const allowed = t.cli(["hook", "--host", host, "--settings", settings], JSON.stringify(read))
      expect(allowed.status, allowed.stderr).toBe(0)
      if (host === "cline") expect(JSON.parse(allowed.stdout)).toStrictEqual({ cancel: false })
      else expect(allowed.stdout).toBe("")
    }
  })

  it("a payload host mode cannot read blocks in the agent's own block, never fails open (Cline: cancel, at exit 0)", () => {
    const t = setup()
    const settings = policy(t)
    const cline = t.cli(
      ["hook", "--host", "cline", "--settings", settings],
      JSON.stringify({ preToolUse: { toolName: "execute_command", parameters: { command: "rm -rf /" } } })
    )
    expect(cline.status).toBe(0)
    expect(JSON.parse(cline.stdout)).toMatchObject({ cancel: true })
    const windsurf = t.cli(["hook", "--host", "windsurf", "--settings", settings], "not json")
    expect(windsurf.status).toBe(2)
    const agy = t.cli(
      ["hook", "--host", "antigravity", "--settings", settings],
      JSON.stringify({
        hookEventName: "PreToolUse",
        toolCall: { name: "run_command", args: { CommandLine: "ls", commandLine: "rm -rf /" } }
      })
    )
    expect(JSON.parse(agy.stdout)).toMatchObject({ allowTool: false })
  })
})

describe("migrate --from kiro|windsurf|cline|antigravity: the migrated file gives the same outcome, or the migration refuses", () => {
  const same = (t: ReturnType<typeof setup>, preset: string, runs: ReadonlyArray<readonly [string, string]>) => {
    const migrated = t.cli(["migrate", "--from", preset])
    expect(migrated.status, migrated.stderr).toBe(0)
    const file = join(t.root, `${preset}.migrated.json`)
    writeFileSync(file, migrated.stdout)
    for (const [event, payload] of runs) {
      const original = t.cli(["run", event, "--preset", preset], payload)
      const canonical = t.cli(["run", event, "--settings", file], payload)
      expect(canonical.status, `${preset} ${event}: ${canonical.stderr}`).toBe(original.status)
      const pick = (stdout: string) => {
        const outcome = JSON.parse(stdout)
        return {
          blocked: outcome.blocked,
          reason: outcome.reason,
          additionalContext: outcome.additionalContext,
          statuses: outcome.hooks.map((hook: any) => hook.status)
        }
      }
      expect(pick(canonical.stdout), `${preset} ${event}`).toStrictEqual(pick(original.stdout))
    }
  }

  it("kiro: a guard and a context hook migrate unchanged; an agent action is refused, and --lossy goes on naming it", () => {
    const t = setup()
    t.put(join(t.dir, ".kiro", "hooks", "guard.json"), {
      version: "v1",
      hooks: [
        {
          name: "no-rm",
          trigger: "PreToolUse",
          matcher: "execute_bash",
          action: { type: "command", command: "grep -q 'rm -rf' && { echo 'no rm' >&2; exit 2; }; echo checked" }
        },
        { name: "warn", trigger: "Stop", action: { type: "command", command: "exit 2" } }
      ]
    })
    same(t, "kiro", [
      ["PreToolUse", bash("rm -rf /")],
      ["PreToolUse", bash("ls")],
      ["Stop", "{}"]
    ])
    t.put(join(t.dir, ".kiro", "hooks", "agent.json"), {
      version: "v1",
      hooks: [{ name: "ask-kiro", trigger: "PostFileSave", action: { type: "agent", prompt: "review" } }]
    })
    const refused = t.cli(["migrate", "--from", "kiro"])
    expect(refused.status).toBe(1)
    expect(refused.stdout).toBe("")
    expect(refused.stderr).toContain(
      `cannot migrate: ${join(t.dir, ".kiro", "hooks", "agent.json")} at hooks[0].action: hook "ask-kiro" is an agent action`
    )
    const lossy = t.cli(["migrate", "--from", "kiro", "--lossy"])
    expect(lossy.status).toBe(0)
    expect(lossy.stderr).toContain(`lossy: ${join(t.dir, ".kiro", "hooks", "agent.json")} at hooks[0].action`)
  })

  it("windsurf, cline and antigravity: the same outcome from the migrated file", () => {
    const t = setup()
    t.put(join(t.dir, ".windsurf", "hooks.json"), {
      hooks: {
        pre_run_command: [{ command: "grep -q 'rm -rf' && { echo 'no' >&2; exit 2; }; exit 0" }],
        post_run_command: [{ command: "exit 2" }],
        pre_read_code: [{ command: "exit 1" }]
      }
    })
    same(t, "windsurf", [
      ["pre_run_command", JSON.stringify({ tool_info: { command_line: "rm -rf /" } })],
      ["post_run_command", "{}"],
      ["pre_read_code", "{}"]
    ])
    t.script(
      join(t.dir, ".clinerules", "hooks", "PreToolUse"),
      `grep -q '"rm' && { echo '{"cancel": true, "errorMessage": "no rm"}'; exit 0; }; echo '{"cancel": false, "contextModification": "ok"}'`
    )
    t.script(join(t.dir, ".clinerules", "hooks", "TaskComplete"), "exit 2")
    same(t, "cline", [
      [
        "PreToolUse",
        JSON.stringify({ hookName: "PreToolUse", preToolUse: { toolName: "execute_command", parameters: { command: "rm -rf /" } } })
      ],
      ["PreToolUse", "{}"],
      ["TaskComplete", "{}"]
    ])
    t.put(join(t.dir, ".agents", "hooks.json"), {
      suite: {
        PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: `echo '{"allowTool": false, "denyReason": "no"}'` }] }]
      }
    })
    same(t, "antigravity", [
      ["PreToolUse", JSON.stringify({ tool_name: "run_command" })],
      ["PreToolUse", JSON.stringify({ tool_name: "view_file" })]
    ])
  })
})
