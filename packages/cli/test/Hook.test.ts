/**
 * `agent-hooks hook --host <agent>` as each agent runs it: the BUILT CLI spawned with the agent's
 * payload (the shapes in packages/core/test/fixtures/hosts/), a policy written once in Claude Code's
 * names (fixtures/hosts/policy.json, real shell hooks), and the agent's answer read back: exit
 * status, stderr, stdout.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { bin, cliEnv, node, scratchFolder } from "./cliHarness.ts"

const fixtures = realpathSync(fileURLToPath(new URL("./fixtures/hosts/", import.meta.url)))
const hostFixtures = realpathSync(fileURLToPath(new URL("../../core/test/fixtures/hosts/", import.meta.url)))
const policy = join(fixtures, "policy.json")

const scratch = scratchFolder("agent-hooks-hook-")

interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

// no user settings from the machine running the tests
const baseEnv = (extra: Record<string, string | undefined>) =>
  cliEnv({ AGENT_HOOKS_TEST_HOOKS: join(fixtures, "hooks"), AGENT_HOOKS_HOME: join(scratch(), "home"), ...extra })

const hook = (
  args: ReadonlyArray<string>,
  stdin: string,
  options: { cwd?: string; env?: Record<string, string | undefined> } = {}
): Result => {
  const result = spawnSync(node, [bin, "hook", ...args], {
    input: stdin,
    cwd: options.cwd ?? scratch(),
    env: baseEnv(options.env ?? {}),
    encoding: "utf8",
    timeout: 25_000
  })
  if (result.error && (result.error as NodeJS.ErrnoException).code !== "ETIMEDOUT") throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

type Payload = Record<string, unknown>
/** What the real agent sends (recorded), then the shapes of what the recording did not reach. */
const recorded = (host: string): ReadonlyArray<Payload> =>
  [`${host}.json`, `${host}.shapes.json`].flatMap((file) => JSON.parse(readFileSync(join(hostFixtures, file), "utf8")))

const hosts = ["claude", "codex", "gemini", "qwen"] as const
type Host = (typeof hosts)[number]

const preToolUse = (host: Host): string => (host === "gemini" ? "BeforeTool" : "PreToolUse")
const shellTool = (host: Host): string => (host === "gemini" || host === "qwen" ? "run_shell_command" : "Bash")

/** The agent's recorded payload for an event (and tool), with fields changed, and `cwd` in the scratch folder. */
const payload = (host: Host, event: string, fields: Payload = {}, tool?: string): string => {
  const base = recorded(host).find((p) => p["hook_event_name"] === event && (tool === undefined || p["tool_name"] === tool))
  if (base === undefined) throw new Error(`no ${event} ${tool ?? ""} in ${host}.json`)
  return JSON.stringify({ ...base, cwd: scratch(), ...fields })
}

const shell = (host: Host, command: string): string =>
  payload(host, preToolUse(host), { tool_input: { command, description: "x" } }, shellTool(host))

const stdoutJson = (result: Result): Record<string, any> | undefined => {
  const lines = result.stdout.split("\n").filter((line) => line !== "")
  if (lines.length === 0) return undefined
  expect(lines, result.stdout).toHaveLength(1)
  return JSON.parse(lines[0]!)
}

const withPolicy = ["--settings", policy] as const

/**
 * A block's exit code as the agent takes it: 2, or for Gemini CLI 0 with its own `decision: "deny"`
 * on stdout (on BeforeTool, BeforeAgent and AfterAgent), which it does not report as a failed hook.
 */
const blockStatus = (host: string): number => (host === "gemini" ? 0 : 2)

describe.each(hosts)("%s", (host) => {
  const args = ["--host", host, ...withPolicy]

  it("block by exit 2: the reason reaches the agent where it reads it", () => {
    const result = hook(args, shell(host, "rm -rf /"))
    expect(result.status, result.stderr).toBe(blockStatus(host))
    expect(result.stderr).toContain("no rm -rf here")
    const out = stdoutJson(result)
    if (host === "claude")
      expect(out?.["hookSpecificOutput"]).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "no rm -rf here" })
    if (host === "gemini") expect(out).toStrictEqual({ decision: "deny", reason: "no rm -rf here" })
    if (host === "codex" || host === "qwen") expect(out).toBeUndefined()
  })

  it("block by JSON deny: the same", () => {
    const result = hook(args, shell(host, "echo JSONDENY"))
    expect(result.status).toBe(blockStatus(host))
    expect(result.stderr).toContain("denied by JSON")
  })

  it("allowed: exit 0, nothing on stdout", () => {
    const result = hook(args, shell(host, "ls"))
    expect(result).toMatchObject({ status: 0, stdout: "" })
  })

  it("ask: the agent's own ask, or a deny that says approval is needed", () => {
    const result = hook(args, shell(host, "echo ASKME"))
    if (host === "claude" || host === "qwen") {
      expect(result.status).toBe(0)
      expect(stdoutJson(result)?.["hookSpecificOutput"]).toMatchObject({
        permissionDecision: "ask",
        permissionDecisionReason: "a person must approve this"
      })
    } else {
      expect(result.status).toBe(blockStatus(host))
      expect(result.stderr).toContain("approval needed: a person must approve this")
    }
    const denied = hook([...args, "--ask", "deny"], shell(host, "echo ASKME"))
    expect(denied.status).toBe(blockStatus(host))
  })

  it("updatedInput: mapped back to the agent's tool input, or denied where the agent cannot apply it", () => {
    const result = hook(args, shell(host, "echo REWRITEME"))
    if (host === "qwen") {
      expect(result.status).toBe(2)
      expect(result.stderr).toContain("echo rewritten")
    } else if (host === "gemini") {
      expect(result.status).toBe(0)
      expect(stdoutJson(result)).toStrictEqual({
        decision: "allow",
        hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "echo rewritten" } }
      })
    } else {
      expect(result.status).toBe(0)
      expect(stdoutJson(result)).toStrictEqual({
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo rewritten" } }
      })
    }
  })

  // Codex reads files through its shell tool
  it.skipIf(host === "codex")("one policy, the agent's file tool: Read file_path matches the agent's read tool", () => {
    const read = host === "claude" ? payload(host, "PreToolUse", {}, "Read") : payload(host, preToolUse(host), {}, "read_file")
    const result = hook(args, read)
    expect(result.status, result.stderr).toBe(blockStatus(host))
    expect(result.stderr).toContain("no reading .env")
  })

  it("PostToolUse additionalContext in the agent's field", () => {
    const event = host === "gemini" ? "AfterTool" : "PostToolUse"
    const result = hook(args, payload(host, event, {}, shellTool(host)))
    expect(result.status, result.stderr).toBe(0)
    expect(stdoutJson(result)?.["hookSpecificOutput"]).toMatchObject({ additionalContext: "post context from the policy" })
  })

  it("a Stop block keeps the agent going, with the reason", () => {
    const result = hook(args, payload(host, host === "gemini" ? "AfterAgent" : "Stop"))
    expect(result.status, result.stderr).toBe(blockStatus(host))
    expect(result.stderr).toContain("run the tests before stopping")
  })

  it("a UserPromptSubmit block", () => {
    const result = hook(args, payload(host, host === "gemini" ? "BeforeAgent" : "UserPromptSubmit", { prompt: "do the forbidden thing" }))
    expect(result.status).toBe(blockStatus(host))
    expect(result.stderr).toContain("this prompt is blocked")
  })

  it("a broken policy file blocks, naming the file; a Stop goes on with a visible error", () => {
    const broken = join(fixtures, "broken.json")
    const result = hook(["--host", host, "--settings", broken], shell(host, "ls"))
    expect(result.status).toBe(blockStatus(host))
    expect(result.stderr).toContain(broken)
    const stop = hook(["--host", host, "--settings", broken], payload(host, host === "gemini" ? "AfterAgent" : "Stop"))
    expect(stop.status).toBe(1)
    expect(stop.stderr).toContain(broken)
    const open = hook(["--host", host, "--settings", broken, "--fail-open"], shell(host, "ls"))
    expect(open.status).toBe(1)
  })

  it("a payload it cannot parse blocks", () => {
    const result = hook(args, "{not json")
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("not JSON")
  })
})

describe("host mode", () => {
  it("the project root comes from the agent's variable, never from the payload's cwd", () => {
    const project = join(scratch(), "project")
    mkdirSync(join(project, ".agent-hooks"), { recursive: true })
    writeFileSync(join(project, ".agent-hooks", "settings.json"), readFileSync(policy, "utf8"))
    const elsewhere = join(scratch(), "elsewhere")
    mkdirSync(join(elsewhere, ".agent-hooks"), { recursive: true })
    writeFileSync(join(elsewhere, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: {} }))
    const call = payload("gemini", "BeforeTool", { cwd: elsewhere, tool_input: { command: "rm -rf /" } }, "run_shell_command")
    const result = hook(["--host", "gemini"], call, { cwd: elsewhere, env: { GEMINI_PROJECT_DIR: project } })
    expect(result.status, result.stderr).toBe(blockStatus("gemini"))
    expect(result.stderr).toContain("no rm -rf here")
    // Claude Code's and Qwen Code's own variables
    expect(
      hook(["--host", "claude"], shell("claude", "rm -rf /").replace(scratch(), elsewhere), {
        cwd: elsewhere,
        env: { CLAUDE_PROJECT_DIR: project }
      }).status
    ).toBe(2)
    expect(hook(["--host", "qwen"], shell("qwen", "rm -rf /"), { cwd: elsewhere, env: { QWEN_PROJECT_DIR: project } }).status).toBe(2)
  })

  it("no policy found blocks instead of allowing everything, and names the command and file that write one", () => {
    const empty = join(scratch(), "empty")
    mkdirSync(join(empty, ".claude"), { recursive: true })
    // the agent's own config, whose one hook is agent-hooks itself, and another agent's without hooks
    const entry = `'/usr/bin/env' '-u' 'NODE_OPTIONS' '/usr/bin/node' '/x/agent-hooks.cjs' hook --host claude --timeout 600`
    writeFileSync(
      join(empty, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: entry }] }] } })
    )
    mkdirSync(join(empty, ".gemini"), { recursive: true })
    writeFileSync(join(empty, ".gemini", "settings.json"), JSON.stringify({ model: { name: "x" } }))
    const result = hook(["--host", "claude", "--project-dir", empty], shell("claude", "ls"), { cwd: empty })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("no agent-hooks policy")
    expect(result.stderr).toContain(`\`agent-hooks init\` writes ${join(empty, ".agent-hooks", "settings.json")} (this project)`)
    expect(result.stderr).toContain("agent-hooks doctor --host claude")
    // host mode cannot take --preset claude, and neither file has a hook that "does not run"
    expect(result.stderr).not.toContain("--preset")
    expect(result.stderr).not.toContain("do not run")
  })

  it("a matcher may name the agent's own tool, and hooks see the agent's names", () => {
    const result = hook(["--host", "gemini", "--settings", join(fixtures, "host-matcher.json")], shell("gemini", "ls"))
    expect(result.status, result.stderr).toBe(blockStatus("gemini"))
    expect(result.stderr).toContain("matched run_shell_command as gemini")
  })

  it("a call whose two fields mean one field of the policy, with different values, blocks", () => {
    const call = JSON.stringify({
      hook_event_name: "BeforeTool",
      tool_name: "read_file",
      tool_input: { absolute_path: "/work/p/README.md", file_path: "/work/p/.env" }
    })
    const result = hook(["--host", "gemini", ...withPolicy], call)
    expect(result.status).toBe(blockStatus("gemini"))
    expect(result.stderr).toContain("cannot be judged")
  })

  it("a policy that would make host mode call itself is refused, not looped", () => {
    const result = hook(["--host", "claude", "--settings", join(fixtures, "self-call.json")], shell("claude", "ls"))
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("call itself")
    expect(result.stderr).toContain("self-call.json")
  })

  it("started from inside host mode (AGENT_HOOKS_HOST_MODE set), it refuses", () => {
    const result = hook(["--host", "codex", ...withPolicy], shell("codex", "ls"), { env: { AGENT_HOOKS_HOST_MODE: "claude" } })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("refused, not looped")
  })

  it("past its own budget (below the agent's hook timeout) it blocks, long before the slow hook would end", async () => {
    const started = Date.now()
    const result = hook(["--host", "codex", "--timeout", "3", ...withPolicy], shell("codex", "echo SLOWME"))
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain("time budget")
    // the agent kills the hook at 3 s: the answer came well before the slow hook's 30 s
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it("a command line it cannot read blocks", () => {
    for (const args of [
      ["--host", "nope"],
      ["--host", "claude", "--no-such-flag"],
      [],
      ["--host", "claude", "--ask", "maybe"],
      ["--host", "claude", "--log-level", "loud"]
    ]) {
      const result = hook(args, shell("claude", "ls"))
      expect(result.status, args.join(" ")).toBe(2)
      expect(result.stderr).toContain("agent-hooks hook:")
    }
  })

  it("--log-level debug says what was loaded and matched, on stderr; the answer is the same", () => {
    const result = hook(["--host", "codex", ...withPolicy, "--log-level", "debug"], shell("codex", "rm -rf /"))
    expect(result.status).toBe(2)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain("agent-hooks: debug: settings")
    expect(result.stderr).toContain("no rm -rf here")
  })

  it("--help shows the command", () => {
    const result = spawnSync(node, [bin, "hook", "--help"], { encoding: "utf8", env: baseEnv({}) })
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("--host")
    expect(result.stdout).toContain("--rewrite")
  })
})

describe("qwen's own events", () => {
  // Qwen Code's todo_write refuses the change only on a "block" decision in the JSON answer (one
  // hook's exit 2 reads as "deny" there, and the todo is written); checked against Qwen Code's
  // engine in agents/oracles.mjs (host:TodoCreated)
  it("a policy's block on TodoCreated or TodoCompleted is the JSON decision Qwen Code reads; SessionDelete cannot block", () => {
    const settings = join(scratch(), "todo-policy.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: Object.fromEntries(
          ["TodoCreated", "TodoCompleted", "SessionDelete"].map((event) => [
            event,
            [{ hooks: [{ type: "command", command: "echo 'one task at a time' >&2; exit 2" }] }]
          ])
        )
      })
    )
    for (const event of ["TodoCreated", "TodoCompleted"]) {
      const result = hook(
        ["--host", "qwen", "--settings", settings],
        JSON.stringify({ hook_event_name: event, session_id: "s", cwd: scratch(), todo_id: "t1", todo_content: "write tests" })
      )
      expect(result.status, result.stderr).toBe(0)
      expect(stdoutJson(result), event).toStrictEqual({ decision: "block", reason: "one task at a time" })
    }
    const deleted = hook(
      ["--host", "qwen", "--settings", settings],
      JSON.stringify({ hook_event_name: "SessionDelete", session_id: "s", cwd: scratch() })
    )
    expect(deleted.status).toBe(0)
    expect(deleted.stdout).toBe("")
    expect(deleted.stderr).toContain("SessionDelete cannot block")
  })
})
