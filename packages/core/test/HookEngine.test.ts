import type { ScriptedRun } from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bash, cmd, group, harness, permission, settings, withEngine } from "./harness.ts"
import type { Harness } from "./harness.ts"

/** A turn of the host's real event loop (past its poll for I/O), as the runner takes one at a hook's deadline. */
const hostTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(() => setTimeout(resolve, 5))))

// The engine on the scripted spawner and an in-memory file system (./harness.ts): no real
// process, the TestClock for timeouts and the kill ladder.

describe("HookEngine on the scripted spawner", () => {
  describe("precedence and aggregation", () => {
    it.effect("PreToolUse: deny beats defer, ask and allow whatever the order; the deny's reason goes to the model", () => {
      const h = harness(
        {
          "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("allow"), cmd("ask"), cmd("deny"), cmd("defer"))] })
        },
        (command) => permission(command, `${command} says so`)
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const outcome = yield* engine.dispatch("PreToolUse", bash("rm -rf /"))
          expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "deny says so", toModel: ["deny says so"] })
          expect(outcome.hooks.map((hook) => hook.decision)).toEqual(["allow", "ask", "deny", "defer"])
        })
      )
    })

    it.effect("ask beats allow, and its reason goes to the user; nothing blocks", () => {
      const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("allow"), cmd("ask"))] }) }, (command) =>
        permission(command, `${command}!`)
      )
      return withEngine(h, (engine) =>
        Effect.map(engine.dispatch("PreToolUse", bash("ls")), (outcome) => {
          expect(outcome).toMatchObject({ blocked: false, decision: "ask", reason: "ask!", toUser: ["ask!"], toModel: [] })
        })
      )
    })

    it.effect("exit 2 blocks with stderr as the reason; additionalContext and updatedInput merge in config order across files", () => {
      const h = harness(
        {
          "/s/user.json": settings({ UserPromptSubmit: [group(undefined, cmd("ctx-a"))], PreToolUse: [group("Bash", cmd("rewrite-1"))] }),
          "/s/project.json": settings({ UserPromptSubmit: [group(undefined, cmd("ctx-b"))], PreToolUse: [group("Bash", cmd("rewrite-2"))] })
        },
        (command) =>
          command.startsWith("ctx")
            ? { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: command } }) }
            : {
                stdout: JSON.stringify({
                  hookSpecificOutput: {
                    hookEventName: "PreToolUse",
                    updatedInput: command === "rewrite-1" ? { command: "ls -1", timeout: 5 } : { command: "ls -2" }
                  }
                })
              }
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const prompt = yield* engine.dispatch("UserPromptSubmit", { prompt: "hi" })
          expect(prompt.additionalContext).toEqual(["ctx-a", "ctx-b"])
          const tool = yield* engine.dispatch("PreToolUse", bash("ls"))
          expect(tool.updatedInput).toEqual({ command: "ls -2", timeout: 5 })
        })
      )
    })

    it.effect("exit 2 on UserPromptSubmit blocks with stderr; on an event that cannot block it is a notice", () => {
      const h = harness(
        {
          "/s/a.json": settings({ UserPromptSubmit: [group(undefined, cmd("no"))], Notification: [group(undefined, cmd("no"))] })
        },
        () => ({ exitCode: 2, stderr: "not now" })
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect(yield* engine.dispatch("UserPromptSubmit", { prompt: "x" })).toMatchObject({
            blocked: true,
            decision: "block",
            reason: "not now"
          })
          const notification = yield* engine.dispatch("Notification", { message: "m" })
          expect(notification.blocked).toBe(false)
          expect(notification.hooks[0]!.status).toBe("blocking-error")
        })
      )
    })

    it.effect("an identical handler in two files runs once; with dedupe off it runs twice", () => {
      const files = {
        "/s/a.json": settings({ Stop: [group(undefined, cmd("same"))] }),
        "/s/b.json": settings({ Stop: [group(undefined, cmd("same"))] })
      }
      const once = harness(files)
      const twice = harness({ ...files, "/s/c.json": { dedupe: false } })
      return Effect.gen(function* () {
        expect((yield* withEngine(once, (engine) => engine.dispatch("Stop", {}))).hooks).toHaveLength(1)
        expect((yield* withEngine(twice, (engine) => engine.dispatch("Stop", {}))).hooks).toHaveLength(2)
      })
    })
  })

  describe("scheduling", () => {
    it.effect("hooks run concurrently by default and one after another with sequential", () => {
      const files = { "/s/a.json": settings({ Stop: [group(undefined, cmd("first"), cmd("second"))] }) }
      const script = (): ScriptedRun => ({ delay: "1 second" })
      const startedAfterOneTick = (h: Harness) =>
        withEngine(h, (engine) =>
          Effect.gen(function* () {
            const fiber = yield* Effect.forkChild(engine.dispatch("Stop", {}))
            yield* TestClock.adjust("10 millis")
            const started = h.spawner.requests.length
            yield* TestClock.adjust("5 seconds")
            const outcome = yield* Fiber.join(fiber)
            return { started, order: outcome.hooks.map((hook) => hook.command) }
          })
        )
      return Effect.gen(function* () {
        expect(yield* startedAfterOneTick(harness(files, script))).toEqual({ started: 2, order: ["first", "second"] })
        expect(yield* startedAfterOneTick(harness(files, script, { sequential: true }))).toEqual({ started: 1, order: ["first", "second"] })
      })
    })

    it.effect("a once hook runs on the first dispatch only", () => {
      const h = harness({ "/s/a.json": settings({ SessionStart: [group(undefined, cmd("setup", { once: true }), cmd("every"))] }) })
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect((yield* engine.dispatch("SessionStart", { source: "startup" })).hooks.map((hook) => hook.command)).toEqual([
            "setup",
            "every"
          ])
          expect((yield* engine.dispatch("SessionStart", { source: "startup" })).hooks.map((hook) => hook.command)).toEqual(["every"])
        })
      )
    })

    it.effect("an async hook does not hold the dispatch; its result and context arrive later", () => {
      const h = harness(
        { "/s/a.json": settings({ PostToolUse: [group("Bash", cmd("slow", { async: true }), cmd("fast"))] }) },
        (command) =>
          command === "slow"
            ? {
                delay: "30 seconds",
                stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: 2 warnings" } })
              }
            : {}
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const outcome = yield* engine.dispatch("PostToolUse", { ...bash("ls"), tool_response: {} })
          expect(outcome.asyncHooks).toEqual(["slow"])
          expect(outcome.hooks.map((hook) => hook.command)).toEqual(["fast"])
          expect(yield* engine.takeAsyncResults).toEqual([])
          yield* TestClock.adjust("30 seconds")
          yield* engine.awaitAsync
          const [result] = yield* engine.takeAsyncResults
          expect(result).toMatchObject({
            event: "PostToolUse",
            toModel: ["lint: 2 warnings"],
            rewake: false,
            hook: { command: "slow", status: "success" }
          })
        })
      )
    })
  })

  describe("timeouts and the kill ladder (TestClock)", () => {
    it.effect("a hook past its timeout gets SIGTERM, then SIGKILL after the grace; it is cancelled and decides nothing", () => {
      const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("stuck", { timeout: 2 }))] }) }, () => ({
        delay: "1 hour",
        ignoreTerm: true,
        ...permission("deny", "never seen")
      }))
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const fiber = yield* Effect.forkChild(engine.dispatch("PreToolUse", bash("ls")))
          yield* TestClock.adjust("1999 millis")
          expect(h.spawner.kills).toEqual([])
          yield* TestClock.adjust("1 millis")
          // at its deadline the runner looks once more for an exit the host's loop had not read yet (a real turn)
          yield* hostTurn
          expect(h.spawner.kills.map((kill) => kill.signal)).toEqual(["SIGTERM"])
          yield* TestClock.adjust("1 second")
          expect(h.spawner.kills.map((kill) => kill.signal)).toEqual(["SIGTERM", "SIGKILL"])
          yield* TestClock.adjust("1 second")
          const outcome = yield* Fiber.join(fiber)
          expect(outcome).toMatchObject({ blocked: false, decision: null })
          expect(outcome.hooks[0]).toMatchObject({ status: "cancelled", timedOut: true })
          expect(outcome.toUser[0]).toContain("timed out after 2 s")
        })
      )
    })

    it.effect("onFailure block: a failing PreToolUse hook denies; on Stop it is ignored and says so", () => {
      const h = harness(
        {
          "/s/a.json": settings({
            PreToolUse: [group("Bash", cmd("broken", { onFailure: "block" }))],
            Stop: [group(undefined, cmd("broken", { onFailure: "block" }))]
          })
        },
        () => ({ exitCode: 1, stderr: "crash" })
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const tool = yield* engine.dispatch("PreToolUse", bash("ls"))
          expect(tool).toMatchObject({ blocked: true, decision: "deny" })
          expect(tool.reason).toContain(`blocking because onFailure is "block"`)
          const stop = yield* engine.dispatch("Stop", {})
          expect(stop.blocked).toBe(false)
          expect(stop.hooks[0]!.messages).toContain(`not blocking (onFailure: "block" is ignored on Stop)`)
        })
      )
    })
  })

  describe("the Stop guard", () => {
    it.effect("stop_hook_active follows the streak; after the cap the agent may stop, and the streak starts again", () => {
      const inputs: Array<unknown> = []
      const h = harness(
        { "/s/a.json": settings({ Stop: [group(undefined, cmd("keep-going"))] }) },
        (_, request) => {
          inputs.push(JSON.parse(request.stdin).stop_hook_active)
          return { exitCode: 2, stderr: "tests fail" }
        },
        { stopBlockCap: 2 }
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const outcomes = []
          for (let i = 0; i < 4; i++) outcomes.push(yield* engine.dispatch("Stop", { session_id: "s1" }))
          expect(outcomes.map((outcome) => outcome.blocked)).toEqual([true, true, false, true])
          expect(inputs).toEqual([false, true, true, false])
          expect(outcomes[2]!.toModel).toEqual([])
          expect(outcomes[2]!.warnings.at(-1)).toContain("Stop hooks blocked 2 times in a row; the agent may stop now")
        })
      )
    })

    it.effect(
      "a released block is made not blocking in one aggregation: no block reason reaches the model, however many hooks blocked",
      () => {
        // two hooks exit 2 without stderr: each block's reason is the engine's own fallback text
        const h = harness({ "/s/a.json": settings({ Stop: [group(undefined, cmd("one"), cmd("two"))] }) }, () => ({ exitCode: 2 }), {
          stopBlockCap: 1
        })
        return withEngine(h, (engine) =>
          Effect.gen(function* () {
            const first = yield* engine.dispatch("Stop", { session_id: "s" })
            expect(first.toModel).toEqual([
              `blocked by hook "one" (exit code 2, no stderr)`,
              `blocked by hook "two" (exit code 2, no stderr)`
            ])
            const released = yield* engine.dispatch("Stop", { session_id: "s" })
            expect(released).toMatchObject({ blocked: false, decision: null, reason: null, toModel: [] })
            expect(released.toUser.at(-1)).toContain("Stop hooks blocked 1 times in a row; the agent may stop now")
            expect(released.warnings.at(-1)).toBe(released.toUser.at(-1))
          })
        )
      }
    )

    it.effect("streaks are per session", () => {
      const h = harness({ "/s/a.json": settings({ Stop: [group(undefined, cmd("no"))] }) }, () => ({ exitCode: 2 }), { stopBlockCap: 1 })
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect((yield* engine.dispatch("Stop", { session_id: "a" })).blocked).toBe(true)
          expect((yield* engine.dispatch("Stop", { session_id: "b" })).blocked).toBe(true)
          expect((yield* engine.dispatch("Stop", { session_id: "a" })).blocked).toBe(false)
        })
      )
    })
  })

  describe("classification of every handler type", () => {
    it.effect("http: a 2xx JSON body is the hook's output; a URL outside the allowlist never gets a request", () => {
      const posted: Array<string> = []
      const h = harness(
        {
          "/s/a.json": settings(
            {
              PreToolUse: [
                group("Bash", { type: "http", url: "https://hooks.example/deny" }, { type: "http", url: "https://evil.example/x" })
              ]
            },
            { allowedHttpHookUrls: ["https://hooks.example/*"] }
          )
        },
        undefined,
        {
          fetch: async (url) => {
            posted.push(url)
            return { status: 200, text: async () => permission("deny", "http says no").stdout }
          }
        }
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const outcome = yield* engine.dispatch("PreToolUse", bash("ls"))
          expect(outcome).toMatchObject({ blocked: true, reason: "http says no" })
          expect(posted).toEqual(["https://hooks.example/deny"])
          expect(outcome.hooks[1]).toMatchObject({
            status: "non-blocking-error",
            stderr: "URL https://evil.example/x is not allowed by allowedHttpHookUrls"
          })
        })
      )
    })

    it.effect(
      "prompt: ok:false on PreToolUse denies and stops; agent: denies and continues; ok:true allows; the answer is the stdout",
      () => {
        const answers: Record<string, string> = { risky: `Sure. {"ok": false, "reason": "too risky"}`, fine: `{"ok": true}` }
        const h = harness(
          {
            "/s/a.json": settings({
              PreToolUse: [group("Bash", { type: "prompt", prompt: "risky" })],
              PostToolUse: [group("Bash", { type: "agent", prompt: "risky" }, { type: "prompt", prompt: "fine" })]
            })
          },
          undefined,
          { model: async (request) => answers[request.prompt.split("\n")[0]!]! }
        )
        return withEngine(h, (engine) =>
          Effect.gen(function* () {
            const pre = yield* engine.dispatch("PreToolUse", bash("ls"))
            expect(pre).toMatchObject({ blocked: true, decision: "deny", reason: "too risky", continue: false, stopReason: "too risky" })
            expect(pre.hooks[0]!.stdout).toBe(answers["risky"])
            const post = yield* engine.dispatch("PostToolUse", { ...bash("ls"), tool_response: {} })
            expect(post).toMatchObject({ blocked: true, decision: "block", reason: "too risky", continue: true })
            expect(post.hooks.map((hook) => hook.decision)).toEqual(["block", null])
          })
        )
      }
    )

    it.effect("prompt on Stop: impossible lets the agent stop; an answer without ok is a non-blocking error", () => {
      let answer = `{"ok": false, "reason": "never", "impossible": true}`
      const h = harness({ "/s/a.json": settings({ Stop: [group(undefined, { type: "prompt", prompt: "done?" })] }) }, undefined, {
        model: async () => answer
      })
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect((yield* engine.dispatch("Stop", {})).blocked).toBe(false)
          answer = "no idea"
          const outcome = yield* engine.dispatch("Stop", {})
          expect(outcome.hooks[0]).toMatchObject({
            status: "non-blocking-error",
            stderr: `the model did not answer {"ok": boolean}: no idea`
          })
        })
      )
    })

    it.effect("mcp_tool: the tool's text is the output; isError is a non-blocking error", () => {
      const h = harness(
        {
          "/s/a.json": settings({
            UserPromptSubmit: [group(undefined, { type: "mcp_tool", server: "memory", tool: "recall", input: { q: "${prompt}" } })]
          })
        },
        undefined,
        {
          mcp: async (request) =>
            request.input["q"] === "fail"
              ? { content: [{ type: "text", text: "server down" }], isError: true }
              : {
                  content: [{ type: "text", text: JSON.stringify({ decision: "block", reason: `recalled ${String(request.input["q"])}` }) }]
                }
        }
      )
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect(yield* engine.dispatch("UserPromptSubmit", { prompt: "secrets" })).toMatchObject({
            blocked: true,
            reason: "recalled secrets"
          })
          const failed = yield* engine.dispatch("UserPromptSubmit", { prompt: "fail" })
          expect(failed.blocked).toBe(false)
          expect(failed.hooks[0]).toMatchObject({ status: "non-blocking-error", stderr: "server down" })
        })
      )
    })

    it.effect(
      "callback: the returned object is the output; a thrown error is exit 1; an Effect callback past its timeout is cancelled",
      () => {
        const h = harness({}, undefined, {
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  (input) => ({
                    hookSpecificOutput: {
                      hookEventName: "PreToolUse",
                      permissionDecision: "deny",
                      permissionDecisionReason: `no ${String((input["tool_input"] as { command: string }).command)}`
                    }
                  })
                ]
              }
            ],
            Stop: [
              {
                hooks: [
                  () => {
                    throw new Error("boom")
                  }
                ]
              }
            ],
            SessionStart: [{ timeout: 5, hooks: [() => Effect.never] }]
          }
        })
        return withEngine(h, (engine) =>
          Effect.gen(function* () {
            const pre = yield* engine.dispatch("PreToolUse", bash("rm"))
            expect(pre).toMatchObject({ blocked: true, reason: "no rm" })
            expect(pre.hooks[0]!.source).toBeNull()
            expect((yield* engine.dispatch("Stop", {})).hooks[0]).toMatchObject({
              exitCode: 1,
              stderr: "boom",
              status: "non-blocking-error"
            })
            const fiber = yield* Effect.forkChild(engine.dispatch("SessionStart", { source: "startup" }))
            yield* TestClock.adjust("5 seconds")
            expect((yield* Fiber.join(fiber)).hooks[0]).toMatchObject({ status: "cancelled", timedOut: true })
          })
        )
      }
    )

    it.effect("module: the export's return value is the output", () => {
      const dir = mkdtempSync(join(tmpdir(), "agent-hooks-core-"))
      writeFileSync(
        join(dir, "guard.mjs"),
        `export const check = (input) => ({ decision: "block", reason: "module saw " + input.prompt })\n`
      )
      const h = harness({
        [join(dir, "settings.json")]: settings({
          UserPromptSubmit: [group(undefined, { type: "module", module: "./guard.mjs", export: "check" })]
        })
      })
      return withEngine(h, (engine) =>
        Effect.map(engine.dispatch("UserPromptSubmit", { prompt: "hello" }), (outcome) => {
          expect(outcome).toMatchObject({ blocked: true, reason: "module saw hello" })
          expect(outcome.hooks[0]!.command).toBe("module ./guard.mjs#check")
        })
      )
    })

    it.effect("allowedCommands refuses shell-form hooks without starting them", () => {
      const h = harness({
        "/s/a.json": settings(
          { Stop: [group(undefined, cmd("rm -rf /"), { type: "command", command: "true", args: [] })] },
          { allowedCommands: ["true"] }
        )
      })
      return withEngine(h, (engine) =>
        Effect.map(engine.dispatch("Stop", {}), (outcome) => {
          expect(h.spawner.requests.map((request) => request.file)).toEqual(["true"])
          expect(outcome.hooks[0]).toMatchObject({ status: "non-blocking-error", exitCode: null })
          expect(outcome.hooks[0]!.stderr).toContain("shell-form hooks are refused while allowedCommands is set")
        })
      )
    })

    it.effect("a ConfigChange from policy settings cannot be blocked", () => {
      const h = harness({ "/s/a.json": settings({ ConfigChange: [group(undefined, cmd("no"))] }) }, () => ({
        exitCode: 2,
        stderr: "frozen"
      }))
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect((yield* engine.dispatch("ConfigChange", { source: "user_settings" })).blocked).toBe(true)
          const policy = yield* engine.dispatch("ConfigChange", { source: "policy_settings" })
          expect(policy.blocked).toBe(false)
          expect(policy.hooks[0]!.messages).toContain("a change to policy settings cannot be blocked")
        })
      )
    })

    it.effect("a message over 10 000 characters is cut; the overflow sink writes the whole text to the file it names", () => {
      const long = "x".repeat(12_000)
      const h = harness(
        { "/s/a.json": settings({ UserPromptSubmit: [group(undefined, cmd("long"))] }) },
        () => ({
          stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: long } })
        }),
        { env: { TMPDIR: "/tmp/t" } }
      )
      return withEngine(h, (engine) =>
        Effect.map(engine.dispatch("UserPromptSubmit", { prompt: "p", session_id: "s/1" }), (outcome) => {
          const file = "/tmp/t/agent-hooks/s_1/hook-output-1.txt"
          expect(outcome.additionalContext[0]).toBe(
            `${"x".repeat(10_000)}\n[truncated: 12000 characters in all; the full text is in ${file}]`
          )
          expect(h.written.get(file)).toBe(long)
        })
      )
    })
  })

  describe("no-match dispatch", () => {
    it.effect("unmatched answers synchronously when no matcher fits, without spawning; dispatch gives the same outcome", () => {
      const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Write|Edit", cmd("guard")), group("^mcp__", cmd("mcp"))] }) })
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          const quick = engine.unmatched("PreToolUse", bash("ls"))
          expect(quick).toMatchObject({ event: "PreToolUse", blocked: false, hooks: [] })
          expect(yield* engine.dispatch("PreToolUse", bash("ls"))).toEqual(quick)
          expect(engine.unmatched("PreToolUse", { tool_name: "Edit" })).toBeUndefined()
          expect(engine.unmatched("PreToolUse", { tool_name: "mcp__x__y" })).toBeUndefined()
          expect(engine.unmatched("PreToolUse", "not an object")).toBeUndefined()
          expect(h.spawner.requests).toEqual([])
        })
      )
    })

    it.effect("an unknown event runs nothing and says so; a payload that is not an object is a PayloadError", () => {
      const h = harness({})
      return withEngine(h, (engine) =>
        Effect.gen(function* () {
          expect(engine.unmatched("pre_tool_use", {})!.warnings).toEqual([
            `unknown event "pre_tool_use" (did you mean "PreToolUse"?); no hooks run for it`
          ])
          const error = yield* Effect.flip(engine.dispatch("Stop", [1]))
          expect(error).toMatchObject({ _tag: "PayloadError", message: "invalid event payload: expected a JSON object, got an array" })
        })
      )
    })
  })
})
