/**
 * The parts a runtime package builds its `ProcessSpawner` primitive from (`ProcessSpawner.make`):
 * output pipes read from the start and capped, process groups signalled and watched, the payload
 * files and the cwd check on the runtime's own file calls, and the whole primitive for a runtime
 * whose child process has a pid, a kill, an exit and two readable pipes (`groupSpawn`: Node's
 * `child_process` and `Bun.spawn` share it). For runtime packages (`@agent-hooks/node`, `bun`,
 * `deno`) and whoever writes another; a host never needs it, and the core's main entry does not
 * export it.
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import type { KillSignal, PipeListener, ProcessExit, ProcessHandle, ProcessRequest, SpawnPrimitive, TempFiles } from "./ProcessSpawner.ts"
import * as internal from "./internal/spawnerKit.ts"

/**
 * One output pipe of a started process, as a spawner hands it to the core: the runtime pushes
 * chunks as it reads them, they wait until the core reads them (through `stream`, or `listen`),
 * and the pipe ends once (later pushes are dropped). A spawner reads its pipes from the start, so
 * a process never blocks on a full pipe, and pushes at most the request's `maxOutputBytes` and one
 * byte more (the byte that tells the core the cap was reached): the rest is read and dropped in
 * the runtime. A pipe has one reader: its stream or its listener.
 *
 * @since 0.2.0
 * @category models
 */
export interface OutputPipe {
  /** `false`: the reader wants nothing more (its cap is reached); the rest of the pipe may be drained unread. */
  readonly push: (chunk: Uint8Array) => unknown
  readonly end: () => void
  readonly stream: Stream.Stream<Uint8Array>
  readonly listen: PipeListener
}

/**
 * A new, empty `OutputPipe`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const makeOutputPipe: () => OutputPipe = internal.makeOutputPipe

/**
 * A web `ReadableStream` of bytes, as `Bun.spawn` and `Deno.Command` hand a child's pipes out:
 * the part `readWebPipe` uses (declared here so the core needs no DOM types).
 *
 * @since 0.2.0
 * @category models
 */
export interface WebByteStream {
  getReader(options?: { readonly mode: "byob" }): {
    read(view?: Uint8Array): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>
    cancel(reason?: unknown): Promise<void>
  }
}

/**
 * Reads a child's pipe to its end from the start, so the child never blocks on a full pipe: the
 * first `limit` bytes go into `pipe` (a spawner passes the request's `maxOutputBytes` and one more),
 * the rest is read and dropped as it comes. With `byob`, the stream is read into one reused buffer
 * (a byte stream's "bring your own buffer" reader, on Deno), so dropped output allocates nothing;
 * otherwise each chunk is dropped as soon as it is read, and `whileDraining` is told how many bytes
 * were dropped so far (Bun asks for a collection when its memory grows). Returns how to stop reading.
 *
 * @since 0.2.0
 * @category constructors
 */
export const readWebPipe: (
  readable: WebByteStream,
  pipe: OutputPipe,
  limit: number,
  options?: { readonly byob?: boolean | undefined; readonly whileDraining?: ((droppedBytes: number) => void) | undefined }
) => () => void = internal.readWebPipe

/**
 * Both output pipes of a started process, being read: what a spawner hands the core, and how it
 * stops reading when the process's scope closes.
 *
 * @since 0.2.0
 * @category models
 */
export interface ReadingPipes {
  readonly stdout: OutputPipe
  readonly stderr: OutputPipe
  readonly stopReading: () => void
}

/**
 * Starts reading a process's stdout and stderr with the runtime's `read` (which keeps at most
 * `limit` bytes in the pipe it is given and drops the rest), each with the request's
 * `maxOutputBytes` and one byte more: that byte tells the core the cap was reached.
 *
 * @since 0.2.0
 * @category constructors
 */
export const readPipes: <P>(
  request: ProcessRequest,
  stdout: P,
  stderr: P,
  read: (readable: P, pipe: OutputPipe, limit: number) => () => void
) => ReadingPipes = internal.readPipes

/**
 * A `ProcessHandle`'s `stdout`, `stderr` and `listen` on two pipes being read.
 *
 * @since 0.2.0
 * @category constructors
 */
export const handlePipes: (pipes: Pick<ReadingPipes, "stdout" | "stderr">) => Pick<ProcessHandle, "stdout" | "stderr" | "listen"> =
  internal.handlePipes

/**
 * Sends `signal` to the process group `pid` leads, with the runtime's `kill` (`process.kill`):
 * `true` when it was sent, `false` when there is no such group (ESRCH: the hook left nothing
 * running) or it is not the host's to signal (EPERM). The failure is the common case after a
 * hook's exit, and it is made cheap (no stack trace is taken for it).
 *
 * @since 0.2.0
 * @category utils
 */
export const signalGroup: (kill: (pid: number, signal: string) => unknown, pid: number, signal: KillSignal) => boolean =
  internal.signalGroup

/**
 * What the host knows of a hook's process group after the hook's direct child exited (`watchGroup`).
 *
 * @since 0.2.0
 * @category models
 */
export interface GroupWatch {
  /**
   * Whether a process of the group is still running, asked with signal 0 (which sends nothing):
   * `false` only for ESRCH. Once `false`, always: the group is empty for good, and a later group
   * of the same number (a reused pid) is another program's.
   */
  readonly alive: () => boolean
  /**
   * The group was seen empty: a signal to its number now could reach another program's group
   * (the pid reused), so it is sent to the child alone (the runtime knows it was reaped).
   */
  readonly gone: () => boolean
}

/**
 * Watches the process group `pid` leads, with the runtime's `kill` (`process.kill`, `Deno.kill`):
 * what a spawner's `ProcessHandle.groupAlive` answers and what its release asks before it signals
 * the group. Cheap when the group is gone (no stack trace is taken for ESRCH).
 *
 * @since 0.2.0
 * @category utils
 */
export const watchGroup: (kill: (pid: number, signal: number) => unknown, pid: number | undefined) => GroupWatch = internal.watchGroup

/**
 * The runtime's own file calls the payload files are made with (synchronous: a spawn writes them
 * before it starts the process).
 *
 * @since 0.2.0
 * @category models
 */
export interface TempFileCalls {
  /** Makes a fresh folder, readable by the owner only (0700), in the system's temporary folder; returns its path. */
  readonly makeTempDir: (prefix: string) => string
  /** Writes a new file (mode 0600); fails if it exists. */
  readonly writeNew: (path: string, content: string) => void
  /** Removes a folder and everything in it. */
  readonly removeAll: (path: string) => void
}

/**
 * The payload files (`ProcessRequest.files`, `SpawnPrimitive.tempFiles`) on the runtime's file
 * calls: a fresh 0700 folder, one 0600 file per text, removed with the folder (also when a write
 * fails).
 *
 * @since 0.2.0
 * @category constructors
 */
export const tempFilesOn: (calls: TempFileCalls) => TempFiles = internal.tempFilesOn

/**
 * `SpawnPrimitive.cwdProblem` on the runtime's directory check (`isDirectory` throws when the path
 * does not exist): `cwd <dir> does not exist`, `cwd <dir> is not a directory`, or `undefined`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const cwdProblemOn: (isDirectory: (path: string) => boolean) => (cwd: string) => string | undefined = internal.cwdProblemOn

/**
 * The part of `node:fs` the payload files and the cwd check use (Node and Bun pass the module
 * itself; the core imports no runtime).
 *
 * @since 0.2.0
 * @category models
 */
export interface NodeFileCalls {
  readonly mkdtempSync: (prefix: string) => string
  readonly writeFileSync: (path: string, data: string, options: { readonly mode: number; readonly flag: string }) => void
  readonly rmSync: (path: string, options: { readonly recursive: boolean; readonly force: boolean }) => void
  readonly statSync: (path: string) => { isDirectory(): boolean }
}

/**
 * `SpawnPrimitive.cwdProblem` and `tempFiles` on `node:fs` (`tempFilesOn`, `cwdProblemOn`), the
 * folders made in `tmpdir()` (`node:os`), asked at each spawn.
 *
 * @since 0.2.0
 * @category constructors
 */
export const nodeFiles: (fs: NodeFileCalls, tmpdir: () => string) => Pick<SpawnPrimitive, "cwdProblem" | "tempFiles"> = internal.nodeFiles

/**
 * A runtime's child process, as `groupSpawn` drives it.
 *
 * @since 0.2.0
 * @category models
 */
export interface GroupChild {
  readonly pid: number | undefined
  /** Signals the child alone (the runtime must not signal a reused pid after the child was reaped). */
  readonly kill: (signal: KillSignal) => void
  /** Calls back once with how the direct child ended (at once if it already has). */
  readonly onExit: (done: (exit: ProcessExit) => void) => void
  /** Closes what the runtime keeps of the child's pipes, at the release (optional). */
  readonly close?: (() => void) | undefined
  /** The host's event loop does not wait for the child. */
  readonly unref: () => void
  /** Its stdout and stderr, as the runtime hands them out (what `groupSpawn`'s `read` reads). */
  readonly stdout: unknown
  readonly stderr: unknown
}

/**
 * `SpawnPrimitive.start` for a runtime whose `start` gives a child in its own process group
 * (`detached` on POSIX) with two readable pipes: the pipes read from the start (`read` keeps at
 * most `limit` bytes in the pipe it is given), `kill` reaching the group while it is not seen
 * empty (the child alone after), `groupAlive` with `signal` 0, and a release that kills what is
 * left of the group with SIGKILL, stops reading and never waits. `groups: false` (Windows): the
 * child alone, no `groupAlive`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const groupSpawn: <C extends GroupChild>(options: {
  readonly groups: boolean
  readonly signal: (pid: number, signal: string | number) => unknown
  readonly start: (request: ProcessRequest) => Effect.Effect<C, unknown>
  readonly read: (readable: C["stdout"], pipe: OutputPipe, limit: number) => () => void
}) => (request: ProcessRequest) => Effect.Effect<ProcessHandle, unknown, Scope.Scope> = internal.groupSpawn
