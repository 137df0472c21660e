/**
 * How many generated cases a property test runs on this lane. The Node lane runs the full count;
 * the Bun and Deno lanes, which check the same code on another runtime, run a tenth of it (at least
 * one): a bug in the logic is caught on Node, and what differs per runtime still shows on the
 * others. `npm test` keeps every property on every lane, only fewer times where it repeats. The
 * fast lane (`npm run test:fast`, AGENT_HOOKS_FAST=1) runs the smaller count too.
 *
 * **Example**
 *
 * ```ts
 * import * as PropertyRuns from "@agent-hooks/test-utils/PropertyRuns"
 *
 * fc.assert(property, { numRuns: PropertyRuns.forLane(2000) }) // 2000 on Node, 200 on Bun and Deno
 * ```
 *
 * @since 0.2.0
 */
import * as internal from "./internal/propertyRuns.ts"

/**
 * `true` on the Node lane (neither Bun nor Deno runs the tests).
 *
 * @since 0.2.0
 * @category predicates
 */
export const isNodeLane: boolean = internal.isNodeLane

/**
 * `full` on the Node lane; on Bun, Deno and the fast lane `other`, by default a tenth of `full`
 * (at least 1).
 *
 * @since 0.2.0
 * @category utils
 */
export const forLane: (full: number, other?: number) => number = internal.forLane
