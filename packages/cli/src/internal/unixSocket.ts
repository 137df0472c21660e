/**
 * The listening Unix socket of `agent-hooks serve --socket PATH`, owned by the server's user alone.
 *
 * - The socket is born in a fresh private folder (mode 0700) beside PATH and made 0600 there, so
 *   it is never reachable with the mode the umask would give it (0775 under `umask 002` let a
 *   group member connect and run hooks as the server's user). A missing parent folder is created
 *   0700; a parent folder others can write (and that has no sticky bit) is refused, since anyone
 *   who can write it can put their own socket at PATH.
 * - It is put at PATH with a hard link, which never replaces what is there. When something is:
 *   a symbolic link or a file that is not a socket is left alone (never followed, never removed)
 *   and the start fails; a socket a server still answers on is left alone and the start fails; a
 *   socket nobody answers on (a server killed with `kill -9`) is stale and is replaced.
 * - On exit the socket at PATH is removed only if it is still the one this server made.
 *
 * Kept, not Effect's `SocketServer`: a server that listens at PATH creates the socket there with the
 * umask's mode, and must remove what is there first; this module exists to do neither.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { chmodSync, linkSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync } from "node:fs"
import type { Stats } from "node:fs"
import { connect } from "node:net"
import type { Server } from "node:net"
import { dirname, join, resolve } from "node:path"
import { Failed } from "../ExitCode.ts"

const codeOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, "0")

const lstatOrUndefined = (path: string): Stats | undefined => {
  try {
    return lstatSync(path)
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined
    throw error
  }
}

/** Whether a server answers on the socket at `path`: "live", "stale" (refused), or "gone". */
const probe = (path: string): Promise<"live" | "stale" | "gone" | "unknown"> =>
  new Promise((done) => {
    const socket = connect(path)
    const timer = setTimeout(() => {
      socket.destroy()
      done("unknown")
    }, 2000)
    socket.once("connect", () => {
      clearTimeout(timer)
      socket.destroy()
      done("live")
    })
    socket.once("error", (error) => {
      clearTimeout(timer)
      socket.destroy()
      const code = codeOf(error)
      done(code === "ECONNREFUSED" ? "stale" : code === "ENOENT" ? "gone" : "unknown")
    })
  })

/** The parent folder of the socket: created 0700 when missing, refused when others can write it. */
const checkFolder = (folder: string): string | undefined => {
  let stats: Stats
  try {
    stats = statSync(folder)
  } catch (error) {
    if (codeOf(error) !== "ENOENT") return `cannot read the socket's folder ${folder}: ${messageOf(error)}`
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 })
      return undefined
    } catch (error) {
      return `cannot create the socket's folder ${folder}: ${messageOf(error)}`
    }
  }
  if (!stats.isDirectory()) return `the socket's folder ${folder} is not a folder`
  const sticky = (stats.mode & 0o1000) !== 0
  if ((stats.mode & 0o022) !== 0 && !sticky) {
    return `the socket's folder ${folder} is writable by others (mode ${octal(stats.mode)}): they could put their own socket at its path; use a folder only you can write (chmod 700 ${folder})`
  }
  return undefined
}

/** Puts the socket at `tmp` at `path` (a hard link: nothing that is there is ever replaced). */
const place = (tmp: string, path: string): Effect.Effect<void, Failed> =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(tmp, path)
        return
      } catch (error) {
        if (codeOf(error) !== "EEXIST") {
          return yield* new Failed({ message: `cannot listen on ${path}: ${messageOf(error)}` })
        }
      }
      const there = lstatOrUndefined(path)
      if (there === undefined) continue
      if (there.isSymbolicLink()) {
        return yield* new Failed({
          message: `cannot listen on ${path}: it is a symbolic link, which agent-hooks neither follows nor removes; remove it yourself or choose another path`
        })
      }
      if (!there.isSocket()) {
        return yield* new Failed({
          message: `cannot listen on ${path}: a file that is not a socket is there; remove it yourself or choose another path`
        })
      }
      const state = yield* Effect.promise(() => probe(path))
      if (state === "live") {
        return yield* new Failed({ message: `cannot listen on ${path}: another server is listening on it` })
      }
      if (state === "unknown") {
        return yield* new Failed({
          message: `cannot listen on ${path}: a socket is there and it cannot be told whether a server still uses it; remove it yourself if none does`
        })
      }
      if (state === "stale") {
        // Removed only if it is still the very socket that refused the connection.
        const again = lstatOrUndefined(path)
        if (again?.isSocket() && again.ino === there.ino && again.dev === there.dev) {
          try {
            unlinkSync(path)
            process.stderr.write(`agent-hooks: removed a stale socket at ${path} (no server answered on it)\n`)
          } catch (error) {
            if (codeOf(error) !== "ENOENT")
              return yield* new Failed({ message: `cannot remove the stale socket at ${path}: ${messageOf(error)}` })
          }
        }
      }
    }
    return yield* new Failed({ message: `cannot listen on ${path}: another process keeps putting a file there` })
  })

/**
 * Listens with `server` on the Unix socket `path` (mode 0600) for the life of the scope; the
 * socket is removed when the scope closes if it is still this server's.
 */
export const listen = (server: Server, given: string): Effect.Effect<void, Failed, Scope.Scope> =>
  Effect.gen(function* () {
    const path = resolve(given)
    const folder = dirname(path)
    const problem = checkFolder(folder)
    if (problem !== undefined) return yield* new Failed({ message: `cannot listen on ${path}: ${problem}` })
    const privateDir = yield* Effect.try({
      try: () => mkdtempSync(join(folder, ".ah-")),
      catch: (error) => new Failed({ message: `cannot listen on ${path}: cannot create a private folder beside it (${messageOf(error)})` })
    })
    const tmp = join(privateDir, "s")
    const cleanPrivate = () => rmSync(privateDir, { recursive: true, force: true })
    let placed: Stats | undefined
    yield* Effect.acquireRelease(
      Effect.callback<void, Failed>((resume) => {
        const onError = (error: Error) => {
          cleanPrivate()
          resume(Effect.fail(new Failed({ message: `cannot listen on ${path}: ${error.message}` })))
        }
        server.once("error", onError)
        server.listen(tmp, () => {
          server.off("error", onError)
          resume(Effect.void)
        })
      }).pipe(
        Effect.andThen(
          Effect.try({
            try: () => chmodSync(tmp, 0o600),
            catch: (error) => new Failed({ message: `cannot listen on ${path}: cannot make the socket private (${messageOf(error)})` })
          })
        ),
        Effect.andThen(Effect.suspend(() => place(tmp, path))),
        Effect.andThen(
          Effect.sync(() => {
            placed = lstatSync(path)
          })
        ),
        Effect.ensuring(Effect.sync(cleanPrivate)),
        Effect.tapError(() => Effect.sync(() => server.close())),
        Effect.andThen(Effect.sync(() => process.stderr.write(`agent-hooks: serving on ${given}\n`)))
      ),
      () =>
        Effect.sync(() => {
          server.close()
          const there = lstatOrUndefined(path)
          if (placed !== undefined && there !== undefined && there.ino === placed.ino && there.dev === placed.dev) {
            try {
              unlinkSync(path)
            } catch {
              // Already gone.
            }
          }
        })
    )
  })
