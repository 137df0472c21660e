/**
 * Runs one hook process to completion under a timeout, and reports what happened as a value.
 *
 * The ladder: the hook runs until its direct child exits or its timeout elapses. On timeout the
 * whole process group gets SIGTERM; after `killGrace` whatever is left gets SIGKILL. Once the child
 * has exited, the output is read to its end: only a process left in the hook's group (a
 * grandchild) can keep the pipes open, so while none is there (`ProcessHandle.groupAlive`) the end
 * is certain and waited for, however long a loaded host takes to read it (at most 10 s and the
 * hook's timeout, or `killGrace` after one); while one is, or where groups are unknown, output is
 * drained for at most `drainWindow` (a grandchild that keeps stdout open does not hold the result
 * back).
 * Output taken before it ended is said (`outputIncomplete`, a warning), never taken as the whole
 * answer in silence. Then the scope closes and the runtime SIGKILLs anything left in the group.
 * Nothing here fails: a hook that cannot start, fails or times out is a result.
 *
 * Output: stdout and stderr are pulled from the spawner's byte streams as they come, decoded as
 * UTF-8 incrementally (a character split across chunks is held back until complete), and kept up
 * to `maxOutputBytes` each (stderr and stdout that is not a JSON answer to their own caps when a
 * request gives smaller ones); past the cap the pipe is still drained, so the hook never blocks, but
 * nothing more is kept or decoded (a hook printing 1 GiB costs the host one chunk at a time).
 *
 * Working directory: given `projectDir`, a request whose `cwd` is relative, or does not exist (the
 * spawn fails on it), runs in the project directory instead, with a warning in the run.
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { ProcessHandle, ProcessOutput, ProcessRequest, ProcessSpawner, SpawnErrorReason } from "./ProcessSpawner.ts"
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
  /** How long to keep reading output after the child exited while a process of its group holds the pipes. Default: 100 millis. */
  readonly drainWindow: Duration.Input
  /** Where a hook runs when its `cwd` is relative or missing (with a warning). Default: no fallback. */
  readonly projectDir?: string | undefined
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
  /** Why it could not be started (`"payload"`: the payload made the spawn fail, for example E2BIG). */
  readonly spawnErrorReason?: SpawnErrorReason | undefined
  /** What the runner changed or noticed (a `cwd` that fell back to the project directory). */
  readonly warnings?: ReadonlyArray<string> | undefined
  /**
   * stdout or stderr had not ended when the run was taken (a process the hook left running holds
   * it): what the hook wrote may not all have been read, so its answer counts as not read (a
   * warning, and a block when failing closed). Said in `warnings`.
   *
   * @since 0.2.0
   */
  readonly outputIncomplete?: boolean | undefined
  /**
   * The process was started detached (`ProcessRequest.detached`) and is running on its own: the
   * run is its launcher's, and how the process ends is not known here (its launcher appends that
   * to the request's log).
   *
   * @since 0.2.0
   */
  readonly detached?: boolean | undefined
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

/**
 * What `collect` reads from a handle.
 *
 * @since 0.1.0
 * @category models
 */
export interface CollectedOutput {
  /** Completes when both streams ended, with the decoded, capped text. */
  readonly output: Effect.Effect<ProcessOutput>
  /** What has been read so far (never half a character). */
  readonly soFar: () => ProcessOutput
  /** Both streams have ended (`output` completes at once). */
  readonly done?: () => boolean
}

/**
 * Starts reading a handle's stdout and stderr in the current scope, each capped at `maxOutputBytes`
 * (stderr at `maxStderrBytes`, and stdout that is not a JSON answer at `maxPlainStdoutBytes`, when
 * smaller; the runner's own reader, for callers that drive a `ProcessHandle` themselves).
 *
 * @since 0.1.0
 * @category execution
 */
export const collect: (
  handle: ProcessHandle,
  maxOutputBytes: number,
  maxStderrBytes?: number,
  maxPlainStdoutBytes?: number
) => Effect.Effect<CollectedOutput, never, Scope.Scope> = internal.collect
