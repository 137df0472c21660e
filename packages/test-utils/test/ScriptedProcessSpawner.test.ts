import * as HookRunner from "@agent-hooks/core/HookRunner"
import * as ProcessSpawner from "@agent-hooks/core/ProcessSpawner"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import * as ScriptedProcessSpawner from "@agent-hooks/test-utils/ScriptedProcessSpawner"

const request = (stdin: string, overrides: Partial<ProcessSpawner.ProcessRequest> = {}): ProcessSpawner.ProcessRequest => ({
  file: "/bin/sh",
  args: ["-c", "hook"],
  cwd: "/project",
  env: { PATH: "/bin" },
  stdin,
  maxOutputBytes: 1024,
  ...overrides
})

/** Spawns, and reads the output as the HookRunner does (capped, decoded). */
const spawn = (req: ProcessSpawner.ProcessRequest) =>
  ProcessSpawner.ProcessSpawner.use((spawner) => spawner.spawn(req)).pipe(
    Effect.flatMap((handle) =>
      Effect.map(HookRunner.collect(handle, req.maxOutputBytes), (reader) => ({
        ...handle,
        output: reader.output,
        outputSoFar: reader.soFar
      }))
    )
  )

describe("ScriptedProcessSpawner", () => {
  it.effect("a run without delay has exited with the scripted code and output", () => {
    const spawner = ScriptedProcessSpawner.layer(() => ({ exitCode: 2, stdout: "out", stderr: "blocked" }))
    return Effect.gen(function* () {
      const handle = yield* spawn(request("{}"))
      expect(yield* handle.exited).toEqual({ exitCode: 2, signal: null })
      expect(yield* handle.output).toEqual({ stdout: "out", stderr: "blocked", stdoutTruncated: false, stderrTruncated: false })
    }).pipe(Effect.provide(spawner))
  })

  it.effect("defaults: exit 0, empty output; a scripted signal means a null exit code", () => {
    const spawner = ScriptedProcessSpawner.layer((req) => (req.stdin === "sig" ? { signal: "SIGSEGV", exitCode: 1 } : {}))
    return Effect.gen(function* () {
      const plain = yield* spawn(request("plain"))
      expect(yield* plain.exited).toEqual({ exitCode: 0, signal: null })
      expect(plain.outputSoFar()).toEqual({ stdout: "", stderr: "", stdoutTruncated: false, stderrTruncated: false })
      const signalled = yield* spawn(request("sig"))
      expect(yield* signalled.exited).toEqual({ exitCode: null, signal: "SIGSEGV" })
    }).pipe(Effect.provide(spawner))
  })

  it.effect("a 10 s run completes only when the TestClock reaches 10 s", () =>
    Effect.gen(function* () {
      const handle = yield* spawn(request("{}"))
      const fiber = yield* Effect.forkChild(handle.exited)
      yield* TestClock.adjust("9999 millis")
      expect(fiber.pollUnsafe()).toBeUndefined()
      expect(handle.outputSoFar().stdout).toBe("written at start")
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toEqual({ exitCode: 0, signal: null })
      expect((yield* handle.output).stdout).toBe("written at start")
    }).pipe(Effect.provide(ScriptedProcessSpawner.layer(() => ({ delay: "10 seconds", stdout: "written at start" }))))
  )

  it.effect("SIGTERM ends a delayed run with SIGTERM", () =>
    Effect.gen(function* () {
      const handle = yield* spawn(request("{}"))
      yield* handle.kill("SIGTERM")
      expect(yield* handle.exited).toEqual({ exitCode: null, signal: "SIGTERM" })
    }).pipe(Effect.provide(ScriptedProcessSpawner.layer(() => ({ delay: "1 hour" }))))
  )

  it.effect("ignoreTerm: SIGTERM does nothing, SIGKILL ends the run", () => {
    const spawner = ScriptedProcessSpawner.layer(() => ({ delay: "1 hour", ignoreTerm: true }))
    return Effect.gen(function* () {
      const handle = yield* spawn(request("{}"))
      const fiber = yield* Effect.forkChild(handle.exited)
      yield* handle.kill("SIGTERM")
      yield* TestClock.adjust("1 minute")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* handle.kill("SIGKILL")
      expect(yield* Fiber.join(fiber)).toEqual({ exitCode: null, signal: "SIGKILL" })
      expect(spawner.kills).toEqual([
        { pid: handle.pid, signal: "SIGTERM" },
        { pid: handle.pid, signal: "SIGKILL" }
      ])
    }).pipe(Effect.provide(spawner))
  })

  it.effect("a kill after the natural exit changes nothing", () =>
    Effect.gen(function* () {
      const handle = yield* spawn(request("{}"))
      yield* TestClock.adjust("1 second")
      yield* handle.kill("SIGKILL")
      expect(yield* handle.exited).toEqual({ exitCode: 3, signal: null })
    }).pipe(Effect.provide(ScriptedProcessSpawner.layer(() => ({ delay: "1 second", exitCode: 3 }))))
  )

  it.effect("closing the scope ends a running run with SIGKILL", () =>
    Effect.gen(function* () {
      const handle = yield* Effect.scoped(spawn(request("{}")))
      expect(yield* handle.exited).toEqual({ exitCode: null, signal: "SIGKILL" })
    }).pipe(Effect.provide(ScriptedProcessSpawner.layer(() => ({ delay: "1 hour" }))))
  )

  it.effect("a SpawnError from the script fails spawn", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(spawn(request("{}")))
      expect(error).toMatchObject({ _tag: "SpawnError", file: "jq", detail: "spawn jq ENOENT" })
    }).pipe(
      Effect.provide(
        ScriptedProcessSpawner.layer(() => new ProcessSpawner.SpawnError({ file: "jq", cause: null, detail: "spawn jq ENOENT" }))
      )
    )
  )

  it.effect("output is capped at maxOutputBytes, never mid-character", () =>
    Effect.gen(function* () {
      const handle = yield* spawn(request("{}", { maxOutputBytes: 4 }))
      expect(yield* handle.output).toEqual({ stdout: "a€", stderr: "ok", stdoutTruncated: true, stderrTruncated: false })
    }).pipe(Effect.provide(ScriptedProcessSpawner.layer(() => ({ stdout: "a€€", stderr: "ok" }))))
  )

  it.effect("records every request in order", () => {
    const spawner = ScriptedProcessSpawner.layer(() => ({}))
    return Effect.gen(function* () {
      yield* spawn(request("first"))
      yield* spawn(request("second", { cwd: "/elsewhere" }))
      expect(spawner.requests.map((r) => [r.stdin, r.cwd])).toEqual([
        ["first", "/project"],
        ["second", "/elsewhere"]
      ])
      expect((yield* ProcessSpawner.ProcessSpawner).capabilities).toEqual({ runtime: "scripted", processGroups: true })
    }).pipe(Effect.provide(spawner))
  })

  it.effect("drives the core's timeout ladder under the TestClock", () => {
    const spawner = ScriptedProcessSpawner.layer(() => ({ delay: "1 hour", ignoreTerm: true, stdout: "partial" }))
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        HookRunner.run(request("{}"), "5 seconds", { killGrace: "1 second", drainWindow: "100 millis" })
      )
      yield* TestClock.adjust("5 seconds")
      // at its deadline the runner looks once more for an exit the host's loop had not read yet (a real turn)
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(() => setTimeout(resolve, 5))))
      yield* TestClock.adjust("1 second")
      const run = yield* Fiber.join(fiber)
      expect(run).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "partial" })
      expect(spawner.kills.map((k) => k.signal)).toEqual(["SIGTERM", "SIGKILL"])
    }).pipe(Effect.provide(spawner))
  })
})
