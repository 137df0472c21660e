/**
 * Checks on OS processes for tests: is a process still running, and waiting until a set of
 * processes is gone. A zombie (exited, not yet reaped by its parent) counts as dead: on some hosts
 * PID 1 reaps orphans only after ~1.7 s.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/processes.ts"

/**
 * `true` while the process exists and is not a zombie.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isAlive: (pid: number) => boolean = internal.isAlive

/**
 * Polls (every 50 ms, real time) until none of `pids` is alive or `timeoutMs` elapsed; resolves
 * with the PIDs still alive (empty when all are gone).
 *
 * @since 0.1.0
 * @category utils
 */
export const waitUntilDead: (pids: ReadonlyArray<number>, timeoutMs: number) => Promise<Array<number>> = internal.waitUntilDead
