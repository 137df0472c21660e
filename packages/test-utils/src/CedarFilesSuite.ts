/**
 * A `cedar` hook whose policy, entities or schema file is not a regular file, from the attacker's
 * side (a cloned project's settings name a FIFO, a link to `/dev/zero`, or a folder): registers
 * vitest tests that drive an engine as a host does (its `createHookEngine`, the real Cedar engine)
 * and check that the file is refused at once, as what it is, naming it: a warning when the engine
 * loads, a failed hook at the call (blocked under `onFailure: "block"`), never a read that waits
 * (the call would end at the hook's timeout, and the process could not exit) or fills the memory.
 *
 * **Example**
 *
 * ```ts
 * import { suite } from "@agent-hooks/test-utils/CedarFilesSuite"
 * import { createHookEngine } from "@agent-hooks/node"
 *
 * suite("Node API", createHookEngine)
 * ```
 *
 * @since 0.2.0
 */
import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import * as internal from "./internal/cedarFilesSuite.ts"

/**
 * A runtime's `createHookEngine`, as the suite calls it.
 *
 * @since 0.2.0
 * @category models
 */
export type CreateEngine = (options: {
  readonly settings: Array<string>
  readonly projectDir: string
  readonly onWarning: (warning: string) => void
}) => Promise<Pick<PromiseEngine.PromiseHookEngine, "dispatch" | "close">>

/**
 * Registers the suite under `name`: each kind of file (a FIFO, a link to `/dev/zero`, a folder) as
 * each file of the hook (`policies`, `entities`, `schema`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const suite: (name: string, create: CreateEngine) => void = internal.suite
