/**
 * Overlapping dispatches through the Node API, as a host makes them (`createHookEngine`), under
 * CPU load: straight from the host and through the spawn helper. Runs in every lane (Node's API
 * on Node, Bun and Deno); the Bun and Deno engines have their own file. Three runs of 250 on the
 * Node lane, one on Bun and Deno (the same 250 overlapping dispatches on their runtime; the
 * repetitions are the Node lane's, as for every property test: PropertyRuns).
 */
import { createHookEngine } from "@agent-hooks/node"
import { suite } from "@agent-hooks/test-utils/ConcurrencySuite"
import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"

suite(
  "Node API",
  [
    { label: "createHookEngine (hooks spawned by the host)", create: (options) => createHookEngine({ ...options, spawnHelper: false }) },
    { label: "createHookEngine with spawnHelper: true", create: (options) => createHookEngine({ ...options, spawnHelper: true }) }
  ],
  { runs: PropertyRuns.forLane(3, 1) }
)
