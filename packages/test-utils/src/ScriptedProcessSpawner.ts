/**
 * A scripted, in-memory `ProcessSpawner` for unit tests of the core (the hook runner, the
 * engine): no process is started; a script decides what each request "does".
 *
 * - A run's `delay` elapses on Effect's `Clock` (`Effect.sleep`), so tests can drive it with
 *   `TestClock.adjust`; without a delay the run has exited by the time `spawn` returns.
 * - The scripted stdout/stderr are all "written" at the start (a reader sees them at once),
 *   as byte streams that end when the run exits (the `HookRunner` caps and decodes them, as for
 *   the real spawners).
 * - `kill("SIGTERM")` ends a running run with signal SIGTERM unless `ignoreTerm`;
 *   `kill("SIGKILL")` always ends it; closing the scope ends it with SIGKILL.
 * - Every request and every kill is recorded, in order, for assertions.
 *
 * **Example**
 *
 * ```ts
 * import { Effect } from "effect"
 * import { HookRunner } from "@agent-hooks/core"
 * import * as ScriptedProcessSpawner from "@agent-hooks/test-utils/ScriptedProcessSpawner"
 *
 * const spawner = ScriptedProcessSpawner.layer((request) =>
 *   request.stdin.includes("rm -rf") ? { exitCode: 2, stderr: "blocked" } : { stdout: "{}" }
 * )
 * const program = HookRunner.run(request, "60 seconds").pipe(Effect.provide(spawner))
 * // afterwards: spawner.requests
 * ```
 *
 * @since 0.1.0
 */
import type { KillSignal, ProcessRequest, ProcessSpawner, SpawnError } from "@agent-hooks/core/ProcessSpawner"
import type * as Duration from "effect/Duration"
import type * as Layer from "effect/Layer"
import * as internal from "./internal/scriptedProcessSpawner.ts"

/**
 * What one scripted run does, or the `SpawnError` that `spawn` fails with.
 *
 * @since 0.1.0
 * @category models
 */
export type ScriptedRun =
  | {
      /** Default 0; ignored when `signal` is set. */
      readonly exitCode?: number | null
      /** End by this signal (the exit code is then `null`). */
      readonly signal?: string | null
      readonly stdout?: string
      readonly stderr?: string
      /** How long the run lasts (on Effect's Clock). Default: none, it has exited at once. */
      readonly delay?: Duration.Input
      /** SIGTERM does not end the run (SIGKILL still does). */
      readonly ignoreTerm?: boolean
    }
  | SpawnError

/**
 * A `kill` the spawner received.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScriptedKill {
  readonly pid: number
  readonly signal: KillSignal
}

/**
 * What was asked of a scripted spawner, in order.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScriptedRecord {
  readonly requests: ReadonlyArray<ProcessRequest>
  readonly kills: ReadonlyArray<ScriptedKill>
}

/**
 * The service value, with its record.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScriptedSpawner extends ScriptedRecord {
  readonly capabilities: ProcessSpawner["Service"]["capabilities"]
  readonly spawn: ProcessSpawner["Service"]["spawn"]
}

/**
 * The layer, with its record.
 *
 * @since 0.1.0
 * @category models
 */
export interface ScriptedLayer extends Layer.Layer<ProcessSpawner>, ScriptedRecord {}

/**
 * A scripted spawner value: `{ runtime: "scripted", processGroups: true }`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (script: (request: ProcessRequest) => ScriptedRun) => ScriptedSpawner = internal.make

/**
 * A scripted spawner layer. `requests` and `kills` on the returned value record what it received.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (script: (request: ProcessRequest) => ScriptedRun) => ScriptedLayer = internal.layer
