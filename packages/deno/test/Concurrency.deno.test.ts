/**
 * Overlapping dispatches through `@agent-hooks/deno`'s engine (Deno's own spawner), as a host
 * makes them, under CPU load (Deno lane only).
 */
import { createHookEngine } from "@agent-hooks/deno"
import { suite } from "@agent-hooks/test-utils/ConcurrencySuite"

suite("Deno API", [{ label: "createHookEngine", create: createHookEngine }])
