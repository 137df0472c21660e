/**
 * Per-test cleanup for tests that make temporary directories or leave processes behind: each
 * registered cleanup runs after the current test (newest first), whether it passed or not.
 *
 * **Example**
 *
 * ```ts
 * import * as Cleanups from "@agent-hooks/test-utils/Cleanups"
 *
 * const cleanups = Cleanups.register("agent-hooks-my-test-")
 *
 * it("writes a file", () => {
 *   const dir = cleanups.tempDir() // removed after this test
 * })
 * ```
 *
 * @since 0.1.0
 */
import * as internal from "./internal/cleanups.ts"

/**
 * The cleanups of the current test.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cleanups {
  /** Runs `cleanup` after the current test. */
  readonly add: (cleanup: () => void) => void
  /** A new directory under the OS temp dir (its real path), removed with its contents after the current test. */
  readonly tempDir: () => string
  /** SIGKILLs these processes after the current test (already gone is fine). */
  readonly killAfter: (pids: ReadonlyArray<number>) => void
}

/**
 * Registers a vitest `afterEach` that runs the cleanups; call it at the top level of a test file
 * or inside a `describe`. `prefix` names the temporary directories.
 *
 * @since 0.1.0
 * @category constructors
 */
export const register: (prefix?: string) => Cleanups = internal.register
