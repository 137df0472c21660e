/**
 * The engine reads only regular files. A FIFO, a socket or a device where a settings file, a
 * policy or a hook's script is expected would block the read until a writer comes, and on Node a
 * pending read keeps the process from exiting at all (its exit waits for the I/O thread): a host
 * mode that has written "blocked" and never ends is killed at the agent's hook timeout, and most
 * agents then run the call. Every read of the engine asks what the path is first and refuses
 * anything but a file as a read error that names the path and what it is. The files a runtime
 * reads itself through `node:fs` (a cedar hook's policies, the CLI's agent configs) are opened
 * without blocking and checked on the open file (`readSync`, public as `RegularFile`).
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as PlatformError from "effect/PlatformError"
import type { NodeFs, NodeFsStats } from "../RegularFile.ts"

const CHECKED: unique symbol = Symbol.for("@agent-hooks/core/regularFiles")

const KINDS = {
  Directory: "a folder",
  SymbolicLink: "a symbolic link",
  BlockDevice: "a block device",
  CharacterDevice: "a character device",
  FIFO: "a FIFO (named pipe)",
  Socket: "a socket",
  Unknown: "of another kind"
} as const

/** Why a file that is not a regular file is not read, after what it is. */
const refusal = (kind: string): string =>
  `${kind}, not a regular file: agent-hooks reads only regular files (a read of it could wait for ever)`

/** Fails when `path` is known to be something else than a regular file; a stat that fails leaves the answer to the read. */
const regular = (fs: FileSystem.FileSystem, path: string, method: string): Effect.Effect<void, PlatformError.PlatformError> =>
  Effect.flatMap(Effect.option(fs.stat(path)), (info) =>
    info._tag === "None" || info.value.type === "File"
      ? Effect.void
      : Effect.fail(
          PlatformError.systemError({
            _tag: "InvalidData",
            module: "FileSystem",
            method,
            pathOrDescriptor: path,
            description: refusal(KINDS[info.value.type as keyof typeof KINDS] ?? KINDS.Unknown)
          })
        )
  )

/** `fs` whose `readFile` and `readFileString` refuse anything but a regular file. @internal */
export const only = (fs: FileSystem.FileSystem): FileSystem.FileSystem =>
  (fs as unknown as Record<symbol, unknown>)[CHECKED] === true
    ? fs
    : (Object.assign(
        FileSystem.FileSystem.of({
          ...fs,
          readFile: (path) => Effect.flatMap(regular(fs, path, "readFile"), () => fs.readFile(path)),
          readFileString: (path, encoding) => Effect.flatMap(regular(fs, path, "readFileString"), () => fs.readFileString(path, encoding))
        }),
        { [CHECKED]: true }
      ) as FileSystem.FileSystem)

/** Runs `effect` with reads of regular files only. @internal */
export const within = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | FileSystem.FileSystem> =>
  Effect.updateService(effect, FileSystem.FileSystem, only)

/** What an opened file is, in the words of `KINDS`. */
const kindOf = (info: NodeFsStats): string =>
  info.isDirectory()
    ? KINDS.Directory
    : info.isFIFO()
      ? KINDS.FIFO
      : info.isSocket()
        ? KINDS.Socket
        : info.isCharacterDevice()
          ? KINDS.CharacterDevice
          : info.isBlockDevice()
            ? KINDS.BlockDevice
            : KINDS.Unknown

/**
 * The text of the regular file at `path`, read through `node:fs`: opened without blocking (a FIFO's
 * open waits for a writer otherwise) and without becoming the process's terminal, then checked on the
 * open file itself (a file swapped for a FIFO after a check is still seen), so that a FIFO, a socket,
 * a device (or a link to one) or a folder is refused as what it is and never read; a file over
 * `maxBytes` is refused before it is read (a link to a huge file must not fill the memory). Throws
 * an `Error` naming the path. @internal
 */
export const readSync = (fs: NodeFs, path: string, maxBytes: number): string => {
  const { O_RDONLY, O_NONBLOCK, O_NOCTTY } = fs.constants
  const fd = fs.openSync(path, O_RDONLY | (O_NONBLOCK ?? 0) | (O_NOCTTY ?? 0))
  try {
    const info = fs.fstatSync(fd)
    if (!info.isFile()) throw new Error(`${path}: ${refusal(kindOf(info))}`)
    if (info.size > maxBytes) throw new Error(`${path}: ${info.size} bytes, more than agent-hooks reads of a file (${maxBytes}): not read`)
    return fs.readFileSync(fd, "utf8")
  } finally {
    fs.closeSync(fd)
  }
}
