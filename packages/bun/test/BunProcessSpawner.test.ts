/**
 * `BunProcessSpawner` (Bun lane only, see vitest.config.ts): the shared conformance suite, plus
 * what is specific to Bun.spawn: the process group Bun's `detached` creates, the wording of spawn
 * errors, the core's HookRunner on top, and a host that exits after the release.
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import * as ProcessSpawner from "@agent-hooks/core/ProcessSpawner"
import { Fixtures, Processes, ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { Effect } from "effect"
import type { Duration } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { BunProcessSpawner } from "@agent-hooks/bun"

ProcessSpawnerSuite.suite("BunProcessSpawner", BunProcessSpawner.layer, { processGroups: true })

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})
const tempDir = (): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-bun-spawner-")))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const request = (overrides: Partial<ProcessSpawner.ProcessRequest>): ProcessSpawner.ProcessRequest => ({
  file: "/bin/sh",
  args: [],
  cwd: tmpdir(),
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  stdin: "",
  maxOutputBytes: 1024 * 1024,
  ...overrides
})

const provide = <A, E>(effect: Effect.Effect<A, E, ProcessSpawner.ProcessSpawner>) =>
  Effect.runPromise(effect.pipe(Effect.provide(BunProcessSpawner.layer)))

const spawnError = (req: ProcessSpawner.ProcessRequest) =>
  provide(ProcessSpawner.ProcessSpawner.use((spawner) => spawner.spawn(req)).pipe(Effect.flip, Effect.scoped))

const runHook = (req: ProcessSpawner.ProcessRequest, timeout: Duration.Input) =>
  provide(HookRunner.run(req, timeout, { killGrace: "300 millis", drainWindow: "100 millis" }))

describe("BunProcessSpawner", () => {
  it("runs on Bun.spawn and declares process groups on POSIX", () => {
    expect(typeof (globalThis as { Bun?: unknown }).Bun).toBe("object")
    expect(BunProcessSpawner.capabilities).toEqual({ runtime: "bun", processGroups: true })
    expect(BunProcessSpawner.make.capabilities).toEqual(BunProcessSpawner.capabilities)
  })

  it("the child leads its own session and process group (Bun's detached is setsid)", async () => {
    const { stdout } = await provide(Effect.scoped(Effect.gen(function*() {
      const spawner = yield* ProcessSpawner.ProcessSpawner
      const handle = yield* spawner.spawn(request({ args: ["-c", "echo $$ $(ps -o pgid= -p $$) $(ps -o sid= -p $$)"] }))
      yield* handle.exited
      return yield* handle.output
    })))
    const [pid, pgid, sid] = stdout.trim().split(/\s+/).map(Number)
    expect(pgid).toBe(pid)
    expect(sid).toBe(pid)
    expect(pid).not.toBe(process.pid)
  })

  it("spawn errors read like the Node spawner's", async () => {
    const missing = await spawnError(request({ file: "agent-hooks-no-such-executable" }))
    expect(missing.detail).toBe("spawn agent-hooks-no-such-executable ENOENT")
    const cwd = join(tempDir(), "gone")
    const noCwd = await spawnError(request({ args: ["-c", "exit 0"], cwd }))
    expect(noCwd.detail).toBe(`spawn /bin/sh ENOENT (cwd ${cwd} does not exist)`)
    const nul = await spawnError(request({ args: ["-c", "echo a\u0000b"] }))
    expect(nul._tag).toBe("SpawnError")
    expect(nul.detail).toContain("null bytes")
  })

  describe("under the core's HookRunner", () => {
    it("a TERM-ignoring hook is ended by the SIGKILL step of the ladder, with its group", async () => {
      const pids = join(tempDir(), "pids")
      const run = await runHook(request({ args: [Fixtures.path("ignore-term.sh"), pids] }), "300 millis")
      expect(run).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "ready" })
      const group = readFileSync(pids, "utf8").trim().split("\n").map(Number)
      expect(await Processes.waitUntilDead(group, 3_000)).toEqual([])
    }, 15_000)

    it("a grandchild holding stdout delays the result by the drain window only", async () => {
      const pids = join(tempDir(), "pids")
      const started = Date.now()
      const run = await runHook(request({ args: [Fixtures.path("grandchild-holds-stdout.sh"), pids] }), "20 seconds")
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(run).toMatchObject({ timedOut: false, exitCode: 0, signal: null, stdout: "started" })
      const group = readFileSync(pids, "utf8").trim().split("\n").map(Number)
      expect(await Processes.waitUntilDead(group, 3_000)).toEqual([])
    }, 15_000)
  })

  it(
    "the host exits on its own after release, even if a setsid'd grandchild (which escapes the group) holds stdout",
    async () => {
      const pidFile = join(tempDir(), "pid")
      const script = fileURLToPath(new URL("./support/release-host.ts", import.meta.url))
      const host = spawn(process.execPath, ["--conditions=source", script, pidFile], { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      let err = ""
      host.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
      host.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
      const started = Date.now()
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => host.kill("SIGKILL"), 15_000)
        host.on("exit", (c) => {
          clearTimeout(timer)
          resolve(c)
        })
      })
      const escaped = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").trim()) : undefined
      cleanups.push(() => {
        try {
          if (escaped) process.kill(escaped, "SIGKILL")
        } catch {
          // gone
        }
      })
      expect({ code, err }).toEqual({ code: 0, err: "" })
      expect(out).toBe(`released {"exitCode":0,"signal":null}\n`)
      expect(Date.now() - started).toBeLessThan(10_000)
      // Documented limitation: setsid leaves the process group, so the release does not reach it.
      expect(escaped !== undefined && Processes.isAlive(escaped)).toBe(true)
    },
    20_000
  )
})
