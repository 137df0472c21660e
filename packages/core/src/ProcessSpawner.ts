/**
 * The one capability the core needs from a runtime: start a process.
 *
 * The seam has the shape of Effect's `ChildProcessSpawner`: a runtime package supplies one
 * primitive (start a process in its own process group; a handle whose stdout and stderr are
 * byte `Stream`s; kill the group), wraps it with `make`, and provides the `ProcessSpawner`
 * layer. Everything else lives once, in the core: decoding, the output caps and the timeout
 * ladder are the `HookRunner`'s; the spawn-failure wording, NUL handling and the payload files
 * are `make`'s.
 *
 * **Contract for the primitive** (checked by the spawner conformance suite in
 * `packages/test-utils`):
 * - the process starts in its own process group (`detached` on POSIX), so `kill` reaches
 *   every process of the hook, grandchildren included;
 * - `request.stdin` is written in full and then stdin is closed (EOF); a process that never
 *   reads stdin, or exits before reading it, causes no error (EPIPE is swallowed);
 * - `stdout` and `stderr` are the raw bytes, pulled with back-pressure (nothing is buffered
 *   beyond what the consumer asked for); they end at EOF, on a read error, or when the scope
 *   closes, and never fail;
 * - `exited` completes when the direct child exits, even if a grandchild still holds the pipes;
 * - closing the scope kills whatever is left of the group with SIGKILL and stops reading the
 *   pipes; it never waits for the group to disappear (zombies are reaped late on some hosts).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as internal from "./internal/processSpawner.ts"

/**
 * What to start. Shell form is expressed by the caller as `file: "/bin/sh", args: ["-c", cmd]`.
 *
 * NUL bytes cannot reach a process through argv or the environment: `make` strips them from
 * `file`, `args`, `cwd` and every environment name and value (when the runtime refused the
 * spawn, so the common case pays nothing), so a payload value with a NUL
 * never makes a spawn fail.
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
  /** Cap for each of stdout and stderr, in bytes (applied by the `HookRunner` as it reads). */
  readonly maxOutputBytes: number
  /** Cap for stderr alone, in bytes, when it is to be smaller than `maxOutputBytes`. @since 0.2.0 */
  readonly maxStderrBytes?: number | undefined
  /**
   * Cap for stdout that is not a JSON answer (its first character after white space is not `{`),
   * when it is to be smaller than `maxOutputBytes`: a JSON answer is kept up to `maxOutputBytes`.
   * @since 0.2.0
   */
  readonly maxPlainStdoutBytes?: number | undefined
  /**
   * Text handed to the child as files: each `content` is written to a fresh temporary file
   * (mode 0600, in a fresh 0700 folder), the environment variable `env` holds its path, and the
   * files are removed when the spawn's scope closes (after the process exited or was killed).
   * For payload values too large for argv or the environment (Linux: 128 KiB per string).
   */
  readonly files?: ReadonlyArray<{ readonly env: string; readonly content: string }>
  /**
   * Start the process detached, for a host that exits right after (`agent-hooks run`): see
   * {@link Detached}. The handle is then the launcher's: it exits 0 as soon as the process has
   * started (nothing is known yet of how it will end), or 126 with a line on stderr when it
   * cannot be detached here.
   *
   * @since 0.2.0
   */
  readonly detached?: Detached | undefined
}

/**
 * How a detached process runs (POSIX): in a session and process group of its own (`setsid`; else
 * perl's setsid; else job control where there is a terminal), so that nothing the host does or
 * suffers reaches it; `stdin` (read whole before the launcher exits) on its stdin, stdout
 * discarded, SIGHUP and SIGINT ignored, the value `files` copied into a folder of its own that is
 * removed when it ends. Every spawner built with `make` does it with one launcher script.
 *
 * @since 0.2.0
 * @category models
 */
export interface Detached {
  /** After this many seconds its whole process group gets SIGTERM, then SIGKILL 2 s later. */
  readonly capSeconds: number
  /**
   * Where to say how it ended, after the host has gone: when the process ends, its launcher
   * appends one line to `file`: `record` (the text of a JSON object without its closing brace,
   * at most 8 KiB, else nothing is appended), then `"exitCode"`, `"signal"`, `"duration_ms"`,
   * `"status"` (`success` for exit 0, `blocking-error` for exit 2, `cancelled` at the cap,
   * `non-blocking-error` otherwise), `"timedOut"`, `"blocked": false`, `"error"` (what went
   * wrong and the last KiB of its stderr, escaped; `null` on success) and `"detached": "ended"`.
   */
  readonly logTo?: { readonly file: string; readonly record: string } | undefined
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
 * The text a process wrote, as the `HookRunner` decoded and capped it.
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
  /** The bytes written to stdout. Pull it (the `HookRunner` does), or the child may block on a full pipe. */
  readonly stdout: Stream.Stream<Uint8Array>
  /** The bytes written to stderr. */
  readonly stderr: Stream.Stream<Uint8Array>
  /** Sends `signal` to the whole process group (to the child alone where groups are unsupported). */
  readonly kill: (signal: KillSignal) => Effect.Effect<void>
  /**
   * Whether a process of the hook's group is still running, asked after the direct child exited:
   * only such a process (a grandchild) can keep the pipes open, so while none is left the runner
   * waits for the output to end, however long a busy host takes to read it. Absent where groups
   * are unsupported: the runner then waits for the output at most `drainWindow`. `watchGroup`
   * answers it with the runtime's `kill`.
   *
   * @since 0.2.0
   */
  readonly groupAlive?: (() => boolean) | undefined
  /**
   * The same bytes as `stdout` and `stderr`, handed to callbacks as the runtime reads them: the
   * runner reads a hook's output this way when a spawner gives both (no fiber, queue or stream
   * per chunk: a hook's cost over a raw spawn is mostly that bookkeeping), else it pulls the
   * streams. A pipe has one reader: its stream or its listener. The pipes of `SpawnerKit`
   * (`makeOutputPipe`, `readPipes`) have both (`SpawnerKit.handlePipes`).
   *
   * @since 0.2.0
   */
  readonly listen?: { readonly stdout: PipeListener; readonly stderr: PipeListener } | undefined
}

/**
 * Reads one output pipe through callbacks: `onChunk` for each chunk as it comes (those read
 * before the call first), then `onEnd` once. `onChunk` returning `false` says that nothing more
 * is wanted (the reader's cap is reached): the spawner may drop the rest of the pipe unread.
 *
 * @since 0.2.0
 * @category models
 */
export type PipeListener = (onChunk: (chunk: Uint8Array) => unknown, onEnd: () => void) => void

/**
 * Why a spawn failed: the executable (`"not-found"`: missing, or not executable), the working
 * directory (`"cwd"`), the size of the payload in argv or the environment (`"payload"`: E2BIG,
 * or the payload files could not be written), the system's limits (`"resources"`: too many open
 * files or processes, no memory: EMFILE, ENFILE, EAGAIN, ENOMEM), or anything else (`"other"`).
 *
 * @since 0.1.0
 * @category models
 */
export type SpawnErrorReason = "not-found" | "cwd" | "payload" | "resources" | "other"

/**
 * The process could not be started at all (executable not found, bad cwd, ...).
 * The hook runner turns it into a hook result; it never reaches the host as a failure.
 *
 * @since 0.1.0
 * @category errors
 */
export class SpawnError extends Data.TaggedError("SpawnError")<{
  readonly file: string
  readonly cause: unknown
  /** A one-line explanation such as `spawn jq ENOENT`, worded the same on every runtime. */
  readonly detail: string
  /** Why, as far as the runtime's error tells. */
  readonly reason?: SpawnErrorReason
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
 * Temporary files, as the runtime makes them (`ProcessRequest.files`).
 *
 * @since 0.1.0
 * @category models
 */
export interface TempFiles {
  /** Writes each text to its own new file, readable by the owner only, and returns the paths and how to remove them. */
  readonly write: (contents: ReadonlyArray<string>) => { readonly paths: ReadonlyArray<string>; readonly remove: () => void }
}

/**
 * What a runtime supplies to `make`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SpawnPrimitive {
  readonly capabilities: SpawnerCapabilities
  /**
   * Starts `request` (already free of NUL bytes and of `files`) in its own process group, with
   * the contract above. Fails with the runtime's own error (an `Error` with an errno `code`).
   */
  readonly start: (request: ProcessRequest) => Effect.Effect<ProcessHandle, unknown, Scope.Scope>
  /** Why `cwd` cannot be a working directory (`"cwd /x does not exist"`), or `undefined`; asked only after a failed start. */
  readonly cwdProblem: (cwd: string) => string | undefined
  readonly tempFiles: TempFiles
}

/**
 * The `ProcessSpawner` service on a runtime's primitive: strips NUL bytes, writes the payload
 * files, starts a `detached` request through its launcher (a POSIX shell script: the runtime
 * starts it as any other process), and turns a failed start into a `SpawnError` worded the same
 * on every runtime (`spawn <file> <errno>`, naming a missing or bad cwd). The parts a runtime
 * builds its primitive from are in `@agent-hooks/core/SpawnerKit`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (primitive: SpawnPrimitive) => ProcessSpawner["Service"] = internal.make(SpawnError)
