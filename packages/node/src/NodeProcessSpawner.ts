/**
 * The core's `ProcessSpawner` on `node:child_process.spawn`. It also runs on Bun and Deno,
 * which implement `node:child_process`.
 *
 * Behaviour (the contract of `@agent-hooks/core/ProcessSpawner`, checked by the spawner
 * conformance suite):
 * - **Process groups.** On POSIX the child is started `detached`, so it leads its own process
 *   group; `kill(signal)` signals the whole group (`process.kill(-pid, signal)`), grandchildren
 *   included, and falls back to the child alone if the group cannot be signalled. A descendant
 *   that calls `setsid` (or `setpgid`) leaves the group and is **not** reached.
 * - **stdin.** `request.stdin` is written, then stdin is closed. A hook that never reads stdin,
 *   or exits before reading it, is fine: EPIPE is swallowed.
 * - **Output.** stdout and stderr are decoded as UTF-8 (characters split across chunks are
 *   decoded correctly), each capped at `request.maxOutputBytes`; past the cap the pipe keeps
 *   being read and the rest is dropped, and `stdoutTruncated` / `stderrTruncated` are set.
 * - **Exit.** `exited` completes on the child's `exit` event, so a grandchild that keeps the pipes
 *   open does not hold it back; `output` completes when both pipes reached EOF.
 * - **Spawn failures** (executable not found, missing cwd, invalid arguments) fail `spawn` with a
 *   `SpawnError`; they never surface as an unhandled `error` event.
 * - **End of scope.** Closing the scope sends SIGKILL to the process group, **always**, even
 *   after the hook exited 0: background processes a hook leaves behind in its group are killed.
 *   The pipes are destroyed and the child is unref'd; the scope does not wait for the group to
 *   disappear and the host's event loop is not kept alive by it.
 *
 * The timeout ladder (SIGTERM, grace period, SIGKILL) is not done here but by the core's
 * `HookRunner`, on top of `kill`.
 *
 * **Example**
 *
 * ```ts
 * import { Effect } from "effect"
 * import { HookRunner, ProcessSpawner } from "@agent-hooks/core"
 * import { NodeProcessSpawner } from "@agent-hooks/node"
 *
 * const program = Effect.scoped(
 *   Effect.gen(function*() {
 *     const spawner = yield* ProcessSpawner.ProcessSpawner
 *     const handle = yield* spawner.spawn({
 *       file: "/bin/sh",
 *       args: ["-c", "cat"],
 *       cwd: process.cwd(),
 *       env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
 *       stdin: JSON.stringify({ hook_event_name: "Stop" }),
 *       maxOutputBytes: 1024 * 1024
 *     })
 *     const reader = yield* HookRunner.collect(handle, 1024 * 1024)
 *     const exit = yield* handle.exited
 *     const output = yield* reader.output
 *     return { exit, output }
 *   })
 * ).pipe(Effect.provide(NodeProcessSpawner.layer))
 * ```
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type { ProcessSpawner, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import * as internal from "./internal/processSpawner.ts"
import * as helper from "./internal/spawnHelper.ts"

/**
 * What this spawner can do: `{ runtime: "node", processGroups: true }` (process groups are
 * unavailable, and `processGroups` is `false`, on Windows).
 *
 * @since 0.1.0
 * @category models
 */
export const capabilities: SpawnerCapabilities = internal.capabilities

/**
 * The service value, for callers that assemble their own context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: ProcessSpawner["Service"] = internal.make

/**
 * The `ProcessSpawner` layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ProcessSpawner> = internal.layer

/**
 * The same contract through the spawn helper: a small Node process, started on the first spawn
 * and kept for the layer's life, that spawns hooks on the host's behalf and relays stdin,
 * stdout, stderr, exit and signals. Node's spawn forks the host, so its cost grows with the
 * host's memory; the helper's heap stays small. Past `maxOutputBytes` the helper drops the output
 * itself (nothing beyond the cap crosses to the host). It dies with the host (EOF on its stdin,
 * whatever way the host ended, SIGKILL included: it then kills every hook group it started) and
 * is started again if it dies (the hooks in flight then end as killed). Capabilities:
 * `{ runtime: "node-helper", processGroups: true }`.
 *
 * @since 0.1.0
 * @category layers
 */
export const helperLayer: Layer.Layer<ProcessSpawner> = helper.layer

/**
 * Which program runs the spawn helper.
 *
 * - `runtime: "node"` (the default): this process's own executable (`process.execPath`), or
 *   `executable`. Node starts each hook with `fork`, about 0.8 ms of the helper's thread per hook even
 *   with its small heap, so five hooks at once start one after the other.
 * - `runtime: "bun"`: Bun runs the same script, which then spawns with `Bun.spawn` (`vfork`, about
 *   0.2 ms): in the perf bench one hook took 0.62-0.65x the time of the Node helper, and five hooks
 *   at once 0.52-0.54x (`docs/performance.md`). Its executable is `executable`, or else the binary of the `bun`
 *   npm package as Node resolves it from `@agent-hooks/node` (installed beside it: `npm install bun`
 *   in the host's project; under pnpm's isolated layout, give `executable`). Never a `bun` found on
 *   PATH or from the working directory, so which program spawns every hook depends neither on the
 *   environment the host was started in nor on the project it works in. Without either, building
 *   the layer fails and says what to install.
 *
 * `executable` is started as given: a bare name is looked up on the helper's PATH.
 *
 * @since 0.2.0
 * @category models
 */
export interface HelperRuntime {
  readonly runtime?: "node" | "bun" | undefined
  readonly executable?: string | undefined
}

/**
 * `helperLayer`, with the helper run by the program `runtime` names.
 *
 * **Example** (the helper run by Bun, from the `bun` npm package)
 *
 * ```ts
 * import { NodeProcessSpawner } from "@agent-hooks/node"
 *
 * const spawner = NodeProcessSpawner.helperLayerWith({ runtime: "bun" })
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const helperLayerWith: (runtime?: HelperRuntime) => Layer.Layer<ProcessSpawner> = helper.layerWith

/**
 * The default for Node hosts: each hook is spawned straight from the host while the host's
 * resident memory is below `thresholdBytes`, and through the spawn helper (`helperLayer`) above
 * it, where Node's fork of a big host costs more than the relay (threshold and figures in
 * `docs/performance.md`). The helper starts only when first needed; `runtime` picks the program
 * that runs it (`HelperRuntime`, since 0.2.0).
 *
 * @since 0.1.0
 * @category layers
 */
export const autoLayer: (thresholdBytes?: number, runtime?: HelperRuntime) => Layer.Layer<ProcessSpawner> = helper.autoLayer

/**
 * The host memory (resident set, bytes) above which `autoLayer` spawns through the helper.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultHelperThresholdBytes: number = helper.DEFAULT_HELPER_THRESHOLD_BYTES
