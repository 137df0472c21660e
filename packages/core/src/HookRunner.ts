/**
 * Runs one hook process to completion under a timeout, and reports what happened as a value.
 *
 * The ladder: the hook runs until its direct child exits or its timeout elapses. On timeout the
 * whole process group gets SIGTERM; after `killGrace` whatever is left gets SIGKILL. Once the child
 * has exited, output is drained for at most `drainWindow` (a grandchild that keeps stdout open
 * does not hold the result back), then the scope closes and the runtime SIGKILLs anything left
 * in the group. Nothing here fails: a hook that cannot start, fails or times out is a result.
 *
 * @since 0.1.0
 */
import type { Duration, Effect } from "effect"
import type { ProcessRequest, ProcessSpawner } from "./ProcessSpawner.ts"
import * as internal from "./internal/runner.ts"

/**
 * Tuning of the ladder.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunnerOptions {
  /** Between SIGTERM and SIGKILL after a timeout. Default: 1 second. */
  readonly killGrace: Duration.Input
  /** How long to keep reading output after the child exited. Default: 100 millis. */
  readonly drainWindow: Duration.Input
}

/**
 * The default ladder.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultOptions: RunnerOptions = internal.defaultOptions

/**
 * What a run produced.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProcessRun {
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly durationMs: number
  readonly stdout: string
  readonly stderr: string
  readonly stdoutTruncated: boolean
  readonly stderrTruncated: boolean
  /** Set when the process could not be started. */
  readonly spawnError: string | undefined
}

/**
 * Runs a process with a timeout.
 *
 * @since 0.1.0
 * @category execution
 */
export const run: (
  request: ProcessRequest,
  timeout: Duration.Input,
  options?: RunnerOptions
) => Effect.Effect<ProcessRun, never, ProcessSpawner> = internal.run
