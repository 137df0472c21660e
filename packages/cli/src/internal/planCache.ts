/**
 * The daemon's compiled plans, kept between calls (`hookDaemon.ts`): loading, decoding and compiling
 * the settings is most of what a call costs besides its hooks, and most calls read the same files.
 *
 * A plan is kept under everything that decides it: the engine's options (settings files named,
 * project folder, working folder, preset, flags) and the whole environment, as they were when it
 * was compiled. And it is used again only when the file system still says what it said: every read
 * the compilation made (each file's bytes, each folder's names, each `stat`, each file found missing)
 * is made again before the plan is reused, and one answer that differs compiles the plan again. So a
 * settings file that was changed (in the same second and to the same size too: the bytes are
 * compared, not times), created where none was, or deleted, at any scope, is seen by the very next
 * call, as it is by a call in-process. A compilation that did anything but read (it wrote, or opened
 * a stream) is never kept.
 *
 * @internal
 */
import { createHash } from "node:crypto"
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync
} from "node:fs"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as HookError from "@agent-hooks/core/HookError"
import * as Plan from "@agent-hooks/core/Plan"
import * as NodeFileSystem from "@effect/platform-node-shared/NodeFileSystem"
import * as NodePath from "@effect/platform-node-shared/NodePath"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"

/** How many plans are kept (one per set of options: a few per project and agent); the least recently used goes. */
const MAX_PLANS = 16

/** The reads whose answers a plan depends on; any other file-system call makes its plan one that is never kept. */
const READS = [
  "access",
  "exists",
  "lstat",
  "stat",
  "readDirectory",
  "readDirectoryEntries",
  "readFile",
  "readFileString",
  "readLink",
  "realPath"
] as const
type Read = (typeof READS)[number]

interface Observation {
  readonly read: Read
  readonly path: string
  /** What the file system says of `path` for this read, as `probe` gives it. */
  readonly seen: string
}

interface Kept {
  readonly plan: Plan.Plan
  readonly observations: ReadonlyArray<Observation>
}

/** A file's or folder's state as a read depends on it: `lstat` and `stat` (ns times, size, inode, mode, owner). */
const statOf = (path: string, follow: boolean): string => {
  try {
    const info = follow ? statSync(path, { bigint: true }) : lstatSync(path, { bigint: true })
    return `${info.dev}:${info.ino}:${info.mode}:${info.uid}:${info.gid}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
  } catch (error) {
    return `!${(error as NodeJS.ErrnoException).code}`
  }
}

/** What `fileHash` says of a FIFO, a socket or a device read as a file. */
const NOT_A_FILE = "not a regular file:"

/** The largest file whose bytes are compared; a plan read from a larger one is never kept. */
const MAX_COMPARED = 4 * 1024 * 1024

/**
 * A regular file's bytes by their hash. Anything else read as a file (a FIFO, a device, a file over
 * `MAX_COMPARED`) answers differently each time, so the plan read from it is never kept. Opened
 * without blocking, then checked on the open file (a file swapped for a FIFO after a check is seen).
 */
const fileHash = (path: string): string => {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) return `${NOT_A_FILE}${Math.random()}`
    if (info.size > MAX_COMPARED) return `too large to compare:${Math.random()}`
    return `sha256:${createHash("sha256").update(readFileSync(fd)).digest("hex")}`
  } finally {
    closeSync(fd)
  }
}

/**
 * What the file system says now of `path` for a read, synchronously (a few system calls, no
 * Effect): a file's bytes by their hash, a folder's names, a link's target, else its `stat`.
 */
const probe = (read: Read, path: string): string => {
  try {
    switch (read) {
      case "readFile":
      case "readFileString":
        return fileHash(path)
      case "readDirectory":
      case "readDirectoryEntries":
        return `${statOf(path, true)}/${readdirSync(path, { withFileTypes: true })
          .map((entry) => `${entry.name}:${entry.isDirectory() ? "d" : entry.isFile() ? "f" : entry.isSymbolicLink() ? "l" : "o"}`)
          .join("/")}`
      case "readLink":
        return `link:${readlinkSync(path)}`
      case "realPath":
        return `real:${realpathSync(path)}`
      default:
        return `${statOf(path, false)}|${statOf(path, true)}`
    }
  } catch (error) {
    return `!${(error as NodeJS.ErrnoException).code}`
  }
}

/**
 * A file system that does what `base` does and writes down what each read depended on (probed before
 * and after the read: a file that changed meanwhile makes the plan one that is never kept);
 * `wrote` when it did anything but read.
 */
const recording = (base: FileSystem.FileSystem) => {
  const observations: Array<Observation> = []
  const state = { wrote: false }
  const fs: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(base)) {
    if (typeof member !== "function") fs[name] = member
    else if ((READS as ReadonlyArray<string>).includes(name)) {
      const read = name as Read
      fs[name] = (...args: Array<unknown>) => {
        const path = args[0]
        if (typeof path !== "string") {
          state.wrote = true
          return (member as (...a: Array<unknown>) => unknown)(...args)
        }
        return Effect.suspend(() => {
          const before = probe(read, path)
          // A FIFO or a device as a settings file: its read would hold one of the process's few I/O
          // threads until a writer comes, for good (the daemon serves other calls). It waits here
          // instead, without a thread, until the call's time budget ends it, as it ends the call
          // in-process.
          if (before.startsWith(NOT_A_FILE) && (read === "readFile" || read === "readFileString")) {
            state.wrote = true
            return Effect.never
          }
          return Effect.ensuring(
            (member as (...a: Array<unknown>) => Effect.Effect<unknown, unknown>)(...args),
            Effect.sync(() => {
              if (probe(read, path) !== before) state.wrote = true
              else observations.push({ read, path, seen: before })
            })
          )
        })
      }
    } else {
      fs[name] = (...args: Array<unknown>) => {
        state.wrote = true
        return (member as (...a: Array<unknown>) => unknown)(...args)
      }
    }
  }
  return { fs: fs as unknown as FileSystem.FileSystem, observations, state }
}

/** Whether every read would still answer what it answered. */
const unchanged = (observations: ReadonlyArray<Observation>): boolean =>
  observations.every((seen) => probe(seen.read, seen.path) === seen.seen)

/** The options as a key: every value that is data (the environment's too, sorted), the preset by its name, no functions. */
const keyOf = (options: HookEngine.EngineOptions): string =>
  JSON.stringify(options, (key, value: unknown) => {
    if (typeof value === "function") return undefined
    if (key === "preset" && typeof value === "object" && value !== null) return `preset:${(value as { name?: unknown }).name}`
    if (key === "env" && typeof value === "object" && value !== null)
      return Object.keys(value)
        .sort()
        .map((name) => [name, (value as Record<string, unknown>)[name]])
    return value
  })

/**
 * A plan cache for `EngineHost.plan`: the plan of `options`, compiled now or kept from an earlier
 * call whose every read still answers the same.
 *
 * @internal
 */
export const makePlanCache = () => {
  const kept = new Map<string, Kept>()
  const stats = { compiled: 0, reused: 0 }
  const plan = (options: HookEngine.EngineOptions): Effect.Effect<Plan.Plan, HookError.HookError> =>
    Effect.gen(function* () {
      const base = yield* FileSystem.FileSystem
      const key = keyOf(options)
      const found = kept.get(key)
      if (found !== undefined) {
        kept.delete(key)
        if (unchanged(found.observations)) {
          kept.set(key, found)
          stats.reused++
          return found.plan
        }
      }
      const record = recording(base)
      const compiled = yield* Plan.make(options).pipe(Effect.provideService(FileSystem.FileSystem, record.fs))
      stats.compiled++
      if (!record.state.wrote) {
        kept.set(key, { plan: compiled, observations: [...record.observations] })
        for (const old of kept.keys()) {
          if (kept.size <= MAX_PLANS) break
          kept.delete(old)
        }
      }
      return compiled
    }).pipe(Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
  return { plan, stats }
}
