import { afterEach, describe, expect, it } from "vitest"
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createHookEngine, NodeHookEngine } from "@agent-hooks/node"
import { PromiseEngine } from "@agent-hooks/core"
import { Processes } from "@agent-hooks/test-utils"

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const sh = (name: string, ...args: Array<string>) =>
  ["sh", JSON.stringify(fixture(name)), ...args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`)].join(" ")

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-test-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

type Group = { matcher?: string; hooks: Array<Record<string, unknown>> }
const engineWith = async (hooks: Record<string, Array<Group>>, options: { env?: Record<string, string> } = {}) => {
  const dir = tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify({ hooks }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir, env: { ...process.env, ...options.env } })
  cleanups.push(() => engine.close())
  return { engine, dir, file }
}
const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: cmd, ...extra })

describe("HookEngine on Node, with real hook processes", () => {
  it("allows when no hook objects, and reports each hook", async () => {
    const { engine } = await engineWith({ PreToolUse: [{ matcher: "Bash", hooks: [command(sh("block-rm.sh"))] }] })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome).toMatchObject({ event: "PreToolUse", blocked: false, decision: null, reason: null, continue: true })
    expect(outcome.hooks).toHaveLength(1)
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 0, signal: null, timedOut: false, status: "success", stdout: "", stderr: "" })
    expect(outcome.hooks[0]!.durationMs).toBeGreaterThan(0)
  })

  it("exit 2 blocks PreToolUse with stderr as the reason", async () => {
    const { engine } = await engineWith({ PreToolUse: [{ matcher: "Bash", hooks: [command(sh("block-rm.sh"))] }] })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } })
    expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "rm -rf is not allowed here" })
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 2, status: "blocking-error" })
  })

  it("runs only the groups whose matcher fits the tool", async () => {
    const { engine } = await engineWith({
      PreToolUse: [
        { matcher: "Write|Edit", hooks: [command("exit 2")] },
        { matcher: "Bash", hooks: [command("echo bash-hook >&2")] }
      ]
    })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks.map((h) => h.command)).toEqual(["echo bash-hook >&2"])
  })

  it("aggregates JSON decisions with deny > defer > ask > allow, reporting hooks in config order", async () => {
    const { engine } = await engineWith({
      PreToolUse: [
        {
          hooks: [
            command(sh("decide.sh", "allow", "fine")),
            command(sh("decide.sh", "deny", "no secrets in commands")),
            command(sh("decide.sh", "ask", "are you sure?"))
          ]
        }
      ]
    })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "cat .env" } })
    expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "no secrets in commands" })
    expect(outcome.hooks.map((h) => h.decision)).toEqual(["allow", "deny", "ask"])
  })

  it("ask without deny is not blocked, and carries its reason", async () => {
    const { engine } = await engineWith({
      PreToolUse: [{ hooks: [command(sh("decide.sh", "allow", "x")), command(sh("decide.sh", "ask", "confirm push"))] }]
    })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "git push" } })
    expect(outcome).toMatchObject({ blocked: false, decision: "ask", reason: "confirm push" })
  })

  it("merges updatedInput in config order, whatever order the hooks finish in", async () => {
    const { engine } = await engineWith({
      PreToolUse: [
        {
          hooks: [
            command(`sleep 0.3; ${sh("updated-input.sh", `{"command":"ls","timeout":5}`)}`),
            command(sh("updated-input.sh", `{"command":"ls -la"}`))
          ]
        }
      ]
    })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome.updatedInput).toEqual({ command: "ls -la", timeout: 5 })
  })

  it("passes the input as one JSON line on stdin, with the env and cwd a hook expects", async () => {
    const dir = tempDir()
    const out = join(dir, "seen.txt")
    const workdir = join(dir, "work")
    mkdirSync(workdir)
    const { engine, dir: projectDir } = await engineWith(
      { PostToolUse: [{ matcher: "Write", hooks: [command(sh("echo-input.sh", out))] }] },
      {
        env: { INHERITED: "from-host" }
      }
    )
    await engine.dispatch("PostToolUse", {
      session_id: "s-1",
      cwd: workdir,
      tool_name: "Write",
      tool_input: { file_path: "/tmp/x", content: "hi" },
      tool_response: { success: true }
    })
    const [line, ...rest] = readFileSync(out, "utf8").trimEnd().split("\n")
    const input = JSON.parse(line!)
    expect(input).toEqual({
      session_id: "s-1",
      cwd: workdir,
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: "/tmp/x", content: "hi" },
      tool_response: { success: true }
    })
    expect(rest).toEqual([
      `cwd=${workdir}`,
      `AGENT_HOOKS_PROJECT_DIR=${projectDir}`,
      `CLAUDE_PROJECT_DIR=${projectDir}`,
      "INHERITED=from-host"
    ])
  })

  it("fills in session_id and cwd when the host does not pass them; hook_event_name always comes from the event", async () => {
    const dir = tempDir()
    const out = join(dir, "seen.txt")
    const { engine, dir: projectDir } = await engineWith({ Stop: [{ hooks: [command(sh("echo-input.sh", out))] }] })
    await engine.dispatch("Stop", { hook_event_name: "Wrong", stop_hook_active: false })
    const input = JSON.parse(readFileSync(out, "utf8").split("\n")[0]!)
    expect(input.hook_event_name).toBe("Stop")
    expect(input.cwd).toBe(projectDir)
    expect(input.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(readFileSync(out, "utf8")).toContain(`cwd=${projectDir}`)
  })

  it("runs matching hooks concurrently: three 1 s hooks finish together in well under 3 s", async () => {
    const { engine } = await engineWith({
      UserPromptSubmit: [{ hooks: [1, 2, 3].map((n) => command(sh("sleep-then.sh", "1", `ctx-${n}`))) }]
    })
    const started = Date.now()
    const outcome = await engine.dispatch("UserPromptSubmit", { prompt: "hi" })
    const elapsed = Date.now() - started
    expect(outcome.additionalContext).toEqual(["ctx-1", "ctx-2", "ctx-3"])
    expect(elapsed).toBeLessThan(2500)
  })

  it("a hook that never reads a 5 MB payload works and breaks nothing", async () => {
    const { engine } = await engineWith({ PostToolUse: [{ hooks: [command(sh("never-reads-stdin.sh"))] }] })
    const big = "x".repeat(5 * 1024 * 1024)
    const outcome = await engine.dispatch("PostToolUse", {
      tool_name: "Read",
      tool_input: { file_path: "/big" },
      tool_response: { content: big }
    })
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 0, status: "success", stdout: "did not read\n" })
  })

  it("times out a hook: its whole group is killed, its result comes back promptly, nothing survives", async () => {
    const dir = tempDir()
    const pids = join(dir, "pids")
    const { engine } = await engineWith({
      // Exec form, so the direct child is the script itself, which ignores SIGTERM: SIGKILL must follow.
      PreToolUse: [{ hooks: [command("sh", { args: [fixture("spawn-grandchildren.sh"), pids], timeout: 1 }), command("echo quick")] }]
    })
    const started = Date.now()
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    const elapsed = Date.now() - started
    // 1 s timeout + 1 s SIGTERM grace (the script ignores TERM) + slack for a noisy 2-core machine.
    expect(elapsed).toBeLessThan(6000)
    expect(outcome.blocked).toBe(false) // a timeout decides nothing (fail-open)
    expect(outcome.hooks[0]).toMatchObject({ timedOut: true, status: "cancelled", exitCode: null, signal: "SIGKILL" })
    expect(outcome.hooks[1]).toMatchObject({ status: "success", stdout: "quick\n" })
    const recorded = readFileSync(pids, "utf8").trim().split("\n").map(Number)
    expect(recorded).toHaveLength(2)
    expect(await Processes.waitUntilDead(recorded, 3000)).toEqual([])
  })

  it("exit 1 is a non-blocking error: the action proceeds", async () => {
    const { engine } = await engineWith({ PreToolUse: [{ hooks: [command("echo 'lint failed' >&2; exit 1")] }] })
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(outcome).toMatchObject({ blocked: false, decision: null })
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 1, status: "non-blocking-error", stderr: "lint failed\n" })
    expect(outcome.warnings.join("\n")).toContain("Failed with non-blocking status code 1: lint failed")
  })

  it("an exec-form hook whose command does not exist is a non-blocking error, not a crash", async () => {
    const { engine } = await engineWith({ Stop: [{ hooks: [command("agent-hooks-no-such-binary", { args: ["x"] })] }] })
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]).toMatchObject({ status: "non-blocking-error", exitCode: null, command: "agent-hooks-no-such-binary x" })
  })

  it("exec form passes arguments verbatim, with no shell", async () => {
    const dir = tempDir()
    const out = join(dir, "args.txt")
    const { engine } = await engineWith({
      Stop: [
        { hooks: [command("sh", { args: ["-c", `printf '%s\\n' "$@" > ${JSON.stringify(out)}`, "sh", "$(whoami); rm -rf /", "a b"] })] }
      ]
    })
    await engine.dispatch("Stop", {})
    expect(readFileSync(out, "utf8")).toBe("$(whoami); rm -rf /\na b\n")
  })

  it("Stop: exit 2 means keep going, with stderr as the next instruction", async () => {
    const { engine } = await engineWith({ Stop: [{ hooks: [command("echo 'run the tests first' >&2; exit 2")] }] })
    const outcome = await engine.dispatch("Stop", { stop_hook_active: false })
    expect(outcome).toMatchObject({ blocked: true, decision: "block", reason: "run the tests first" })
  })

  it("SessionEnd can never be blocked", async () => {
    const { engine } = await engineWith({ SessionEnd: [{ hooks: [command("exit 2")] }] })
    const outcome = await engine.dispatch("SessionEnd", { reason: "other" })
    expect(outcome).toMatchObject({ blocked: false, decision: null })
  })

  it("UserPromptSubmit: plain stdout becomes context; decision block blocks", async () => {
    const { engine } = await engineWith({
      UserPromptSubmit: [{ hooks: [command("echo 'branch: main'"), command(`echo '{"decision":"block","reason":"contains a secret"}'`)] }]
    })
    const outcome = await engine.dispatch("UserPromptSubmit", { prompt: "my key is sk-123" })
    expect(outcome).toMatchObject({ blocked: true, decision: "block", reason: "contains a secret", additionalContext: ["branch: main"] })
  })

  it("an identical handler in two settings files runs once", async () => {
    const dir = tempDir()
    const counter = join(dir, "count")
    const hook = { hooks: { Stop: [{ hooks: [command(`echo run >> ${JSON.stringify(counter)}`)] }] } }
    writeFileSync(join(dir, "a.json"), JSON.stringify(hook))
    writeFileSync(join(dir, "b.json"), JSON.stringify(hook))
    const engine = await createHookEngine({ settings: [join(dir, "a.json"), join(dir, "b.json")], projectDir: dir })
    cleanups.push(() => engine.close())
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks).toHaveLength(1)
    expect(readFileSync(counter, "utf8")).toBe("run\n")
  })

  it("discovers project and local settings under .agent-hooks", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, ".agent-hooks"))
    writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [command("echo project")] }] } }))
    writeFileSync(
      join(dir, ".agent-hooks", "settings.local.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [command("echo local")] }] } })
    )
    const engine: PromiseEngine.PromiseHookEngine = await createHookEngine({
      projectDir: dir,
      env: { HOME: join(dir, "nohome"), PATH: process.env["PATH"] }
    })
    cleanups.push(() => engine.close())
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks.map((h) => h.stdout)).toEqual(["project\n", "local\n"])
    expect(engine.settings.files.map((f) => f.scope)).toEqual(["user", "project", "local", "managed"])
  })

  it("rejects with a readable error for a broken settings file, and for a payload that is not an object", async () => {
    const dir = tempDir()
    const file = join(dir, "broken.json")
    writeFileSync(file, `{"hooks": {"Stop": []},}`)
    await expect(createHookEngine({ settings: [file] })).rejects.toThrow(`${file}: not valid JSON`)
    const { engine } = await engineWith({})
    await expect(engine.dispatch("Stop", [] as unknown as Record<string, unknown>)).rejects.toThrow(
      "invalid event payload: expected a JSON object, got an array"
    )
  })

  it("close() stops the engine; a closed engine refuses to dispatch", async () => {
    const { engine } = await engineWith({ Stop: [{ hooks: [command("true")] }] })
    await engine.close()
    await expect(engine.dispatch("Stop", {})).rejects.toThrow("the hook engine is closed")
    await engine.close() // twice is fine
  })

  it("a payload cwd that does not exist: the hook runs in the project directory, with a warning", async () => {
    const { engine, dir } = await engineWith({ Stop: [{ hooks: [command("pwd")] }] })
    const outcome = await engine.dispatch("Stop", { cwd: join(dir, "no", "such", "folder") })
    expect(outcome.hooks[0]).toMatchObject({ status: "success", exitCode: 0 })
    expect(outcome.hooks[0]!.stdout.trim()).toBe(dir)
    expect(outcome.warnings.join("\n")).toContain(join(dir, "no", "such", "folder"))
  })

  it('close() with a dispatch in flight rejects it with "the hook engine is closed", not an interruption', async () => {
    const { engine } = await engineWith({ Stop: [{ hooks: [command("sleep 30")] }] })
    const inFlight = engine.dispatch("Stop", {})
    await new Promise((resolve) => setTimeout(resolve, 200))
    await engine.close()
    await expect(inFlight).rejects.toThrow("the hook engine is closed")
  })

  it("the default onWarning writes each warning to stderr (console.warn): a hook that cannot run is not silent", async () => {
    const dir = tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(join(dir, "missing-guard.sh"))] }] } }))
    const warned: Array<string> = []
    const original = console.warn
    console.warn = (message: string) => void warned.push(message)
    try {
      const engine = await createHookEngine({ settings: [file], projectDir: dir })
      cleanups.push(() => engine.close())
      const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
      expect(outcome.blocked).toBe(false)
    } finally {
      console.warn = original
    }
    expect(warned).toEqual([
      // When the engine loads: the script the hook names does not exist.
      `agent-hooks: ${file} at hooks.PreToolUse[0].hooks[0].command: ${join(dir, "missing-guard.sh")} does not exist: the hook would fail with exit 127 and guard nothing`,
      // When it dispatches: the hook could not run.
      expect.stringMatching(/^agent-hooks: hook ".*missing-guard\.sh" \(.*settings\.json\): .*127/)
    ])
  })

  it("what an outcome's warnings add that no hook said (the Stop guard letting the agent stop, an audit record not written) is said through onWarning once", async () => {
    const dir = tempDir()
    const file = join(dir, "settings.json")
    // /dev/full takes the open and refuses every write: each audit record is a gap.
    writeFileSync(file, JSON.stringify({ auditLog: "/dev/full", hooks: { Stop: [{ hooks: [command("echo 'keep going' >&2; exit 2")] }] } }))
    const heard: Array<string> = []
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      stopBlockCap: 1,
      onWarning: (warning) => heard.push(warning)
    })
    cleanups.push(() => engine.close())
    const first = await engine.dispatch("Stop", { session_id: "s" })
    const second = await engine.dispatch("Stop", { session_id: "s" })
    expect([first.blocked, second.blocked]).toEqual([true, false])
    const added = [...first.warnings, ...second.warnings].filter((w) => !w.startsWith("hook "))
    expect(added.some((w) => w.includes("Stop hooks blocked 1 times in a row; the agent may stop now"))).toBe(true)
    expect(added.some((w) => w.startsWith("audit record not written: /dev/full"))).toBe(true)
    expect(heard).toEqual(added)
  })

  it("reportsWarnings: createHookEngine's engine says each warning itself (the console, or the host's onWarning); fromLayer's only when told", async () => {
    const { engine } = await engineWith({ Stop: [{ hooks: [command("exit 3")] }] })
    expect(engine.reportsWarnings).toBe(true)
    const heard: Array<string> = []
    const dir = tempDir()
    const file = join(dir, "settings.json")
    writeFileSync(file, JSON.stringify({ hooks: { Stop: [{ hooks: [command("exit 3")] }] } }))
    const own = await createHookEngine({ settings: [file], projectDir: dir, onWarning: (warning) => heard.push(warning) })
    cleanups.push(() => own.close())
    expect(own.reportsWarnings).toBe(true)
    const outcome = await own.dispatch("Stop", {})
    expect(outcome.hooks[0]).toMatchObject({ exitCode: 3 })
    expect(heard).toEqual([expect.stringMatching(/^hook "exit 3" \(.*settings\.json\): .*3/)])
    const quiet = await PromiseEngine.fromLayer(NodeHookEngine.layer({ settings: [file], projectDir: dir }))
    cleanups.push(() => quiet.close())
    expect(quiet.reportsWarnings).toBe(false)
    const told = await PromiseEngine.fromLayer(NodeHookEngine.layer({ settings: [file], projectDir: dir, onWarning: () => {} }), {
      reportsWarnings: true
    })
    cleanups.push(() => told.close())
    expect(told.reportsWarnings).toBe(true)
  })

  it("an answer the event ignores is never silent: each ignored field is one onWarning line and one outcome warning, and the call's result is Claude Code's", async () => {
    const dir = tempDir()
    const file = join(dir, "settings.json")
    const print = (answer: unknown, exit = 0) => command(`printf '%s' '${JSON.stringify(answer)}'; exit ${exit}`)
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          Notification: [{ hooks: [print({ decision: "block", reason: "x" })] }],
          SessionEnd: [{ hooks: [print({ continue: false, stopReason: "bye" })] }],
          PreToolUse: [
            {
              hooks: [
                print({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", sesionTitle: "t" } }, 2),
                // an answer that cannot be read is a failure: its one failure line, nothing more
                command(`printf '{"decision": '`)
              ]
            }
          ],
          ConfigChange: [{ hooks: [print({ decision: "block", reason: "no" })] }],
          PostToolUse: [{ hooks: [{ ...print({ decision: "block", reason: "late" }), async: true }] }]
        }
      })
    )
    const heard: Array<string> = []
    const finished: Array<unknown> = []
    const engine = await createHookEngine({
      settings: [file],
      projectDir: dir,
      onWarning: (warning) => heard.push(warning),
      onAsyncResult: (result) => finished.push(result)
    })
    cleanups.push(() => engine.close())
    const hook = (answer: unknown, exit = 0) =>
      `hook ${JSON.stringify(`printf '%s' '${JSON.stringify(answer)}'; exit ${exit}`)} (${file}): `

    const notification = await engine.dispatch("Notification", { message: "m" })
    expect(notification).toMatchObject({ blocked: false, decision: null, continue: true })
    const notified = [
      `${hook({ decision: "block", reason: "x" })}"decision" is ignored on Notification: it cannot block`,
      `${hook({ decision: "block", reason: "x" })}"reason" is ignored on Notification: it cannot block`
    ]
    expect(notification.warnings).toEqual(notified)
    expect(heard.splice(0)).toEqual(notified)

    const end = await engine.dispatch("SessionEnd", { reason: "exit" })
    expect(end).toMatchObject({ continue: true, stopReason: null })
    expect(heard.splice(0)).toEqual([
      `${hook({ continue: false, stopReason: "bye" })}"continue": false is ignored on SessionEnd: it cannot stop the agent there`,
      `${hook({ continue: false, stopReason: "bye" })}"stopReason" is ignored on SessionEnd: "continue": false cannot stop the agent there`
    ])

    const pre = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(pre).toMatchObject({ blocked: true, decision: "deny" })
    const answer = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", sesionTitle: "t" } }
    const lines = heard.splice(0)
    expect(lines).toEqual([
      `${hook(answer, 2)}hookSpecificOutput.sesionTitle is ignored: PreToolUse reads only hookSpecificOutput.permissionDecision, permissionDecisionReason, updatedInput, additionalContext`,
      `${hook(answer, 2)}hookSpecificOutput.permissionDecision is ignored on PreToolUse: the exit code denies`,
      expect.stringMatching(/^hook "printf .*: stdout looks like a JSON object but is not valid JSON/)
    ])
    for (const line of lines.slice(0, 2)) expect(pre.warnings).toContain(line)

    const policy = await engine.dispatch("ConfigChange", { source: "policy_settings" })
    expect(policy.blocked).toBe(false)
    expect(heard.splice(0)).toEqual([`${hook({ decision: "block", reason: "no" })}a change to policy settings cannot be blocked`])

    const post = await engine.dispatch("PostToolUse", { tool_name: "Bash", tool_input: {}, tool_response: {} })
    expect(post.blocked).toBe(false)
    for (let waited = 0; finished.length === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(heard.splice(0)).toEqual([
      `${hook({ decision: "block", reason: "late" })}its decision "block" is ignored: an async hook answers after the call has gone on; only its additionalContext and systemMessage are delivered`
    ])
  })
})
