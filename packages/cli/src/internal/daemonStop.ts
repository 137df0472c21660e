/**
 * Stops the user's daemons of `agent-hooks hook` (`uninstall` does: an agent whose hook is gone
 * should not leave a process of agent-hooks behind for its idle time). Every daemon of this user (one
 * per build and runtime) is asked, on its own socket, to end: it takes no new call, and exits once
 * the calls it runs are answered. The next `agent-hooks hook` call starts one again.
 *
 * Only a socket that is the user's own, with mode 0600 in the user's private folder, is spoken to
 * (as the client does): nothing is sent to a socket someone else placed there.
 *
 * @internal
 */
import { readdirSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { join } from "node:path"
import { daemonFolder, socketProblem } from "./hookClient.ts"
import { folderProblem } from "./privateFolder.ts"

/** How long a daemon has to finish its calls and exit once asked. */
const STOP_MS = 10_000

/** The request that asks a daemon to end (`hookDaemon.ts` reads it before any call's request). */
export const STOP_REQUEST = `${JSON.stringify({ v: 1, stop: true })}\n`

/**
 * Asks the daemon at `socket` to end: true once it said `stopping` and its connection closed (it
 * exited). A daemon of an earlier version, which does not know the request, answers `fallback`: its
 * socket is removed instead, which ends it within seconds (a daemon whose socket is gone exits).
 */
const stopOne = (socket: string): Promise<boolean> =>
  new Promise((resolve) => {
    const connection = createConnection(socket)
    let said = ""
    const done = (stopped: boolean) => {
      clearTimeout(timer)
      connection.destroy()
      resolve(stopped)
    }
    const timer = setTimeout(() => done(false), STOP_MS)
    connection.setEncoding("utf8")
    connection.on("connect", () => connection.write(STOP_REQUEST))
    connection.on("data", (text: string) => {
      said += text
    })
    // a socket nobody listens on (its daemon was killed) errs: nothing to stop
    connection.on("error", () => done(said.includes('"stopping"')))
    connection.on("close", () => {
      const stopped = said.includes('"stopping"')
      if (!stopped && said.includes('"fallback"')) rmSync(socket, { force: true })
      done(stopped)
    })
  })

/**
 * Stops every daemon of this user (`env` as the client reads it); the sockets of those that exited.
 *
 * @internal
 */
export const stopDaemons = async (env: NodeJS.ProcessEnv): Promise<ReadonlyArray<string>> => {
  const folder = daemonFolder(env)
  if (folder === undefined) return []
  let names: Array<string>
  try {
    if (folderProblem(folder) !== undefined) return []
    names = readdirSync(folder).filter((name) => name.endsWith(".sock"))
  } catch {
    return []
  }
  const sockets = names
    .map((name) => join(folder, name))
    .filter((socket) => {
      try {
        return socketProblem(socket) === undefined
      } catch {
        return false
      }
    })
  const stopped = await Promise.all(sockets.map(stopOne))
  return sockets.filter((_, i) => stopped[i])
}
