/**
 * What a test run printed on the console through `console.warn` (where the engines' default
 * `onWarning` writes), one line per call, for tests that count what a user hears.
 *
 * **Example**
 *
 * ```ts
 * import { ConsoleLines } from "@agent-hooks/test-utils"
 *
 * const { lines } = await ConsoleLines.warned(() => engine.dispatch("Stop", {}))
 * expect(lines).toHaveLength(1)
 * ```
 *
 * @since 0.2.0
 */
import * as internal from "./internal/consoleLines.ts"

/**
 * Runs `f` with `console.warn` captured (each call one line: its arguments joined by a space) and
 * restored afterwards, also when `f` fails.
 *
 * @since 0.2.0
 * @category constructors
 */
export const warned: <A>(f: () => Promise<A>) => Promise<{ readonly result: A; readonly lines: ReadonlyArray<string> }> = internal.warned
