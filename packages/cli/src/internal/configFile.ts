/**
 * Reading and writing an agent's config file safely: never through a symlink that leads out of the
 * config's folder (a cloned project's `.claude/settings.json -> ~/.bashrc` must not get JSON
 * written into it), atomically (a temp file in the same folder, then a rename, so the agent never
 * reads half a file), keeping the file's mode, and writing through a symlink that stays in the folder
 * so that the link itself stays.
 */
import * as RegularFile from "@agent-hooks/core/RegularFile"
import * as fs from "node:fs"
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync
} from "node:fs"
import { basename, dirname, join, relative, isAbsolute } from "node:path"

/** A config file install may not touch: why, and what to do. */
export class UnsafeConfig extends Error {}

const inside = (parent: string, child: string): boolean => {
  const rel = relative(parent, child)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

/**
 * The file to read and write for `path`: `path` itself, or the file a symlink at `path` leads to when
 * that file is in the same folder. `within`: a folder the config's folder must stay in (the project,
 * for a project install), checked on the real paths.
 */
export const target = (path: string, within: string | undefined): string => {
  const folder = dirname(path)
  let realFolder: string
  try {
    realFolder = realpathSync(folder)
  } catch {
    return path // the folder does not exist yet: nothing to follow
  }
  if (within !== undefined) {
    let realWithin = within
    try {
      realWithin = realpathSync(within)
    } catch {}
    if (!inside(realWithin, realFolder)) {
      throw new UnsafeConfig(`${folder} leads out of ${within} (it is ${realFolder}): not written. Remove the link, or install with --user`)
    }
  }
  let stat: ReturnType<typeof lstatSync>
  try {
    stat = lstatSync(path)
  } catch {
    return path
  }
  if (!stat.isSymbolicLink()) {
    if (!stat.isFile()) throw new UnsafeConfig(`${path} is not a regular file: not written`)
    return path
  }
  let real: string
  try {
    real = realpathSync(path)
  } catch {
    throw new UnsafeConfig(`${path} is a symlink to a file that does not exist: not written. Remove the link or make its target`)
  }
  if (dirname(real) !== realFolder) {
    throw new UnsafeConfig(
      `${path} is a symlink to ${real}, outside ${folder}: not written through it. Edit that file by hand, or replace the link with a file`
    )
  }
  if (!statSync(real).isFile()) throw new UnsafeConfig(`${path} leads to ${real}, which is not a regular file: not written`)
  return real
}

/**
 * The file's text, or `undefined` when there is none. Only a regular file is read: a FIFO or a
 * device in a cloned project where a config is expected would block the read (the whole process:
 * it is synchronous) until the agent kills the hook, and most agents then run the call. It is
 * opened without blocking and refused, as an error naming it and what it is (`RegularFile.readSync`).
 */
export const readText = (file: string): string | undefined => {
  try {
    return RegularFile.readSync(fs, file)
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined
    throw error
  }
}

/**
 * Writes `text` to `file` atomically (temp file in the same folder, fsync, rename), with the mode
 * the file had (a new file: `newMode`, else 0644); `undefined` removes the file. Creates the folder
 * when needed.
 */
export const writeText = (file: string, text: string | undefined, newMode?: number): void => {
  if (text === undefined) {
    rmSync(file, { force: true })
    return
  }
  const folder = dirname(file)
  mkdirSync(folder, { recursive: true })
  let mode = newMode ?? 0o644
  try {
    mode = statSync(file).mode & 0o7777
  } catch {}
  const temp = join(folder, `.${basename(file)}.agent-hooks-${process.pid}-${Date.now().toString(36)}.tmp`)
  const fd = openSync(temp, "wx", mode)
  try {
    fchmodSync(fd, mode)
    writeSync(fd, text)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    unlinkSync(temp)
    throw error
  }
  closeSync(fd)
  try {
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}
