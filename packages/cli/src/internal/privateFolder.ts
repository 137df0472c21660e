/**
 * A folder of the user's own that nobody else may enter: the daemon's socket folder and the compile
 * cache (`bin.ts`, `hookClient.ts`, `hookDaemon.ts`). Only `node:*` modules: the executable loads
 * it before the program.
 *
 * @internal
 */
// through process.getBuiltinModule, not import: an import of node:fs builds its ES module face, which
// loads all of Node's streams; and the hook client is built as one CommonJS file, which has no import.meta
const { chmodSync, lstatSync, mkdirSync } = process.getBuiltinModule("node:fs")

/**
 * Why `folder` is not the user's own private folder (owned by this uid, not a symlink, mode 0700),
 * or `undefined` when it is. Nothing is followed: a symlink is refused, not resolved. Throws when
 * it does not exist.
 *
 * @internal
 */
export const folderProblem = (folder: string): string | undefined => {
  const stat = lstatSync(folder)
  if (stat.isSymbolicLink()) return `${folder} is a symlink`
  if (!stat.isDirectory()) return `${folder} is not a folder`
  const uid = process.getuid?.()
  if (uid !== undefined && stat.uid !== uid) return `${folder} belongs to uid ${stat.uid}, not to this user (uid ${uid})`
  if ((stat.mode & 0o077) !== 0) return `${folder} has mode ${(stat.mode & 0o777).toString(8)}, not 700`
  return undefined
}

/**
 * `folder`, made with its missing parents (mode 0700) when it does not exist, when it is the user's
 * own private folder; else `undefined`. A folder of the user's own that others could read but never
 * write (0755, as earlier versions made the compile cache's) is narrowed to 0700; one they could
 * write to (or a symlink, or another user's) is not used. Not on Windows (no modes): `folder`.
 *
 * @internal
 */
export const privateFolder = (folder: string): string | undefined => {
  if (process.platform === "win32") return folder
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    const stat = lstatSync(folder)
    if (stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0 && (stat.mode & 0o077) !== 0) {
      chmodSync(folder, 0o700)
    }
    return folderProblem(folder) === undefined ? folder : undefined
  } catch {
    return undefined
  }
}
