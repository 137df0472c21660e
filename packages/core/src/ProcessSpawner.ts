/**
 * The one capability the core needs from a runtime: start a process.
 *
 * The core never imports Node, Bun or Deno. A runtime package (`@agent-hooks/node`,
 * `@agent-hooks/bun`) supplies a `ProcessSpawner` layer; the core's hook runner builds the
 * timeout ladder (SIGTERM to the group, a grace period, SIGKILL), the drain window and the
 * result on top of this primitive.
 *
 * **Contract for implementations** (checked by the spawner conformance suite in
 * `packages/test-utils`):
 * - the process starts in its own process group (`detached` on POSIX), so `kill` reaches
 *   every process of the hook, grandchildren included;
 * - `request.stdin` is written in full and then stdin is closed (EOF); a process that never
 *   reads stdin, or exits before reading it, causes no error (EPIPE is swallowed);
 * - stdout and stderr are collected as UTF-8 text, each capped at `request.maxOutputBytes`
 *   bytes (the rest is read and dropped, and the `truncated` flag is set);
 * - `exited` completes when the direct child exits, even if a grandchild still holds the pipes;
 * - closing the scope kills whatever is left of the group with SIGKILL and stops reading the
 *   pipes; it never waits for the group to disappear (zombies are reaped late on some hosts).
 *
 * @since 0.1.0
 */
import type { Effect, Scope } from "effect"
import { Context, Data } from "effect"
import * as kit from "./internal/spawnerKit.ts"

/**
 * What to start. Shell form is expressed by the caller as `file: "/bin/sh", args: ["-c", cmd]`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProcessRequest {
  /** The executable: an absolute path, or a name resolved on `PATH` of `env`. */
  readonly file: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  /** The complete environment of the child (the caller merges the parent's in). */
  readonly env: Readonly<Record<string, string>>
  /** Written to stdin, then stdin is closed. */
  readonly stdin: string
  /** Cap for each of stdout and stderr, in bytes. */
  readonly maxOutputBytes: number
}

/**
 * How the direct child ended.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProcessExit {
  /** `null` when the process was ended by a signal. */
  readonly exitCode: number | null
  /** The signal name (`"SIGKILL"`), or `null`. */
  readonly signal: string | null
}

/**
 * The text a process wrote.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProcessOutput {
  readonly stdout: string
  readonly stderr: string
  readonly stdoutTruncated: boolean
  readonly stderrTruncated: boolean
}

/**
 * A signal the runner sends to a hook's process group.
 *
 * @since 0.1.0
 * @category models
 */
export type KillSignal = "SIGTERM" | "SIGKILL"

/**
 * A started process.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProcessHandle {
  readonly pid: number | undefined
  /** Completes when the direct child exits. Never fails. */
  readonly exited: Effect.Effect<ProcessExit>
  /** Completes when both stdout and stderr reached EOF. Never fails. */
  readonly output: Effect.Effect<ProcessOutput>
  /** What has been read so far (used when a grandchild keeps the pipes open). */
  readonly outputSoFar: () => ProcessOutput
  /** Sends `signal` to the whole process group (to the child alone where groups are unsupported). */
  readonly kill: (signal: KillSignal) => Effect.Effect<void>
}

/**
 * The process could not be started at all (executable not found, bad cwd, ...).
 * The hook runner turns it into a non-blocking hook result; it never reaches the host as a failure.
 *
 * @since 0.1.0
 * @category errors
 */
export class SpawnError extends Data.TaggedError("SpawnError")<{
  readonly file: string
  readonly cause: unknown
  /** A one-line explanation such as `spawn jq ENOENT`. */
  readonly detail: string
}> {
  override get message(): string {
    return `could not start ${this.file}: ${this.detail}`
  }
}

/**
 * What a runtime can and cannot do, for documentation, diagnostics and the conformance suite.
 *
 * @since 0.1.0
 * @category models
 */
export interface SpawnerCapabilities {
  /** The runtime name, e.g. `"node"`, `"bun"`, `"deno"`, `"scripted"`. */
  readonly runtime: string
  /** `kill` reaches the whole process group (false: only the direct child). */
  readonly processGroups: boolean
}

/**
 * The service.
 *
 * @since 0.1.0
 * @category tags
 */
export class ProcessSpawner extends Context.Service<
  ProcessSpawner,
  {
    readonly capabilities: SpawnerCapabilities
    readonly spawn: (request: ProcessRequest) => Effect.Effect<ProcessHandle, SpawnError, Scope.Scope>
  }
>()("@agent-hooks/core/ProcessSpawner") {}

/**
 * For spawner implementations: one of stdout / stderr. Decodes UTF-8 incrementally (a character
 * split across chunks is held back until it is complete), keeps at most `cap` bytes, and accepts
 * (and drops) everything past the cap so the child never blocks on a full pipe.
 *
 * @since 0.1.0
 * @category models
 */
export interface OutputCollector {
  /** Set once the cap was reached. */
  truncated: boolean
  readonly push: (chunk: Uint8Array) => void
  /** The text decoded so far (an incomplete trailing character is not included). */
  readonly soFar: () => string
  /** The final text, once the stream ended. */
  readonly finish: () => string
}

/**
 * For spawner implementations: a collector with a byte cap.
 *
 * @since 0.1.0
 * @category implementation
 */
export const makeOutputCollector: (cap: number) => OutputCollector = kit.makeOutputCollector

/**
 * For spawner implementations: the `SpawnError` for a failed start, worded the same on every
 * runtime (`spawn <file> <errno>`), naming a missing or bad cwd (`cwdProblem` tells, for the runtime).
 *
 * @since 0.1.0
 * @category implementation
 */
export const spawnErrorFrom: (
  request: ProcessRequest,
  cause: unknown,
  cwdProblem: (cwd: string) => string | undefined
) => SpawnError = kit.spawnErrorFrom

/**
 * For spawner implementations: stdout and stderr together. Call `ended` once per stream when it
 * ends (EOF, error or cancel); `output` completes when both have.
 *
 * @since 0.1.0
 * @category models
 */
export interface OutputPair {
  readonly stdout: OutputCollector
  readonly stderr: OutputCollector
  readonly ended: () => void
  readonly output: Effect.Effect<ProcessOutput>
  readonly soFar: () => ProcessOutput
}

/**
 * For spawner implementations: the pair of collectors behind `ProcessHandle.output` and `outputSoFar`.
 *
 * @since 0.1.0
 * @category implementation
 */
export const makeOutputPair: (cap: number) => OutputPair = kit.makeOutputPair

/**
 * The part of a web `ReadableStreamDefaultReader` that `pumpStream` uses.
 *
 * @since 0.1.0
 * @category models
 */
export interface StreamReaderLike {
  read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>
}

/**
 * For spawner implementations on web streams (Bun, Deno): reads `stream` into `collector` until
 * it ends, then calls `ended`. Returns the reader, for cancelling it at release.
 *
 * @since 0.1.0
 * @category implementation
 */
export const pumpStream: <R extends StreamReaderLike>(stream: { getReader(): R }, collector: OutputCollector, ended: () => void) => R =
  kit.pumpStream

/**
 * For spawner implementations: signals the process group (`group`, when the runtime made one),
 * falling back to the direct child when that fails (the group is gone, or the child left it);
 * errors of the fallback (already gone) are ignored.
 *
 * @since 0.1.0
 * @category implementation
 */
export const signalGroupOrChild: (group: (() => void) | undefined, child: () => void) => void = kit.signalGroupOrChild
