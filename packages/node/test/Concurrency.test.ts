/**
 * Overlapping dispatches through the Node API, as a host makes them (`createHookEngine`), under
 * CPU load: straight from the host and through the spawn helper. Runs in every lane (Node's API
 * on Node, Bun and Deno); the Bun and Deno engines have their own file.
 */
import { createHookEngine } from "@agent-hooks/node"
import { suite } from "@agent-hooks/test-utils/ConcurrencySuite"

suite("Node API", [
  { label: "createHookEngine (hooks spawned by the host)", create: (options) => createHookEngine({ ...options, spawnHelper: false }) },
  { label: "createHookEngine with spawnHelper: true", create: (options) => createHookEngine({ ...options, spawnHelper: true }) }
])
