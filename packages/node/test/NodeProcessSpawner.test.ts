/**
 * `NodeProcessSpawner` (every lane: node:child_process under Node, Bun and Deno): the shared
 * conformance suite, with the release host on the runtime that runs the tests, and what is
 * specific to it.
 */
import { ProcessSpawnerSuite } from "@agent-hooks/test-utils"
import { describe, expect, it } from "vitest"
import * as NodeProcessSpawner from "@agent-hooks/node/NodeProcessSpawner"

ProcessSpawnerSuite.suite("NodeProcessSpawner", NodeProcessSpawner.layer, { processGroups: true }, {
  releaseHost: {
    command: process.execPath,
    args: "Deno" in globalThis ? ["run", "-A", "--no-lock", "--conditions=source"] : ["--conditions=source"],
    spawner: new URL("../src/NodeProcessSpawner.ts#layer", import.meta.url).href
  }
})

describe("NodeProcessSpawner", () => {
  it("declares process groups on POSIX", () => {
    expect(NodeProcessSpawner.capabilities).toEqual({ runtime: "node", processGroups: true })
    expect(NodeProcessSpawner.make.capabilities).toEqual(NodeProcessSpawner.capabilities)
  })
})
