/**
 * The overlapping-dispatch suite: registers vitest tests that drive an engine as a host does
 * (its `createHookEngine`, real shell hooks) with many overlapping dispatches under CPU load (busy
 * loops), and check from the attacker's side that no guard's answer is lost on the way.
 *
 * A property test (fast-check): `runs` batches of `batch` dispatches, started within 1.5 s of each
 * other (some spawn while others exit and wait to be read), each a PreToolUse with a random tool
 * and payload (now and then one larger than a pipe's buffer). The
 * tools mix a guard that reads stdin and answers with a JSON deny, one that blocks with exit 2,
 * an unrelated `async: true` hook and a sync sibling. Every dispatch whose payload carries the
 * marker and reaches a guard must come back blocked, every other allowed, and none with a
 * warning. Then a guard whose answer cannot be read whole (a process it left running prints it
 * after the exit, in the hook's group or out of it) comes back with a warning, and blocked under
 * `failClosed`.
 *
 * **Example**
 *
 * ```ts
 * import { suite } from "@agent-hooks/test-utils/ConcurrencySuite"
 * import { createHookEngine } from "@agent-hooks/node"
 *
 * suite("Node API", [{ label: "createHookEngine", create: createHookEngine }])
 * ```
 *
 * @since 0.2.0
 */
import type { ChildProcess } from "node:child_process"
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as internal from "./internal/concurrencySuite.ts"

/**
 * The engine, as the suite uses it.
 *
 * @since 0.2.0
 * @category models
 */
export type Engine = Pick<PromiseEngine.PromiseHookEngine, "dispatch" | "close">

/**
 * One way to make the engine under test (a runtime's `createHookEngine`, with its options).
 *
 * @since 0.2.0
 * @category models
 */
export interface EngineMaker {
  readonly label: string
  readonly create: (options: {
    readonly settings: Array<string>
    readonly projectDir: string
    readonly failClosed?: boolean
    readonly onWarning: (warning: string) => void
  }) => Promise<Engine>
}

/**
 * How much: `runs` batches (default 3; `AGENT_HOOKS_STRESS_RUNS` overrides it, for a long run)
 * of `batch` overlapping dispatches (default 250), `busyLoops` busy processes (default 3),
 * `timeoutMs` per test (default 240 000, or 100 000 a run when that is more: a machine loaded far past its cores).
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  readonly runs?: number
  readonly batch?: number
  readonly busyLoops?: number
  readonly timeoutMs?: number
}

/**
 * Registers the suite: the property test once per maker, the unread-answer test with the first.
 *
 * @since 0.2.0
 * @category constructors
 */
export const suite: (name: string, makers: ReadonlyArray<EngineMaker>, options?: Options) => void = internal.suite

/**
 * The suite's hooks, written as scripts into `dir`, as settings handlers (exec form): a guard that
 * reads stdin and answers with a JSON deny when the payload holds `FORBIDDEN`, one that blocks with
 * exit 2, a sync sibling that adds context, an unrelated `async: true` hook, and two guards whose
 * deny comes after their exit: from a process left in their group, and from one that left it
 * (`setsid`, with a 2 s timeout).
 *
 * @since 0.2.0
 * @category constructors
 */
export const writeHooks: (
  dir: string
) => Record<"guardJson" | "guardExit2" | "sibling" | "async" | "guardLate" | "guardEscaped", Record<string, unknown>> = internal.writeHooks

/**
 * Starts `count` busy loops (`sh -c 'while :; do :; done'`); kill them when done.
 *
 * @since 0.2.0
 * @category constructors
 */
export const loadUp: (count: number) => Array<ChildProcess> = internal.loadUp
