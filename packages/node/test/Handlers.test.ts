/**
 * Handler fields and types beyond plain command hooks: onFailure, async, Stop loop guard, once, if,
 * placeholders, module, callback, prompt / agent, http, mcp_tool, plugins, managed policy,
 * host-declared events, long output.
 */
import { afterEach, describe, expect, it } from "vitest"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import { createHookEngine } from "@agent-hooks/node"
import { Trust } from "@agent-hooks/core"
import type { HookEngine } from "@agent-hooks/core"
import type { NodeEngineOptions } from "@agent-hooks/node"
import { Processes } from "@agent-hooks/test-utils"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-handlers-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
const engineWith = async (settings: object, options: NodeEngineOptions & { dir?: string } = {}) => {
  const dir = options.dir ?? tempDir()
  const file = join(dir, "settings.json")
  writeFileSync(file, JSON.stringify(settings))
  const engine = await createHookEngine({ settings: [file], projectDir: dir, ...options })
  cleanups.push(() => engine.close())
  return { engine, dir }
}
const cmd = (command: string, extra: object = {}) => ({ type: "command", command, ...extra })
const tool = (command: string) => ({ tool_name: "Bash", tool_input: { command } })
const waitUntil = async (predicate: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline && !predicate()) await new Promise((resolve) => setTimeout(resolve, 50))
  return predicate()
}

describe("onFailure: block (fail-closed)", () => {
  it("a crashing PreToolUse hook blocks, with Claude Code's message", async () => {
    const { engine } = await engineWith({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cmd("exit 1", { onFailure: "block" })] }] } })
    const outcome = await engine.dispatch("PreToolUse", tool("ls"))
    expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
    expect(outcome.reason).toBe(`PreToolUse:Bash hook error: [exit 1]: failed; blocking because onFailure is "block"`)
  })

  it("a timed-out hook blocks", async () => {
    const { engine } = await engineWith({
      hooks: { UserPromptSubmit: [{ hooks: [cmd("sleep 5", { onFailure: "block", timeout: 0.3 })] }] }
    })
    const outcome = await engine.dispatch("UserPromptSubmit", { prompt: "x" })
    expect(outcome).toMatchObject({ blocked: true, decision: "block" })
    expect(outcome.reason).toMatch(/timed out; blocking because onFailure is "block"/)
  })

  it("invalid JSON output blocks", async () => {
    const { engine } = await engineWith({
      hooks: { PreToolUse: [{ hooks: [cmd(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, { onFailure: "block" })] }] }
    })
    expect((await engine.dispatch("PreToolUse", tool("ls"))).blocked).toBe(true)
  })

  it("is ignored on Stop (no loop of blocks from a broken hook), and says so", async () => {
    const { engine } = await engineWith({ hooks: { Stop: [{ hooks: [cmd("exit 1", { onFailure: "block" })] }] } })
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.blocked).toBe(false)
    expect(outcome.warnings.join("\n")).toContain(`not blocking (onFailure: "block" is ignored on Stop)`)
  })

  it("without it, a crash is fail-open", async () => {
    const { engine } = await engineWith({ hooks: { PreToolUse: [{ hooks: [cmd("exit 1")] }] } })
    expect((await engine.dispatch("PreToolUse", tool("ls"))).blocked).toBe(false)
  })
})

describe("async hooks", () => {
  it("run in the background: dispatch returns first, the result arrives later", async () => {
    const dir = tempDir()
    const marker = join(dir, "done")
    const { engine } = await engineWith({
      hooks: {
        PostToolUse: [
          {
            hooks: [
              cmd(
                `sleep 0.5; touch ${JSON.stringify(marker)}; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"tests pass"}}'`,
                { async: true }
              )
            ]
          }
        ]
      }
    })
    const outcome = await engine.dispatch("PostToolUse", tool("npm test"))
    expect(existsSync(marker)).toBe(false)
    expect(outcome.hooks).toEqual([])
    expect(outcome.asyncHooks).toHaveLength(1)
    await engine.awaitAsync()
    expect(existsSync(marker)).toBe(true)
    const results = await engine.takeAsyncResults()
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ event: "PostToolUse", toModel: ["tests pass"], rewake: false })
    expect(await engine.takeAsyncResults()).toEqual([])
  })

  it("asyncRewake: exit 2 wakes the agent with stderr", async () => {
    const seen: Array<HookEngine.AsyncResult> = []
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [cmd("echo 'build broke' >&2; exit 2", { asyncRewake: true })] }] } },
      {
        onAsyncResult: (result) => seen.push(result)
      }
    )
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.blocked).toBe(false) // async hooks cannot block
    await engine.awaitAsync()
    expect(seen).toMatchObject([{ rewake: true, rewakeMessage: "build broke" }])
  })

  it("results nobody takes do not pile up: the last 100 are kept, and the first dropped one is said once", async () => {
    const dir = tempDir()
    const counter = join(dir, "n")
    // One at a time (asyncConcurrency 1): each hook says its number, in order.
    const hook = cmd(
      `n=$(cat ${JSON.stringify(counter)} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${JSON.stringify(counter)}; echo "{\\"systemMessage\\":\\"$n\\"}"`,
      { async: true }
    )
    const warnings: Array<string> = []
    const { engine } = await engineWith(
      { hooks: { PostToolUse: [{ hooks: [hook] }] } },
      { asyncConcurrency: 1, onWarning: (warning) => warnings.push(warning) }
    )
    for (let i = 0; i < 105; i++) await engine.dispatch("PostToolUse", tool("npm test"))
    await engine.awaitAsync()
    const kept = await engine.takeAsyncResults()
    expect(kept.map((result) => result.toModel[0])).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 6)))
    expect(warnings.filter((warning) => warning.includes("async hook results are not being taken"))).toHaveLength(1)
  }, 30_000)

  it("with onAsyncResult the host sees every result, and the queue for takeAsyncResults still keeps only the last 100, without a warning", async () => {
    const seen: Array<HookEngine.AsyncResult> = []
    const warnings: Array<string> = []
    const { engine } = await engineWith(
      { hooks: { PostToolUse: [{ hooks: [cmd("true", { async: true })] }] } },
      {
        onAsyncResult: (result) => seen.push(result),
        onWarning: (warning) => warnings.push(warning)
      }
    )
    for (let i = 0; i < 103; i++) await engine.dispatch("PostToolUse", tool("npm test"))
    await engine.awaitAsync()
    expect(seen).toHaveLength(103)
    expect(await engine.takeAsyncResults()).toHaveLength(100)
    expect(warnings).toEqual([])
  }, 30_000)

  it("are killed when the engine closes: nothing leaks", async () => {
    const dir = tempDir()
    const pidFile = join(dir, "pid")
    const { engine } = await engineWith({
      hooks: { SessionEnd: [{ hooks: [cmd(`sleep 60 & echo $! > ${JSON.stringify(pidFile)}; wait`, { async: true })] }] }
    })
    await engine.dispatch("SessionEnd", { reason: "other" })
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 3000)).toBe(true)
    const pid = Number(readFileSync(pidFile, "utf8"))
    expect(Processes.isAlive(pid)).toBe(true)
    await engine.close()
    expect(await Processes.waitUntilDead([pid], 3000)).toEqual([])
  })
})

describe("Stop loop guard", () => {
  it("passes stop_hook_active, and lets the agent stop after 8 consecutive blocks", async () => {
    const dir = tempDir()
    const log = join(dir, "log")
    const { engine } = await engineWith({
      hooks: { Stop: [{ hooks: [cmd(`cat >> ${JSON.stringify(log)}; echo >> ${JSON.stringify(log)}; echo 'keep going' >&2; exit 2`)] }] }
    })
    const blocked: Array<boolean> = []
    for (let i = 0; i < 9; i++) blocked.push((await engine.dispatch("Stop", { session_id: "s" })).blocked)
    expect(blocked).toEqual([true, true, true, true, true, true, true, true, false])
    const inputs = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(inputs.map((input) => input.stop_hook_active)).toEqual([false, true, true, true, true, true, true, true, true])
    // After the guard let it stop, the streak starts again.
    expect((await engine.dispatch("Stop", { session_id: "s" })).blocked).toBe(true)
  })

  it("the cap is configurable; 0 turns it off; a host's stop_hook_active is kept", async () => {
    const { engine } = await engineWith({ hooks: { Stop: [{ hooks: [cmd("exit 2")] }] } }, { stopBlockCap: 2 })
    const results = []
    for (let i = 0; i < 3; i++) results.push((await engine.dispatch("Stop", {})).blocked)
    expect(results).toEqual([true, true, false])
    const { engine: off } = await engineWith({ hooks: { Stop: [{ hooks: [cmd("exit 2")] }] } }, { stopBlockCap: 0 })
    for (let i = 0; i < 10; i++) expect((await off.dispatch("Stop", {})).blocked).toBe(true)
  })
})

describe("once and if", () => {
  it("once: runs once per engine", async () => {
    const { engine } = await engineWith({ hooks: { PreToolUse: [{ hooks: [cmd("echo hi", { once: true })] }] } })
    expect((await engine.dispatch("PreToolUse", tool("a"))).hooks).toHaveLength(1)
    expect((await engine.dispatch("PreToolUse", tool("b"))).hooks).toHaveLength(0)
  })

  it("if: a permission rule filters by the tool call, subcommand by subcommand", async () => {
    const { engine } = await engineWith({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cmd("echo 'no pushes' >&2; exit 2", { if: "Bash(git push:*)" })] }] }
    })
    expect((await engine.dispatch("PreToolUse", tool("git status"))).blocked).toBe(false)
    expect((await engine.dispatch("PreToolUse", tool("npm test && git push origin main"))).blocked).toBe(true)
    expect((await engine.dispatch("PreToolUse", tool(`echo "unbalanced`))).blocked).toBe(true) // unparsable: the hook runs
  })

  it("if on a non-tool event: the handler never runs, a warning says so, and each dispatch reports it as a failure", async () => {
    const warnings: Array<string> = []
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [cmd("exit 2", { if: "Bash(*)" })] }] } },
      { onWarning: (w) => warnings.push(w) }
    )
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks).toMatchObject([
      { command: "exit 2", exitCode: null, status: "non-blocking-error", stderr: expect.stringContaining("this handler never runs") }
    ])
    expect(warnings.join("\n")).toMatch(/"if" applies only to tool events; on Stop this handler never runs/)
  })
})

describe("placeholders", () => {
  it("a hostile file path cannot inject shell syntax (shell form)", async () => {
    const dir = tempDir()
    const out = join(dir, "out")
    const pwned = join(dir, "pwned")
    const { engine } = await engineWith({
      hooks: { PostToolUse: [{ hooks: [cmd(`printf '%s' \${tool_input.file_path} > ${JSON.stringify(out)}`)] }] }
    })
    const hostile = `x'; touch ${pwned}; echo '$(touch ${pwned})\`touch ${pwned}\``
    await engine.dispatch("PostToolUse", { tool_name: "Write", tool_input: { file_path: hostile } })
    expect(readFileSync(out, "utf8")).toBe(hostile)
    expect(existsSync(pwned)).toBe(false)
  })

  it("${CLAUDE_PROJECT_DIR} works quoted and unquoted, also with spaces in the path", async () => {
    const base = tempDir()
    const dir = join(base, "my project")
    mkdirSync(dir)
    writeFileSync(join(dir, "hook.sh"), "cat >/dev/null; echo ran-$1\n")
    const { engine } = await engineWith(
      {
        hooks: { Stop: [{ hooks: [cmd(`sh "\${CLAUDE_PROJECT_DIR}/hook.sh" a`), cmd(`sh \${CLAUDE_PROJECT_DIR}/hook.sh b`)] }] }
      },
      { dir }
    )
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks.map((h) => h.stdout)).toEqual(["ran-a\n", "ran-b\n"])
  })

  it("exec form substitutes verbatim into one argument", async () => {
    const { engine } = await engineWith({ hooks: { PreToolUse: [{ hooks: [cmd("printf", { args: ["%s", "${tool_input.command}"] })] }] } })
    const outcome = await engine.dispatch("PreToolUse", tool("a; b $(c)"))
    expect(outcome.hooks[0]!.stdout).toBe("a; b $(c)")
  })
})

describe("module and callback hooks (in-process JavaScript)", () => {
  it("a module hook's returned object is its output; the path is relative to the settings file", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, "hooks"))
    writeFileSync(
      join(dir, "hooks", "guard.mjs"),
      `export default (input) => input.tool_input.command.includes("rm -rf")
        ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "module says no" } }
        : undefined
      export const slow = () => new Promise((resolve) => setTimeout(resolve, 5000))
      export const broken = () => { throw new Error("module bug") }`
    )
    const { engine } = await engineWith(
      {
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "module", module: "./hooks/guard.mjs" }] },
            { matcher: "Slow", hooks: [{ type: "module", module: "./hooks/guard.mjs", export: "slow", timeout: 0.2 }] },
            { matcher: "Broken", hooks: [{ type: "module", module: "./hooks/guard.mjs", export: "broken" }] }
          ]
        }
      },
      { dir }
    )
    expect(await engine.dispatch("PreToolUse", tool("ls"))).toMatchObject({ blocked: false })
    const denied = await engine.dispatch("PreToolUse", tool("rm -rf /"))
    expect(denied).toMatchObject({ blocked: true, reason: "module says no" })
    expect(denied.hooks[0]).toMatchObject({ command: "module ./hooks/guard.mjs#default", exitCode: 0, status: "success" })
    const slow = await engine.dispatch("PreToolUse", { tool_name: "Slow", tool_input: {} })
    expect(slow.hooks[1]).toMatchObject({ status: "cancelled", timedOut: true })
    const broken = await engine.dispatch("PreToolUse", { tool_name: "Broken", tool_input: {} })
    expect(broken.blocked).toBe(false)
    expect(broken.hooks[1]).toMatchObject({ status: "non-blocking-error", exitCode: 1, stderr: "module bug" })
  })

  it("a module that cannot be loaded is a non-blocking error naming the file", async () => {
    const { engine, dir } = await engineWith({ hooks: { Stop: [{ hooks: [{ type: "module", module: "./missing.mjs" }] }] } })
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks[0]!.status).toBe("non-blocking-error")
    expect(outcome.hooks[0]!.stderr).toContain(`cannot load ${join(dir, "missing.mjs")}`)
  })

  it("programmatic callbacks, with matchers, after the settings hooks", async () => {
    const seen: Array<unknown> = []
    const { engine } = await engineWith(
      { hooks: { PreToolUse: [{ hooks: [cmd("echo settings-hook >&2")] }] } },
      {
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                function guard(input) {
                  seen.push(input["tool_name"])
                  return { decision: "block", reason: "callback blocked" }
                }
              ]
            }
          ]
        }
      }
    )
    const outcome = await engine.dispatch("PreToolUse", tool("ls"))
    expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "callback blocked" })
    expect(outcome.hooks.map((h) => [h.command, h.source === null])).toEqual([
      ["echo settings-hook >&2", false],
      ["callback guard", true]
    ])
    expect(seen).toEqual(["Bash"])
    expect((await engine.dispatch("PreToolUse", { tool_name: "Read", tool_input: {} })).hooks).toHaveLength(1)
  })
})

describe("programmatic hooks for Effect users, and status messages", () => {
  it("a callback may return an Effect; it is interrupted on timeout", async () => {
    let interrupted = false
    const { engine } = await engineWith(
      {},
      {
        hooks: {
          PreToolUse: [
            { hooks: [() => Effect.succeed({ decision: "block", reason: "from an Effect" })] },
            {
              matcher: "Slow",
              timeout: 0.2,
              hooks: [() => Effect.sleep("5 seconds").pipe(Effect.onInterrupt(() => Effect.sync(() => (interrupted = true))))]
            }
          ]
        }
      }
    )
    expect(await engine.dispatch("PreToolUse", tool("ls"))).toMatchObject({ blocked: true, reason: "from an Effect" })
    const slow = await engine.dispatch("PreToolUse", { tool_name: "Slow", tool_input: {} })
    expect(slow.hooks[1]).toMatchObject({ status: "cancelled", timedOut: true })
    expect(await waitUntil(() => interrupted, 2000)).toBe(true)
  })

  it("hookedEvents names every event with a hook, programmatic ones included", async () => {
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [cmd("true")] }], UnknownThing: [{ hooks: [cmd("true")] }] } },
      {
        hooks: { PreToolUse: [{ hooks: [() => undefined] }] }
      }
    )
    expect([...engine.hookedEvents].sort()).toEqual(["PreToolUse", "Stop"])
  })

  it("onHookStart receives each hook's statusMessage as it starts", async () => {
    const started: Array<unknown> = []
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [cmd("true", { statusMessage: "Checking the build..." }), cmd("true second")] }] } },
      {
        onHookStart: (hook) => started.push(hook)
      }
    )
    await engine.dispatch("Stop", {})
    expect(started).toEqual([
      { event: "Stop", command: "true", statusMessage: "Checking the build..." },
      { event: "Stop", command: "true second", statusMessage: undefined }
    ])
  })
})

describe("prompt and agent hooks, through the host's model", () => {
  it("ok:false on Stop blocks with the model's reason; the prompt gets $ARGUMENTS", async () => {
    const prompts: Array<string> = []
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "Are the tests green? $ARGUMENTS" }] }] } },
      {
        model: async (request) => {
          prompts.push(request.prompt)
          return `Sure. {"ok": false, "reason": "tests were not run"}`
        }
      }
    )
    const outcome = await engine.dispatch("Stop", { last_assistant_message: "done" })
    expect(outcome).toMatchObject({ blocked: true, reason: "tests were not run" })
    expect(prompts[0]).toMatch(/^Are the tests green\? \{.*"hook_event_name":"Stop".*\}$/)
  })

  it("ok:false on PreToolUse denies and ends the turn; agent hooks continue", async () => {
    const model = async () => `{"ok": false, "reason": "too risky"}`
    const { engine } = await engineWith({ hooks: { PreToolUse: [{ hooks: [{ type: "prompt", prompt: "safe?" }] }] } }, { model })
    expect(await engine.dispatch("PreToolUse", tool("x"))).toMatchObject({ blocked: true, reason: "too risky", continue: false })
    const { engine: agent } = await engineWith({ hooks: { PreToolUse: [{ hooks: [{ type: "agent", prompt: "safe?" }] }] } }, { model })
    expect(await agent.dispatch("PreToolUse", tool("x"))).toMatchObject({ blocked: true, continue: true })
  })

  it("without a model, a prompt hook is a non-blocking error that says what to do", async () => {
    const { engine } = await engineWith({ hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "ok?" }] }] } })
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]!.stderr).toContain("pass options.model")
  })
})

describe("http hooks", () => {
  const serve = async (handler: (body: string, headers: Record<string, unknown>) => { status: number; body: string }) => {
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk) => (body += chunk))
      req.on("end", () => {
        const reply = handler(body, req.headers)
        res.writeHead(reply.status, { "content-type": "application/json" })
        res.end(reply.body)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  }

  it("POSTs the input; a JSON reply decides; headers take only allowed env vars", async () => {
    const received: Array<[string, Record<string, unknown>]> = []
    const url = await serve((body, headers) => {
      received.push([body, headers])
      return {
        status: 200,
        body: JSON.stringify({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "http says no" }
        })
      }
    })
    const { engine } = await engineWith(
      {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: "http", url, headers: { Authorization: "Bearer $TOKEN", "X-Secret": "${SECRET}" }, allowedEnvVars: ["TOKEN"] }
              ]
            }
          ]
        }
      },
      { env: { ...process.env, TOKEN: "t0k", SECRET: "hidden" } }
    )
    const outcome = await engine.dispatch("PreToolUse", tool("ls"))
    expect(outcome).toMatchObject({ blocked: true, reason: "http says no" })
    expect(JSON.parse(received[0]![0])).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash" })
    expect(received[0]![1]).toMatchObject({ authorization: "Bearer t0k", "x-secret": "" })
  })

  it("httpHookAllowedEnvVars is an outer limit on the variables headers may use", async () => {
    const received: Array<Record<string, unknown>> = []
    const url = await serve((_, headers) => {
      received.push(headers)
      return { status: 200, body: "" }
    })
    const { engine } = await engineWith(
      {
        httpHookAllowedEnvVars: ["TOKEN"],
        hooks: { Stop: [{ hooks: [{ type: "http", url, headers: { A: "$TOKEN", B: "$SECRET" }, allowedEnvVars: ["TOKEN", "SECRET"] }] }] }
      },
      { env: { ...process.env, TOKEN: "t", SECRET: "s" } }
    )
    await engine.dispatch("Stop", {})
    expect(received[0]).toMatchObject({ a: "t", b: "" })
  })

  it("a non-2xx status cannot block; allowedHttpHookUrls refuses other URLs", async () => {
    const url = await serve(() => ({ status: 500, body: "oops" }))
    const { engine } = await engineWith({ hooks: { PreToolUse: [{ hooks: [{ type: "http", url }] }] } })
    const outcome = await engine.dispatch("PreToolUse", tool("ls"))
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]).toMatchObject({ status: "non-blocking-error", stderr: `HTTP 500 from ${url}` })
    const { engine: strict } = await engineWith({
      allowedHttpHookUrls: ["https://hooks.example.com/*"],
      hooks: { Stop: [{ hooks: [{ type: "http", url }] }] }
    })
    expect((await strict.dispatch("Stop", {})).hooks[0]!.stderr).toContain("is not allowed by allowedHttpHookUrls")
  })
})

describe("mcp_tool hooks", () => {
  it("call the host's MCP caller with interpolated input; isError is a non-blocking error", async () => {
    const calls: Array<unknown> = []
    const { engine } = await engineWith(
      {
        hooks: {
          PostToolUse: [{ hooks: [{ type: "mcp_tool", server: "memory", tool: "note", input: { text: "wrote ${tool_input.file_path}" } }] }]
        }
      },
      {
        mcp: async (request) => {
          calls.push({ server: request.server, tool: request.tool, input: request.input })
          return { content: [{ type: "text", text: `{"decision":"block","reason":"from mcp"}` }] }
        }
      }
    )
    const outcome = await engine.dispatch("PostToolUse", { tool_name: "Write", tool_input: { file_path: "/a.ts" } })
    expect(calls).toEqual([{ server: "memory", tool: "note", input: { text: "wrote /a.ts" } }])
    expect(outcome).toMatchObject({ blocked: true, reason: "from mcp" })
  })
})

describe("plugins, managed policy, host events, long output", () => {
  it("plugin hooks run with CLAUDE_PLUGIN_ROOT", async () => {
    const dir = tempDir()
    const plugin = join(dir, "my plugin")
    mkdirSync(join(plugin, "hooks"), { recursive: true })
    writeFileSync(
      join(plugin, "check.sh"),
      'cat >/dev/null; echo "root=$CLAUDE_PLUGIN_ROOT"; test -d "$CLAUDE_PLUGIN_DATA" && echo "data=$CLAUDE_PLUGIN_DATA"\n'
    )
    writeFileSync(
      join(plugin, "hooks", "hooks.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [cmd(`sh "\${CLAUDE_PLUGIN_ROOT}/check.sh"`)] }] } })
    )
    const { engine } = await engineWith({}, { dir, plugins: [plugin], env: { ...process.env, AGENT_HOOKS_HOME: join(dir, "home") } })
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.hooks[0]!.stdout).toBe(`root=${plugin}\ndata=${join(dir, "home", "plugins", "data", "my plugin")}\n`)
  })

  it("managed allowManagedHooksOnly: only policy hooks run", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, "managed"))
    writeFileSync(
      join(dir, "managed", "managed-settings.json"),
      JSON.stringify({ allowManagedHooksOnly: true, hooks: { Stop: [{ hooks: [cmd("echo policy")] }] } })
    )
    const { engine } = await engineWith({ hooks: { Stop: [{ hooks: [cmd("echo user")] }] } }, { dir, managedDir: join(dir, "managed") })
    expect((await engine.dispatch("Stop", {})).hooks.map((h) => h.stdout)).toEqual(["policy\n"])
  })

  it("a host-declared event with a matcher field and a blocking rule", async () => {
    const { engine } = await engineWith(
      { hooks: { BeforeModel: [{ matcher: "gpt-.*", hooks: [cmd("echo 'no gpt' >&2; exit 2")] }] } },
      {
        events: [{ name: "BeforeModel", matcherField: "model", blocking: "decision" }]
      }
    )
    expect((await engine.dispatch("BeforeModel", { model: "claude-x" })).blocked).toBe(false)
    expect(await engine.dispatch("BeforeModel", { model: "gpt-5" })).toMatchObject({ blocked: true, reason: "no gpt" })
  })

  it("caps additionalContext at 10 000 characters and saves the whole text to a file it names", async () => {
    const dir = tempDir()
    const { engine } = await engineWith(
      { hooks: { UserPromptSubmit: [{ hooks: [cmd(`head -c 25000 /dev/zero | tr '\\0' 'a'`)] }] } },
      {
        env: { ...process.env, TMPDIR: dir }
      }
    )
    const outcome = await engine.dispatch("UserPromptSubmit", { prompt: "x" })
    const context = outcome.additionalContext[0]!
    expect(context.startsWith("a".repeat(10_000) + "\n[truncated: 25000 characters in all; the full text is in ")).toBe(true)
    const file = /the full text is in (.+)\]$/.exec(context)![1]!
    expect(file.startsWith(dir)).toBe(true)
    expect(readFileSync(file, "utf8")).toBe("a".repeat(25_000))
  })
})

describe("policy and semantics edge cases", () => {
  it("allowedHttpHookUrls: a wildcard never crosses from the host into the path", async () => {
    const { engine } = await engineWith(
      {
        allowedHttpHookUrls: ["https://*.corp.example/*"],
        hooks: { Stop: [{ hooks: [{ type: "http", url: "https://evil.test/x.corp.example/y" }] }] }
      },
      { fetch: async () => ({ status: 200, text: async () => `{"decision":"block","reason":"fetched"}` }) }
    )
    const outcome = await engine.dispatch("Stop", {})
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]!.stderr).toContain("is not allowed by allowedHttpHookUrls")
    const { engine: ok } = await engineWith(
      {
        allowedHttpHookUrls: ["https://*.corp.example/*"],
        hooks: { Stop: [{ hooks: [{ type: "http", url: "https://HOOKS.corp.example/v1/stop" }] }] }
      },
      { fetch: async () => ({ status: 200, text: async () => `{"decision":"block","reason":"fetched"}` }) }
    )
    expect(await ok.dispatch("Stop", {})).toMatchObject({ blocked: true, reason: "fetched" })
  })

  it("allowedCommands also binds async hooks, and a path must be listed as written", async () => {
    const dir = tempDir()
    const marker = join(dir, "ran")
    const { engine } = await engineWith({
      allowedCommands: ["printf"],
      hooks: {
        Stop: [
          {
            hooks: [
              cmd(`touch ${JSON.stringify(marker)}`, { async: true }),
              cmd("/usr/bin/printf", { args: ["x"] }),
              cmd("printf", { args: ["ok"] })
            ]
          }
        ]
      }
    })
    const outcome = await engine.dispatch("Stop", {})
    await engine.awaitAsync()
    expect(existsSync(marker)).toBe(false)
    expect((await engine.takeAsyncResults())[0]!.hook.stderr).toMatch(/shell-form hooks are refused while allowedCommands is set/)
    expect(outcome.hooks.map((h) => [h.status, h.stdout])).toEqual([
      ["non-blocking-error", ""],
      ["success", "ok"]
    ])
    expect(outcome.hooks[0]!.stderr).toBe(`command "/usr/bin/printf" is not in allowedCommands (printf)`)
  })

  it("a plugin cannot set engine-wide policy", async () => {
    const dir = tempDir()
    const plugin = join(dir, "p")
    mkdirSync(join(plugin, "hooks"), { recursive: true })
    writeFileSync(join(plugin, "hooks", "hooks.json"), JSON.stringify({ disableAllHooks: true, allowedCommands: ["sh"], hooks: {} }))
    const warnings: Array<string> = []
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [cmd("echo user")] }] } },
      { dir, plugins: [plugin], onWarning: (w) => warnings.push(w) }
    )
    expect((await engine.dispatch("Stop", {})).hooks.map((h) => h.stdout)).toEqual(["user\n"])
    expect(warnings.join("\n")).toContain("a plugin cannot set disableAllHooks, allowedCommands; ignored")
  })

  it("the Stop guard, when it lets the agent stop, withdraws every block reason from toModel", async () => {
    const { engine } = await engineWith(
      { hooks: { Stop: [{ hooks: [cmd("echo one >&2; exit 2"), cmd("echo two >&2; exit 2")] }] } },
      { stopBlockCap: 1 }
    )
    expect((await engine.dispatch("Stop", {})).toModel).toEqual(["one", "two"])
    const released = await engine.dispatch("Stop", {})
    expect(released).toMatchObject({ blocked: false, toModel: [] })
  })

  it("a declared event that extends PreToolUse gets its rules: if filters, nonZeroBlocks binds only processes", async () => {
    const dir = tempDir()
    writeFileSync(join(dir, "throws.mjs"), `export default () => { throw new Error("bug") }`)
    const { engine } = await engineWith(
      {
        hooks: {
          tool_start: [
            { hooks: [cmd("echo 'no pushes' >&2; exit 1", { if: "Bash(git push:*)" })] },
            { hooks: [{ type: "module", module: "./throws.mjs" }] }
          ]
        }
      },
      { dir, events: [{ name: "tool_start", extends: "PreToolUse", nonZeroBlocks: true }] }
    )
    const status = await engine.dispatch("tool_start", tool("git status"))
    expect(status).toMatchObject({ blocked: false })
    expect(status.hooks.map((h) => h.status)).toEqual(["non-blocking-error"]) // the throwing module, fail-open
    expect(await engine.dispatch("tool_start", tool("git push"))).toMatchObject({ blocked: true, reason: "no pushes" })
  })

  it("prompt hooks are refused on events that cannot take them", async () => {
    const warnings: Array<string> = []
    const { engine } = await engineWith(
      { hooks: { SessionStart: [{ hooks: [{ type: "prompt", prompt: "x" }] }] } },
      { onWarning: (w) => warnings.push(w) }
    )
    expect((await engine.dispatch("SessionStart", { source: "startup" })).hooks).toMatchObject([
      { command: "prompt: x", status: "non-blocking-error", exitCode: null }
    ])
    expect(warnings.join("\n")).toMatch(/prompt hooks cannot run on SessionStart/)
  })

  it("ConfigChange cannot block a change to policy settings", async () => {
    const { engine } = await engineWith({ hooks: { ConfigChange: [{ hooks: [cmd("exit 2")] }] } })
    expect((await engine.dispatch("ConfigChange", { source: "project_settings" })).blocked).toBe(true)
    expect((await engine.dispatch("ConfigChange", { source: "policy_settings" })).blocked).toBe(false)
  })

  it("SessionEnd hooks share a 1.5 s budget unless a settings timeout raises it", async () => {
    const { engine } = await engineWith({ hooks: { SessionEnd: [{ hooks: [cmd("sleep 5")] }] } })
    const started = Date.now()
    const outcome = await engine.dispatch("SessionEnd", { reason: "other" })
    expect(outcome.hooks[0]).toMatchObject({ timedOut: true, status: "cancelled" })
    expect(Date.now() - started).toBeLessThan(4500)
    expect(outcome.toUser.join("\n")).toMatch(/SessionEnd:other hook error: \[sleep 5\]: timed out after 1.5 s/)
  })

  it("terminalSequence: a valid OSC sequence reaches the host, anything else is dropped with a note", async () => {
    const { engine } = await engineWith({
      hooks: {
        Notification: [
          {
            hooks: [cmd(`printf '{"terminalSequence":"\\u001b]0;build done\\u0007"}'`), cmd(`printf '{"terminalSequence":"\\u001b[2J"}'`)]
          }
        ]
      }
    })
    const outcome = await engine.dispatch("Notification", { message: "m", notification_type: "idle_prompt" })
    expect(outcome.terminalSequences).toEqual(["\u001b]0;build done\u0007"])
    expect(outcome.warnings.join("\n")).toContain("terminalSequence ignored")
  })

  it("DirectoryAdded: a systemMessage goes to the model", async () => {
    const { engine } = await engineWith({
      hooks: { DirectoryAdded: [{ hooks: [cmd(`echo '{"systemMessage":"docs/ holds the API reference"}'`)] }] }
    })
    const outcome = await engine.dispatch("DirectoryAdded", { directory: "/repo/docs", source: "slash_command" })
    expect(outcome).toMatchObject({ toModel: ["docs/ holds the API reference"], toUser: [] })
  })
})

describe("project hooks need approval where trust is required (workspace trust)", () => {
  const projectWith = (hooks: object) => {
    const dir = tempDir()
    mkdirSync(join(dir, ".agent-hooks"))
    writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks }))
    return dir
  }
  const open = async (dir: string, home: string, extra: NodeEngineOptions = {}) => {
    const warnings: Array<string> = []
    const engine = await createHookEngine({
      projectDir: dir,
      env: { ...process.env, AGENT_HOOKS_HOME: home },
      onWarning: (w) => warnings.push(w),
      ...extra
    })
    cleanups.push(() => engine.close())
    return { engine, warnings }
  }

  it("an unapproved project file is held back; approved, it runs; changed, it is held back again", async () => {
    const dir = projectWith({ Stop: [{ hooks: [cmd("echo project hook")] }] })
    const home = tempDir()
    const first = await open(dir, home, { requireTrust: true })
    expect((await first.engine.dispatch("Stop", {})).hooks).toEqual([])
    expect(first.engine.settings.files.find((f) => f.scope === "project")).toMatchObject({ heldBack: true })
    expect(first.warnings.join("\n")).toContain(`held back: its hooks are not approved`)
    expect(first.warnings.join("\n")).toContain(`agent-hooks trust --project-dir ${dir}`)

    await Effect.runPromise(
      Trust.approve(join(home, "trusted-settings.json"), [join(dir, ".agent-hooks", "settings.json")]).pipe(
        Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))
      )
    )
    const approved = await open(dir, home, { requireTrust: true })
    expect((await approved.engine.dispatch("Stop", {})).hooks.map((h) => h.stdout)).toEqual(["project hook\n"])

    writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [cmd("echo changed")] }] } }))
    const changed = await open(dir, home, { requireTrust: true })
    expect((await changed.engine.dispatch("Stop", {})).hooks).toEqual([])
  })

  it("managed requireProjectTrust turns it on, and user files are never held back", async () => {
    const dir = projectWith({ Stop: [{ hooks: [cmd("echo project")] }] })
    const home = tempDir()
    writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [cmd("echo user")] }] } }))
    mkdirSync(join(dir, "policy"))
    writeFileSync(join(dir, "policy", "managed-settings.json"), JSON.stringify({ requireProjectTrust: true }))
    const { engine } = await open(dir, home, { managedDir: join(dir, "policy") })
    expect((await engine.dispatch("Stop", {})).hooks.map((h) => h.stdout)).toEqual(["user\n"])
    const { engine: off } = await open(dir, home)
    expect((await off.dispatch("Stop", {})).hooks.map((h) => h.stdout)).toEqual(["user\n", "project\n"])
  })
})
