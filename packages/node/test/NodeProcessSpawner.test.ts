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
import * as NodeProcessSpawner from "@agent-hooks/node/NodeProcessSpawner"

ProcessSpawnerSuite.suite("NodeProcessSpawner", NodeProcessSpawner.layer, { processGroups: true })

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})
const tempDir = (): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-node-spawner-")))
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

const spawnError = (req: ProcessSpawner.ProcessRequest) =>
  Effect.runPromise(
    ProcessSpawner.ProcessSpawner.use((spawner) => spawner.spawn(req)).pipe(
      Effect.flip,
      Effect.scoped,
      Effect.provide(NodeProcessSpawner.layer)
    )
  )

const runHook = (req: ProcessSpawner.ProcessRequest, timeout: Duration.Input) =>
  Effect.runPromise(
    HookRunner.run(req, timeout, { killGrace: "300 millis", drainWindow: "100 millis" }).pipe(
      Effect.provide(NodeProcessSpawner.layer)
    )
  )

describe("NodeProcessSpawner", () => {
  it("declares process groups on POSIX", () => {
    expect(NodeProcessSpawner.capabilities).toEqual({ runtime: "node", processGroups: true })
    expect(NodeProcessSpawner.make.capabilities).toEqual(NodeProcessSpawner.capabilities)
  })

  it("a missing cwd is named in the SpawnError (Node itself blames the executable)", async () => {
    const cwd = join(tempDir(), "gone")
    const error = await spawnError(request({ args: ["-c", "exit 0"], cwd }))
    expect(error.detail).toContain(`cwd ${cwd} does not exist`)
  })

  it("an argument Node rejects synchronously (NUL byte) is a SpawnError, not a defect", async () => {
    const error = await spawnError(request({ args: ["-c", "echo a\u0000b"] }))
    expect(error._tag).toBe("SpawnError")
    expect(error.detail).toContain("null bytes")
  })

  describe("under the core's HookRunner", () => {
    it("a TERM-ignoring hook is ended by the SIGKILL step of the ladder", async () => {
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

  // The host runs on the runtime that runs the tests (Node, Bun or Deno).
  const hostArgs = (script: string, pidFile: string): Array<string> =>
    "Deno" in globalThis
      ? ["run", "-A", "--conditions=source", script, pidFile]
      : ["--conditions=source", script, pidFile]
  it(
    "the host exits on its own after release, even if a setsid'd grandchild (which escapes the group) holds stdout",
    async () => {
      const pidFile = join(tempDir(), "pid")
      const script = fileURLToPath(new URL("./support/release-host.ts", import.meta.url))
      const host = spawn(process.execPath, hostArgs(script, pidFile), { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      let err = ""
      host.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
      host.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
      const started = Date.now()
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          host.kill("SIGKILL")
        }, 15_000)
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
      // The grandchild sleeps 30 s: the host did not wait for it.
      expect(Date.now() - started).toBeLessThan(10_000)
      // Documented limitation: setsid leaves the process group, so the release does not reach it.
      expect(escaped !== undefined && Processes.isAlive(escaped)).toBe(true)
    },
    20_000
  )
})
