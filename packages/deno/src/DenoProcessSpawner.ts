/**
 * The core's `ProcessSpawner` on `Deno.Command`. This is what `createHookEngine` of
 * `@agent-hooks/deno` uses. With a process group per hook (`layer`), on Linux the hook is started
 * through util-linux's `setsid(1)` (`posix_spawn`, then one more exec: about 2.6 ms per hook and
 * flat with the host's memory); elsewhere `Deno.Command` forks the host for `detached` (the child
 * calls `setsid`), like Deno's `node:child_process`. `layerWithoutGroups` uses `posix_spawn`,
 * about 2 ms per hook, at the price of the process-group kill (see `docs/runtimes.md`). Needs
 * `--allow-run` (`-A`); `spawn` dies with a defect outside Deno.
 *
 * Behaviour (the contract of `@agent-hooks/core/ProcessSpawner`, checked by the spawner
 * conformance suite):
 * - **Process groups.** On Linux with `setsid(1)` (`/usr/bin/setsid` or `/bin/setsid`), the
 *   child is `setsid -- <file> <args>`, which calls `setsid()` and execs the hook in its place
 *   (same pid); a program the spawn would not find is started as below, so that it fails to spawn
 *   the same way. Elsewhere on POSIX the child is started with `detached: true` (Deno 2.x: the
 *   child calls `setsid()`). `kill(signal)` signals the group with `Deno.kill(-pid, signal)`,
 *   falling back to the child alone. A descendant that calls `setsid` is **not** reached.
 * - **Environment.** `clearEnv: true`: the child sees exactly `request.env`.
 * - **stdin.** Written through the piped `WritableStream`, then closed; `BrokenPipe` (a hook that
 *   never reads, or exits first) is swallowed. An empty payload is `/dev/null`.
 * - **stdout and stderr** are the pipes' `ReadableStream`s as Effect `Stream`s: the core's
 *   `HookRunner` decodes and caps them as it pulls.
 * - **Payload files** (`request.files`): `Deno.makeTempDirSync` and 0600 files, removed when the
 *   scope closes.
 * - **End of scope.** SIGKILL to the group, always; stdin aborted, readers cancelled, the child
 *   unref'd, no waiting.
 *
 * **Example**
 *
 * ```ts
 * // deno run -A main.ts
 * import { Effect } from "effect"
 * import { HookRunner } from "@agent-hooks/core"
 * import { DenoProcessSpawner } from "@agent-hooks/deno"
 *
 * const result = await Effect.runPromise(
 *   HookRunner.run(
 *     { file: "/bin/sh", args: ["-c", "cat"], cwd: Deno.cwd(), env: { PATH: "/usr/bin:/bin" },
 *       stdin: "{}", maxOutputBytes: 1024 * 1024 },
 *     "5 seconds"
 *   ).pipe(Effect.provide(DenoProcessSpawner.layer))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type { ProcessSpawner, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import * as internal from "./internal/processSpawner.ts"
import { deno } from "./internal/denoApi.ts"

/**
 * `true` when running on Deno (`globalThis.Deno` exists).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isAvailable = (): boolean => deno() !== undefined

/**
 * What this spawner can do: `{ runtime: "deno", processGroups: true }` (`false` on Windows).
 *
 * @since 0.1.0
 * @category models
 */
export const capabilities: SpawnerCapabilities = internal.capabilities

/**
 * The capabilities of `layerWithoutGroups`: `{ runtime: "deno", processGroups: false }`.
 *
 * @since 0.1.0
 * @category models
 */
export const capabilitiesWithoutGroups: SpawnerCapabilities = internal.capabilitiesWithoutGroups

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
 * The same spawner without process groups (no `detached`): Deno then uses `posix_spawn`, about
 * 2 ms per hook and flat with the host's memory, but `kill` and the end of the scope reach only
 * the direct child. Grandchildren of a timed-out hook survive (they are no longer waited for:
 * the hook's result still comes back after the drain window). Capabilities:
 * `{ runtime: "deno", processGroups: false }`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWithoutGroups: Layer.Layer<ProcessSpawner> = internal.layerWithoutGroups
