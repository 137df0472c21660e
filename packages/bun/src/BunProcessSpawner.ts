/**
 * The core's `ProcessSpawner` on `Bun.spawn` itself (not Bun's `node:child_process` emulation):
 * about 2.2 ms per hook on a 2-core VM against 3.5 ms for Node's spawner, and flat as the host's
 * heap grows (see `docs/runtimes.md`). It needs the Bun runtime: `spawn` dies with a defect when
 * `globalThis.Bun` is missing.
 *
 * Behaviour (the contract of `@agent-hooks/core/ProcessSpawner`, checked by the spawner
 * conformance suite, exactly as for `@agent-hooks/node`'s spawner):
 * - **Process groups.** On POSIX the child is started with `detached: true`, which makes Bun call
 *   `setsid()` in the child: it leads its own session and process group. `kill(signal)` signals
 *   the whole group (`process.kill(-pid, signal)`), grandchildren included, and falls back to the
 *   child alone if the group cannot be signalled. A descendant that calls `setsid` (or `setpgid`)
 *   leaves the group and is **not** reached.
 * - **stdin.** `request.stdin` is handed to Bun as bytes; Bun writes them and closes stdin. A
 *   hook that never reads stdin, or exits before reading it, is fine (Bun swallows EPIPE). An
 *   empty payload is `/dev/null`, an immediate EOF.
 * - **Output.** stdout and stderr are decoded as UTF-8 incrementally, each capped at
 *   `request.maxOutputBytes`; past the cap the pipe keeps being read and the rest is dropped, and
 *   `stdoutTruncated` / `stderrTruncated` are set.
 * - **Exit.** `exited` completes on `subprocess.exited` (the child's exit, not pipe close), so a
 *   grandchild that keeps the pipes open does not hold it back.
 * - **Spawn failures** (executable not found on the `PATH` of `request.env`, missing cwd, NUL
 *   bytes in an argument) fail `spawn` with a `SpawnError` worded like the Node spawner's.
 * - **End of scope.** Closing the scope sends SIGKILL to the process group, always, cancels the
 *   pipe readers and unrefs the child: it never waits for the group to disappear and never keeps
 *   the host alive.
 *
 * **Example**
 *
 * ```ts
 * import { Effect } from "effect"
 * import { HookRunner } from "@agent-hooks/core"
 * import { BunProcessSpawner } from "@agent-hooks/bun"
 *
 * const result = await Effect.runPromise(
 *   HookRunner.run(
 *     { file: "/bin/sh", args: ["-c", "cat"], cwd: process.cwd(), env: { PATH: "/usr/bin:/bin" },
 *       stdin: "{}", maxOutputBytes: 1024 * 1024 },
 *     "5 seconds"
 *   ).pipe(Effect.provide(BunProcessSpawner.layer))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as Layer from "effect/Layer"
import type { ProcessSpawner, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import * as internal from "./internal/processSpawner.ts"

/**
 * What this spawner can do: `{ runtime: "bun", processGroups: true }` (`processGroups` is
 * `false` on Windows).
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
