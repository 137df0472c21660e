import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import type { CheckOptions, Verdict } from "../LogPath.ts"
import * as PosixPath from "./posixPath.ts"

const TRUSTED = new Set(["user", "managed", "explicit", "options"])

/** The folder every restricted file may log into. @internal */
export const projectLogFolder = (projectDir: string): string => PosixPath.join(projectDir, ".agent-hooks", "logs")

const inside = (path: string, folder: string): boolean => path.startsWith(`${folder.replace(/\/+$/, "")}/`)

/** @internal */
export const check = (path: string, options: CheckOptions): Verdict => {
  const where = options.file === undefined ? options.key : `${options.file} at ${options.key}`
  if (path.includes("\0")) return { _tag: "Refused", message: `${where}: a log path cannot hold a NUL character; ignored` }
  if (!path.startsWith("/")) {
    return { _tag: "Refused", message: `${where}: expected an absolute log path after resolving, got ${JSON.stringify(path)}; ignored` }
  }
  // `..` segments are resolved first: `.agent-hooks/logs/../../x` leaves the folder and is refused
  const resolved = PosixPath.resolve("/", path)
  if (TRUSTED.has(options.scope)) return { _tag: "Allowed", path: resolved, root: undefined }
  const roots = [projectLogFolder(options.projectDir), ...(options.extraRoots ?? [])].map((root) => PosixPath.resolve("/", root))
  const root = roots.find((folder) => inside(resolved, folder))
  if (root === undefined) {
    return {
      _tag: "Refused",
      message:
        `${where}: a ${options.scope} settings file may only log inside ${roots[0]}/ (it may come ` +
        `from a cloned repository), got ${JSON.stringify(resolved)}; ignored. Set ` +
        `the log in your user settings, or write it like ".agent-hooks/logs/hooks.jsonl"`
    }
  }
  return { _tag: "Allowed", path: resolved, root }
}

/** @internal */
export const verify = (path: string, root: string, projectDir: string): Effect.Effect<string | undefined, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const real = (p: string) =>
      fs.realPath(p).pipe(
        Effect.map((r): string | undefined => r),
        Effect.catch(() => Effect.succeed(undefined))
      )
    // the folders from the project (or the root, when it lies elsewhere) down to the file, each as it
    // really is: a symbolic link anywhere on the way that leads elsewhere refuses the path
    const base = inside(root, projectDir) ? projectDir : root
    const realBase = yield* real(base)
    if (realBase === undefined) return undefined // nothing exists yet: it is created where it is named
    const steps = path
      .slice(base.length)
      .split("/")
      .filter((part) => part !== "")
    let current = base
    for (const step of steps) {
      current = `${current}/${step}`
      const actual = yield* real(current)
      if (actual === undefined) return undefined // the rest does not exist: created inside
      const expected = `${realBase}${current.slice(base.length)}`
      if (actual !== expected) {
        return `log path ${path}: ${current} is a symbolic link to ${actual}, outside ${root}/; nothing is written`
      }
    }
    return undefined
  })

const MARKER = "/.agent-hooks/logs/"

/** @internal */
export const guard = (file: string): Effect.Effect<string | undefined, never, FileSystem.FileSystem> => {
  const at = file.indexOf(MARKER)
  if (at < 0) return Effect.succeed(undefined)
  return verify(file, file.slice(0, at + MARKER.length - 1), file.slice(0, at))
}
