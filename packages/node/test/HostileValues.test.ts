/**
 * Hostile-input suite, from the attacker's side, on real processes: a payload value that cannot
 * reach the hook whole (too large for an argument or an environment string) blocks the event
 * whatever onFailure says, in every form; a value cut by envMaxChars is said; the engine's secrets
 * never reach a hook's environment unless a user's own settings ask for them.
 */
import { afterEach, describe, expect, it } from "vitest"
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import fc from "fast-check"
import { createHookEngine } from "@agent-hooks/node"
import * as Placeholder from "@agent-hooks/core/Placeholder"
import { Presets } from "@agent-hooks/core"
import type { NodeEngineOptions } from "@agent-hooks/node"
import * as Cleanups from "@agent-hooks/test-utils/Cleanups"

/** Runs per property; a long run sets AGENT_HOOKS_VALUES_RUNS. */
const runs = (normal: number): number => Number(process.env["AGENT_HOOKS_VALUES_RUNS"] ?? normal)
const cleanups = Cleanups.register("agent-hooks-values-")
const tempDir = cleanups.tempDir
/** Engines to close after each test (before its folders go). */
const engines: Array<{ readonly close: () => Promise<void> }> = []
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()))
})
const script = (dir: string, name: string, body: string) => {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}
const engineWith = async (dir: string, hooks: ReadonlyArray<object>, options: NodeEngineOptions = {}) => {
  const file = join(dir, `settings-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks }] } }))
  const engine = await createHookEngine({ settings: [file], projectDir: dir, ...options })
  engines.push(engine)
  return engine
}

describe("a value that cannot reach the hook whole blocks the event", () => {
  /**
   * A guard that denies any command mentioning `zap`, reading the command the way each form hands
   * it over. The attacker pads the command so the end (`; zap`) is past what fits.
   */
  const forms = (guard: string, reader: string) => ({
    "shell form, argument": { command: `${guard} \${tool_input.command}` },
    "shell form (bash), argument": { command: `${guard} \${tool_input.command}`, shell: "bash" },
    "shell form, env": { command: guard, env: { CMD: "${tool_input.command}" } },
    "shell form, pipe": { command: `printf '%s' \${tool_input.command} | ${reader}` },
    "exec form, argument": { command: guard, args: ["${tool_input.command}"] },
    "exec form, env": { command: guard, args: [], env: { CMD: "${tool_input.command}" } }
  })

  it("whatever the form, onFailure or size, a padded command ending in zap is blocked (property, real processes)", async () => {
    const dir = tempDir()
    const guard = script(dir, "guard.sh", `case "$1$CMD" in *zap*) echo "denied: zap" >&2; exit 2 ;; esac\nexit 0`)
    const reader = script(dir, "reader.sh", `case "$(cat)" in *zap*) echo "denied: zap" >&2; exit 2 ;; esac\nexit 0`)
    const all = forms(guard, reader)
    const engines = new Map<string, Awaited<ReturnType<typeof engineWith>>>()
    for (const [name, handler] of Object.entries(all)) {
      for (const onFailure of [undefined, "continue", "block"]) {
        engines.set(
          `${name}/${onFailure}`,
          await engineWith(dir, [{ type: "command", ...handler, ...(onFailure === undefined ? {} : { onFailure }) }])
        )
      }
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(all)),
        fc.constantFrom(undefined, "continue", "block"),
        // a hostile unit (quotes, $, newlines, multibyte), repeated to a size around and far over 128 KiB
        fc.string({ unit: fc.constantFrom("a", "'", '"', "$", "`", "\\", "\n", " ", ";", "é", "😀"), minLength: 1, maxLength: 12 }),
        fc.integer({ min: 100 * 1024, max: 400 * 1024 }),
        async (form, onFailure, unit, bytes) => {
          const padding = unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))
          const outcome = await engines
            .get(`${form}/${onFailure}`)!
            .dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: `${padding}; zap` } })
          expect(
            outcome.blocked,
            `${form}, onFailure ${onFailure}: ${JSON.stringify(outcome.hooks.map((hook) => [hook.status, hook.stderr.slice(0, 200)]))}`
          ).toBe(true)
        }
      ),
      // found in the Deno lane: Deno's node:child_process overflowed its stack on this `sh -c` command
      {
        numRuns: runs(60),
        examples: [
          ["shell form, argument", undefined, ";a", 102_400],
          ["shell form (bash), argument", "continue", ";a", 102_400]
        ]
      }
    )
  }, 900_000)

  it("an env value over 128 KiB: the hook does not start, and the result says why", async () => {
    const dir = tempDir()
    const guard = script(dir, "guard.sh", `echo "got \${#CMD}" >&2; exit 0`)
    const engine = await engineWith(dir, [
      { type: "command", command: guard, env: { CMD: "${tool_input.command}" }, onFailure: "continue" }
    ])
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "x".repeat(140_000) } })
    expect(outcome).toMatchObject({ blocked: true, decision: "deny" })
    expect(outcome.hooks[0]!.stderr).toContain("env CMD: the substituted value is 140000 bytes, over the 128 KiB")
    expect(outcome.reason).toContain("the payload kept the hook from starting")
  })

  it("a value under the limit reaches a guard through env and argv whole", async () => {
    const dir = tempDir()
    const guard = script(dir, "guard.sh", `printf '%s|%s' "\${#1}" "\${#CMD}"`)
    const engine = await engineWith(dir, [
      { type: "command", command: `${guard} \${tool_input.command}`, env: { CMD: "${tool_input.command}" } }
    ])
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "y".repeat(120_000) } })
    expect(outcome.blocked).toBe(false)
    expect(outcome.hooks[0]!.stdout).toBe("120000|120000")
  })
})

describe("envMaxChars cuts are said", () => {
  it("every cut is in the hook's result and the outcome's warnings", async () => {
    const dir = tempDir()
    const engine = await engineWith(dir, [
      { type: "command", command: "true", env: { PIGO_TOOL_INPUT: "${tool_input.command}" }, envMaxChars: 10_000 }
    ])
    for (const size of [10_001, 30_000]) {
      const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "z".repeat(size) } })
      const notice = `env PIGO_TOOL_INPUT: the value was cut to its first 10000 of ${size} characters (envMaxChars)`
      expect(outcome.hooks[0]!.messages.join("\n")).toContain(notice)
      expect(outcome.warnings.join("\n")).toContain(notice)
    }
    const short = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(short.warnings.join("\n")).not.toContain("envMaxChars")
  })
})

describe("the engine's secrets stay out of hooks' environments", () => {
  const secretName = fc.oneof(
    fc.constant("AGENT_HOOKS_AUDIT_KEY"),
    fc
      .tuple(fc.stringMatching(/^[A-Z0-9]{1,8}$/), fc.constantFrom("KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIALS"))
      .map(([middle, end]) => `AGENT_HOOKS_${middle}_${end}`),
    fc
      .constantFrom("", "TRACES_", "METRICS_", "LOGS_")
      .chain((signal) => fc.constantFrom(`OTEL_EXPORTER_OTLP_${signal}HEADERS`, `OTEL_EXPORTER_OTLP_${signal}CLIENT_KEY`))
  )
  const value = fc.stringMatching(/^[A-Za-z0-9=+/,-]{1,40}$/)

  it("no command hook sees any secret of the class, in shell or exec form (property, real processes)", async () => {
    const dir = tempDir()
    const printer = script(dir, "env.sh", "env")
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(secretName, value), { minLength: 1, maxLength: 4, selector: ([name]) => name }),
        async (secrets) => {
          const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, PLAIN_SETTING: "kept", ...Object.fromEntries(secrets) }
          const engine = await engineWith(
            dir,
            [
              { type: "command", command: printer },
              { type: "command", command: printer, args: [] }
            ],
            {
              env,
              telemetry: false
            }
          )
          const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
          expect(outcome.hooks).toHaveLength(2)
          for (const hook of outcome.hooks) {
            expect(hook.stdout).toContain("PLAIN_SETTING=kept")
            for (const [name, secret] of secrets) expect(hook.stdout).not.toContain(`${name}=${secret}`)
          }
          await engine.close()
        }
      ),
      { numRuns: runs(15) }
    )
  }, 900_000)

  it("an OTLP endpoint with credentials in its URL is withheld; one without stays", async () => {
    const dir = tempDir()
    const engine = await engineWith(dir, [{ type: "command", command: "env" }], {
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        OTEL_EXPORTER_OTLP_ENDPOINT: "https://user:tok@collector.example",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example/v1/traces",
        // the audit export's endpoint is one too: a hook holding it could post forged records to the SIEM
        AGENT_HOOKS_AUDIT_OTLP: "https://audit:tok2@collector.example/v1/logs"
      },
      telemetry: false
    })
    const {
      hooks: [hook]
    } = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(hook!.stdout).not.toContain("user:tok")
    expect(hook!.stdout).not.toContain("audit:tok2")
    expect(hook!.stdout).toContain("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https://collector.example/v1/traces")
  })

  it("passEnv hands a named secret to that hook only, from the user's own settings; a project file's passEnv is ignored, with a warning", async () => {
    const dir = tempDir()
    const home = join(dir, "home")
    mkdirSync(join(home, ".agent-hooks"), { recursive: true })
    mkdirSync(join(dir, ".agent-hooks"))
    const hook = (label: string, passEnv?: ReadonlyArray<string>) => ({
      type: "command",
      command: `echo ${label}; env`,
      ...(passEnv === undefined ? {} : { passEnv })
    })
    writeFileSync(
      join(home, ".agent-hooks", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [hook("user-asks", ["AGENT_HOOKS_AUDIT_KEY"]), hook("user-plain")] }] } })
    )
    writeFileSync(
      join(dir, ".agent-hooks", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [hook("project-asks", ["AGENT_HOOKS_AUDIT_KEY", "OTEL_EXPORTER_OTLP_HEADERS"])] }] }
      })
    )
    const engine = await createHookEngine({
      projectDir: dir,
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: home,
        AGENT_HOOKS_AUDIT_KEY: "k3y",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20t0k"
      },
      telemetry: false
    })
    engines.push(engine)
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    const out = (label: string) => outcome.hooks.find((h) => h.stdout.startsWith(label))!.stdout
    expect(out("user-asks")).toContain("AGENT_HOOKS_AUDIT_KEY=k3y")
    expect(out("user-asks")).not.toContain("t0k")
    expect(out("user-plain")).not.toContain("k3y")
    expect(out("project-asks")).not.toContain("k3y")
    expect(out("project-asks")).not.toContain("t0k")
    expect(engine.settings.warnings.join("\n")).toMatch(
      /passEnv \(AGENT_HOOKS_AUDIT_KEY, OTEL_EXPORTER_OTLP_HEADERS\) is ignored in project settings/
    )
  })
})

describe("the engine's secrets stay out of http hooks' headers", () => {
  it("a project file's http hook cannot list a secret in allowedEnvVars; a user's can", async () => {
    const seen: Array<string | undefined> = []
    const server = createServer((request, response) => {
      seen.push(request.headers["x-key"] as string | undefined)
      response.end("{}")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    cleanups.add(() => server.close())
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const dir = tempDir()
    const home = join(dir, "home")
    mkdirSync(join(home, ".agent-hooks"), { recursive: true })
    mkdirSync(join(dir, ".agent-hooks"))
    const hook = { type: "http", url, headers: { "X-Key": "k=$AGENT_HOOKS_AUDIT_KEY" }, allowedEnvVars: ["AGENT_HOOKS_AUDIT_KEY"] }
    writeFileSync(join(dir, ".agent-hooks", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [hook] }] } }))
    const engine = await createHookEngine({
      projectDir: dir,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, AGENT_HOOKS_AUDIT_KEY: "k3y" },
      telemetry: false
    })
    engines.push(engine)
    await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(seen).toEqual(["k="])
    expect(engine.settings.warnings.join("\n")).toMatch(/allowedEnvVars \(AGENT_HOOKS_AUDIT_KEY\) is ignored in project settings/)
    writeFileSync(
      join(home, ".agent-hooks", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ ...hook, url: `${url}user` }] }] } })
    )
    rmSync(join(dir, ".agent-hooks", "settings.json"))
    const user = await createHookEngine({
      projectDir: dir,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, AGENT_HOOKS_AUDIT_KEY: "k3y" },
      telemetry: false
    })
    engines.push(user)
    await user.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } })
    expect(seen).toEqual(["k=", "k=k3y"])
  })
})

describe("payload code in exec form: an interpreter's code argument is code", () => {
  /** Values that would create the marker file if the shell ran them as code. */
  const hostile = (marker: string) =>
    fc
      .tuple(
        fc.string({
          unit: fc.constantFrom("a", " ", "'", '"', "$", "`", "\\", ";", "|", "&", "(", ")", "{", "}", "é", "\t"),
          maxLength: 20
        }),
        fc.constantFrom(
          `"; touch ${marker}; #`,
          `$(touch ${marker})`,
          `\`touch ${marker}\``,
          `'; touch ${marker}; '`,
          `"; touch ${marker}; echo "`,
          `$(touch${"${IFS}"}${marker})`,
          `\n touch ${marker}\n`
        ),
        fc.string({ unit: fc.constantFrom("b", "'", '"', "$", "`", " "), maxLength: 8 })
      )
      .map(([a, b, c]) => `${a}${b}${c}`)

  const programs: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["sh", ["-c"]],
    ["bash", ["-c"]],
    ["dash", ["-c"]],
    ["/bin/sh", ["-ec"]],
    ["bash", ["--norc", "-c"]],
    ["env", ["A=1", "sh", "-c"]],
    ["nice", ["-n", "1", "bash", "-c"]],
    ["timeout", ["5", "sh", "-c"]]
  ]
  const codes = [
    "printf 'v:%s' \"${tool_input.command}\"",
    "printf 'v:%s' ${tool_input.command}",
    "printf 'v:%s' '${tool_input.command}'",
    "v=${tool_input.command}; printf 'v:%s' \"$v\""
  ]

  it("a shell's -c code gets each value as one quoted word, behind any wrapper (property, real processes)", async () => {
    const dir = tempDir()
    const marker = join(dir, "pwned")
    const engines = await Promise.all(
      programs.flatMap(([command, args]) => codes.map((code) => engineWith(dir, [{ type: "command", command, args: [...args, code] }])))
    )
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: engines.length - 1 }), hostile(marker), async (k, value) => {
        const outcome = await engines[k]!.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: value } })
        expect(existsSync(marker), `ran the payload as code: ${JSON.stringify(value)} (${k})`).toBe(false)
        expect(outcome.hooks[0]!.stdout).toBe(`v:${value}`)
      }),
      { numRuns: runs(120) }
    )
  }, 900_000)

  it("a large value in a shell's -c code travels in a file and still comes out whole", async () => {
    const dir = tempDir()
    const engine = await engineWith(dir, [
      { type: "command", command: "sh", args: ["-c", "printf '%s' \"${tool_input.command}\" | wc -c"] }
    ])
    const outcome = await engine.dispatch("PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: `${"x".repeat(200_000)}$(touch ${join(dir, "pwned")})` }
    })
    expect(existsSync(join(dir, "pwned"))).toBe(false)
    expect(outcome.hooks[0]!.stdout.trim()).toBe(String(200_000 + `$(touch ${join(dir, "pwned")})`.length))
  })

  it("a payload placeholder in another interpreter's code, or as the program, is refused at load", async () => {
    const dir = tempDir()
    const refused = [
      { command: "node", args: ["-e", "console.log('${tool_input.command}')"] },
      { command: "python3", args: ["-c", "print('${tool_input.command}')"] },
      { command: "perl", args: ["-ne", "print '${tool_input.command}'"] },
      { command: "env", args: ["node", "--eval=require('x')('${tool_input.command}')"] },
      { command: "awk", args: ['BEGIN { print "${tool_input.command}" }'] },
      { command: "${tool_input.command}", args: [] }
    ]
    const engine = await engineWith(
      dir,
      refused.map((handler) => ({ type: "command", ...handler }))
    )
    expect(engine.settings.warnings.filter((w) => /handler skipped/.test(w))).toHaveLength(refused.length)
    const outcome = await engine.dispatch("PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: `'); require('fs').writeFileSync('${join(dir, "pwned")}', ''); ('` }
    })
    // none ran: each stays in its event as a hook that never runs (a failure; failClosed blocks)
    expect(outcome.hooks).toHaveLength(refused.length)
    for (const hook of outcome.hooks)
      expect(hook).toMatchObject({
        exitCode: null,
        status: "non-blocking-error",
        messages: [expect.stringContaining("the hook never runs")]
      })
    expect(existsSync(join(dir, "pwned"))).toBe(false)
    // the arguments after the code are data, as ever
    const data = await engineWith(dir, [
      { type: "command", command: "node", args: ["-e", "process.stdout.write(process.argv[1])", "${tool_input.command}"] }
    ])
    expect((await data.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: "a'b" } })).hooks[0]!.stdout).toBe("a'b")
  })

  it("Placeholder.inCode names every placeholder that reaches code, and how it is handled", () => {
    expect(Placeholder.inCode({ command: "sh", args: ["-c", 'echo "${tool_input.command}"', "${tool_input.file_path}"] })).toEqual([
      { field: "args[1]", placeholder: "${tool_input.command}", program: "sh -c", handling: "quoted" }
    ])
    expect(Placeholder.inCode({ command: "python3", args: ["-c", "print('${tool_name}')"] })).toEqual([
      { field: "args[1]", placeholder: "${tool_name}", program: "python3", handling: "refused" }
    ])
    expect(Placeholder.inCode({ command: "guard ${tool_input.command}" })).toEqual([
      { field: "command", placeholder: "${tool_input.command}", program: "sh -c", handling: "quoted" }
    ])
    expect(Placeholder.inCode({ command: "guard", args: ["${tool_input.command}"] })).toEqual([])
    expect(Placeholder.inCode({ command: "env", args: ["-i", "-S", "sh -c ${tool_input.command}"] })).toEqual([
      { field: "args[2]", placeholder: "${tool_input.command}", program: "env -S", handling: "refused" }
    ])
    expect(Placeholder.inCode({ command: "/usr/bin/sudo", args: ["-u", "me", "timeout", "5", "bash", "-ec", "g ${cwd}"] })).toEqual([
      { field: "args[6]", placeholder: "${cwd}", program: "bash -c", handling: "quoted" }
    ])
  })

  it("orchestration: $COMMAND in a shell's -c code is read from the environment, never pasted into the code", async () => {
    const root = tempDir()
    const dir = join(root, "project")
    mkdirSync(join(dir, ".claude"), { recursive: true })
    const marker = join(root, "pwned")
    writeFileSync(
      join(dir, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "sh", args: ["-c", "printf '%s' \"$COMMAND\""] },
                { type: "command", command: "bash", args: ["-c", "printf '%s' \"${ARGS}\""] }
              ]
            }
          ]
        }
      })
    )
    const engine = await createHookEngine({
      preset: Presets.byName("orchestration")!,
      projectDir: dir,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: root }
    })
    engines.push(engine)
    const value = `"; touch ${marker}; echo "$(touch ${marker})`
    const outcome = await engine.dispatch("PreToolUse", { tool_name: "Bash", tool_input: { command: value } })
    expect(existsSync(marker)).toBe(false)
    expect(outcome.hooks.map((hook) => hook.stdout)).toEqual([value, JSON.stringify({ command: value })])
  })
})
