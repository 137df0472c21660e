/**
 * The few Deno APIs this package uses, declared locally (the package type-checks against Node's
 * types only, and no global `Deno` declaration leaks into other packages). Shapes as of Deno 2.9.6.
 *
 * @internal
 */

export interface CommandOptions {
  readonly args?: Array<string>
  readonly cwd?: string
  readonly env?: Record<string, string>
  /** Without it the child inherits the parent's environment on top of `env`. */
  readonly clearEnv?: boolean
  readonly stdin?: "piped" | "null"
  readonly stdout?: "piped"
  readonly stderr?: "piped"
  /** POSIX: the child calls `setsid()`, leading a new session and process group. */
  readonly detached?: boolean
}

export interface ChildProcess {
  readonly pid: number
  readonly stdin: WritableStream<Uint8Array>
  readonly stdout: ReadableStream<Uint8Array>
  readonly stderr: ReadableStream<Uint8Array>
  /** Resolves when the child exits (not when the pipes close); never rejects. */
  readonly status: Promise<{ readonly success: boolean; readonly code: number; readonly signal: string | null }>
  /** Throws once the child has terminated. */
  kill(signal?: string): void
  unref(): void
}

export interface DenoGlobal {
  readonly build: { readonly os: string }
  readonly Command: new (file: string, options: CommandOptions) => { spawn(): ChildProcess }
  /** A negative pid signals the process group. */
  kill(pid: number, signal?: string): void
  statSync(path: string): { readonly isDirectory: boolean; readonly isFile: boolean; readonly mode: number | null }
  makeTempDirSync(options?: { readonly prefix?: string }): string
  writeTextFileSync(path: string, data: string, options?: { readonly mode?: number; readonly createNew?: boolean }): void
  removeSync(path: string, options?: { readonly recursive?: boolean }): void
  cwd(): string
  readonly env: { toObject(): Record<string, string> }
}

/** The `Deno` global, or `undefined` when not running on Deno. */
export const deno = (): DenoGlobal | undefined => (globalThis as { Deno?: DenoGlobal }).Deno

/** The `Deno` global; a defect outside Deno. */
export const denoOrDie = (): DenoGlobal => {
  const api = deno()
  if (api === undefined) throw new Error("@agent-hooks/deno needs the Deno runtime (globalThis.Deno is undefined)")
  return api
}
