/**
 * pi, opencode and Kilo have no command hooks: `install --host pi|opencode|kilo` writes agent-hooks'
 * plugin into the folder each agent loads plugins from. Here: the file install writes and removes
 * (byte for byte, beside the user's own plugins), doctor, and the plugin itself, loaded in Node as
 * the agent loads it (a fake `pi` API, a fake opencode plugin input), running the real agent-hooks
 * for each call: blocks with the policy's reason, rewrites in place, ask denied, calls inside
 * opencode's `batch` judged one by one, and a call agent-hooks could not judge blocked.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cliEnv, projectsWithHome, runCli, steeringVariables } from "./cliHarness.ts"

const box = projectsWithHome("agent-hooks-plugin-hosts-")
type Box = ReturnType<typeof box>

// The plugin runs host mode with the agent's environment (here the test's): no daemon that would
// outlive the test, none of the runner's own agent variables
const saved: Record<string, string | undefined> = {}
beforeAll(() => {
  for (const name of [...steeringVariables, "AGENT_HOOKS_DAEMON"]) {
    saved[name] = process.env[name]
    delete process.env[name]
  }
  process.env["AGENT_HOOKS_DAEMON"] = "0"
})
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

/** The policy folder host mode reads (install writes it into the plugin's command as --home). */
const policyHome = (b: Box) => join(b.home, ".agent-hooks")

const cli = (b: Box, args: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
  runCli(args, { cwd: b.dir, env: cliEnv({ HOME: b.home, AGENT_HOOKS_HOME: policyHome(b), ...extra }), timeout: 60_000 })

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** Every file under `root` with its bytes (folders too, empty or not). */
const tree = (root: string): Record<string, string> => {
  const out: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) {
        out[`${relative(root, path)}/`] = ""
        walk(path)
      } else out[relative(root, path)] = readFileSync(path, "latin1")
    }
  }
  walk(root)
  return out
}

const TOKEN = "policy-reason-7f3"

/** A PreToolUse hook in Claude Code's names (`Bash`, `tool_input.command`), as a policy file. */
const policy = (b: Box, hooks: Record<string, unknown>) => b.put(join(policyHome(b), "settings.json"), { hooks })
const preBash = (command: string) => ({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] })
const onMarker = (body: string) => `input=$(cat); case "$input" in *MARKER*) ${body} ;; esac; exit 0`
const json = (value: unknown) => `echo '${JSON.stringify(value).replaceAll("'", `'\\''`)}'`

interface HostCase {
  readonly host: "pi" | "opencode" | "kilo"
  readonly project: string
  readonly user: (home: string) => string
  /** The agent's variable that moves its user folder, and where the file then goes. */
  readonly moved: { readonly variable: string; readonly file: (dir: string) => string }
}

const hosts: ReadonlyArray<HostCase> = [
  {
    host: "pi",
    project: ".pi/extensions/agent-hooks.js",
    user: (home) => join(home, ".pi/agent/extensions/agent-hooks.js"),
    moved: { variable: "PI_CODING_AGENT_DIR", file: (dir) => join(dir, "extensions/agent-hooks.js") }
  },
  {
    host: "opencode",
    project: ".opencode/plugin/agent-hooks.js",
    user: (home) => join(home, ".config/opencode/plugin/agent-hooks.js"),
    moved: { variable: "XDG_CONFIG_HOME", file: (dir) => join(dir, "opencode/plugin/agent-hooks.js") }
  },
  {
    host: "kilo",
    project: ".kilo/plugin/agent-hooks.js",
    user: (home) => join(home, ".config/kilo/plugin/agent-hooks.js"),
    moved: { variable: "XDG_CONFIG_HOME", file: (dir) => join(dir, "kilo/plugin/agent-hooks.js") }
  }
]

describe.each(hosts)("install --host $host (agent-hooks' plugin file)", (c) => {
  it("writes the plugin beside the user's own, idempotent; doctor runs its command; uninstall gives the folder back byte for byte", () => {
    const b = box()
    const file = join(b.dir, c.project)
    write(join(dirname(file), "mine.ts"), "export default function () {}\n")
    const before = tree(b.dir)
    const installed = cli(b, ["install", "--host", c.host, "--project"])
    expect(installed.status, installed.stderr).toBe(0)
    const text = readFileSync(file, "utf8")
    expect(text.split("\n")[0]).toContain(`agent-hooks install --host ${c.host}`)
    expect(text).toMatch(new RegExp(`CONFIG = \\{"host":"${c.host}","command":".* hook --host ${c.host} --timeout 30 --home '[^']+'"`))
    expect(cli(b, ["install", "--host", c.host, "--project"]).stdout).toContain("already installed")
    expect(readFileSync(file, "utf8")).toBe(text)
    // doctor: the test call through the plugin's own command, judged as the plugin reads it
    policy(b, preBash("if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi"))
    const doctor = cli(b, ["doctor", "--host", c.host, "--project"])
    expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0)
    expect(doctor.stdout).toContain("blocked: no rm -rf here")
    // an edited plugin is not the one install wrote: doctor says so
    write(file, text.replace("var PLUGIN", "// mine\nvar PLUGIN"))
    const stale = cli(b, ["doctor", "--host", c.host, "--project"])
    expect(stale.status).toBe(1)
    expect(stale.stdout).toContain("differs from the plugin this agent-hooks ships")
    write(file, text)
    // the policy and its folder are not the agent's: uninstall gives the project back as it was
    expect(cli(b, ["uninstall", "--host", c.host, "--project"]).status).toBe(0)
    expect(tree(b.dir)).toEqual(before)
  })

  it("writes the user's plugin where the agent reads it (and where its variable moves it), and removes the folders it created", () => {
    const b = box()
    const before = tree(b.home)
    expect(cli(b, ["install", "--host", c.host]).status).toBe(0)
    expect(existsSync(c.user(b.home))).toBe(true)
    expect(cli(b, ["uninstall", "--host", c.host]).status).toBe(0)
    const after = tree(b.home)
    for (const key of Object.keys(after)) if (key.startsWith(".cache/")) delete after[key]
    expect(after).toEqual(before)
    const moved = join(b.root, "moved")
    expect(cli(b, ["install", "--host", c.host], { [c.moved.variable]: moved }).status).toBe(0)
    expect(existsSync(c.moved.file(moved))).toBe(true)
  })

  it("never overwrites a plugin of that name it did not write, nor removes it", () => {
    const b = box()
    const file = join(b.dir, c.project)
    const mine = "// my own plugin\nexport default function () {}\n"
    write(file, mine)
    const refused = cli(b, ["install", "--host", c.host, "--project"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("not overwritten")
    expect(cli(b, ["uninstall", "--host", c.host, "--project"]).status).toBe(0)
    expect(readFileSync(file, "utf8")).toBe(mine)
  })
})

/** Installs agent-hooks for `host` in a fresh project and loads the plugin file as the agent does. */
const loadPlugin = async (b: Box, host: string, edit: (text: string) => string = (text) => text) => {
  expect(cli(b, ["install", "--host", host, "--project"]).status).toBe(0)
  const file = join(b.dir, hosts.find((c) => c.host === host)!.project)
  write(file, edit(readFileSync(file, "utf8")))
  return (await import(pathToFileURL(file).href)) as { default: (api: unknown) => unknown }
}

/** pi's extension API, as far as the plugin uses it: `on(event, handler)`. */
const fakePi = async (b: Box, edit?: (text: string) => string) => {
  const handlers = new Map<string, (event: unknown, ctx: unknown) => Promise<any>>()
  const sent: Array<unknown> = []
  const module = await loadPlugin(b, "pi", edit)
  module.default({
    on: (name: string, handler: (event: unknown, ctx: unknown) => Promise<unknown>) => handlers.set(name, handler),
    sendUserMessage: (text: unknown) => sent.push(text)
  })
  const ctx = { cwd: b.dir, hasUI: false, sessionManager: { getSessionId: () => "session-1" } }
  return { fire: (name: string, event: unknown) => handlers.get(name)!(event, ctx), handlers, sent }
}

const bashCall = (command: string) => ({ toolName: "bash", toolCallId: "call_1", input: { command, timeout: 5 } })

describe("agent-hooks' plugin in pi (its extension API)", () => {
  it("registers on pi's events, and blocks a tool call with the policy's reason (exit 2 and JSON deny)", async () => {
    const b = box()
    policy(b, preBash(onMarker(`echo "blocked: ${TOKEN}" >&2; exit 2`)))
    const pi = await fakePi(b)
    expect([...pi.handlers.keys()].sort()).toEqual(["agent_end", "input", "session_shutdown", "session_start", "tool_call", "tool_result"])
    expect(await pi.fire("tool_call", bashCall("touch MARKER"))).toEqual({
      block: true,
      reason: `Blocked by agent-hooks: blocked: ${TOKEN}`
    })
    expect(await pi.fire("tool_call", bashCall("ls"))).toBeUndefined()
    const other = box()
    policy(
      other,
      preBash(
        onMarker(json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: TOKEN } }))
      )
    )
    const second = await fakePi(other)
    expect((await second.fire("tool_call", bashCall("touch MARKER")))?.reason).toContain(TOKEN)
  })

  it("rewrites the call in place (pi runs the changed input), and an ask is a deny that says approval is needed", async () => {
    const b = box()
    policy(
      b,
      preBash(
        onMarker(
          json({
            hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch REWRITTEN" } }
          })
        )
      )
    )
    const pi = await fakePi(b)
    const call = bashCall("touch MARKER")
    expect(await pi.fire("tool_call", call)).toBeUndefined()
    expect(call.input).toEqual({ command: "touch REWRITTEN" })
    const asked = box()
    policy(
      asked,
      preBash(
        onMarker(json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: TOKEN } }))
      )
    )
    const answer = await (await fakePi(asked)).fire("tool_call", bashCall("touch MARKER"))
    expect(answer.block).toBe(true)
    expect(answer.reason).toContain(TOKEN)
    expect(answer.reason).toMatch(/approval/)
  })

  it("adds PostToolUse context to the tool's result, and refuses a prompt the policy blocks", async () => {
    const b = box()
    policy(b, {
      PostToolUse: [
        { hooks: [{ type: "command", command: json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: TOKEN } }) }] }
      ],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: json({ decision: "block", reason: `no: ${TOKEN}` }) }] }]
    })
    const pi = await fakePi(b)
    const result = await pi.fire("tool_result", { ...bashCall("ls"), content: [{ type: "text", text: "a\nb" }], isError: false })
    expect(result.content).toEqual([
      { type: "text", text: "a\nb" },
      { type: "text", text: TOKEN }
    ])
    expect(await pi.fire("input", { text: "do it", source: "interactive" })).toEqual({ action: "handled" })
  })

  it("hands a hostile reason and input over as data: nothing in them runs", async () => {
    const b = box()
    const reason = `$(touch ${join(b.dir, "PWNED")}) \`touch ${join(b.dir, "PWNED2")}\` '"; touch ${join(b.dir, "PWNED3")}`
    policy(b, preBash(`cat >/dev/null; printf '%s' '${reason.replaceAll("'", `'\\''`)}' >&2; exit 2`))
    const pi = await fakePi(b)
    const answer = await pi.fire("tool_call", bashCall(`'; touch ${join(b.dir, "PWNED4")}; echo "$(touch ${join(b.dir, "PWNED5")})`))
    expect(answer).toEqual({ block: true, reason: `Blocked by agent-hooks: ${reason}` })
    expect(readdirSync(b.dir).filter((name) => name.startsWith("PWNED"))).toEqual([])
  })

  it("fails closed: a call agent-hooks cannot judge (it does not start, it hangs) is blocked, naming agent-hooks doctor", async () => {
    const b = box()
    policy(b, preBash("exit 0"))
    const gone = await fakePi(b, (text) => text.replace(/("command":")[^"]*(?:\\.[^"]*)*"/, `$1/nonexistent/agent-hooks hook --host pi"`))
    const answer = await gone.fire("tool_call", bashCall("ls"))
    expect(answer.block).toBe(true)
    expect(answer.reason).toContain("agent-hooks doctor --host pi")
    const hung = box()
    const slow = await fakePi(hung, (text) =>
      text.replace(/("command":")[^"]*(?:\\.[^"]*)*"/, `$1sleep 60"`).replace(/"timeout":30/, `"timeout":1`)
    )
    const late = await slow.fire("tool_call", bashCall("ls"))
    expect(late.block).toBe(true)
    expect(late.reason).toContain("did not answer within 6 s")
  }, 30_000)
})

/** opencode's (and Kilo's) plugin input, as far as the plugin uses it, and the hooks it returns. */
const fakeOpencode = async (b: Box, host: "opencode" | "kilo" = "opencode") => {
  const module = await loadPlugin(b, host)
  return (await module.default({ directory: b.dir, worktree: b.dir, client: {}, project: {} })) as Record<
    string,
    (input: any, output: any) => Promise<void>
  >
}

const before = (hooks: Record<string, (input: any, output: any) => Promise<void>>, tool: string, args: unknown) =>
  hooks["tool.execute.before"]!({ tool, sessionID: "ses_1", callID: "call_1" }, { args }).then(
    () => undefined,
    (error: Error) => error.message
  )

describe.each(["opencode", "kilo"] as const)("agent-hooks' plugin in %s (opencode's plugin API)", (host) => {
  it("blocks a tool call by throwing the policy's reason, and rewrites output.args in place", async () => {
    const b = box()
    policy(b, preBash(onMarker(`echo "blocked: ${TOKEN}" >&2; exit 2`)))
    const hooks = await fakeOpencode(b, host)
    expect(Object.keys(hooks).sort()).toEqual(["chat.message", "event", "tool.execute.after", "tool.execute.before"])
    expect(await before(hooks, "bash", { command: "touch MARKER", description: "x" })).toBe(`Blocked by agent-hooks: blocked: ${TOKEN}`)
    expect(await before(hooks, "bash", { command: "ls", description: "x" })).toBeUndefined()
    const other = box()
    policy(
      other,
      preBash(
        onMarker(
          json({
            hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "touch REWRITTEN" } }
          })
        )
      )
    )
    const args = { command: "touch MARKER", description: "x" }
    expect(await before(await fakeOpencode(other, host), "bash", args)).toBeUndefined()
    expect(args).toEqual({ command: "touch REWRITTEN" })
  })

  it("judges each call inside a batch (the batch tool runs them without tool.execute.before), and the policy sees Claude Code's names", async () => {
    const b = box()
    // the policy guards Claude Code's Bash and Edit (`file_path`): opencode's `edit` `filePath` inside a batch
    policy(b, {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: onMarker(`echo "blocked: ${TOKEN}" >&2; exit 2`) }] },
        {
          matcher: "Edit",
          hooks: [{ type: "command", command: `case "$(cat)" in *'"file_path":"secret.txt"'*) echo "edit refused" >&2; exit 2;; esac` }]
        }
      ]
    })
    const hooks = await fakeOpencode(b, host)
    const batch = (calls: Array<unknown>) => before(hooks, "batch", { tool_calls: calls })
    expect(
      await batch([
        { tool: "bash", parameters: { command: "ls", description: "x" } },
        { tool: "bash", parameters: { command: "touch MARKER", description: "x" } }
      ])
    ).toBe(`Blocked by agent-hooks: bash (call 2 of the batch): blocked: ${TOKEN}`)
    expect(await batch([{ tool: "edit", parameters: { filePath: "secret.txt", oldString: "a", newString: "b" } }])).toContain(
      "edit refused"
    )
    expect(await batch([{ tool: "bash", parameters: { command: "ls", description: "x" } }])).toBeUndefined()
  })

  it("adds PostToolUse context to the output, and refuses a prompt the policy blocks", async () => {
    const b = box()
    policy(b, {
      PostToolUse: [
        { hooks: [{ type: "command", command: json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: TOKEN } }) }] }
      ],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: json({ decision: "block", reason: `no: ${TOKEN}` }) }] }]
    })
    const hooks = await fakeOpencode(b, host)
    const output = { title: "ls", output: "a\nb", metadata: {} }
    await hooks["tool.execute.after"]!({ tool: "bash", sessionID: "ses_1", callID: "call_1", args: { command: "ls" } }, output)
    expect(output.output).toBe(`a\nb\n\n${TOKEN}`)
    const refused = await hooks["chat.message"]!({ sessionID: "ses_1" }, { message: {}, parts: [{ type: "text", text: "do it" }] }).then(
      () => undefined,
      (error: Error) => error.message
    )
    expect(refused).toContain(TOKEN)
  })
})
