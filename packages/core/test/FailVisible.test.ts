import * as HookEvent from "@agent-hooks/core/HookEvent"
import * as HookInput from "@agent-hooks/core/HookInput"
import * as Plan from "@agent-hooks/core/Plan"
import * as ProcessSpawner from "@agent-hooks/core/ProcessSpawner"
import { SpawnError } from "@agent-hooks/core/ProcessSpawner"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { bash, cmd, group, harness, permission, settings, withEngine } from "./harness.ts"

// No guard fails open unseen: a settings entry that cannot be decoded, a hook that cannot run or
// whose answer was dropped, and an event nobody knows are always reported; strict mode and
// failClosed turn them into failures.

const loadExit = (files: Record<string, unknown>, options: Parameters<typeof harness>[2] = {}) =>
  withEngine(
    harness(files, () => ({}), options),
    (engine) => Effect.succeed(engine.settings)
  ).pipe(Effect.exit)

describe("settings that cannot be decoded", () => {
  it.effect("a string where a boolean or number belongs is an error (not truthy): the handler is skipped and counted", () =>
    Effect.gen(function* () {
      const exit = yield* loadExit({
        "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("one", { once: "false" }), cmd("two", { timeout: "10" }), cmd("three"))] })
      })
      expect(Exit.isSuccess(exit)).toBe(true)
      if (!Exit.isSuccess(exit)) return
      const loaded = exit.value
      expect(loaded.hooks["PreToolUse"]!.map((entry) => (entry.handler as { command: string }).command)).toEqual(["three"])
      expect(loaded.errors).toEqual([
        expect.stringMatching(
          /^\/s\/a\.json at hooks\.PreToolUse\[0\]\.hooks\[0\]\.once: expected boolean .*, got string "false" \(handler at .* skipped\)$/
        ),
        expect.stringMatching(
          /^\/s\/a\.json at hooks\.PreToolUse\[0\]\.hooks\[1\]\.timeout: expected number .*, got string "10" \(handler at .* skipped\)$/
        )
      ])
      // Every error is also a warning.
      for (const error of loaded.errors) expect(loaded.warnings).toContain(error)
    })
  )

  it.effect("an unknown handler type names the nearest one; a top-level flag given as a string is an error", () =>
    Effect.gen(function* () {
      const exit = yield* loadExit({
        "/s/a.json": settings({ Stop: [group(undefined, { type: "comand", command: "x" })] }, { disableAllHooks: "true" })
      })
      if (!Exit.isSuccess(exit)) return expect.unreachable()
      expect(exit.value.disableAllHooks).toBe(false)
      expect(exit.value.errors).toEqual([
        expect.stringContaining(`/s/a.json at disableAllHooks: expected a boolean (true or false, not a string), got string "true"`),
        expect.stringContaining(`/s/a.json at hooks.Stop[0].hooks[0].type: expected "command" | "http"`)
      ])
      expect(exit.value.errors[1]).toContain(`(did you mean "command"?)`)
    })
  )

  it.effect("an unknown key is a warning naming the nearest known key, and the handler still loads", () =>
    Effect.gen(function* () {
      const exit = yield* loadExit({
        "/s/a.json": settings({
          PreToolUse: [{ matcher: "Bash", description: "guard", hooks: [cmd("guard", { timout: 5, description: "x" })] }]
        })
      })
      if (!Exit.isSuccess(exit)) return expect.unreachable()
      expect(exit.value.hooks["PreToolUse"]).toHaveLength(1)
      expect(exit.value.errors).toEqual([])
      expect(exit.value.warnings).toEqual(
        expect.arrayContaining([
          `/s/a.json at hooks.PreToolUse[0].hooks[0].timout: unknown key "timout" (did you mean "timeout"?); ignored`,
          `/s/a.json at hooks.PreToolUse[0].hooks[0].description: unknown key "description"; ignored`,
          `/s/a.json at hooks.PreToolUse[0].description: unknown key "description"; ignored`
        ])
      )
    })
  )

  const broken = { "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("one", { timeout: "10" }))] }) }

  it.effect("strict mode from the engine options fails the whole load with every problem located", () =>
    Effect.gen(function* () {
      const exit = yield* loadExit(broken, { strict: true })
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("hooks.PreToolUse[0].hooks[0].timeout: expected number")
    })
  )

  it.effect("strict mode from AGENT_HOOKS_STRICT (1/true/yes/on) or from any settings file; a file's false cannot turn it off", () =>
    Effect.gen(function* () {
      expect(Exit.isFailure(yield* loadExit(broken, { env: { AGENT_HOOKS_STRICT: "yes" } }))).toBe(true)
      expect(Exit.isFailure(yield* loadExit({ ...broken, "/s/b.json": { strict: true } }))).toBe(true)
      expect(Exit.isFailure(yield* loadExit({ ...broken, "/s/b.json": { strict: false } }, { strict: true }))).toBe(true)
      expect(Exit.isSuccess(yield* loadExit({ ...broken, "/s/b.json": { strict: false } }))).toBe(true)
      expect(Exit.isSuccess(yield* loadExit(broken, { env: { AGENT_HOOKS_STRICT: "0" } }))).toBe(true)
    })
  )
})

describe("failClosed", () => {
  const guard = { "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard"))], Stop: [group(undefined, cmd("guard"))] }) }

  it.effect("off (Claude Code's default): a guard that exits 1 is a non-blocking error and the tool runs; the warning says so", () => {
    const warnings: Array<string> = []
    const h = harness(guard, () => ({ exitCode: 1, stderr: "boom" }), { onWarning: (warning) => warnings.push(warning) })
    return withEngine(h, (engine) =>
      Effect.map(engine.dispatch("PreToolUse", bash("rm -rf /")), (outcome) => {
        expect(outcome).toMatchObject({ blocked: false, decision: null })
        expect(warnings).toEqual([`hook "guard" (/s/a.json): Failed with non-blocking status code 1: boom`])
      })
    )
  })

  it.effect("on: a guard that fails, crashes or prints unreadable JSON denies the tool call", () =>
    Effect.gen(function* () {
      const runs = [
        { exitCode: 1 },
        { exitCode: 127, stderr: "guard: not found" },
        { exitCode: null, signal: "SIGSEGV" },
        { stdout: "{ not json" }
      ]
      for (const run of runs) {
        const h = harness(guard, () => run, { failClosed: true })
        const outcome = yield* withEngine(h, (engine) => engine.dispatch("PreToolUse", bash("rm -rf /")))
        expect(outcome, JSON.stringify(run)).toMatchObject({ blocked: true, decision: "deny" })
        expect(outcome.reason).toContain("blocking because the engine fails closed")
      }
    })
  )

  it.effect("on: the failure that blocks is not called non-blocking, in the hook's messages or the warning", () => {
    const warnings: Array<string> = []
    const h = harness(guard, () => ({ exitCode: 1, stderr: "boom" }), { failClosed: true, onWarning: (warning) => warnings.push(warning) })
    return withEngine(h, (engine) =>
      Effect.map(engine.dispatch("PreToolUse", bash("rm -rf /")), (outcome) => {
        expect(outcome.blocked).toBe(true)
        const said = [...outcome.hooks.flatMap((hook) => hook.messages), ...outcome.warnings, ...warnings].join("\n")
        expect(said).not.toContain("non-blocking")
        expect(outcome.hooks[0]!.messages).toEqual(["Failed with status code 1 (blocking because the engine fails closed): boom"])
      })
    )
  })

  it.effect("on or off, each hook that failed is said once on onWarning, also when failing closed made its failure the block", () =>
    Effect.gen(function* () {
      const failing = [
        { exitCode: 1, stderr: "boom" },
        { exitCode: null, signal: "SIGKILL" },
        { stdout: "{ not json" },
        // JSON that parses but breaks the output schema: the answer is dropped, at exit 0 too
        { stdout: JSON.stringify({ continue: "yes" }) }
      ]
      for (const failClosed of [false, true]) {
        for (const run of [...failing, permission("allow", "fine")]) {
          const warnings: Array<string> = []
          const h = harness(guard, () => run, { failClosed, onWarning: (warning) => warnings.push(warning) })
          const outcome = yield* withEngine(h, (engine) => engine.dispatch("PreToolUse", bash("ls")))
          const lines = warnings.filter((warning) => warning.startsWith(`hook "guard" (/s/a.json): `))
          const what = `${JSON.stringify(run)} failClosed=${failClosed}`
          expect(lines, what).toHaveLength(failing.includes(run) ? 1 : 0)
          if (failing.includes(run)) expect(outcome.blocked, what).toBe(failClosed)
        }
      }
    })
  )

  it.effect("on, from AGENT_HOOKS_FAIL_CLOSED; a guard that answers still decides", () =>
    Effect.gen(function* () {
      const failing = harness(guard, () => ({ exitCode: 1 }), { env: { AGENT_HOOKS_FAIL_CLOSED: "on" } })
      expect(yield* withEngine(failing, (engine) => engine.dispatch("PreToolUse", bash("ls")))).toMatchObject({ blocked: true })
      const allowing = harness(guard, () => permission("allow", "fine"), { failClosed: true })
      expect(yield* withEngine(allowing, (engine) => engine.dispatch("PreToolUse", bash("ls")))).toMatchObject({
        blocked: false,
        decision: "allow"
      })
    })
  )

  it.effect("a handler's own onFailure: continue wins; Stop never blocks on failure (it would loop)", () =>
    Effect.gen(function* () {
      const own = harness(
        { "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard", { onFailure: "continue" }))] }) },
        () => ({ exitCode: 1 }),
        { failClosed: true }
      )
      expect(yield* withEngine(own, (engine) => engine.dispatch("PreToolUse", bash("ls")))).toMatchObject({ blocked: false })
      const stop = harness(guard, () => ({ exitCode: 1 }), { failClosed: true })
      const outcome = yield* withEngine(stop, (engine) => engine.dispatch("Stop", {}))
      expect(outcome.blocked).toBe(false)
      expect(outcome.hooks[0]!.messages).toContain("not blocking (failing closed is ignored on Stop)")
    })
  )
})

describe("a guard that did not judge blocks (blockUnjudged: host mode)", () => {
  // The events a failure may block: every event that can block, but the Stop-like ones (a block
  // there keeps the agent going, and a failing hook would loop it).
  const stopLike = new Set(["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"])
  const blocking = HookEvent.catalog.filter(
    (spec) => spec.blocking !== "none" && spec.blocking !== "permission-request" && !stopLike.has(spec.behavesAs)
  )
  // Events where any non-zero exit is already a failed action (a dialect's, WorktreeCreate's own rule).
  const nonZeroFails = (spec: HookEvent.HookEventSpec) => spec.nonZeroBlocks || spec.behavesAs === "WorktreeCreate"
  const notRun = [
    { exitCode: 127, stderr: "/bin/sh: 1: guard: not found" },
    { exitCode: 126, stderr: "/bin/sh: 1: ./guard: Permission denied" },
    new SpawnError({ file: "guard", cause: undefined, detail: "spawn guard ENOENT", reason: "not-found" })
  ]
  const on = (event: string, run: Parameters<typeof harness>[1], extra: Record<string, unknown> = {}) =>
    withEngine(
      harness({ "/s/a.json": settings({ [event]: [group(undefined, cmd("guard", extra))] }) }, run, { blockUnjudged: true }),
      (engine) => engine.dispatch(event, bash("rm -rf /"))
    )

  it.effect("a command that never ran (exit 127, 126, a spawn failure) blocks every event that can block, saying why", () =>
    Effect.gen(function* () {
      expect(blocking.map((spec) => spec.name)).toContain("PreToolUse")
      for (const spec of blocking) {
        for (const run of notRun) {
          const outcome = yield* on(spec.name, () => run)
          const what = `${spec.name} ${JSON.stringify(run)}`
          expect(outcome.blocked, what).toBe(true)
          if (!nonZeroFails(spec))
            expect(outcome.reason, what).toMatch(
              /hook error: \[guard\]: (its command was not found \(exit 127\)|its command could not be executed \(exit 126\)|it could not start \(.*ENOENT.*\))/
            )
          if (!nonZeroFails(spec)) expect(outcome.reason, what).toContain("a guard that never ran did not judge the call")
        }
      }
    })
  )

  it.effect("a command hook that ran and exited 1 stays a non-blocking error (Claude Code's rule), as a timeout does", () =>
    Effect.gen(function* () {
      for (const spec of blocking.filter((one) => !nonZeroFails(one))) {
        const outcome = yield* on(spec.name, () => ({ exitCode: 1, stderr: "boom" }))
        expect(outcome.blocked, spec.name).toBe(false)
        expect(outcome.hooks[0]!.status, spec.name).toBe("non-blocking-error")
      }
    })
  )

  it.effect("onFailure: continue is the opt-out; Stop-like events and async hooks never block on it; off, exit 127 does not block", () =>
    Effect.gen(function* () {
      for (const run of notRun) {
        expect((yield* on("PreToolUse", () => run, { onFailure: "continue" })).blocked).toBe(false)
        expect((yield* on("PreToolUse", () => run, { async: true })).blocked).toBe(false)
        for (const event of stopLike) expect((yield* on(event, () => run)).blocked, event).toBe(false)
        const off = yield* withEngine(
          harness({ "/s/a.json": settings({ PreToolUse: [group(undefined, cmd("guard"))] }) }, () => run),
          (engine) => engine.dispatch("PreToolUse", bash("rm -rf /"))
        )
        expect(off.blocked, JSON.stringify(run)).toBe(false)
      }
      const stop = yield* on("Stop", () => notRun[0]!)
      expect(stop.hooks[0]!.messages).toContain("not blocking (blocking on a hook that never ran is ignored on Stop)")
    })
  )

  it.effect(
    "a prompt hook with no model, an mcp_tool hook with no MCP connection, an http hook the allowlist refuses never ran: each blocks",
    () =>
      Effect.gen(function* () {
        const hooks = [
          { type: "prompt", prompt: "is this safe?" },
          { type: "mcp_tool", server: "guard", tool: "check" },
          { type: "http", url: "https://elsewhere.example.net/hook" }
        ]
        for (const hook of hooks) {
          const h = harness(
            { "/s/a.json": settings({ PreToolUse: [group(undefined, hook)] }, { allowedHttpHookUrls: ["https://policy.example.com/*"] }) },
            () => ({}),
            { blockUnjudged: true }
          )
          const outcome = yield* withEngine(h, (engine) => engine.dispatch("PreToolUse", bash("rm -rf /")))
          expect(outcome.blocked, hook.type).toBe(true)
          expect(outcome.reason, hook.type).toContain("it did not run (")
          expect(outcome.reason, hook.type).toContain("a guard that never ran did not judge the call")
        }
      })
  )

  it.effect("a hook the engine refused to start (allowedCommands) never ran: it blocks", () =>
    Effect.gen(function* () {
      const h = harness(
        { "/s/a.json": settings({ PreToolUse: [group(undefined, cmd("guard"))] }, { allowedCommands: ["jq"] }) },
        () => ({}),
        { blockUnjudged: true }
      )
      const outcome = yield* withEngine(h, (engine) => engine.dispatch("PreToolUse", bash("rm -rf /")))
      expect(outcome.blocked).toBe(true)
      expect(outcome.reason).toContain("it could not start (shell-form hooks are refused while allowedCommands is set")
    })
  )
})

describe("dispatches that could go unseen", () => {
  it.effect("an unknown event reaches onWarning with the nearest event name", () => {
    const warnings: Array<string> = []
    const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard"))] }) }, () => ({}), {
      onWarning: (w) => warnings.push(w)
    })
    return withEngine(h, (engine) =>
      Effect.map(engine.dispatch("PreToolUs", bash("ls")), (outcome) => {
        expect(outcome.blocked).toBe(false)
        expect(warnings).toEqual([`unknown event "PreToolUs" (did you mean "PreToolUse"?); no hooks run for it`])
      })
    )
  })

  it("suggests by edit distance, not only by case", () => {
    expect(HookEvent.suggest("PreToolUs")).toBe("PreToolUse")
    expect(HookEvent.suggest("pre_tool_use")).toBe("PreToolUse")
    expect(HookEvent.suggest("SesionStart")).toBe("SessionStart")
    expect(HookEvent.suggest("BeforeTol", ["BeforeTool"])).toBe("BeforeTool")
    expect(HookEvent.suggest("Completely")).toBeUndefined()
  })

  it.effect("a payload nested deeper than the limit fails with one located line, not a stack overflow", () => {
    const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard"))] }) })
    let deep: Record<string, unknown> = {}
    const payload = { tool_name: "Bash", tool_input: deep }
    for (let i = 0; i < 10_000; i++) {
      const next: Record<string, unknown> = {}
      deep["a"] = next
      deep = next
    }
    return withEngine(h, (engine) =>
      Effect.map(Effect.flip(engine.dispatch("PreToolUse", payload)), (error) => {
        expect(error.message).toBe(
          `invalid event payload: the payload is nested deeper than ${HookInput.MAX_PAYLOAD_DEPTH} levels (the limit); flatten it or send less`
        )
      })
    )
  })

  it("depthExceeds counts objects and arrays alike, iteratively", () => {
    expect(HookInput.depthExceeds({ a: [{ b: 1 }] }, 3)).toBe(false)
    expect(HookInput.depthExceeds({ a: [{ b: {} }] }, 3)).toBe(true)
    expect(HookInput.depthExceeds("text", 0)).toBe(false)
  })
})

describe("what validate knows before anything runs", () => {
  const snapshotOf = (files: Record<string, unknown>) =>
    Effect.provide(Plan.load({ settings: Object.keys(files), projectDir: "/project", env: {} }), harness(files).files)

  it.effect("a script that is missing or has no run bit is an error; PATH words, placeholders and other variables are not judged", () =>
    Effect.gen(function* () {
      const files = {
        "/s/a.json": settings({
          PreToolUse: [
            group(
              "Bash",
              cmd("$CLAUDE_PROJECT_DIR/.agent-hooks/guard.sh"),
              cmd('"${CLAUDE_PROJECT_DIR}/hooks/lint.sh" --fix'),
              cmd('"$AGENT_HOOKS_PROJECT_DIR"/hooks/quoted-dir.sh'),
              cmd("./ok.sh"),
              cmd("jq -r .tool_input"),
              cmd("$OTHER/x.sh"),
              cmd("${tool_input.command}")
            )
          ]
        })
      }
      const snapshot = yield* snapshotOf(files)
      expect([...(snapshot.scripts ?? new Map()).keys()].sort()).toEqual([
        "/project/.agent-hooks/guard.sh",
        "/project/hooks/lint.sh",
        "/project/hooks/quoted-dir.sh",
        "/project/ok.sh"
      ])
      const plan = Plan.compile({
        ...snapshot,
        scripts: new Map([
          ["/project/.agent-hooks/guard.sh", "not-executable"],
          ["/project/hooks/lint.sh", "missing"],
          ["/project/ok.sh", "ok"]
        ] as const)
      })
      expect(plan.warnings.filter((warning) => warning.severity === "error")).toEqual([
        {
          file: "/s/a.json",
          path: "hooks.PreToolUse[0].hooks[0].command",
          severity: "error",
          message:
            "/project/.agent-hooks/guard.sh is not executable: the hook would fail with exit 126 and guard nothing; run: chmod +x /project/.agent-hooks/guard.sh"
        },
        {
          file: "/s/a.json",
          path: "hooks.PreToolUse[0].hooks[1].command",
          severity: "error",
          message: "/project/hooks/lint.sh does not exist: the hook would fail with exit 127 and guard nothing"
        }
      ])
    })
  )

  it.effect("the script a command names is the first word as the shell reads it: quotes joined and escaped, substitutions not judged", () =>
    Effect.gen(function* () {
      const files = {
        "/s/a.json": settings({
          PreToolUse: [
            group(
              "Bash",
              cmd(String.raw`"$CLAUDE_PROJECT_DIR/hooks/say \"hi\".sh" --loud`),
              cmd(`'hooks/two words'"/guard.sh"`),
              cmd(`hooks/a$(echo b)/x.sh`),
              cmd("`echo hooks/x.sh`")
            )
          ]
        })
      }
      const snapshot = yield* snapshotOf(files)
      expect([...(snapshot.scripts ?? new Map()).keys()].sort()).toEqual([
        '/project/hooks/say "hi".sh',
        "/project/hooks/two words/guard.sh"
      ])
    })
  )

  it.effect("heuristics warn: variables no engine sets, a tool matcher in the wrong case", () =>
    Effect.gen(function* () {
      const warnings: Array<string> = []
      const h = harness(
        { "/s/a.json": settings({ PostToolUse: [group("bash|Edit", cmd('echo "$CLAUDE_TOOL_INPUT" >> log'))] }) },
        () => ({}),
        { onWarning: (warning) => warnings.push(warning) }
      )
      yield* withEngine(h, () => Effect.void)
      expect(warnings).toEqual(
        expect.arrayContaining([
          `/s/a.json at hooks.PostToolUse[0].hooks[0].command: $CLAUDE_TOOL_INPUT is set by no engine: the hook reads the event as JSON on stdin (for example: jq -r '.tool_input')`,
          `/s/a.json at hooks.PostToolUse[0].matcher: "bash" never matches Bash: tool names are case-sensitive`
        ])
      )
    })
  )
})

describe("a hook that can never run", () => {
  // Each can never run as written; beside it, a guard that allows (exit 0) runs.
  // [what, the handler, whether the file sets allowedCommands]
  const NEVER: ReadonlyArray<readonly [string, Record<string, unknown>, boolean]> = [
    ["an if over the limit", cmd("guard", { if: `Bash(${"x".repeat(5000)})` }), false],
    ["an if that does not parse", cmd("guard", { if: "Bash(" }), false],
    ["a field of the wrong type", cmd("guard", { timeout: "10" }), false],
    ["an unknown handler type", { type: "comand", command: "guard" }, false],
    ["a shell-form command while allowedCommands is set", cmd("guard"), true],
    ["an exec-form command allowedCommands does not list", cmd("/usr/bin/guard", { args: [] }), true]
  ]
  const files = (handler: Record<string, unknown>, allowed: boolean) => ({
    "/s/a.json": settings(
      { PreToolUse: [group("Bash", cmd("allow-all", { args: [] }), handler)] },
      allowed ? { allowedCommands: ["allow-all"] } : {}
    )
  })

  for (const [what, handler, extra] of NEVER) {
    it.effect(
      `${what}: validate's errors name it, strict mode refuses to start, failClosed blocks the event, and without it the outcome says so`,
      () =>
        Effect.gen(function* () {
          const h = harness(files(handler, extra))
          // validate: settings.errors and the plan's errors (what `agent-hooks validate` exits 1 on)
          const plan = yield* Effect.provide(Plan.make({ settings: ["/s/a.json"], projectDir: "/project", env: {} }), h.files)
          const errors = [...plan.settings.errors, ...plan.warnings.filter((w) => w.severity === "error").map(Plan.render)]
          expect(errors, what).toHaveLength(1)
          expect(errors[0]).toContain("/s/a.json at hooks.PreToolUse[0].hooks[1]")
          // strict mode
          const strict = yield* withEngine(
            harness(files(handler, extra), () => ({}), { strict: true }),
            () => Effect.void
          ).pipe(Effect.exit)
          expect(Exit.isFailure(strict), what).toBe(true)
          // failClosed
          const closed = yield* withEngine(
            harness(files(handler, extra), () => ({}), { failClosed: true }),
            (engine) => engine.dispatch("PreToolUse", bash("rm -rf /"))
          )
          expect(closed, what).toMatchObject({ blocked: true, decision: "deny" })
          expect(closed.reason).toContain("blocking because the engine fails closed")
          // open: the call goes on, and the hook that never ran is in the outcome and on onWarning
          const warnings: Array<string> = []
          const open = yield* withEngine(
            harness(files(handler, extra), () => ({}), { onWarning: (w) => warnings.push(w) }),
            (engine) => engine.dispatch("PreToolUse", bash("rm -rf /"))
          )
          expect(open.blocked).toBe(false)
          expect(open.hooks.map((hook) => hook.status)).toEqual(["success", "non-blocking-error"])
          expect(warnings.filter((w) => w.startsWith("hook "))).toHaveLength(1)
        })
    )
  }
})

describe("a payload cannot switch a guard off", () => {
  it.effect("a hook the payload kept from starting (E2BIG) blocks a blocking event, whatever onFailure says", () =>
    Effect.gen(function* () {
      const tooBig = new SpawnError({ file: "/bin/sh", cause: undefined, detail: "spawn E2BIG", reason: "payload" })
      const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard", { onFailure: "continue" }))] }) }, () => tooBig)
      const outcome = yield* withEngine(h, (engine) => engine.dispatch("PreToolUse", bash("x".repeat(200_000))))
      expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
      expect(outcome.reason).toContain("the payload kept the hook from starting, so the action is blocked")
    })
  )

  it.effect("a hook the system had no room to start (EMFILE, a flood of requests) blocks a blocking event, whatever onFailure says", () =>
    Effect.gen(function* () {
      const noRoom = new SpawnError({ file: "/bin/sh", cause: undefined, detail: "spawn /bin/sh EMFILE", reason: "resources" })
      const h = harness({ "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard", { onFailure: "continue" }))] }) }, () => noRoom)
      const outcome = yield* withEngine(h, (engine) => engine.dispatch("PreToolUse", bash("ls")))
      expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
      expect(outcome.reason).toContain(
        "the system had no room to start the hook (too many open files or processes), so the action is blocked"
      )
    })
  )

  it.effect(
    'a start that fails for want of file descriptors or processes is reason "resources", with an errno code or only a message',
    () =>
      Effect.gen(function* () {
        const failing = (cause: unknown) =>
          ProcessSpawner.make({
            capabilities: { runtime: "scripted", processGroups: false },
            start: () => Effect.fail(cause),
            cwdProblem: () => undefined,
            tempFiles: { write: () => ({ paths: [], remove: () => {} }) }
          })
        const request = { file: "/bin/sh", args: ["-c", "exit 0"], cwd: "/", env: {}, stdin: "", maxOutputBytes: 1024 }
        const reasons: Array<string | undefined> = []
        for (const cause of [
          Object.assign(new Error("spawn /bin/sh EMFILE"), { code: "EMFILE" }),
          Object.assign(new Error("spawn EAGAIN"), { code: "EAGAIN" }),
          new Error("Too many open files (os error 24)"),
          Object.assign(new Error("spawn ENOENT"), { code: "ENOENT" })
        ]) {
          const error = yield* Effect.scoped(failing(cause).spawn(request)).pipe(Effect.flip)
          reasons.push(error.reason)
        }
        expect(reasons).toEqual(["resources", "resources", "resources", "not-found"])
      })
  )

  it.effect("a spawn failure for another reason stays a non-blocking error (Claude Code's rule) unless the engine fails closed", () =>
    Effect.gen(function* () {
      const missing = new SpawnError({ file: "guard", cause: undefined, detail: "spawn guard ENOENT", reason: "not-found" })
      const files = { "/s/a.json": settings({ PreToolUse: [group("Bash", cmd("guard"))] }) }
      const open = yield* withEngine(
        harness(files, () => missing),
        (engine) => engine.dispatch("PreToolUse", bash("ls"))
      )
      expect(open.blocked).toBe(false)
      const closed = yield* withEngine(
        harness(files, () => missing, { failClosed: true }),
        (engine) => engine.dispatch("PreToolUse", bash("ls"))
      )
      expect(closed).toMatchObject({ blocked: true, decision: "deny" })
    })
  )
})
