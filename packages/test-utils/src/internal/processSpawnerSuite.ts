import * as HookRunner from "@agent-hooks/core/HookRunner"
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { ProcessHandle, ProcessOutput, ProcessRequest, SpawnError } from "@agent-hooks/core/ProcessSpawner"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as Duration from "effect/Duration"
import type * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { spawn as spawnChild } from "node:child_process"
import { setImmediate } from "node:timers"
import { existsSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import type { FixtureName } from "../Fixtures.ts"
import type { ReleaseHost, SuiteCapabilities, SuiteOptions } from "../ProcessSpawnerSuite.ts"
import { register } from "./cleanups.ts"
import * as Fixtures from "./fixtures.ts"
import { isAlive, waitUntilDead } from "./processes.ts"

/** Real-time upper bounds. Generous: the VMs have 2 noisy cores and reap zombies late (~1.7 s). */
const PROMPTLY = "5 seconds"
const GONE_WITHIN_MS = 3_000
const TEST_TIMEOUT_MS = 20_000

/** The HookRunner's ladder, short: the cases time out after 300 ms. */
const RUNNER_OPTIONS: HookRunner.RunnerOptions = { killGrace: "300 millis", drainWindow: "100 millis" }

/** The release host script, next to this module (`.ts` from the sources, `.js` from the build). */
const RELEASE_HOST_SCRIPT = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./releaseHost.ts" : "./releaseHost.js", import.meta.url)
)

const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin" })

/** @internal */
export const request = (overrides: Partial<ProcessRequest> = {}): ProcessRequest => ({
  file: "/bin/sh",
  args: [],
  cwd: tmpdir(),
  env: baseEnv(),
  stdin: "",
  maxOutputBytes: 1024 * 1024,
  ...overrides
})

/** `/bin/sh <fixture> ...args`, so no fixture depends on its executable bit (except where tested). */
const sh = (name: FixtureName, args: ReadonlyArray<string> = [], overrides: Partial<ProcessRequest> = {}): ProcessRequest =>
  request({ file: "/bin/sh", args: [Fixtures.path(name), ...args], ...overrides })

/** A handle with its output read the way the core's HookRunner reads it (capped, decoded as it comes). */
interface ReadHandle extends ProcessHandle {
  readonly output: Effect.Effect<ProcessOutput>
  readonly outputSoFar: () => ProcessOutput
}

const spawn = (req: ProcessRequest): Effect.Effect<ReadHandle, SpawnError, ProcessSpawner | Scope.Scope> =>
  ProcessSpawner.use((spawner) => spawner.spawn(req)).pipe(
    Effect.flatMap((handle) =>
      Effect.map(HookRunner.collect(handle, req.maxOutputBytes, req.maxStderrBytes, req.maxPlainStdoutBytes), (reader) => ({
        ...handle,
        output: reader.output,
        outputSoFar: reader.soFar
      }))
    )
  )

/** Runs to the end: the exit and the full output, each bounded in time. */
const complete = (handle: ReadHandle) =>
  Effect.all({
    exit: Effect.timeout(handle.exited, PROMPTLY),
    output: Effect.timeout(handle.output, PROMPTLY)
  })

const sleepMs = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls (real time) until `predicate` holds; fails the test after `ms`. */
const waitFor = (what: string, predicate: () => boolean, ms = 5_000): Effect.Effect<void> =>
  Effect.gen(function* () {
    const deadline = Date.now() + ms
    while (!predicate()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error(`timed out waiting for ${what}`))
      yield* sleepMs(20)
    }
  })

const readPids = (file: string): Array<number> => {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(Number)
  } catch {
    return []
  }
}

/** Waits until the fixture has written `count` PIDs to `file`. */
const pidsIn = (file: string, count: number): Effect.Effect<Array<number>> =>
  Effect.as(
    waitFor(`${count} PIDs in ${file}`, () => readPids(file).length >= count),
    undefined
  ).pipe(Effect.map(() => readPids(file)))

const expectGone = (pids: ReadonlyArray<number>): Effect.Effect<void> =>
  Effect.promise(() => waitUntilDead(pids, GONE_WITHIN_MS)).pipe(
    Effect.map((alive) => expect(alive, `processes still alive after ${GONE_WITHIN_MS} ms`).toEqual([]))
  )

/** Reads the PIDs the fixture wrote, once it is known to have written them. */
const readPidsNow = (file: string): Array<number> => readFileSync(file, "utf8").trim().split("\n").map(Number)

/** Starts the release host (see `releaseHost.ts`) and waits (at most 15 s) for it to exit. */
const runReleaseHost = (host: ReleaseHost, pidFile: string) =>
  new Promise<{ code: number | null; out: string; err: string; ms: number }>((resolve) => {
    const started = Date.now()
    const child = spawnChild(host.command, [...host.args, RELEASE_HOST_SCRIPT, pidFile, host.spawner], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
    child.on("error", (error) => {
      clearTimeout(timer)
      resolve({ code: null, out, err: `${err}${String(error)}`, ms: Date.now() - started })
    })
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, out, err, ms: Date.now() - started })
    })
  })

/** @internal */
export const suite = (
  name: string,
  layer: Layer.Layer<ProcessSpawner>,
  capabilities: SuiteCapabilities,
  options: SuiteOptions = {}
): void => {
  describe(`${name}: ProcessSpawner conformance`, () => {
    const run = <A, E>(effect: Effect.Effect<A, E, ProcessSpawner | Scope.Scope>): Promise<A> =>
      Effect.runPromise(effect.pipe(Effect.scoped, Effect.provide(layer)))
    const spawnError = (req: ProcessRequest): Promise<SpawnError> => run(Effect.flip(spawn(req)))
    const runHook = (req: ProcessRequest, timeout: Duration.Input): Promise<HookRunner.ProcessRun> =>
      run(HookRunner.run(req, timeout, RUNNER_OPTIONS))
    /**
     * `runHook` while the host's event loop is blocked from `fromMs` for `forMs` (a loaded host:
     * synchronous spawns, CPU starvation), in the loop's check phase (where immediates run, as a
     * scheduler's batch of spawns may): after it the loop runs the timers that came due before it
     * polls the pipes again.
     */
    const runStalled = async (req: ProcessRequest, timeout: Duration.Input, fromMs: number, forMs: number) => {
      const stall = setTimeout(
        () =>
          setImmediate(() => {
            const end = Date.now() + forMs
            while (Date.now() < end) {}
          }),
        fromMs
      )
      try {
        return await runHook(req, timeout)
      } finally {
        clearTimeout(stall)
      }
    }

    const { tempDir, killAfter } = register("agent-hooks-spawner-")
    const pidFile = (): string => join(tempDir(), "pids")

    const test = (title: string, body: () => Promise<void>) => it(title, body, TEST_TIMEOUT_MS)
    const testWithGroups = (title: string, body: () => Promise<void>) =>
      it.skipIf(!capabilities.processGroups)(title, body, TEST_TIMEOUT_MS)

    describe("stdin", () => {
      test("the JSON payload arrives intact, then EOF", () =>
        run(
          Effect.gen(function* () {
            const payload = JSON.stringify({
              hook_event_name: "PreToolUse",
              tool_input: { command: "echo 'héllo' \"$HOME\" \\ `x`\nnext line" },
              emoji: "😀€"
            })
            const handle = yield* spawn(sh("echo-stdin.sh", [], { stdin: payload }))
            // `cat` returns only at EOF: the marker after the payload proves stdin was closed.
            const { exit, output } = yield* complete(handle)
            expect(output.stdout).toBe(`${payload}<EOF>`)
            expect(exit).toEqual({ exitCode: 0, signal: null })
          })
        ))

      test("an empty stdin is an immediate EOF", () =>
        run(
          Effect.gen(function* () {
            const { output } = yield* complete(yield* spawn(sh("echo-stdin.sh")))
            expect(output.stdout).toBe("<EOF>")
          })
        ))

      for (const sleep of ["0", "0.3"]) {
        test(`5 MB of stdin to a hook that never reads it (exits after ${sleep} s)`, () =>
          run(
            Effect.gen(function* () {
              const handle = yield* spawn(sh("never-reads-stdin.sh", [sleep], { stdin: "x".repeat(5 * 1024 * 1024) }))
              const { exit, output } = yield* complete(handle)
              expect(exit).toEqual({ exitCode: 0, signal: null })
              expect(output.stdout).toBe("did not read")
            })
          ))
      }

      test("concurrent processes each get their own stdin and output", () =>
        run(
          Effect.gen(function* () {
            const results = yield* Effect.forEach(
              Array.from({ length: 8 }, (_, i) => `{"n":${i}}`),
              (payload) => Effect.flatMap(spawn(sh("echo-stdin.sh", [], { stdin: payload })), complete),
              { concurrency: "unbounded" }
            )
            expect(results.map((r) => r.output.stdout)).toEqual(Array.from({ length: 8 }, (_, i) => `{"n":${i}}<EOF>`))
          })
        ))
    })

    describe("output and exit", () => {
      for (const code of [0, 2, 3]) {
        test(`stdout, stderr and exit code ${code}`, () =>
          run(
            Effect.gen(function* () {
              const { exit, output } = yield* complete(yield* spawn(sh("exit-code.sh", [String(code)])))
              expect(exit).toEqual({ exitCode: code, signal: null })
              expect(output).toEqual({
                stdout: `to stdout ${code}`,
                stderr: `to stderr ${code}`,
                stdoutTruncated: false,
                stderrTruncated: false
              })
            })
          ))
      }

      for (const signal of ["TERM", "KILL"]) {
        test(`ended by SIG${signal}: the signal name and a null exit code`, () =>
          run(
            Effect.gen(function* () {
              const { exit } = yield* complete(yield* spawn(sh("signal-self.sh", [signal])))
              expect(exit).toEqual({ exitCode: null, signal: `SIG${signal}` })
            })
          ))
      }

      test("each stream is capped at maxOutputBytes; the rest is drained and the flag set", () =>
        run(
          Effect.gen(function* () {
            // 1 MB on stdout against a 1000-byte cap: the child must not block on a full pipe.
            const handle = yield* spawn(sh("print-bytes.sh", ["1000000", "1000"], { maxOutputBytes: 1000 }))
            const { exit, output } = yield* complete(handle)
            expect(exit).toEqual({ exitCode: 0, signal: null })
            expect(output).toEqual({
              stdout: "o".repeat(1000),
              stderr: "e".repeat(1000),
              stdoutTruncated: true,
              stderrTruncated: false
            })
          })
        ))

      test("stderr has its own cap", () =>
        run(
          Effect.gen(function* () {
            const { output } = yield* complete(yield* spawn(sh("print-bytes.sh", ["10", "300000"], { maxOutputBytes: 100 })))
            expect(output).toEqual({
              stdout: "o".repeat(10),
              stderr: "e".repeat(100),
              stdoutTruncated: false,
              stderrTruncated: true
            })
          })
        ))

      test("plain-text stdout and stderr have their own smaller caps; a JSON answer (`{` first) is kept to maxOutputBytes", () =>
        run(
          Effect.gen(function* () {
            const caps = { maxOutputBytes: 3_000_000, maxStderrBytes: 100, maxPlainStdoutBytes: 1000 }
            // 5 MB of text on stdout: cut at its own cap (the rest drained: the child never blocks), and stderr at its own
            const plain = yield* complete(yield* spawn(sh("print-bytes.sh", ["5000000", "300000"], caps)))
            expect(plain.exit).toEqual({ exitCode: 0, signal: null })
            expect(plain.output).toEqual({
              stdout: "o".repeat(1000),
              stderr: "e".repeat(100),
              stdoutTruncated: true,
              stderrTruncated: true
            })
            // an answer that starts with "{" after white space: kept past the plain cap, up to maxOutputBytes
            const script = `printf ' \\n{'; head -c "$1" /dev/zero | tr '\\0' o`
            const json = yield* complete(yield* spawn(request({ args: ["-c", script, "sh", "2000000"], ...caps })))
            expect(json.output.stdout).toBe(` \n{${"o".repeat(2_000_000)}`)
            expect(json.output.stdoutTruncated).toBe(false)
            const over = yield* complete(yield* spawn(request({ args: ["-c", script, "sh", "4000000"], ...caps })))
            expect(over.exit).toEqual({ exitCode: 0, signal: null })
            expect(over.output.stdout.length).toBe(3_000_000)
            expect(over.output.stdoutTruncated).toBe(true)
          })
        ))

      test("the cap never leaves half a character", () =>
        run(
          Effect.gen(function* () {
            // "é€😀" is 9 bytes; the next "é" would end at byte 11 > 10.
            const { output } = yield* complete(yield* spawn(sh("repeat-multibyte.sh", ["100"], { maxOutputBytes: 10 })))
            expect(output.stdout).toBe("é€😀")
            expect(output.stdoutTruncated).toBe(true)
          })
        ))

      test("multibyte UTF-8 split across writes is decoded intact, and outputSoFar never shows half a character", () =>
        run(
          Effect.gen(function* () {
            const handle = yield* spawn(sh("split-multibyte.sh"))
            // The first write is "a" plus the first byte of "€"; the rest follows 200 ms later.
            yield* waitFor("the first write", () => handle.outputSoFar().stdout !== "")
            const early = handle.outputSoFar().stdout
            expect(early).not.toContain("\uFFFD")
            expect("a€b😀c".startsWith(early)).toBe(true)
            const { output } = yield* complete(handle)
            expect(output.stdout).toBe("a€b😀c")
          })
        ))

      test("large multibyte output split by pipe chunks is decoded intact", () =>
        run(
          Effect.gen(function* () {
            const { output } = yield* complete(yield* spawn(sh("repeat-multibyte.sh", ["100000"], { maxOutputBytes: 2_000_000 })))
            expect(output.stdout.length).toBe("é€😀".length * 100000)
            expect(output.stdout).toBe("é€😀".repeat(100000))
            expect(output.stdoutTruncated).toBe(false)
          })
        ))
    })

    describe("spawn failures", () => {
      test("a missing executable is a SpawnError", () =>
        run(
          Effect.gen(function* () {
            const error = yield* Effect.flip(spawn(request({ file: "agent-hooks-no-such-executable", args: [] })))
            expect(error._tag).toBe("SpawnError")
            expect(error.file).toBe("agent-hooks-no-such-executable")
            expect(error.detail).toContain("ENOENT")
          })
        ))

      test("a missing absolute path is a SpawnError", () =>
        run(
          Effect.gen(function* () {
            const file = join(tempDir(), "missing", "hook")
            const error = yield* Effect.flip(spawn(request({ file, args: [] })))
            expect(error._tag).toBe("SpawnError")
            expect(error.file).toBe(file)
          })
        ))

      test("a non-existent cwd is a SpawnError", () =>
        run(
          Effect.gen(function* () {
            const cwd = join(tempDir(), "does-not-exist")
            const error = yield* Effect.flip(spawn(sh("exit-code.sh", ["0"], { cwd })))
            expect(error._tag).toBe("SpawnError")
            expect(error.file).toBe("/bin/sh")
            expect(error.message).toContain("could not start /bin/sh")
          })
        ))

      test("spawn errors read like Node's: `spawn <file> ENOENT`, and a missing cwd is named", async () => {
        const missing = await spawnError(request({ file: "agent-hooks-no-such-executable" }))
        expect(missing.detail).toBe("spawn agent-hooks-no-such-executable ENOENT")
        // Runtimes blame the executable for a missing cwd; the detail names the cwd.
        const cwd = join(tempDir(), "gone")
        const noCwd = await spawnError(request({ args: ["-c", "exit 0"], cwd }))
        expect(noCwd.detail).toBe(`spawn /bin/sh ENOENT (cwd ${cwd} does not exist)`)
      })

      test("a payload too large for argv (E2BIG) is a SpawnError with reason payload", async () => {
        // Linux: at most 128 KiB per argument string.
        const error = await spawnError(request({ args: ["-c", "exit 0", "sh", "x".repeat(200_000)] }))
        expect({ detail: error.detail, reason: error.reason }).toEqual({ detail: "spawn /bin/sh E2BIG", reason: "payload" })
      })
    })

    describe("request", () => {
      test("exec form: arguments arrive verbatim, no shell in between", () =>
        run(
          Effect.gen(function* () {
            const args = ["$(whoami)", "a; echo injected", "*", "'single'", '"double"', "with  spaces", "", "`id`", "$HOME"]
            const handle = yield* spawn(request({ file: Fixtures.path("print-args.sh"), args }))
            const { exit, output } = yield* complete(handle)
            expect(exit).toEqual({ exitCode: 0, signal: null })
            expect(output.stdout).toBe(args.map((arg) => `[${arg}]\n`).join(""))
          })
        ))

      test("a bare executable name is resolved on the PATH of env", () =>
        run(
          Effect.gen(function* () {
            const env = { PATH: `${Fixtures.directory}:${baseEnv().PATH}` }
            const { output } = yield* complete(yield* spawn(request({ file: "print-args.sh", args: ["found"], env })))
            expect(output.stdout).toBe("[found]\n")
          })
        ))

      test("env is exactly the given environment", () =>
        run(
          Effect.gen(function* () {
            const env = { ...baseEnv(), AGENT_HOOKS_PROBE: "value with spaces é" }
            const { output } = yield* complete(yield* spawn(sh("print-env.sh", [], { env })))
            // HOME is set in the parent (normally) but not in `env`: nothing is merged in.
            expect(output.stdout).toBe("probe=value with spaces é home=unset")
          })
        ))

      test("NUL bytes in arguments and in the environment never make a spawn fail: they are stripped", () =>
        run(
          Effect.gen(function* () {
            const env = { ...baseEnv(), PROBE: "c\u0000d", ["NA\u0000ME"]: "e" }
            const handle = yield* spawn(request({ args: ["-c", 'printf "%s|%s|%s" "$1" "$PROBE" "$NAME"', "sh", "a\u0000b"], env }))
            const { exit, output } = yield* complete(handle)
            expect(exit).toEqual({ exitCode: 0, signal: null })
            expect(output.stdout).toBe("ab|cd|e")
          })
        ))

      test("files: each content in a fresh 0600 file named by its env var, removed when the scope closes", () =>
        run(
          Effect.gen(function* () {
            const big = "é".repeat(150_000) + "\n$(touch /tmp/never)'\""
            const script = 'for v in BIG SMALL; do eval "f=\\$$v"; printf "%s %s\\n" "$f" "$(stat -c %a "$f")"; done; cat "$BIG" "$SMALL"'
            const { paths, stdout } = yield* Effect.scoped(
              Effect.gen(function* () {
                const handle = yield* spawn(
                  request({
                    args: ["-c", script],
                    files: [
                      { env: "BIG", content: big },
                      { env: "SMALL", content: "small" }
                    ],
                    maxOutputBytes: 1024 * 1024
                  })
                )
                const { exit, output } = yield* complete(handle)
                expect(exit).toEqual({ exitCode: 0, signal: null })
                const lines = output.stdout.split("\n")
                const paths = lines.slice(0, 2).map((line) => line.split(" ")[0]!)
                expect(lines.slice(0, 2).map((line) => line.split(" ")[1])).toEqual(["600", "600"])
                expect(paths.every(existsSync)).toBe(true)
                return { paths, stdout: lines.slice(2).join("\n") }
              })
            )
            expect(stdout).toBe(big + "small")
            expect(paths.filter(existsSync)).toEqual([])
          })
        ))

      test("cwd is honoured", () =>
        run(
          Effect.gen(function* () {
            const cwd = tempDir()
            const { output } = yield* complete(yield* spawn(sh("print-cwd.sh", [], { cwd })))
            expect(output.stdout.trim()).toBe(cwd)
          })
        ))
    })

    describe("process tree", () => {
      test("exited completes promptly while a grandchild keeps stdout open", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            const grandchildren = yield* Effect.scoped(
              Effect.gen(function* () {
                const handle = yield* spawn(sh("grandchild-holds-stdout.sh", [file]))
                // The grandchild sleeps 30 s holding stdout; `exited` must not wait for it.
                const exit = yield* Effect.timeout(handle.exited, PROMPTLY)
                expect(exit).toEqual({ exitCode: 0, signal: null })
                const pids = yield* pidsIn(file, 1)
                yield* waitFor("the output so far", () => handle.outputSoFar().stdout === "started")
                // stdout is still open (the grandchild holds it), so `output` is not complete.
                const output = yield* Effect.timeoutOption(handle.output, "200 millis")
                expect(Option.isNone(output)).toBe(true)
                expect(pids.every(isAlive)).toBe(true)
                return pids
              })
            )
            // The scope is closed: the grandchild is gone with the group.
            if (capabilities.processGroups) yield* expectGone(grandchildren)
          })
        ))

      testWithGroups("groupAlive: true while a grandchild is left in the group, false once the group is empty", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            const handle = yield* spawn(sh("grandchild-holds-stdout.sh", [file]))
            yield* Effect.timeout(handle.exited, PROMPTLY)
            const pids = yield* pidsIn(file, 1)
            // The runner asks this after the exit: a grandchild may hold the pipes, so the drain window decides.
            expect(handle.groupAlive?.()).toBe(true)
            for (const pid of pids) process.kill(pid, "SIGKILL")
            // Reaped late on some hosts: a zombie still counts as a member until then.
            yield* waitFor("the group to be empty", () => handle.groupAlive?.() === false)
            const quiet = yield* spawn(request({ args: ["-c", "printf done"] }))
            yield* Effect.timeout(quiet.exited, PROMPTLY)
            yield* waitFor("the group to be empty", () => quiet.groupAlive?.() === false)
          })
        )
      )

      test("kill(SIGTERM) ends the direct child with SIGTERM", () =>
        run(
          Effect.gen(function* () {
            const handle = yield* spawn(sh("spawn-grandchildren.sh", [pidFile()]))
            yield* waitFor("ready", () => handle.outputSoFar().stdout === "ready")
            yield* handle.kill("SIGTERM")
            const exit = yield* Effect.timeout(handle.exited, PROMPTLY)
            expect(exit).toEqual({ exitCode: null, signal: "SIGTERM" })
          })
        ))

      testWithGroups("the child leads its own session and process group (detached is setsid)", () =>
        run(
          Effect.gen(function* () {
            const handle = yield* spawn(request({ args: ["-c", "echo $$ $(ps -o pgid= -p $$) $(ps -o sid= -p $$)"] }))
            const { output } = yield* complete(handle)
            const [pid, pgid, sid] = output.stdout.trim().split(/\s+/).map(Number)
            expect({ pgid, sid }).toEqual({ pgid: pid, sid: pid })
            expect(pid).not.toBe(process.pid)
          })
        )
      )

      testWithGroups("kill(SIGTERM) reaches the grandchildren", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            const handle = yield* spawn(sh("spawn-grandchildren.sh", [file]))
            yield* waitFor("ready", () => handle.outputSoFar().stdout === "ready")
            const pids = yield* pidsIn(file, 3)
            yield* handle.kill("SIGTERM")
            yield* Effect.timeout(handle.exited, PROMPTLY)
            // Checked while the scope is still open: the scope's own SIGKILL plays no part here.
            yield* expectGone(pids)
          })
        )
      )

      test("a process that ignores SIGTERM survives it and dies on SIGKILL", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            const handle = yield* spawn(sh("ignore-term.sh", [file]))
            yield* waitFor("ready", () => handle.outputSoFar().stdout === "ready")
            const pids = yield* pidsIn(file, 2)
            yield* handle.kill("SIGTERM")
            const afterTerm = yield* Effect.timeoutOption(handle.exited, "300 millis")
            expect(Option.isNone(afterTerm)).toBe(true)
            yield* handle.kill("SIGKILL")
            const exit = yield* Effect.timeout(handle.exited, PROMPTLY)
            expect(exit).toEqual({ exitCode: null, signal: "SIGKILL" })
            if (capabilities.processGroups) yield* expectGone(pids)
          })
        ))

      test("kill after the process exited is harmless", () =>
        run(
          Effect.gen(function* () {
            const handle = yield* spawn(sh("exit-code.sh", ["0"]))
            const { exit } = yield* complete(handle)
            yield* handle.kill("SIGTERM")
            yield* handle.kill("SIGKILL")
            expect(exit).toEqual({ exitCode: 0, signal: null })
          })
        ))
    })

    describe("closing the scope", () => {
      testWithGroups("kills what a hook left behind after exiting 0", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            const leftovers = yield* Effect.scoped(
              Effect.gen(function* () {
                const handle = yield* spawn(sh("leave-background.sh", [file]))
                const { exit, output } = yield* complete(handle)
                expect(exit).toEqual({ exitCode: 0, signal: null })
                expect(output.stdout).toBe("done")
                const pids = yield* pidsIn(file, 1)
                expect(pids.every(isAlive)).toBe(true)
                return pids
              })
            )
            yield* expectGone(leftovers)
          })
        )
      )

      test("kills a running, TERM-ignoring hook and its group, without waiting for them", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            let closedAt = 0
            const pids = yield* Effect.scoped(
              Effect.gen(function* () {
                const handle = yield* spawn(sh("ignore-term.sh", [file]))
                yield* waitFor("ready", () => handle.outputSoFar().stdout === "ready")
                const pids = yield* pidsIn(file, 2)
                closedAt = Date.now()
                return pids
              })
            )
            // Closing returns at once: it does not wait for the group (reaped late on some hosts).
            expect(Date.now() - closedAt).toBeLessThan(1_000)
            const direct = pids.slice(0, 1)
            yield* expectGone(capabilities.processGroups ? pids : direct)
          })
        ))

      test("an interrupted fiber closes the scope and kills the process", () =>
        run(
          Effect.gen(function* () {
            const file = pidFile()
            const fiber = yield* Effect.forkChild(
              Effect.scoped(
                Effect.gen(function* () {
                  const handle = yield* spawn(sh("spawn-grandchildren.sh", [file]))
                  return yield* handle.exited
                })
              )
            )
            const pids = yield* pidsIn(file, 3)
            yield* Fiber.interrupt(fiber)
            yield* expectGone(capabilities.processGroups ? pids : pids.slice(0, 1))
          })
        ))
    })

    describe("detached", () => {
      testWithGroups("a detached request outlives its scope with its payload and value files, and its launcher logs how it ended", () =>
        run(
          Effect.gen(function* () {
            const dir = tempDir()
            const log = join(dir, "detached.jsonl")
            const out = join(dir, "detached.out")
            const exit = yield* Effect.scoped(
              Effect.gen(function* () {
                const handle = yield* spawn(
                  request({
                    args: ["-c", `sleep 0.3; { cat; cat "$VALUE"; } > '${out}'; printf '%s\\n' 'it \\failed"' >&2; exit 7`],
                    stdin: "payload;",
                    files: [{ env: "VALUE", content: "value" }],
                    detached: { capSeconds: 10, logTo: { file: log, record: `{"hook":"x"` } }
                  })
                )
                return (yield* complete(handle)).exit
              })
            )
            // The launcher's exit: the process has started, and the scope's close did not end it.
            expect(exit).toEqual({ exitCode: 0, signal: null })
            yield* waitFor("the end record", () => existsSync(log) && readFileSync(log, "utf8").endsWith("\n"), 10_000)
            expect(readFileSync(out, "utf8")).toBe("payload;value")
            expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({
              hook: "x",
              exitCode: 7,
              signal: null,
              status: "non-blocking-error",
              timedOut: false,
              blocked: false,
              error: `exit 7: it \\failed"`,
              detached: "ended"
            })
          })
        )
      )
    })

    describe("under the core's HookRunner", () => {
      it("1 GiB on stdout under a 1 MiB cap: 1 MiB kept, the flag set, the rest drained unread", async () => {
        const result = await runHook(request({ args: ["-c", "head -c 1073741824 /dev/zero; echo done >&2"] }), "60 seconds")
        expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdoutTruncated: true, stderr: "done\n", stderrTruncated: false })
        expect(result.stdout.length).toBe(1024 * 1024)
      }, 60_000)

      test("a cwd that does not exist falls back to the project directory, with a warning", async () => {
        const projectDir = tempDir()
        const cwd = join(projectDir, "gone")
        const result = await run(HookRunner.run(request({ args: ["-c", "pwd"], cwd }), "5 seconds", { ...RUNNER_OPTIONS, projectDir }))
        expect(result).toMatchObject({ exitCode: 0, stdout: `${projectDir}\n`, spawnError: undefined })
        expect(result.warnings).toEqual([`cwd ${cwd} does not exist; the hook runs in the project directory ${projectDir}`])
      })

      test("a relative cwd runs in the project directory, with a warning", async () => {
        const projectDir = tempDir()
        const result = await run(
          HookRunner.run(request({ args: ["-c", "pwd"], cwd: "sub/dir" }), "5 seconds", { ...RUNNER_OPTIONS, projectDir })
        )
        expect(result).toMatchObject({ exitCode: 0, stdout: `${projectDir}\n` })
        expect(result.warnings).toEqual([`cwd "sub/dir" is not absolute; the hook runs in the project directory ${projectDir}`])
      })

      test("without a project directory a missing cwd is a spawn failure the caller sees (reason cwd)", async () => {
        const cwd = join(tempDir(), "gone")
        const result = await runHook(request({ args: ["-c", "exit 0"], cwd }), "5 seconds")
        expect(result).toMatchObject({
          exitCode: null,
          spawnErrorReason: "cwd",
          spawnError: `spawn /bin/sh ENOENT (cwd ${cwd} does not exist)`
        })
      })

      test("a payload too large to spawn is a result with reason payload, never a skip", async () => {
        const result = await runHook(request({ args: ["-c", "exit 0", "sh", "x".repeat(200_000)] }), "5 seconds")
        expect(result).toMatchObject({ exitCode: null, spawnErrorReason: "payload", spawnError: "spawn /bin/sh E2BIG" })
      })

      const withItsGroup = capabilities.processGroups ? ", with its group" : " (the direct child)"
      test(`a TERM-ignoring hook is ended by the SIGKILL step of the ladder${withItsGroup}`, async () => {
        const file = pidFile()
        const result = await runHook(sh("ignore-term.sh", [file]), "300 millis")
        expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "ready" })
        const pids = readPidsNow(file)
        // Without process groups only the direct child is reached (the grandchild is cleaned up after the test).
        if (!capabilities.processGroups) killAfter(pids)
        const gone = capabilities.processGroups ? pids : pids.slice(0, 1)
        expect(await waitUntilDead(gone, GONE_WITHIN_MS)).toEqual([])
      })

      // With groups only: without them the window decides at once whether a process holds the pipes.
      // Not on Deno: its loop gives no turn that is sure to come after the pipes' reads (left open).
      it.skipIf(!capabilities.processGroups || "Deno" in globalThis)(
        "an output that ended before the hook's deadline is read whole when the host's event loop stalled past it",
        async () => {
          // The hook answers and exits at once; a process that left its group (setsid) holds stdout
          // 0.5 s more, well within the hook's 2 s. Meanwhile the host's event loop is blocked from
          // 0.4 s to 3.4 s (a loaded host: synchronous spawns, CPU starvation), past the deadline.
          const stalled = () =>
            runStalled(request({ args: ["-c", "setsid sh -c 'sleep 0.5' & printf answer; exit 0"] }), "2 seconds", 400, 3_000)
          // A host too loaded to see the exit before the stall times the hook out (its timeout was
          // due with the exit unread): not the case under test, so it is run again.
          let result = await stalled()
          for (let attempt = 1; attempt < 3 && result.timedOut; attempt++) result = await stalled()
          expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: "answer" })
          expect(result.outputIncomplete).toBeUndefined()
          expect(result.warnings).toBeUndefined()
        },
        TEST_TIMEOUT_MS
      )

      // Not on Deno: its loop gives no turn that is sure to come after the exit is read (left open).
      it.skipIf("Deno" in globalThis)(
        "a hook that exited before its timeout is not timed out when the host's event loop stalled past the deadline",
        async () => {
          // The hook answers (exit 2, a block) after 0.3 s; the host's event loop is blocked from 0.05 s
          // to 2.05 s, past the hook's 1 s timeout: the timeout and the exit are both due when it runs again.
          const result = await runStalled(request({ args: ["-c", "sleep 0.3; printf answer; echo no >&2; exit 2"] }), "1 second", 50, 2_000)
          expect(result).toMatchObject({ exitCode: 2, timedOut: false, stdout: "answer", stderr: "no\n" })
        },
        TEST_TIMEOUT_MS
      )

      test("a grandchild holding stdout delays the result by the drain window only", async () => {
        const file = pidFile()
        const started = Date.now()
        // The grandchild sleeps 30 s holding stdout, far longer than the drain window.
        const result = await runHook(sh("grandchild-holds-stdout.sh", [file]), "20 seconds")
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(result).toMatchObject({ timedOut: false, exitCode: 0, signal: null, stdout: "started" })
        const pids = readPidsNow(file)
        if (capabilities.processGroups) expect(await waitUntilDead(pids, GONE_WITHIN_MS)).toEqual([])
        else killAfter(pids)
      })
    })

    const releaseHost = options.releaseHost
    it.skipIf(releaseHost === undefined)(
      "the host exits on its own after release, even if a setsid'd grandchild (which escapes the group) holds stdout",
      async () => {
        const file = join(tempDir(), "pid")
        const host = await runReleaseHost(releaseHost!, file)
        const escaped = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : undefined
        if (escaped) killAfter([escaped])
        expect({ code: host.code, err: host.err }).toEqual({ code: 0, err: "" })
        expect(host.out).toBe(`released {"exitCode":0,"signal":null}\n`)
        // The grandchild sleeps 30 s: the host did not wait for it.
        expect(host.ms).toBeLessThan(10_000)
        // Documented limitation: setsid leaves the process group, so the release does not reach it.
        expect(escaped !== undefined && isAlive(escaped)).toBe(true)
      },
      TEST_TIMEOUT_MS
    )
  })
}
