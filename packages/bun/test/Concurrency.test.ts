/**
 * Overlapping dispatches through `@agent-hooks/bun`'s engine (Bun's own spawner), as a host makes
 * them, under CPU load (Bun lane only).
 */
import { createHookEngine } from "@agent-hooks/bun"
import { suite } from "@agent-hooks/test-utils/ConcurrencySuite"

suite("Bun API", [{ label: "createHookEngine", create: createHookEngine }])
