/**
 * The few Bun APIs this package uses, declared locally (no `@types/bun`, no global `Bun`
 * declaration leaking into other packages). Shapes as of Bun 1.4.5.
 *
 * @internal
 */

/** `Bun.spawn(cmd, options)`, the subset used here. */
export interface SpawnOptions {
  readonly cwd?: string
  readonly env?: Readonly<Record<string, string>>
  /** A `Uint8Array` is written to the child's stdin, which is then closed. */
  readonly stdin?: Uint8Array | "pipe" | "ignore" | null
  readonly stdout?: "pipe"
  readonly stderr?: "pipe"
  /** POSIX: the child calls `setsid()`: a new session and process group led by the child. */
  readonly detached?: boolean
  readonly windowsHide?: boolean
}

/** `Bun.Subprocess`, the subset used here. */
export interface Subprocess {
  readonly pid: number
  readonly stdout: ReadableStream<Uint8Array>
  readonly stderr: ReadableStream<Uint8Array>
  /** Resolves with the exit status (128 + n after a signal) when the child exits; never rejects. */
  readonly exited: Promise<number>
  readonly exitCode: number | null
  readonly signalCode: string | null
  kill(signal?: string | number): void
  unref(): void
}

/** The `Bun` global, the subset used here. */
export interface BunGlobal {
  readonly version: string
  spawn(cmd: Array<string>, options: SpawnOptions): Subprocess
  /** Runs the garbage collector (`true`: a full collection, synchronously). */
  gc(force: boolean): void
}

/** The `Bun` global, or `undefined` when not running on Bun. */
export const bun = (): BunGlobal | undefined => (globalThis as { Bun?: BunGlobal }).Bun
