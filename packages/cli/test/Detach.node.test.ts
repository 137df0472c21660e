import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// Fire-and-forget hooks (async; pigo's blocking: false) launched by `agent-hooks run` outlive the
// CLI: detached in their own session, the payload on stdin, ended at their cap.

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
let dir = ""
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-detach-")))
})
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

const run = (settings: string, event: string, payload: unknown) =>
  spawnSync(process.execPath, [bin, "run", event, "--settings", settings, "--project-dir", dir], {
    input: JSON.stringify(payload),
    encoding: "utf8"
  })

const waitFor = async (check: () => boolean, ms: number): Promise<boolean> => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}

const alive = (marker: string): number =>
  spawnSync("pgrep", ["-f", marker], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((line) => line.trim() !== "").length

interface LogLine {
  readonly command: string
  readonly exitCode: number | null
  readonly status: string
  readonly error: string | null
  readonly timedOut: boolean
  readonly signal?: string | null
  readonly detached?: string
}
const logLines = (file: string): Array<LogLine> =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as LogLine)
    : []

/** A settings file of async PostToolUse command hooks, with an execution log. */
const asyncHooks = (name: string, executionLog: string, hooks: ReadonlyArray<Record<string, unknown>>): string => {
  const settings = join(dir, `${name}.json`)
  writeFileSync(
    settings,
    JSON.stringify({ executionLog, hooks: { PostToolUse: [{ hooks: hooks.map((hook) => ({ type: "command", async: true, ...hook })) }] } })
  )
  return settings
}

describe("async hooks under agent-hooks run", () => {
  // The five hooks append at about the same time: each line is one printf (one write to an O_APPEND
  // file), so lines from two hooks cannot interleave.
  it("an async hook that sleeps, then appends its payload, runs 5 times out of 5 after the CLI has exited", async () => {
    const log = join(dir, "log.txt")
    const settings = join(dir, "append.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PostToolUse: [
            { hooks: [{ type: "command", command: `sleep 0.3; line=$(tr -d '\\n'); printf '%s\\n' "$line" >> '${log}'`, async: true }] }
          ]
        }
      })
    )
    for (let n = 1; n <= 5; n++) {
      const result = run(settings, "PostToolUse", { tool_name: "Bash", n })
      expect(result.status).toBe(0)
    }
    const lines = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((line) => line.includes('"tool_name":"Bash"'))
        : []
    expect(await waitFor(() => lines().length === 5, 10_000)).toBe(true)
    expect(
      lines()
        .map((line) => (JSON.parse(line) as { n: number }).n)
        .sort()
    ).toEqual([1, 2, 3, 4, 5])
  })

  it("pigo: a blocking: false plugin hook (the seed's logging plugin) logs 5 of 5 tool calls under run --preset pigo", async () => {
    const home = join(dir, "home")
    const log = join(dir, "pigo.log")
    mkdirSync(join(home, ".pigo"), { recursive: true })
    writeFileSync(
      join(home, ".pigo", "config.json"),
      JSON.stringify({
        plugins: [
          {
            name: "logger",
            enabled: true,
            hooks: { tool_end: [{ command: `sleep 0.2; echo "$PIGO_TOOL_NAME" >> '${log}'`, blocking: false }] }
          }
        ]
      })
    )
    for (let n = 1; n <= 5; n++) {
      const result = spawnSync(process.execPath, [bin, "run", "tool_end", "--preset", "pigo", "--project-dir", dir], {
        input: JSON.stringify({ tool_name: "bash", tool_input: { command: `echo ${n}` } }),
        encoding: "utf8",
        env: { ...process.env, HOME: home, PIGO_HOME: join(home, ".pigo") }
      })
      expect(result.status, result.stderr).toBe(0)
    }
    const lines = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((line) => line === "bash")
        : []
    expect(await waitFor(() => lines().length === 5, 10_000)).toBe(true)
  })

  it("a detached hook that runs past its timeout is killed at that cap, with its group", async () => {
    const marker = `agent-hooks-cap-${process.pid}-${Date.now()}`
    const settings = join(dir, "cap.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: `sleep 30; : ${marker}`, async: true, timeout: 1 }] }] }
      })
    )
    const result = run(settings, "Stop", {})
    expect(result.status).toBe(0)
    expect(await waitFor(() => alive(marker) > 0, 5_000)).toBe(true)
    // The cap (1 s) plus the TERM-to-KILL grace; generous on a loaded machine.
    expect(await waitFor(() => alive(marker) === 0, 15_000)).toBe(true)
  })

  // Where there is no setsid(1) (macOS), perl's setsid(2) detaches the hook: a PATH of just the
  // tools the wrapper and the hook use, without setsid. The cap still ends the hook's whole group.
  const perl = spawnSync("sh", ["-c", "command -v perl"], { encoding: "utf8" }).stdout.trim()
  it.skipIf(perl === "")(
    "without setsid: 5 of 5 async hooks run after the CLI has exited, and the cap ends one that runs past it",
    async () => {
      const tools = join(dir, "no-setsid-bin")
      mkdirSync(tools, { recursive: true })
      for (const tool of ["sh", "sleep", "cat", "mktemp", "cp", "rm", "printf", "tr", "perl"]) {
        const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim()
        if (found !== "") spawnSync("ln", ["-sf", found, join(tools, tool)])
      }
      expect(spawnSync("sh", ["-c", "command -v setsid"], { encoding: "utf8", env: { PATH: tools } }).status).not.toBe(0)
      const log = join(dir, "no-setsid.log")
      const marker = `agent-hooks-nosetsid-${process.pid}-${Date.now()}`
      const settings = join(dir, "no-setsid.json")
      // Without date, mkfifo, tail or sed too: the end is still recorded (no duration, no stderr tail).
      const executionLog = join(dir, "no-setsid.jsonl")
      writeFileSync(
        settings,
        JSON.stringify({
          executionLog,
          hooks: {
            PostToolUse: [
              {
                hooks: [
                  { type: "command", command: `sleep 0.3; line=$(tr -d '\\n'); printf '%s\\n' "$line" >> '${log}'`, async: true },
                  { type: "command", command: "exit 9", async: true }
                ]
              }
            ],
            Stop: [{ hooks: [{ type: "command", command: `sleep 30; : ${marker}`, async: true, timeout: 1 }] }]
          }
        })
      )
      const runWithout = (event: string, payload: unknown) =>
        spawnSync(process.execPath, [bin, "run", event, "--settings", settings, "--project-dir", dir], {
          input: JSON.stringify(payload),
          encoding: "utf8",
          env: { ...process.env, PATH: tools }
        })
      for (let n = 1; n <= 5; n++) expect(runWithout("PostToolUse", { tool_name: "Bash", n }).status).toBe(0)
      const lines = () =>
        existsSync(log)
          ? readFileSync(log, "utf8")
              .split("\n")
              .filter((line) => line.includes('"tool_name":"Bash"'))
          : []
      expect(await waitFor(() => lines().length === 5, 10_000)).toBe(true)
      expect(runWithout("Stop", {}).status).toBe(0)
      expect(await waitFor(() => alive(marker) > 0, 5_000)).toBe(true)
      expect(await waitFor(() => alive(marker) === 0, 15_000)).toBe(true)
      const ended = () => logLines(executionLog).filter((line) => line.detached === "ended")
      expect(await waitFor(() => ended().length === 11, 10_000), JSON.stringify(ended())).toBe(true)
      expect(
        ended()
          .filter((line) => line.command === "exit 9")
          .map((line) => [line.exitCode, line.status])
      ).toEqual(Array(5).fill([9, "non-blocking-error"]))
      expect(ended().find((line) => line.command.includes(marker))).toMatchObject({ timedOut: true, status: "cancelled" })
    },
    40_000
  )

  it("with no way to detach (no setsid, no perl, no terminal) the hook is not started, and that is heard", () => {
    const tools = join(dir, "no-detach-bin")
    mkdirSync(tools, { recursive: true })
    for (const tool of ["sh", "sleep", "cat", "mktemp", "cp", "rm", "printf", "tr"]) {
      const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim()
      if (found !== "") spawnSync("ln", ["-sf", found, join(tools, tool)])
    }
    const log = join(dir, "no-detach.log")
    const settings = join(dir, "no-detach.json")
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { PostToolUse: [{ hooks: [{ type: "command", command: `echo ran >> '${log}'`, async: true }] }] } })
    )
    const result = spawnSync(process.execPath, [bin, "run", "PostToolUse", "--settings", settings, "--project-dir", dir], {
      input: JSON.stringify({ tool_name: "Bash" }),
      encoding: "utf8",
      env: { ...process.env, PATH: tools }
    })
    expect(result.stderr).toContain("the hook cannot be detached here")
    expect(JSON.parse(result.stdout).hooks[0]).toMatchObject({ exitCode: 126 })
    expect(existsSync(log)).toBe(false)
  })

  it("a detached hook that cannot start (missing script, not executable, an interpreter's missing script) is heard: stderr, the outcome, the execution log", () => {
    writeFileSync(join(dir, "noexec.sh"), "#!/bin/sh\nexit 0\n")
    chmodSync(join(dir, "noexec.sh"), 0o644)
    const executionLog = join(dir, "start-failures.jsonl")
    const settings = join(dir, "cannot-start.json")
    writeFileSync(
      settings,
      JSON.stringify({
        executionLog,
        hooks: {
          PostToolUse: [
            {
              hooks: [
                { type: "command", command: "./missing.sh", async: true },
                { type: "command", command: "./noexec.sh --flag", async: true },
                { type: "command", command: "sh ./gone.sh", async: true },
                { type: "command", command: "no-such-program-agent-hooks", async: true },
                { type: "command", command: "true", async: true },
                // bash's own builtins are found (dash has no "shopt"): no false alarm
                { type: "command", command: "shopt -s nullglob", shell: "bash", async: true }
              ]
            }
          ]
        }
      })
    )
    const result = run(settings, "PostToolUse", { tool_name: "Bash" })
    // A fire-and-forget hook never blocks; its failure to start is not silent.
    expect(result.status).toBe(0)
    for (const what of [
      "/missing.sh: not found",
      "/noexec.sh: not executable",
      "/gone.sh: not found",
      "no-such-program-agent-hooks: command not found"
    ]) {
      expect(result.stderr).toContain(`${what}; the detached hook did not start`)
    }
    const outcome = JSON.parse(result.stdout) as { hooks: Array<{ command: string; exitCode: number }> }
    expect(outcome.hooks.map((hook) => [hook.command, hook.exitCode])).toEqual([
      ["./missing.sh", 127],
      ["./noexec.sh --flag", 126],
      ["sh ./gone.sh", 127],
      ["no-such-program-agent-hooks", 127]
    ])
    const logged = readFileSync(executionLog, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { command: string; exitCode: number })
    expect(
      logged
        .filter((line) => line.exitCode !== 0 && line.exitCode !== null)
        .map((line) => [line.command, line.exitCode])
        .sort()
    ).toEqual([
      ["./missing.sh", 127],
      ["./noexec.sh --flag", 126],
      ["no-such-program-agent-hooks", 127],
      ["sh ./gone.sh", 127]
    ])
  })

  // Whatever the command is, a detached hook's end is recorded by its launcher, after the CLI has
  // exited: none of these can be seen from the command's first word.
  it('a detached hook whose script is missing behind "$CLAUDE_PROJECT_DIR", cd, bash -c, env or exec: logged as started, then as it really ended (127), never success', async () => {
    mkdirSync(join(dir, "sub"), { recursive: true })
    const executionLog = join(dir, "shapes.jsonl")
    const shapes = [
      `"$CLAUDE_PROJECT_DIR"/hooks/missing.sh`,
      `cd sub && ./missing.sh`,
      `bash -c './missing.sh'`,
      `env FOO=1 ./missing.sh`,
      `exec ./missing.sh`
    ]
    const settings = asyncHooks(
      "shapes",
      executionLog,
      [...shapes, "true"].map((command) => ({ command }))
    )
    const result = run(settings, "PostToolUse", { tool_name: "Bash" })
    expect(result.status, result.stderr).toBe(0)
    // Nothing is known of their end at dispatch time: started detached, no exit code.
    const started = logLines(executionLog).filter((line) => line.detached === "started")
    expect(started.map((line) => [line.command, line.exitCode, line.status]).sort()).toEqual(
      [...shapes, "true"].map((command) => [command, null, "detached"]).sort()
    )
    const ended = () => logLines(executionLog).filter((line) => line.detached === "ended")
    expect(await waitFor(() => ended().length === 6, 10_000), JSON.stringify(logLines(executionLog))).toBe(true)
    for (const command of shapes) {
      const end = ended().find((line) => line.command === command)
      expect(end, command).toMatchObject({ exitCode: 127, status: "non-blocking-error", timedOut: false })
      expect(end!.error, command).toMatch(/^exit 127: .*missing\.sh/s)
    }
    expect(ended().find((line) => line.command === "true")).toMatchObject({ exitCode: 0, status: "success", error: null })
    // Never a success for a hook whose end is unknown or was a failure.
    expect(
      logLines(executionLog)
        .filter((line) => line.status === "success")
        .map((line) => line.command)
    ).toEqual(["true"])
  })

  it("payload values cannot hide a detached hook's failure: stderr forging a log line, 3 MB of stderr, a 200 KB value in the command, a killed hook, a hook past its cap", async () => {
    const executionLog = join(dir, "hostile.jsonl")
    const settings = asyncHooks("hostile", executionLog, [
      { command: "printf '%s' ${tool_input.note} >&2; exit 3" },
      { command: "head -c 3000000 /dev/zero | tr '\\0' x >&2; printf '%s' ${tool_input.note} >&2; exit 4" },
      { command: ": ${tool_input.big}; exit 5" },
      { command: "printf '%s' ${tool_input.note} >&2; kill -9 $$" },
      { command: "trap '' TERM; printf '%s' ${tool_input.note} >&2; sleep 30", timeout: 1 },
      // 1 200 bytes of three-byte characters: the last KiB begins inside one.
      { command: "printf '%s' ${tool_input.euros} >&2; exit 6" }
    ])
    const note = `"}\n{"timestamp":"x","command":"forged","exitCode":0,"status":"success","detached":"ended"}\n\\" \u0001\t\u001b[31m \u00e9`
    const result = run(settings, "PostToolUse", {
      tool_name: "Write",
      tool_input: { note, big: "y".repeat(200_000), euros: "€".repeat(400) }
    })
    expect(result.status, result.stderr).toBe(0)
    const ended = () => logLines(executionLog).filter((line) => line.detached === "ended")
    // logLines parses every line: a forged line would have to be one of them.
    expect(await waitFor(() => ended().length === 6, 20_000), readFileSync(executionLog, "utf8").slice(0, 2000)).toBe(true)
    // Valid UTF-8 for a strict reader, whatever bytes the hooks wrote.
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(executionLog))).not.toThrow()
    expect(logLines(executionLog).some((line) => line.command === "forged")).toBe(false)
    expect(logLines(executionLog).filter((line) => line.status === "success")).toEqual([])
    const byExit = (exit: number) => ended().find((line) => line.exitCode === exit)
    expect(byExit(6)?.error).toMatch(/^exit 6: (€)+$/)
    expect(byExit(3)?.error).toContain(`exit 3: "}\n{"timestamp":"x","command":"forged"`)
    expect(byExit(4)?.error).toMatch(/^exit 4: x+"}/)
    expect(byExit(4)!.error!.length).toBeLessThan(2000)
    expect(byExit(5)).toMatchObject({ status: "non-blocking-error" })
    expect(byExit(5)!.command.length).toBeLessThan(2100)
    expect(ended().find((line) => line.signal === "SIGKILL")).toMatchObject({ exitCode: null, status: "non-blocking-error" })
    expect(ended().find((line) => line.timedOut)).toMatchObject({ status: "cancelled" })
  }, 40_000)

  it("a detached hook reads values over 128 KiB (placeholders, stdin) after the CLI has exited; its files are removed when it ends", async () => {
    const out = join(dir, "large.txt")
    const tmp = join(dir, "tmp")
    mkdirSync(tmp, { recursive: true })
    const settings = join(dir, "large.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              hooks: [
                {
                  type: "command",
                  // The CLI has exited (and its own copies of the files are gone) before the hook reads anything.
                  command: `sleep 1; v=\${tool_input.content}; { printf '%s' "$v" | wc -c; printf '%s' "$v" | tail -c 6; echo; wc -c; } > '${out}.part'; mv '${out}.part' '${out}'`,
                  async: true
                }
              ]
            }
          ]
        }
      })
    )
    const content = `${"x".repeat(140_000)}SECRET`
    const result = spawnSync(process.execPath, [bin, "run", "PostToolUse", "--settings", settings, "--project-dir", dir], {
      input: JSON.stringify({ tool_name: "Write", tool_input: { content } }),
      encoding: "utf8",
      env: { ...process.env, TMPDIR: tmp }
    })
    expect(result.status, result.stderr).toBe(0)
    expect(await waitFor(() => existsSync(out), 15_000)).toBe(true)
    const [placeholder, tail, stdinBytes] = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.trim())
    expect(placeholder).toBe(String(content.length))
    expect(tail).toBe("SECRET")
    expect(Number(stdinBytes)).toBeGreaterThan(content.length)
    // The hook's own folder (payload and value copies) is gone once it has ended.
    // (Node keeps its compile cache in TMPDIR too.)
    const left = () => readdirSync(tmp).filter((name) => name !== "node-compile-cache")
    expect(await waitFor(() => left().length === 0, 5_000), left().join(", ")).toBe(true)
  })
})

describe("env placeholder values", () => {
  const guard = (preset: Array<string>, settings: string, payload: unknown, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [bin, "run", "PreToolUse", ...preset, "--settings", settings, "--project-dir", dir], {
      input: JSON.stringify(payload),
      encoding: "utf8",
      env: { ...process.env, ...env }
    })

  it("an attacker's padding cannot hide a secret from a guard reading an env value: the value is whole, or the call is blocked (10 000 and 200 000 characters of padding)", () => {
    const settings = join(dir, "env-guard.json")
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Write",
              hooks: [
                {
                  type: "command",
                  command: `case "$CONTENT" in *AKIA0SECRET*) echo "a key in the content" >&2; exit 2;; esac`,
                  env: { CONTENT: "${tool_input.content}" }
                }
              ]
            }
          ]
        }
      })
    )
    const result = guard([], settings, { tool_name: "Write", tool_input: { content: `${" ".repeat(10_000)}AKIA0SECRET` } })
    expect(result.status, result.stderr).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ blocked: true, reason: "a key in the content" })
    // Over 128 KiB no environment can hold the value: the guard is not started, and the call is blocked.
    const over = guard([], settings, { tool_name: "Write", tool_input: { content: `${" ".repeat(200_000)}AKIA0SECRET` } })
    expect(over.status, over.stderr).toBe(2)
    expect(JSON.parse(over.stdout).reason).toContain("the payload kept the hook from starting")
    expect(over.stderr).toContain("over 128 KiB")
  })

  it("pigo keeps its documented cut: PIGO_* values at 10 000 characters", () => {
    const home = join(dir, "pigo-cut")
    const record = join(dir, "pigo-cut.txt")
    mkdirSync(join(home, ".pigo"), { recursive: true })
    writeFileSync(
      join(home, ".pigo", "config.json"),
      JSON.stringify({
        plugins: [{ name: "cut", hooks: { tool_end: [{ command: `printf '%s' "$PIGO_TOOL_OUTPUT" | wc -c > '${record}'` }] } }]
      })
    )
    const result = spawnSync(process.execPath, [bin, "run", "tool_end", "--preset", "pigo", "--project-dir", dir], {
      input: JSON.stringify({ tool_name: "bash", tool_response: "y".repeat(30_000) }),
      encoding: "utf8",
      env: { ...process.env, HOME: home, PIGO_HOME: join(home, ".pigo") }
    })
    expect(result.status, result.stderr).toBe(0)
    expect(readFileSync(record, "utf8").trim()).toBe("10000")
  })
})
