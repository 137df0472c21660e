/**
 * The conformance suite of the core's `ProcessSpawner` contract: registers vitest tests that run
 * real shell-script fixtures (see `Fixtures`) through any spawner layer, in real time.
 *
 * It checks: stdin written in full then closed (also 5 MB to a hook that never reads it), stdout,
 * stderr and exit codes, exits by signal, the output caps and truncation flags, UTF-8 split
 * across chunks, `SpawnError` for a missing executable or cwd, exec-form arguments passed
 * verbatim, `env` and `cwd`, `exited` not held back by a grandchild that keeps stdout open,
 * `kill` reaching the whole process group, SIGKILL ending a TERM-ignoring hook, and the scope's
 * close killing everything left in the group without waiting for it.
 *
 * The cases that need process groups are skipped (and reported as skipped) when
 * `capabilities.processGroups` is false. Time bounds are generous upper bounds (5 s for "promptly",
 * 3 s for processes to be gone, as some hosts reap zombies ~1.7 s late).
 *
 * **Example**
 *
 * ```ts
 * import { suite } from "@agent-hooks/test-utils/ProcessSpawnerSuite"
 * import { NodeProcessSpawner } from "@agent-hooks/node"
 *
 * suite("NodeProcessSpawner", NodeProcessSpawner.layer, { processGroups: true })
 * ```
 *
 * @since 0.1.0
 */
import type { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { Layer } from "effect"
import * as internal from "./internal/processSpawnerSuite.ts"

/**
 * What the suite may expect of the spawner under test.
 *
 * @since 0.1.0
 * @category models
 */
export interface SuiteCapabilities {
  /** `kill` and the scope's close reach grandchildren; when false those cases are skipped. */
  readonly processGroups: boolean
}

/**
 * Registers the conformance tests (in a `describe` block named after `name`) for `layer`.
 * Call it at the top level of a vitest test file.
 *
 * @since 0.1.0
 * @category tests
 */
export const suite: (name: string, layer: Layer.Layer<ProcessSpawner>, capabilities: SuiteCapabilities) => void =
  internal.suite
