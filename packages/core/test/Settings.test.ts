import { describe, expect, it } from "vitest"
import { Effect, Exit, FileSystem, Layer, Path } from "effect"
import { PlatformError, SystemError } from "effect/PlatformError"
import { HookError, Settings } from "@agent-hooks/core"
import { bash, cmd as hook, group, harness, settings as doc, withEngine } from "./harness.ts"

/** An in-memory file system: path -> content. */
const files = (tree: Record<string, string>) =>
  Layer.mergeAll(
    FileSystem.layerNoop({
      readFileString: (path) =>
        path in tree
          ? Effect.succeed(tree[path]!)
          : Effect.fail(new PlatformError(new SystemError({ _tag: "NotFound", module: "FileSystem", method: "readFileString", pathOrDescriptor: path }))),
      readDirectory: (path) => {
        const names = Object.keys(tree).filter((file) => file.startsWith(`${path}/`)).map((file) => file.slice(path.length + 1))
        return names.length > 0
          ? Effect.succeed(names)
          : Effect.fail(new PlatformError(new SystemError({ _tag: "NotFound", module: "FileSystem", method: "readDirectory", pathOrDescriptor: path })))
      }
    }),
    Path.layer
  )

const load = (tree: Record<string, string>, options: Partial<Settings.LoadOptions> = {}) =>
  Effect.runPromiseExit(
    Settings.load({ projectDir: "/proj", cwd: "/proj", env: { HOME: "/home/u" }, ...options }).pipe(Effect.provide(files(tree)))
  )
const loaded = async (tree: Record<string, string>, options: Partial<Settings.LoadOptions> = {}) => {
  const exit = await load(tree, options)
  if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
  return exit.value
}
const failure = async (tree: Record<string, string>, options: Partial<Settings.LoadOptions> = {}) => {
  const exit = await load(tree, options)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const reason = exit.cause.reasons[0]
  if (reason?._tag !== "Fail") throw new Error(String(exit.cause))
  return reason.error as HookError.SettingsError
}
const cmd = (command: string, extra: object = {}) => ({ type: "command", command, ...extra })
const settings = (hooks: object, extra: object = {}) => JSON.stringify({ hooks, ...extra })

describe("Settings.load", () => {
  it("discovers user, project and local files and concatenates in that order", async () => {
    const s = await loaded({
      "/home/u/.agent-hooks/settings.json": settings({ PreToolUse: [{ matcher: "Bash", hooks: [cmd("user.sh")] }] }),
      "/proj/.agent-hooks/settings.json": settings({ PreToolUse: [{ matcher: "Bash", hooks: [cmd("project.sh")] }] }),
      "/proj/.agent-hooks/settings.local.json": settings({ PreToolUse: [{ hooks: [cmd("local.sh")] }] })
    })
    expect(s.hooks["PreToolUse"]!.map((e) => (e.handler as Settings.CommandHandler).command)).toEqual(["user.sh", "project.sh", "local.sh"])
    expect(s.files.map((f) => [f.scope, f.found])).toEqual([["user", true], ["project", true], ["local", true], ["managed", false]])
    expect(s.files[3]!.path).toBe("/etc/agent-hooks/managed-settings.json")
    expect(s.hooks["PreToolUse"]![2]!.path).toBe("hooks.PreToolUse[0].hooks[0]")
  })

  it("AGENT_HOOKS_HOME overrides the user folder; missing discovered files are fine", async () => {
    const s = await loaded({ "/custom/settings.json": settings({ Stop: [{ hooks: [cmd("stop.sh")] }] }) }, {
      env: { HOME: "/home/u", AGENT_HOOKS_HOME: "/custom" }
    })
    expect(s.hooks["Stop"]).toHaveLength(1)
    expect(s.files.filter((f) => !f.found).map((f) => f.scope)).toEqual(["project", "local", "managed"])
  })

  it("explicit files turn discovery off", async () => {
    const s = await loaded({
      "/proj/.agent-hooks/settings.json": settings({ Stop: [{ hooks: [cmd("discovered.sh")] }] }),
      "/proj/mine.json": settings({ Stop: [{ hooks: [cmd("mine.sh")] }] })
    }, { settings: ["mine.json"] })
    expect(s.hooks["Stop"]!.map((e) => (e.handler as Settings.CommandHandler).command)).toEqual(["mine.sh"])
    expect(s.files.filter((f) => f.scope !== "managed")).toEqual([{ path: "/proj/mine.json", scope: "explicit", found: true }])
  })

  it("a missing explicit file is an error naming it", async () => {
    const error = await failure({}, { settings: ["/nope.json"] })
    expect(error._tag).toBe("SettingsError")
    expect(error.message).toBe("/nope.json: cannot read the settings file (no such file)")
  })

  it("invalid JSON is an error naming the file", async () => {
    const error = await failure({ "/s.json": `{"hooks": {},}` }, { settings: ["/s.json"] })
    expect(error.message).toMatch(/^\/s\.json: not valid JSON \(.+\); comments and trailing commas are not allowed$/)
  })

  it("a document that is not an object, or hooks that is not an object, is an error with the JSON path", async () => {
    expect((await failure({ "/s.json": "[]" }, { settings: ["/s.json"] })).message).toMatch(/^\/s\.json: expected a JSON object/)
    const error = await failure({ "/s.json": JSON.stringify({ hooks: [] }) }, { settings: ["/s.json"] })
    expect(error.path).toEqual(["hooks"])
    expect(error.message).toMatch(/^\/s\.json at hooks: expected an object mapping event names/)
  })

  it("skips an unknown event with a warning and a suggestion, and loads the rest", async () => {
    const s = await loaded({
      "/s.json": settings({ preToolUse: [{ hooks: [cmd("a")] }], Stop: [{ hooks: [cmd("b")] }] })
    }, { settings: ["/s.json"] })
    expect(s.hooks["Stop"]).toHaveLength(1)
    expect(s.warnings).toEqual([`/s.json at hooks.preToolUse: unknown event "preToolUse" (did you mean "PreToolUse"?); skipped`])
  })

  it("skips one malformed entry with a warning naming its path, and loads its siblings", async () => {
    const s = await loaded({
      "/s.json": settings({
        PreToolUse: [
          { matcher: "Bash", hooks: [cmd("ok.sh"), { type: "command", command: 5 }, cmd("also-ok.sh", { timeout: -1 })] },
          { matcher: "Bash", command: "flat.sh" },
          { matcher: "Write", hooks: [cmd("write.sh")] }
        ]
      })
    }, { settings: ["/s.json"] })
    expect(s.hooks["PreToolUse"]!.map((e) => (e.handler as Settings.CommandHandler).command)).toEqual(["ok.sh", "write.sh"])
    expect(s.warnings[0]).toBe("/s.json at hooks.PreToolUse[0].hooks[1].command: expected string, got number 5 (handler at hooks.PreToolUse[0].hooks[1] skipped)")
    expect(s.warnings[1]).toBe("/s.json at hooks.PreToolUse[0].hooks[2].timeout: expected a value greater than 0, got number -1 (handler at hooks.PreToolUse[0].hooks[2] skipped)")
    expect(s.warnings[2]).toMatch(/hooks\.PreToolUse\[1\]\.hooks: expected an array of handlers, got nothing \(the handler must sit inside "hooks"/)
  })

  it("an event value that is not an array is skipped (Claude Code's \"Expected array\")", async () => {
    const s = await loaded({ "/s.json": settings({ PreToolUse: { matcher: "Bash" }, Stop: [{ hooks: [cmd("b")] }] }) }, { settings: ["/s.json"] })
    expect(s.warnings[0]).toMatch(/hooks\.PreToolUse: expected an array of matcher groups, got an object; skipped/)
    expect(s.hooks["Stop"]).toHaveLength(1)
  })

  it("warns about a timeout that looks like milliseconds", async () => {
    const s = await loaded({ "/s.json": settings({ Stop: [{ hooks: [cmd("b", { timeout: 5000 })] }] }) }, { settings: ["/s.json"] })
    expect(s.hooks["Stop"]).toHaveLength(1)
    expect(s.warnings[0]).toMatch(/hooks\.Stop\[0\]\.hooks\[0\]\.timeout: timeout 5000 is in seconds \(83 minutes\); milliseconds\? For 5000 ms write 5/)
  })

  it("warns about an invalid regex matcher and about a matcher on an event without matchers", async () => {
    const s = await loaded({
      "/s.json": settings({ PreToolUse: [{ matcher: "Bash(", hooks: [cmd("a")] }], Stop: [{ matcher: "x", hooks: [cmd("b")] }] })
    }, { settings: ["/s.json"] })
    expect(s.warnings).toHaveLength(2)
    expect(s.warnings[0]).toMatch(/hooks\.PreToolUse\[0\]\.matcher: matcher "Bash\(" is not a valid regular expression/)
    expect(s.warnings[1]).toMatch(/Stop does not support matchers/)
  })

  it("loads every handler type, and names the expected types for an unknown one", async () => {
    const s = await loaded({
      "/dir/s.json": settings({
        Stop: [{
          hooks: [
            { type: "http", url: "http://127.0.0.1:1/hook", headers: { Authorization: "Bearer $TOKEN" }, allowedEnvVars: ["TOKEN"] },
            { type: "prompt", prompt: "Is the work done? $ARGUMENTS" },
            { type: "agent", prompt: "Check the tests" },
            { type: "mcp_tool", server: "memory", tool: "log", input: { text: "${last_assistant_message}" } },
            { type: "module", module: "./hooks/guard.mjs" },
            { type: "module", module: "../shared/guard.ts", export: "check" },
            { type: "webhook", url: "x" },
            cmd("b")
          ]
        }]
      })
    }, { settings: ["/dir/s.json"] })
    expect(s.hooks["Stop"]!.map((e) => e.handler.type)).toEqual(["http", "prompt", "agent", "mcp_tool", "module", "module", "command"])
    expect(s.hooks["Stop"]![4]!.handler).toMatchObject({ modulePath: "/dir/hooks/guard.mjs", export: "default" })
    expect(s.hooks["Stop"]![5]!.handler).toMatchObject({ modulePath: "/shared/guard.ts", export: "check" })
    expect(s.warnings).toEqual([
      `/dir/s.json at hooks.Stop[0].hooks[6].type: expected "command" | "http" | "prompt" | "agent" | "mcp_tool" | "module", got string "webhook"; skipped`
    ])
  })

  it("loads plugin hooks with their root, in Claude Code's shape or as a bare event object", async () => {
    const s = await loaded({
      "/plugins/a/hooks/hooks.json": JSON.stringify({ description: "a", hooks: { Stop: [{ hooks: [cmd("${CLAUDE_PLUGIN_ROOT}/stop.sh")] }] } }),
      "/plugins/b/hooks/hooks.json": JSON.stringify({ Stop: [{ hooks: [cmd("b.sh")] }] })
    }, { plugins: ["/plugins/a", "/plugins/b"] })
    expect(s.hooks["Stop"]!.map((e) => [e.scope, e.pluginRoot])).toEqual([["plugin", "/plugins/a"], ["plugin", "/plugins/b"]])
  })

  it("managed policy: allowManagedHooksOnly keeps only managed hooks; managed disableAllHooks turns everything off", async () => {
    const tree = {
      "/proj/.agent-hooks/settings.json": settings({ Stop: [{ hooks: [cmd("project.sh")] }] }),
      "/etc/ah/managed-settings.json": JSON.stringify({ allowManagedHooksOnly: true, hooks: { Stop: [{ hooks: [cmd("policy.sh")] }] } })
    }
    const only = await loaded(tree, { managedDir: "/etc/ah" })
    expect(only.hooks["Stop"]!.map((e) => (e.handler as Settings.CommandHandler).command)).toEqual(["policy.sh"])
    expect(only.warnings).toContain("managed settings set allowManagedHooksOnly: 1 hooks from other settings are ignored")
    const off = await loaded({ ...tree, "/etc/ah/managed-settings.json": JSON.stringify({ disableAllHooks: true, hooks: { Stop: [{ hooks: [cmd("policy.sh")] }] } }) }, {
      managedDir: "/etc/ah"
    })
    expect(off.hooks).toEqual({})
    expect(off.disableAllHooks).toBe(true)
  })

  it("disableAllHooks outside managed settings keeps managed hooks running", async () => {
    const s = await loaded({
      "/proj/.agent-hooks/settings.json": JSON.stringify({ disableAllHooks: true, hooks: { Stop: [{ hooks: [cmd("project.sh")] }] } }),
      "/etc/ah/managed-settings.json": settings({ Stop: [{ hooks: [cmd("policy.sh")] }] })
    }, { managedDir: "/etc/ah" })
    expect(s.hooks["Stop"]!.map((e) => (e.handler as Settings.CommandHandler).command)).toEqual(["policy.sh"])
  })

  it("a managed disableAllHooks: false beats a user's true (scalar precedence)", async () => {
    const s = await loaded({
      "/home/u/.agent-hooks/settings.json": JSON.stringify({ disableAllHooks: true, hooks: { Stop: [{ hooks: [cmd("user.sh")] }] } }),
      "/etc/ah/managed-settings.json": JSON.stringify({ disableAllHooks: false })
    }, { managedDir: "/etc/ah" })
    expect(s.disableAllHooks).toBe(false)
    expect(s.hooks["Stop"]).toHaveLength(1)
  })

  it("allowManagedHooksOnly outside managed settings is ignored, with a warning", async () => {
    const s = await loaded({ "/s.json": JSON.stringify({ allowManagedHooksOnly: true, hooks: { Stop: [{ hooks: [cmd("b")] }] } }) }, { settings: ["/s.json"] })
    expect(s.hooks["Stop"]).toHaveLength(1)
    expect(s.warnings).toEqual(["/s.json at allowManagedHooksOnly: only managed settings can set this; ignored"])
  })

  it("disableAllHooks: local beats project beats user", async () => {
    const s = await loaded({
      "/home/u/.agent-hooks/settings.json": JSON.stringify({ disableAllHooks: true }),
      "/proj/.agent-hooks/settings.json": JSON.stringify({ disableAllHooks: false })
    })
    expect(s.disableAllHooks).toBe(false)
  })

  // Unknown keys were ignored in silence before; a misspelt key ("timout") then did nothing unseen.
  it("unknown handler keys are ignored with a warning each, and the handler loads", async () => {
    const s = await loaded({ "/s.json": settings({ Stop: [{ hooks: [cmd("b", { rewakeMessage: "x", cloud: true })] }] }) }, { settings: ["/s.json"] })
    expect(s.warnings).toEqual([
      `/s.json at hooks.Stop[0].hooks[0].rewakeMessage: unknown key "rewakeMessage"; ignored`,
      `/s.json at hooks.Stop[0].hooks[0].cloud: unknown key "cloud"; ignored`
    ])
    expect(s.errors).toEqual([])
    expect(s.hooks["Stop"]![0]!.handler).toEqual({ type: "command", command: "b" })
  })
})

/** Exit 2 with stderr for commands named `exit2-*`, exit 1 for `exit1-*`, else exit 0. */
const script = (command: string) =>
  command.startsWith("exit2") ? { exitCode: 2, stderr: `${command} says no` } : command.startsWith("exit1") ? { exitCode: 1, stderr: `${command} failed` } : {}

const decodeError = (document: unknown): HookError.SettingsError => {
  const exit = Effect.runSyncExit(Settings.decode(document, "/p/settings.json", "project"))
  if (Exit.isSuccess(exit)) throw new Error(`decoded: ${JSON.stringify(exit.value)}`)
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (failure === undefined || failure._tag !== "Fail") throw new Error("no failure")
  return failure.error
}

describe("declared events (\"events\" in a canonical settings file)", () => {
  it("a bad declaration fails the file with its JSON path, what was expected and what was given", () => {
    expect(decodeError({ events: { turn_start: {} } }).message).toBe(
      `/p/settings.json at events: expected an array of event declarations like [{"name": "turn_start", "blocking": "none", "defaultTimeout": 10}], got an object`
    )
    expect(decodeError({ events: [{ name: "turn_start", blocking: "sometimes" }] }).message).toBe(
      `/p/settings.json at events[0].blocking: expected "permission" | "permission-request" | "decision" | "none", got string "sometimes"`
    )
    expect(decodeError({ events: [{ name: "tool_start", extends: "PreTool" }] }).message).toContain(`at events[0].extends: expected a catalog event name (like "PreToolUse"), got string "PreTool"`)
    expect(decodeError({ events: [{ name: "x", defaultTimeout: -1 }] }).message).toContain(`at events[0].defaultTimeout: expected a positive number of seconds, got number -1`)
    expect(decodeError({ events: [{ name: "x", blockng: "none" }] }).message).toContain(`at events[0].blockng: unknown key "blockng"`)
    expect(decodeError({ events: [{ name: "x" }, { name: "x" }] }).message).toContain(`at events[1].name: "x" is declared twice in this file`)
    expect(decodeError({ events: [{ name: "Stop", extends: "PreToolUse" }] }).message).toContain(`at events[0].extends: Stop already has its rules`)
  })

  it("a declaration may take blocking away from a catalog event, never add a way to block", () => {
    expect(decodeError({ events: [{ name: "Notification", blocking: "decision" }] }).message).toContain(
      `at events[0].blocking: Notification blocks by "none"; a declaration may keep that or set "none"`
    )
    expect(decodeError({ events: [{ name: "Notification", nonZeroBlocks: true }] }).message).toContain(`at events[0].nonZeroBlocks: Notification cannot block`)
    expect(Exit.isSuccess(Effect.runSyncExit(Settings.decode({ events: [{ name: "PostToolUse", blocking: "none" }] }, "/p/s.json", "project")))).toBe(true)
  })

  it("a file's declaration applies to its own hooks only: a project file cannot make the user's exit-2 guard a no-op", () => {
    const h = harness({
      "/home/user/.agent-hooks/settings.json": doc({ PreToolUse: [group("Bash", hook("exit2-guard"))] }),
      "/project/.agent-hooks/settings.json": doc(
        { PreToolUse: [group("Bash", hook("exit2-project"))] },
        { events: [{ name: "PreToolUse", blocking: "none" }] }
      )
    }, script)
    return Effect.runPromise(withEngine(h, (engine) =>
      Effect.gen(function*() {
        const outcome = yield* engine.dispatch("PreToolUse", bash("rm -rf /"))
        expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "exit2-guard says no" })
        expect(outcome.hooks.map((hook) => [hook.command, hook.decision])).toEqual([["exit2-guard", "deny"], ["exit2-project", null]])
      })))
  })

  it("alone, the declaring file's hooks follow its rules: exit 2 does not block a PostToolUse declared non-blocking", () => {
    const h = harness({
      "/p/wingman.json": doc({ PostToolUse: [group(undefined, hook("exit2-log"))] }, { events: [{ name: "PostToolUse", blocking: "none", defaultTimeout: 60 }] })
    }, script)
    return Effect.runPromise(withEngine(h, (engine) =>
      Effect.gen(function*() {
        const outcome = yield* engine.dispatch("PostToolUse", { ...bash("ls"), tool_response: {} })
        expect(outcome.blocked).toBe(false)
        expect(engine.plan.events.get("PostToolUse")?.hooks[0]?.timeout).toBe(60)
      })))
  })

  it("an event of the file's own: any non-zero exit blocks with stderr as the reason (pigo's tool_start), and its default timeout holds", () => {
    const h = harness({
      "/p/pigo.json": doc(
        { tool_start: [group("Bash", hook("exit1-check"))], turn_start: [group(undefined, hook("ok"))] },
        {
          events: [
            { name: "tool_start", extends: "PreToolUse", nonZeroBlocks: true, defaultTimeout: 10 },
            { name: "turn_start", blocking: "none", matcherField: null, defaultTimeout: 10 },
            { name: "turn_end", blocking: "none", matcherField: null, defaultTimeout: 10 }
          ]
        }
      )
    }, script)
    return Effect.runPromise(withEngine(h, (engine) =>
      Effect.gen(function*() {
        const outcome = yield* engine.dispatch("tool_start", bash("ls"))
        expect(outcome).toMatchObject({ blocked: true, decision: "deny", reason: "exit1-check failed" })
        expect(engine.plan.events.get("turn_start")?.hooks[0]?.timeout).toBe(10)
        // Declared without hooks, turn_end is still a known event.
        expect((yield* engine.dispatch("turn_end", {})).warnings).toEqual([])
      })))
  })

  it("a second file cannot redeclare an event another file declared: its hooks on it do not run, and a warning says why", () => {
    const h = harness({
      "/s/a.json": doc({ guard_event: [group(undefined, hook("exit2-a"))] }, { events: [{ name: "guard_event", blocking: "decision" }] }),
      "/s/b.json": doc({ guard_event: [group(undefined, hook("exit2-b"))] }, { events: [{ name: "guard_event", blocking: "none" }] })
    }, script)
    return Effect.runPromise(withEngine(h, (engine) =>
      Effect.gen(function*() {
        const outcome = yield* engine.dispatch("guard_event", {})
        expect(outcome).toMatchObject({ blocked: true, decision: "block", reason: "exit2-a says no" })
        expect(outcome.hooks.map((hook) => hook.command)).toEqual(["exit2-a"])
        expect(engine.settings.warnings).toContain(
          "/s/b.json at events: guard_event is declared with other rules in /s/a.json; a file cannot redeclare an event another file declared, so this file's guard_event hooks do not run (use another event name, or the same declaration)"
        )
      })))
  })
})
