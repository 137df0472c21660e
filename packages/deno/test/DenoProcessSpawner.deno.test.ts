/**
 * `DenoProcessSpawner` (Deno lane only): the shared conformance suite on `Deno.Command`, with
 * process groups (Deno 2.x `detached` + `Deno.kill(-pid)`) and without, and what is specific to it.
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import { Cleanups, Fixtures, Processes, ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { Effect } from "effect"
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { DenoProcessSpawner } from "@agent-hooks/deno"
import { commandFor } from "../src/internal/processSpawner.ts"

const options = (layerExport: string): ProcessSpawnerSuite.SuiteOptions => ({
  releaseHost: {
    command: process.execPath,
    args: ["run", "-A", "--no-lock", "--conditions=source"],
    spawner: new URL(`../src/DenoProcessSpawner.ts#${layerExport}`, import.meta.url).href
  }
})

ProcessSpawnerSuite.suite("DenoProcessSpawner", DenoProcessSpawner.layer, { processGroups: true }, options("layer"))
// Without `detached`: kill reaches the direct child only; the group cases are skipped.
ProcessSpawnerSuite.suite(
  "DenoProcessSpawner.layerWithoutGroups",
  DenoProcessSpawner.layerWithoutGroups,
  { processGroups: false },
  options("layerWithoutGroups")
)

const cleanups = Cleanups.register("agent-hooks-deno-spawner-")

describe("DenoProcessSpawner", () => {
  it("is available under Deno and declares process groups", () => {
    expect(DenoProcessSpawner.isAvailable()).toBe(true)
    expect(DenoProcessSpawner.capabilities).toEqual({ runtime: "deno", processGroups: true })
    expect(DenoProcessSpawner.make.capabilities).toEqual(DenoProcessSpawner.capabilities)
    expect(DenoProcessSpawner.capabilitiesWithoutGroups).toEqual({ runtime: "deno", processGroups: false })
  })

  it.skipIf(!existsSync("/usr/bin/setsid") && !existsSync("/bin/setsid"))(
    "with setsid(1): a program found on the hook's PATH or by a path against its cwd leads its own session and group, with its own name as $0",
    async () => {
      const dir = cleanups.tempDir()
      // Field 5 of /proc/<pid>/stat is the process group, field 6 the session.
      const script = `#!/bin/sh\nread -r _ _ _ _ group session _ < /proc/$$/stat\nprintf '%s %s %s %s' "$0" "$$" "$group" "$session"\n`
      writeFileSync(join(dir, "who.sh"), script)
      chmodSync(join(dir, "who.sh"), 0o755)
      const run = (file: string, env: Record<string, string>) =>
        Effect.runPromise(
          HookRunner.run(ProcessSpawnerSuite.request({ file, cwd: dir, env }), "10 seconds").pipe(Effect.provide(DenoProcessSpawner.layer))
        )
      const path = process.env["PATH"] ?? "/usr/bin:/bin"
      for (const [file, env] of [
        ["./who.sh", { PATH: path }],
        ["who.sh", { PATH: `${dir}:${path}` }]
      ] as const) {
        const result = await run(file, env)
        expect(result.exitCode).toBe(0)
        const [name, pid, group, session] = result.stdout.split(" ")
        expect(name === file || name === join(dir, "who.sh")).toBe(true)
        expect(group).toBe(pid)
        expect(session).toBe(pid)
      }
      // Those two went through setsid(1), not through a fork of the host.
      const api = (globalThis as unknown as { Deno: Parameters<typeof commandFor>[0] }).Deno
      const plan = (file: string, env: Record<string, string>) =>
        commandFor(api, ProcessSpawnerSuite.request({ file, cwd: dir, env }), true)
      expect(plan("./who.sh", { PATH: path })).toMatchObject({
        file: expect.stringMatching(/\/setsid$/),
        args: ["--", "./who.sh"],
        detached: false
      })
      expect(plan("who.sh", { PATH: `${dir}:${path}` })).toMatchObject({ args: ["--", "who.sh"], detached: false })
      expect(plan("./nowhere.sh", { PATH: path })).toEqual({ file: "./nowhere.sh", args: [], detached: true })
      // Not found: the spawn fails as without setsid(1), naming the program.
      const missing = await run("./nowhere.sh", { PATH: path })
      expect(missing).toMatchObject({ exitCode: null, spawnError: "spawn ./nowhere.sh ENOENT" })
    },
    15_000
  )

  it("layerWithoutGroups: kill reaches the direct child only, so a timed-out hook's grandchild survives (documented)", async () => {
    const pids = join(cleanups.tempDir(), "pids")
    const run = await Effect.runPromise(
      HookRunner.run(ProcessSpawnerSuite.request({ args: [Fixtures.path("ignore-term.sh"), pids] }), "300 millis", {
        killGrace: "300 millis",
        drainWindow: "100 millis"
      }).pipe(Effect.provide(DenoProcessSpawner.layerWithoutGroups))
    )
    const [direct, grandchild] = readFileSync(pids, "utf8").trim().split("\n").map(Number)
    cleanups.killAfter([grandchild!])
    expect(run).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "ready" })
    expect(await Processes.waitUntilDead([direct!], 3_000)).toEqual([])
    expect(Processes.isAlive(grandchild!)).toBe(true)
  }, 15_000)
})
