/**
 * The conformance suite of the core's `ProcessSpawner` contract: registers vitest tests that run
 * real shell-script fixtures (see `Fixtures`) through any spawner layer, in real time.
 *
 * The output is read as the core's `HookRunner` reads it (`HookRunner.collect`), so the suite
 * checks the spawner and the core's reader together. It checks: stdin written in full then
 * closed (also 5 MB to a hook that never reads it), stdout, stderr and exit codes, exits by
 * signal, the output caps and truncation flags (1 GiB under a 1 MiB cap), UTF-8 split across
 * chunks, `SpawnError` for a missing executable, a missing cwd (with the shared wording
 * `spawn <file> ENOENT (cwd <dir> does not exist)`) or an argument too large (E2BIG, reason
 * `payload`), NUL bytes stripped from arguments and environment, payload files (0600, removed
 * with the scope), the cwd fallback to the project directory, exec-form arguments passed
 * verbatim, `env` and `cwd`, `exited` not held back by a grandchild that keeps stdout open, the
 * child leading its own session and process group, `kill` reaching the whole process group,
 * SIGKILL ending a TERM-ignoring hook, the scope's close killing everything left in the group
 * without waiting for it, a `detached` request (outliving its scope with its payload and value
 * files, its launcher logging how it ended), the core's `HookRunner` on top (its SIGKILL step, its drain window),
 * and, given `options.releaseHost`, a host process that exits on its own after the release
 * although an escaped grandchild holds stdout.
 *
 * The cases that need process groups are skipped (and reported as skipped) when
 * `capabilities.processGroups` is false, or check only the direct child; the release-host case
 * is skipped without `options.releaseHost`. Time bounds are generous upper bounds (5 s for
 * "promptly", 3 s for processes to be gone, as some hosts reap zombies ~1.7 s late).
 *
 * **Example**
 *
 * ```ts
 * import { suite } from "@agent-hooks/test-utils/ProcessSpawnerSuite"
 * import { NodeProcessSpawner } from "@agent-hooks/node"
 *
 * suite("NodeProcessSpawner", NodeProcessSpawner.layer, { processGroups: true }, {
 *   releaseHost: {
 *     command: process.execPath,
 *     args: ["--conditions=source"],
 *     spawner: new URL("../src/NodeProcessSpawner.ts#layer", import.meta.url).href
 *   }
 * })
 * ```
 *
 * @since 0.1.0
 */
import type { ProcessRequest, ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type * as Layer from "effect/Layer"
import * as internal from "./internal/processSpawnerSuite.ts"

/**
 * What the suite may expect of the spawner under test.
 *
 * @since 0.1.0
 * @category models
 */
export interface SuiteCapabilities {
  /**
   * The child leads its own session and process group, and `kill` and the scope's close reach
   * grandchildren; when false those cases are skipped (or check the direct child only).
   */
  readonly processGroups: boolean
}

/**
 * How to start the suite's release host (a script in this package) on a runtime:
 * `<command> ...args <host script> <pid file> <spawner>`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReleaseHost {
  /** The runtime executable, e.g. `process.execPath`. */
  readonly command: string
  /** Its arguments before the script, e.g. `["--conditions=source"]` (Node, Bun) or `["run", "-A", "--conditions=source"]` (Deno). */
  readonly args: ReadonlyArray<string>
  /** `<module URL>#<export>`: the module the host imports and its export holding the `Layer<ProcessSpawner>` (default `layer`). */
  readonly spawner: string
}

/**
 * What differs between spawners but is not a capability.
 *
 * @since 0.1.0
 * @category models
 */
export interface SuiteOptions {
  /** Runs the release-host case (skipped when absent). */
  readonly releaseHost?: ReleaseHost
}

/**
 * Registers the conformance tests (in a `describe` block named after `name`) for `layer`.
 * Call it at the top level of a vitest test file.
 *
 * @since 0.1.0
 * @category tests
 */
export const suite: (name: string, layer: Layer.Layer<ProcessSpawner>, capabilities: SuiteCapabilities, options?: SuiteOptions) => void =
  internal.suite

/**
 * The request the suite starts from: `/bin/sh` with no arguments, the OS temp dir as cwd, an
 * environment of `PATH` only, an empty stdin and a 1 MB output cap; `overrides` replace fields.
 *
 * @since 0.1.0
 * @category constructors
 */
export const request: (overrides?: Partial<ProcessRequest>) => ProcessRequest = internal.request
