import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Presets } from "@agent-hooks/core"
import type { Settings } from "@agent-hooks/core"
import { harness, withEngine } from "./harness.ts"

type Preset = (typeof Presets.all)[number]
const context = { projectDir: "/p", cwd: "/p", env: { HOME: "/home/u" } }
const decode = (preset: Preset, document: unknown, path = "/p/file.json") =>
  Effect.runSync(preset.decode(document, { path, scope: "project", required: false }, { ...context, events: preset.events }))
const loaded = (decoded: Settings.DecodedSettings): Settings.LoadedSettings => {
  const hooks: Record<string, Array<Settings.HookEntry>> = {}
  for (const entry of decoded.entries) (hooks[entry.event] ??= []).push(entry)
  return {
    files: [],
    hooks,
    disableAllHooks: false,
    allowManagedHooksOnly: false,
    allowedHttpHookUrls: undefined,
    httpHookAllowedEnvVars: undefined,
    sequential: decoded.sequential ?? false,
    dedupe: decoded.dedupe ?? true,
    allowedCommands: decoded.allowedCommands,
    executionLog: decoded.executionLog,
    inputDefaults: decoded.inputDefaults,
    strict: false,
    warnings: decoded.warnings,
    errors: decoded.errors ?? []
  }
}

describe("Presets", () => {
  it("lists every preset by name", () => {
    expect(Presets.all.map((preset) => preset.name)).toEqual([
      "agent-hooks",
      "claude",
      "wingman",
      "orchestration",
      "pigo",
      "wave",
      "codex",
      "gemini",
      "qwen",
      "kiro",
      "windsurf",
      "cline",
      "antigravity",
      "antigravity-1.0",
      "cursor",
      "copilot",
      "vscode",
      "factory",
      "codebuddy",
      "auggie"
    ])
    expect(Presets.byName("pigo")).toBe(Presets.pigo)
    expect(Presets.byName("nope")).toBeUndefined()
  })

  it("wingman: no dedupe, sequential; timeouts clamped; unknown events and the paths of problems are reported", () => {
    const decoded = decode(Presets.wingman, {
      hooks: {
        PreToolUse: [{ matcher: "write_file(", hooks: [{ type: "command", command: "x", timeout: 0 }, { type: "shell" }] }],
        Notification: []
      }
    })
    expect(decoded).toMatchObject({ dedupe: false, sequential: true })
    expect(decoded.entries[0]!.matcher.source).toBe("^(?:write_file\\()$")
    expect(decoded.entries[0]!.path).toBe("hooks.PreToolUse[0].hooks[0]")
    expect(decoded.warnings).toHaveLength(3)
    expect(decoded.warnings).toEqual(
      expect.arrayContaining([
        `/p/file.json at hooks.Notification: unknown Wingman event "Notification"; expected one of PreToolUse, PostToolUse, Stop; skipped`,
        expect.stringContaining("/p/file.json at hooks.PreToolUse[0].hooks[0].timeout: timeout 0 is below Wingman's minimum"),
        expect.stringContaining(`/p/file.json at hooks.PreToolUse[0].hooks[1].type: expected "command"`)
      ])
    )
  })

  it("wingman accepts the code's toolHooks key and reports its paths under it", () => {
    const decoded = decode(Presets.wingman, { toolHooks: { Stop: [{ hooks: [{ type: "command" }] }] } })
    expect(decoded.warnings).toEqual([expect.stringContaining("/p/file.json at toolHooks.Stop[0].hooks[0].command")])
  })

  it("orchestration: ms → s, continueOnError, Bash(git push:*) → matcher + if, placeholders instead of shlex quoting", () => {
    const decoded = decode(Presets.orchestration, {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash(git push:*)",
            hooks: [{ type: "command", command: "test", args: ["-f", "/tmp/x"], timeout: 5000, continueOnError: false }]
          }
        ],
        PostToolUse: [
          {
            matcher: "Edit|Write",
            hooks: [
              {
                type: "command",
                command: "prettier",
                args: ["--write", "$FILE_PATH", "$HOME"],
                env: { FILE_PATH: "${FILE_PATH}" },
                continueOnError: true
              }
            ]
          }
        ]
      }
    })
    const [pre, post] = decoded.entries
    expect(pre!.matcher.source).toBe("Bash")
    expect(pre!.handler).toMatchObject({ command: "test", args: ["-f", "/tmp/x"], timeout: 5, onFailure: "block", if: "Bash(git push:*)" })
    expect(post!.handler).toMatchObject({
      args: ["--write", "${tool_input.file_path}", "$HOME"],
      env: { FILE_PATH: "${tool_input.file_path}" },
      onFailure: "continue"
    })
    expect(decoded.warnings).toEqual([
      expect.stringContaining("/p/file.json at hooks.PostToolUse[0].hooks[0].args[2]: $HOME is passed literally")
    ])
    expect(decoded.executionLog).toBe("/home/u/.config/claude/logs/hooks.log")
    expect(decoded.allowedCommands).toBeUndefined()
    expect(decode(Presets.orchestration, { executionLog: false, allowedCommands: "default" })).toMatchObject({
      executionLog: undefined,
      allowedCommands: expect.arrayContaining(["prettier", "git", "test"])
    })
  })

  it("pigo: one canonical entry per hook, with the PIGO_* env of its event and the pigo JSON path", () => {
    const decoded = decode(Presets.pigo, {
      plugins: [
        {
          name: "g",
          hooks: {
            tool_start: [
              { command: "a", match: { tool: "bash|write" } },
              { command: "b", blocking: false, timeout: 3 }
            ]
          }
        }
      ]
    })
    const [a, b] = decoded.entries
    expect(a).toMatchObject({ event: "tool_start", path: "plugins[0].hooks.tool_start[0]", handler: { shell: "bash", onFailure: "block" } })
    expect(a!.matcher.source).toBe("bash|write")
    expect(Object.keys((a!.handler as Settings.CommandHandler).env!)).toEqual(
      expect.arrayContaining(["PIGO_EVENT", "PIGO_TOOL_NAME", "PIGO_TOOL_ARGS", "PIGO_TOOL_INPUT"])
    )
    expect(b).toMatchObject({ path: "plugins[0].hooks.tool_start[1]", handler: { async: true, timeout: 600 } })
    expect(decoded.warnings).toEqual([
      expect.stringContaining("plugins[0].hooks.tool_start[1].timeout: timeout applies to blocking hooks only")
    ])
  })

  it("gemini: ms → s with a warning for values that look like seconds; Claude Code names are refused", () => {
    const decoded = decode(Presets.gemini, {
      hooks: { BeforeTool: [{ hooks: [{ type: "command", command: "x", timeout: 30 }] }], Stop: [] }
    })
    expect(decoded.entries[0]!.handler.timeout).toBe(0.03)
    expect(decoded.warnings).toHaveLength(2)
    expect(decoded.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`/p/file.json at hooks.Stop: unknown Gemini CLI event "Stop" (did you mean "AfterAgent"?)`),
        expect.stringContaining(
          "/p/file.json at hooks.BeforeTool[0].hooks[0].timeout: timeout 30 is in milliseconds here (0.03 s); for 30 seconds write 30000"
        )
      ])
    )
  })

  it("gemini: a hook's name and description (Gemini CLI's own keys) are not reported as unknown keys", () => {
    const decoded = decode(Presets.gemini, {
      hooks: {
        BeforeTool: [
          { matcher: "write_file", hooks: [{ name: "lint", description: "lints", type: "command", command: "x", timeout: 30000 }] }
        ]
      }
    })
    expect(decoded.entries).toHaveLength(1)
    expect(decoded.warnings).toEqual([])
  })

  // Gemini CLI's rule (packages/core/src/hooks/hookPlanner.ts, deduplicateHooks, keyed by getHookKey in
  // packages/core/src/hooks/types.ts): matched hooks of one event run once per `${name}:${command}`,
  // the name or "" and the command as written; timeout and env are not part of the key.
  it("gemini: identical hooks matched by two groups run once, keyed as Gemini keys them (name:command)", async () => {
    const file = "/project/.gemini/settings.json"
    const h = harness(
      {
        [file]: {
          hooks: {
            BeforeTool: [
              {
                matcher: "write_file",
                hooks: [
                  { name: "lint", type: "command", command: "./check.sh" },
                  { name: "audit", type: "command", command: "./check.sh" }
                ]
              },
              {
                matcher: ".*",
                hooks: [
                  { name: "lint", type: "command", command: "./check.sh", timeout: 9000 },
                  { type: "command", command: "./check.sh" }
                ]
              },
              {
                matcher: "write_.*",
                hooks: [
                  { type: "command", command: "./check.sh", env: { X: "1" } },
                  { name: "lint", type: "command", command: "$GEMINI_PROJECT_DIR/check.sh" }
                ]
              }
            ]
          }
        }
      },
      () => ({ stdout: "" }),
      { preset: Presets.gemini, settings: [file] }
    )
    const outcome = await Effect.runPromise(
      withEngine(h, (engine) => engine.dispatch("BeforeTool", { tool_name: "write_file", tool_input: {} }))
    )
    // lint:./check.sh, audit:./check.sh, :./check.sh and lint:$GEMINI_PROJECT_DIR/check.sh: four runs of seven hooks
    // (./check.sh is the project's: a relative program is resolved against the project root)
    expect(h.spawner.requests.map((request) => request.args.at(-1))).toEqual([
      "/project/check.sh",
      "/project/check.sh",
      "/project/check.sh",
      "'/project'/check.sh"
    ])
    expect(outcome.hooks).toHaveLength(4)
  })

  it("gemini: migrate keeps Gemini's dedup identity (the name travels as dedupeKey)", () => {
    const decoded = decode(Presets.gemini, {
      hooks: {
        BeforeTool: [
          {
            matcher: "write_file",
            hooks: [
              { name: "lint", type: "command", command: "./check.sh" },
              { type: "command", command: "./check.sh" }
            ]
          }
        ]
      }
    })
    const migrated = Presets.toCanonical(loaded(decoded), Presets.gemini)
    expect((migrated.settings["hooks"] as any).BeforeTool[0].hooks.map((hook: any) => hook.dedupeKey)).toEqual([
      "lint:./check.sh",
      ":./check.sh"
    ])
    expect(migrated.refused).toEqual([])
  })

  it("pigo: migrate keeps the config's model as PIGO_MODEL's fallback, and pigo's 10 000-character cut", () => {
    const migrated = Presets.toCanonical(
      loaded(decode(Presets.pigo, { model: "gpt-4o", plugins: [{ name: "g", hooks: { agent_end: [{ command: "a" }] } }] })),
      Presets.pigo
    )
    const hook = (migrated.settings["hooks"] as any).agent_end[0].hooks[0]
    expect(hook.env.PIGO_MODEL).toBe("${model-gpt-4o}")
    expect(hook.envMaxChars).toBe(10_000)
    expect(migrated.notes).toContainEqual(expect.stringContaining("stays the fallback of the hooks' env values (${model-gpt-4o})"))
  })

  it("wave: an event it does not fire gets one warning, the one that is true", () => {
    const decoded = decode(Presets.wave, {
      hooks: {
        // a typo: no engine knows it, so its hooks never run
        PreTooluse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x" }] }],
        // a catalog event Wave does not fire: it runs when a host dispatches it
        Notification: [{ hooks: [{ type: "command", command: "y" }] }]
      }
    })
    expect(decoded.warnings).toEqual([
      expect.stringMatching(
        /^\/p\/file\.json at hooks\.Notification: "Notification" is not a Wave event \(Wave fires PreToolUse, .*\); it runs here only when a host dispatches it$/
      ),
      `/p/file.json at hooks.PreTooluse: unknown event "PreTooluse" (did you mean "PreToolUse"?); skipped`
    ])
    expect(decoded.entries.map((entry) => entry.event)).toEqual(["Notification"])
  })

  it("wave: canonical documents, sequential by default", () => {
    expect(decode(Presets.wave, { hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] } }).sequential).toBe(true)
    expect(Presets.wave.projectDirEnv).toEqual(["WAVE_PROJECT_DIR"])
  })

  it("toCanonical: a dialect event keeps its name and its rules as the file's own declaration; seconds; nothing refused; a programmatic hook is refused, named", () => {
    const pigo = Presets.toCanonical(
      loaded(decode(Presets.pigo, { plugins: [{ name: "g", hooks: { tool_start: [{ command: "a" }], turn_end: [{ command: "b" }] } }] })),
      Presets.pigo
    )
    expect(Object.keys(pigo.settings["hooks"] as object)).toEqual(["tool_start", "turn_end"])
    expect((pigo.settings["hooks"] as any).tool_start[0].hooks[0]).toMatchObject({ command: "a", onFailure: "block" })
    expect((pigo.settings["hooks"] as any).tool_start[0].hooks[0].timeout).toBeUndefined()
    expect(pigo.settings["events"]).toEqual(
      expect.arrayContaining([
        { name: "tool_start", extends: "PreToolUse", nonZeroBlocks: true, defaultTimeout: 10 },
        { name: "turn_end", defaultTimeout: 10 },
        { name: "turn_start", defaultTimeout: 10 }
      ])
    )
    expect(pigo.refused).toEqual([])
    const wingman = Presets.toCanonical(
      loaded(decode(Presets.wingman, { hooks: { Stop: [{ hooks: [{ type: "command", command: "a" }] }] } })),
      Presets.wingman
    )
    expect(wingman.refused).toEqual([])
    expect(wingman.settings["events"]).toEqual([{ name: "Stop", blocking: "none", defaultTimeout: 60 }])
    const gemini = Presets.toCanonical(
      loaded(
        decode(Presets.gemini, {
          hooks: { BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "x", timeout: 30000 }] }] }
        })
      ),
      Presets.gemini
    )
    expect((gemini.settings["hooks"] as any).BeforeTool).toEqual([
      {
        matcher: "(?:write_file)",
        hooks: [
          expect.objectContaining({
            command: "x",
            timeout: 30,
            env: expect.objectContaining({ GEMINI_PROJECT_DIR: "${CLAUDE_PROJECT_DIR}" })
          })
        ]
      }
    ])
    expect(gemini.settings["events"]).toContainEqual({
      name: "BeforeTool",
      extends: "PreToolUse",
      outputDialect: "gemini",
      defaultTimeout: 60
    })
    const withCallback = loaded(decode(Presets.wingman, { hooks: {} }))
    const callback = {
      event: "PreToolUse",
      matcher: { kind: "all", source: undefined, test: () => true },
      handler: { type: "callback", name: "guard", callback: () => ({}) },
      source: "(programmatic)",
      scope: "explicit",
      path: "hooks.PreToolUse[0].hooks[0]"
    }
    const refused = Presets.toCanonical({ ...withCallback, hooks: { PreToolUse: [callback as any] } }, Presets.wingman)
    expect(refused.refused).toEqual(["(programmatic) at hooks.PreToolUse[0].hooks[0]: a programmatic hook cannot be written to a file"])
  })
})
