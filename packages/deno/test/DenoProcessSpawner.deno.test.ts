/**
 * `DenoProcessSpawner` (Deno lane only): the shared conformance suite on `Deno.Command`, with
 * process groups (Deno 2.x `detached` + `Deno.kill(-pid)`) and without, and what is specific to it.
 */
import * as HookRunner from "@agent-hooks/core/HookRunner"
import { Cleanups, Fixtures, Processes, ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { DenoProcessSpawner } from "@agent-hooks/deno"

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
