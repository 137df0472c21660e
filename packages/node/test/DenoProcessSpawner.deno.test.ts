/**
 * `DenoProcessSpawner` (Deno lane only): the shared conformance suite on `Deno.Command`, with
 * process groups (Deno 2.x `detached` + `Deno.kill(-pid)`), and what is specific to it.
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import * as ProcessSpawner from "@agent-hooks/core/ProcessSpawner"
import { Fixtures, Processes, ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { DenoProcessSpawner, NodeProcessSpawner } from "@agent-hooks/node"

ProcessSpawnerSuite.suite("DenoProcessSpawner", DenoProcessSpawner.layer, { processGroups: true })
// Without `detached`: kill reaches the direct child only; the group cases are skipped.
ProcessSpawnerSuite.suite("DenoProcessSpawner.layerWithoutGroups", DenoProcessSpawner.layerWithoutGroups, { processGroups: false })

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})
const tempDir = (): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-deno-spawner-")))
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
  Effect.runPromise(effect.pipe(Effect.provide(DenoProcessSpawner.layer)))

const spawnError = (req: ProcessSpawner.ProcessRequest) =>
  provide(ProcessSpawner.ProcessSpawner.use((spawner) => spawner.spawn(req)).pipe(Effect.flip, Effect.scoped))

describe("DenoProcessSpawner", () => {
  it("is available under Deno and declares process groups", () => {
    expect(DenoProcessSpawner.isAvailable()).toBe(true)
    expect(DenoProcessSpawner.capabilities).toEqual({ runtime: "deno", processGroups: true })
    expect(DenoProcessSpawner.make.capabilities).toEqual(DenoProcessSpawner.capabilities)
    expect(DenoProcessSpawner.capabilitiesWithoutGroups).toEqual({ runtime: "deno", processGroups: false })
    // The Node spawner stays what it says it is, also under Deno.
    expect(NodeProcessSpawner.capabilities.runtime).toBe("node")
  })

  it("the child leads its own session and process group (Deno's detached is setsid)", async () => {
    const { stdout } = await provide(Effect.scoped(Effect.gen(function*() {
      const spawner = yield* ProcessSpawner.ProcessSpawner
      const handle = yield* spawner.spawn(request({ args: ["-c", "echo $$ $(ps -o pgid= -p $$) $(ps -o sid= -p $$)"] }))
      yield* handle.exited
      return yield* handle.output
    })))
    const [pid, pgid, sid] = stdout.trim().split(/\s+/).map(Number)
    expect(pgid).toBe(pid)
    expect(sid).toBe(pid)
  })

  it("layerWithoutGroups: kill reaches the direct child only, so a timed-out hook's grandchild survives (documented)", async () => {
    const pids = join(tempDir(), "pids")
    const run = await Effect.runPromise(
      HookRunner.run(request({ args: [Fixtures.path("ignore-term.sh"), pids] }), "300 millis", {
        killGrace: "300 millis",
        drainWindow: "100 millis"
      }).pipe(Effect.provide(DenoProcessSpawner.layerWithoutGroups))
    )
    const [direct, grandchild] = readFileSync(pids, "utf8").trim().split("\n").map(Number)
    cleanups.push(() => {
      try {
        process.kill(grandchild!, "SIGKILL")
      } catch {
        // gone
      }
    })
    expect(run).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "ready" })
    expect(await Processes.waitUntilDead([direct!], 3_000)).toEqual([])
    expect(Processes.isAlive(grandchild!)).toBe(true)
  }, 15_000)

  it("spawn errors read like the Node spawner's", async () => {
    const missing = await spawnError(request({ file: "agent-hooks-no-such-executable" }))
    expect(missing.detail).toBe("spawn agent-hooks-no-such-executable ENOENT")
    const cwd = join(tempDir(), "gone")
    const noCwd = await spawnError(request({ args: ["-c", "exit 0"], cwd }))
    expect(noCwd.detail).toBe(`spawn /bin/sh ENOENT (cwd ${cwd} does not exist)`)
    const nul = await spawnError(request({ args: ["-c", "echo a\u0000b"] }))
    expect(nul.detail).toContain("nul byte")
  })

  it("a TERM-ignoring hook is ended by the SIGKILL step of the HookRunner's ladder, with its group", async () => {
    const pids = join(tempDir(), "pids")
    const run = await provide(
      HookRunner.run(request({ args: [Fixtures.path("ignore-term.sh"), pids] }), "300 millis", {
        killGrace: "300 millis",
        drainWindow: "100 millis"
      })
    )
    expect(run).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "ready" })
    const group = readFileSync(pids, "utf8").trim().split("\n").map(Number)
    expect(await Processes.waitUntilDead(group, 3_000)).toEqual([])
  }, 15_000)

  it(
    "the host exits on its own after release, even if a setsid'd grandchild (which escapes the group) holds stdout",
    async () => {
      const pidFile = join(tempDir(), "pid")
      const script = fileURLToPath(new URL("./support/deno-release-host.ts", import.meta.url))
      const host = spawn(process.execPath, ["run", "-A", "--no-lock", "--conditions=source", script, pidFile], {
        stdio: ["ignore", "pipe", "pipe"]
      })
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
      expect(escaped !== undefined && Processes.isAlive(escaped)).toBe(true)
    },
    20_000
  )
})
