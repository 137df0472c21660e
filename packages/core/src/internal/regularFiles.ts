/**
 * The engine reads only regular files. A FIFO, a socket or a device where a settings file, a
 * policy or a hook's script is expected would block the read until a writer comes, and on Node a
 * pending read keeps the process from exiting at all (its exit waits for the I/O thread): a host
 * mode that has written "blocked" and never ends is killed at the agent's hook timeout, and most
 * agents then run the call. Every read of the engine asks what the path is first and refuses
 * anything but a file as a read error that names the path and what it is.
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as PlatformError from "effect/PlatformError"

const CHECKED: unique symbol = Symbol.for("@agent-hooks/core/regularFiles")

const KINDS: Readonly<Record<string, string>> = {
  Directory: "a folder",
  SymbolicLink: "a symbolic link",
  BlockDevice: "a block device",
  CharacterDevice: "a character device",
  FIFO: "a FIFO (named pipe)",
  Socket: "a socket",
  Unknown: "not a regular file"
}

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
            description:
              `${KINDS[info.value.type] ?? "not a regular file"}, not a regular file: ` +
              "agent-hooks reads only regular files (a read of it could wait for ever)"
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
