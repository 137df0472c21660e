/**
 * Hostile-input suite, payload size: a value too large for one argument or environment string
 * (Linux: 128 KiB each) must not make a hook fail to start. What the engine asks the spawner for
 * (the spawners write the `files`).
 */
import { describe, expect, it } from "vitest"
import { Effect, FileSystem, Layer, Path } from "effect"
import { PlatformError, SystemError } from "effect/PlatformError"
import { HookEngine } from "@agent-hooks/core"
import * as ScriptedProcessSpawner from "@agent-hooks/test-utils/ScriptedProcessSpawner"
import * as Placeholder from "@agent-hooks/core/Placeholder"

const settingsFile = "/p/hooks.json"

/** Dispatches one PreToolUse with `command` as the tool input, and returns the spawn requests (and the outcome). */
const dispatchWith = (hooks: ReadonlyArray<object>, command: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const spawner = ScriptedProcessSpawner.layer(() => ({}))
      const files = FileSystem.layerNoop({
        readFileString: (path) =>
          path === settingsFile
            ? Effect.succeed(JSON.stringify({ hooks: { PreToolUse: [{ hooks }] } }))
            : Effect.fail(
                new PlatformError(
                  new SystemError({ _tag: "NotFound", module: "FileSystem", method: "readFileString", pathOrDescriptor: path })
                )
              )
      })
      const engine = yield* HookEngine.make({ settings: [settingsFile], projectDir: "/p", cwd: "/p", env: { PATH: "/usr/bin:/bin" } }).pipe(
        Effect.provide(Layer.mergeAll(spawner, files, Path.layer))
      )
      const outcome = yield* engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command } })
      return { requests: spawner.requests, outcome }
    }).pipe(Effect.scoped)
  )
const requestsFor = (hooks: ReadonlyArray<object>, command: string) => dispatchWith(hooks, command).then(({ requests }) => requests)

describe("values too large for one argument or environment string", () => {
  const big = `${"x".repeat(140_000)}; rm -rf / #\n`

  it("shell form: the command fits in one argument, the value travels in a file", async () => {
    const [request] = await requestsFor([{ type: "command", command: "guard ${tool_input.command}" }], big)
    const script = request!.args[request!.args.length - 1]!
    expect(Buffer.byteLength(script)).toBeLessThanOrEqual(Placeholder.MAX_ARGUMENT_BYTES)
    expect(script).toContain(`guard "\${__agent_hooks_value_1}"`)
    expect(request!.files).toEqual([{ env: "AGENT_HOOKS_VALUE_1", content: big }])
  })

  it("small values: no files", async () => {
    const [request] = await requestsFor([{ type: "command", command: "guard ${tool_input.command}" }], "ls")
    expect(request!.args[request!.args.length - 1]).toBe("guard 'ls'")
    expect(request!.files).toEqual([])
  })

  it("env values are whole: a secret behind 10 000 characters of padding is in the hook's environment", async () => {
    const padded = `${" ".repeat(10_000)}AKIA0SECRET`
    const [request] = await requestsFor([{ type: "command", command: "./guard.sh", env: { CMD: "${tool_input.command}" } }], padded)
    expect(request!.env["CMD"]).toBe(padded)
  })

  it("envMaxChars cuts env values (pigo's 10 000)", async () => {
    const [request] = await requestsFor(
      [{ type: "command", command: "./guard.sh", env: { CMD: "${tool_input.command}" }, envMaxChars: 10_000 }],
      "y".repeat(30_000)
    )
    expect(request!.env["CMD"]).toBe("y".repeat(10_000))
  })

  it("an env value over 128 KiB: no hook starts, in shell or exec form, and the event is blocked whatever onFailure says", async () => {
    for (const form of [{}, { args: [] }, { shell: "bash" }, { shell: "powershell" }]) {
      for (const onFailure of [{}, { onFailure: "continue" }]) {
        const { outcome, requests } = await dispatchWith(
          [{ type: "command", command: "./guard.sh", env: { CMD: "${tool_input.command}" }, ...form, ...onFailure }],
          big
        )
        expect(requests).toEqual([])
        expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
        expect(outcome.hooks[0]!.stderr).toContain(`env CMD: the substituted value is ${Buffer.byteLength(big)} bytes, over the 128 KiB`)
      }
    }
  })
})
