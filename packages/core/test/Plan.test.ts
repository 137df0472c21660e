import * as HookEngine from "@agent-hooks/core/HookEngine"
import * as Plan from "@agent-hooks/core/Plan"
import type { ProcessRequest } from "@agent-hooks/core/ProcessSpawner"
import * as ScriptedProcessSpawner from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import type { ScriptedRun } from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Path } from "effect"
import * as fc from "fast-check"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
import { memoryFs } from "./harness.ts"

const options = (files: Record<string, unknown>): HookEngine.EngineOptions => ({
  settings: Object.keys(files),
  projectDir: "/project",
  env: { HOME: "/home/user" },
  managedDir: "/managed"
})

const compiled = (files: Record<string, unknown>) =>
  Effect.runSync(Plan.make(options(files)).pipe(Effect.provide(Layer.mergeAll(memoryFs(files), Path.layer))))

const sample = {
  "/s/user.json": {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 10, if: "Bash(git push:*)" }] },
        { matcher: "Write|Edit", hooks: [{ type: "http", url: "https://hooks.example/check" }] }
      ],
      Stop: [
        {
          hooks: [
            { type: "prompt", prompt: "done?" },
            { type: "command", command: "./bad.sh", if: "Bash(" }
          ]
        }
      ],
      SessionStart: [{ hooks: [{ type: "prompt", prompt: "not here" }] }]
    }
  },
  "/s/project.json": {
    allowedCommands: ["node"],
    hooks: { PreToolUse: [{ matcher: "^mcp__", hooks: [{ type: "command", command: "node", args: ["check.js"], async: true }] }] }
  }
}

describe("Plan.compile", () => {
  it("is deterministic: the same snapshot gives the same plan, and it survives a JSON round trip", () => {
    const a = Plan.toJSON(compiled(sample))
    const b = Plan.toJSON(compiled(sample))
    expect(b).toEqual(a)
    expect(JSON.parse(JSON.stringify(a))).toEqual(a)
  })

  it("settles each hook's rule, timeout, refusal, async flag; compile warnings carry file and JSON path", () => {
    const plan = Plan.toJSON(compiled(sample))
    expect(plan.hooks.map((hook) => [hook.event, hook.command, hook.effectiveTimeout, hook.if, hook.async, hook.refusal])).toEqual([
      [
        "PreToolUse",
        "./guard.sh",
        10,
        "Bash(git push:*)",
        false,
        `shell-form hooks are refused while allowedCommands is set (a shell can run anything); use "args" (exec form)`
      ],
      ["PreToolUse", "POST https://hooks.example/check", 600, null, false, null],
      ["PreToolUse", "node check.js", 600, null, true, null],
      ["Stop", "prompt: done?", 30, null, false, null],
      // hooks that can never run stay in the plan, refused, so that their event hears of them
      ["Stop", "./bad.sh", 600, "Bash(", false, expect.stringContaining("the handler never runs")],
      [
        "SessionStart",
        "prompt: not here",
        30,
        null,
        false,
        "prompt hooks cannot run on SessionStart (use command, http or mcp_tool); the hook never runs"
      ]
    ])
    expect(plan.warnings).toEqual([
      // allowedCommands refuses the shell-form guard (and the in-memory file system has no guard.sh): an error
      {
        file: "/s/user.json",
        path: "hooks.PreToolUse[0].hooks[0].command",
        severity: "error",
        message: `refused by policy: shell-form hooks are refused while allowedCommands is set (a shell can run anything); use "args" (exec form); the hook never runs`
      },
      // the script node is given is read from the project root, where there is none
      {
        file: "/s/project.json",
        path: "hooks.PreToolUse[0].hooks[0].command",
        severity: "error",
        message: "/project/check.js does not exist: the hook would fail and guard nothing"
      },
      {
        file: "/s/user.json",
        path: "hooks.Stop[0].hooks[1].if",
        severity: "error",
        message: expect.stringContaining("the handler never runs")
      },
      {
        file: "/s/user.json",
        path: "hooks.SessionStart[0].hooks[0]",
        severity: "error",
        message: "prompt hooks cannot run on SessionStart (use command, http or mcp_tool); the hook never runs"
      }
    ])
    expect(plan.policy.allowedCommands).toEqual(["node"])
  })

  it("matches: the index answers no-match without running anything", () => {
    const plan = compiled(sample)
    expect(Plan.matches(plan, "PreToolUse", { tool_name: "Bash" })).toBe(true)
    expect(Plan.matches(plan, "PreToolUse", { tool_name: "Edit" })).toBe(true)
    expect(Plan.matches(plan, "PreToolUse", { tool_name: "mcp__memory__recall" })).toBe(true)
    expect(Plan.matches(plan, "PreToolUse", { tool_name: "Read" })).toBe(false)
    expect(Plan.matches(plan, "PreToolUse", {})).toBe(true)
    expect(Plan.matches(plan, "PostToolUse", { tool_name: "Bash" })).toBe(false)
    expect(Plan.matches(plan, "Stop", {})).toBe(true)
  })
})

// --- generated settings and payloads -------------------------------------------------------

const EVENTS = ["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart", "Notification"] as const
const MATCHERS = [undefined, "*", "Bash", "Write|Edit", "^mcp__", "Ba.*", "Task", "Bash, Read", "("]
const COMMANDS = ["allow", "deny", "ask", "block2", "fail1", "context", "continue-false", "bad-json", "silent", "rewrite"]
const TOOLS = ["Bash", "Edit", "Write", "Read", "Agent", "Task", "mcp__memory__recall", "startup"]

/** What each command "does", from its name and the event in its input. */
const script = (request: ProcessRequest): ScriptedRun => {
  const command = request.file === "/bin/sh" ? request.args.at(-1)! : request.file
  const event = (JSON.parse(request.stdin) as { hook_event_name: string }).hook_event_name
  const name = command.replace(/ .*/, "")
  switch (name) {
    case "allow":
    case "deny":
    case "ask":
      return {
        stdout: JSON.stringify({
          hookSpecificOutput: { hookEventName: event, permissionDecision: name, permissionDecisionReason: `${name} reason` }
        })
      }
    case "block2":
      return { exitCode: 2, stderr: `blocked by ${command}` }
    case "fail1":
      return { exitCode: 1, stderr: "crashed" }
    case "context":
      return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: `context from ${command}` } }) }
    case "continue-false":
      return { stdout: JSON.stringify({ continue: false, stopReason: "halt", systemMessage: "bye" }) }
    case "bad-json":
      return { stdout: "{not json" }
    case "rewrite":
      return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: event, updatedInput: { command: command } } }) }
    default:
      return { stdout: "plain text" }
  }
}

const handler = fc.record(
  {
    type: fc.constant("command"),
    command: fc.tuple(fc.constantFrom(...COMMANDS), fc.integer({ min: 0, max: 2 })).map(([name, n]) => (n === 0 ? name : `${name} ${n}`)),
    once: fc.option(fc.boolean(), { nil: undefined }),
    onFailure: fc.option(fc.constantFrom("continue", "block"), { nil: undefined }),
    if: fc.option(fc.constantFrom("Bash(git *)", "Bash(ls)", "Edit(src/**)", "Bash("), { nil: undefined }),
    timeout: fc.option(fc.constantFrom(5, 30), { nil: undefined })
  },
  { requiredKeys: ["type", "command"] }
)

const group = fc
  .record({ matcher: fc.constantFrom(...MATCHERS), hooks: fc.array(handler, { minLength: 1, maxLength: 3 }) })
  .map((g) => (g.matcher === undefined ? { hooks: g.hooks } : g))

const document = fc.record(
  {
    hooks: fc.dictionary(fc.constantFrom(...EVENTS), fc.array(group, { maxLength: 3 }), { maxKeys: 4 }),
    sequential: fc.option(fc.boolean(), { nil: undefined }),
    dedupe: fc.option(fc.boolean(), { nil: undefined })
  },
  { requiredKeys: ["hooks"] }
)

const dispatchOf = fc.record({
  event: fc.constantFrom(...EVENTS, "Unknown"),
  tool_name: fc.constantFrom(...TOOLS),
  command: fc.constantFrom("git push", "ls", "rm -rf /"),
  session_id: fc.constantFrom("a", "b")
})

describe("the no-match index", () => {
  it("agrees with the matchers: matches is true exactly when some hook's matcher fits, for generated settings and payloads", () =>
    fc.assert(
      fc.property(fc.array(document, { minLength: 1, maxLength: 2 }), dispatchOf, (docs, { event, tool_name }) => {
        const files = Object.fromEntries(docs.map((doc, i) => [`/s/${i}.json`, doc]))
        const plan = compiled(files)
        const payload: Record<string, unknown> = { tool_name, source: tool_name }
        const planned = plan.events.get(event)
        const field = planned?.spec.matcherField
        const value = field === undefined ? undefined : (payload[field] as string | undefined)
        const expected = planned?.hooks.some((hook) => value === undefined || hook.entry.matcher.test(value)) === true
        expect(Plan.matches(plan, event, payload)).toBe(expected)
        // The second answer comes from the memo of regular-expression results.
        expect(Plan.matches(plan, event, payload)).toBe(expected)
      }),
      { numRuns: PropertyRuns.forLane(500) }
    ))

  it("a dispatch the index calls unmatched spawns nothing and equals the full dispatch's outcome", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(document, { minLength: 1, maxLength: 2 }),
        dispatchOf,
        async (docs, { event, tool_name, command, session_id }) => {
          const files = Object.fromEntries(docs.map((doc, i) => [`/s/${i}.json`, doc]))
          const spawner = ScriptedProcessSpawner.layer(script)
          const payload = { tool_name, tool_input: { command }, session_id, tool_response: {}, prompt: "p" }
          await Effect.runPromise(
            Effect.scoped(
              Effect.gen(function* () {
                const engine = yield* HookEngine.make(options(files))
                const quick = engine.unmatched(event, payload)
                const full = yield* engine.dispatch(event, payload)
                if (quick !== undefined) {
                  expect(full).toEqual(quick)
                  expect(spawner.requests).toEqual([])
                }
              }).pipe(Effect.provide(Layer.mergeAll(spawner, memoryFs(files), Path.layer)))
            )
          )
        }
      ),
      { numRuns: PropertyRuns.forLane(200) }
    ))
})
