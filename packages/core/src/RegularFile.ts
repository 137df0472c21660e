/**
 * Reading only regular files, through the runtime's own `node:fs` (Node's, Bun's and Deno's), for
 * the files a runtime reads itself rather than through the engine's `FileSystem`: a `cedar` hook's
 * policy, entities and schema files (`HookEngine.cedarRuntime`), the CLI's agent config files.
 *
 * A FIFO, a socket or a device where a file is expected (a cloned project can hold one, or a link to
 * `/dev/zero`) would block the read until a writer comes, or never end it: a pending read keeps the
 * process from exiting after it has answered, the agent kills the hook at its timeout, and most
 * agents then run the call. Such a file is opened without blocking, checked on the open file and
 * refused as what it is, in an `Error` that names it; it is never read.
 *
 * @since 0.2.0
 */
import * as internal from "./internal/regularFiles.ts"

/**
 * What `fstatSync` says of an open file (Node's `fs.Stats` has it).
 *
 * @since 0.2.0
 * @category models
 */
export interface NodeFsStats {
  readonly size: number
  readonly isFile: () => boolean
  readonly isDirectory: () => boolean
  readonly isFIFO: () => boolean
  readonly isSocket: () => boolean
  readonly isCharacterDevice: () => boolean
  readonly isBlockDevice: () => boolean
}

/**
 * The synchronous `node:fs` functions a read calls: pass `node:fs` itself
 * (`import * as fs from "node:fs"`; Node's, Bun's and Deno's have them).
 *
 * @since 0.2.0
 * @category models
 */
export interface NodeFs {
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK?: number | undefined; readonly O_NOCTTY?: number | undefined }
  readonly openSync: (path: string, flags: number) => number
  readonly fstatSync: (fd: number) => NodeFsStats
  readonly readFileSync: (fd: number, encoding: "utf8") => string
  readonly closeSync: (fd: number) => void
}

/**
 * The largest file a read takes by default (32 MiB, the largest hook payload the CLI accepts): a
 * larger one is refused before it is read, not loaded into memory.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultMaxBytes: number = 32 * 1024 * 1024

/**
 * The text (UTF-8) of the regular file at `path`. Opened without blocking, checked on the open file
 * (a file swapped for a FIFO after a check is still seen); a FIFO, a socket, a device, a link to one,
 * or a folder throws an `Error` naming the path and what it is, and so does a file over `maxBytes`.
 * A file that cannot be opened throws the runtime's error (`ENOENT`: the file does not exist).
 *
 * @since 0.2.0
 * @category reading
 */
export const readSync = (fs: NodeFs, path: string, maxBytes: number = defaultMaxBytes): string => internal.readSync(fs, path, maxBytes)

/**
 * `readSync` as the file reader of a `CedarRuntime` (`HookEngine.cedarRuntime(importCedar,
 * RegularFile.reader(fs))`): a refusal is a rejected promise, which makes the cedar hook a failed
 * hook (its `onFailure` decides), never a read that waits.
 *
 * @since 0.2.0
 * @category reading
 */
export const reader =
  (fs: NodeFs, maxBytes: number = defaultMaxBytes): ((path: string) => Promise<string>) =>
  (path) =>
    new Promise((resolve) => resolve(internal.readSync(fs, path, maxBytes)))
