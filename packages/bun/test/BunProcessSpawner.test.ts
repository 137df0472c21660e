/**
 * `BunProcessSpawner` (Bun lane only, see vitest.config.ts): the shared conformance suite (with
 * the release host on Bun), and what is specific to it.
 */
import { ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { describe, expect, it } from "vitest"
import { BunProcessSpawner } from "@agent-hooks/bun"

ProcessSpawnerSuite.suite(
  "BunProcessSpawner",
  BunProcessSpawner.layer,
  { processGroups: true },
  {
    releaseHost: {
      command: process.execPath,
      args: ["--conditions=source"],
      spawner: new URL("../src/BunProcessSpawner.ts#layer", import.meta.url).href
    }
  }
)

describe("BunProcessSpawner", () => {
  it("runs on Bun.spawn and declares process groups on POSIX", () => {
    expect(typeof (globalThis as { Bun?: unknown }).Bun).toBe("object")
    expect(BunProcessSpawner.capabilities).toEqual({ runtime: "bun", processGroups: true })
    expect(BunProcessSpawner.make.capabilities).toEqual(BunProcessSpawner.capabilities)
  })
})
