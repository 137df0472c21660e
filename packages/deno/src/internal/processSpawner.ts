import { make as makeSpawner, ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { cwdProblemOn, handlePipes, readPipes, readWebPipe, signalGroup, tempFilesOn, watchGroup } from "@agent-hooks/core/SpawnerKit"
import type { GroupWatch, OutputPipe, ReadingPipes, WebByteStream } from "@agent-hooks/core/SpawnerKit"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { deno, denoOrDie } from "./denoApi.ts"
import type { ChildProcess, DenoGlobal } from "./denoApi.ts"

const groups = deno()?.build.os !== "windows"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "deno", processGroups: groups }

/** @internal */
export const capabilitiesWithoutGroups: SpawnerCapabilities = { runtime: "deno", processGroups: false }

const cwdProblem = cwdProblemOn((path) => denoOrDie().statSync(path).isDirectory)

/** The payload files: a fresh 0700 folder, one 0600 file per text, removed with the folder. */
const tempFiles = tempFilesOn({
  makeTempDir: (prefix) => denoOrDie().makeTempDirSync({ prefix }),
  writeNew: (path, content) => denoOrDie().writeTextFileSync(path, content, { mode: 0o600, createNew: true }),
  removeAll: (path) => denoOrDie().removeSync(path, { recursive: true })
})

// child.kill: Deno refuses ("already terminated") once the child was reaped, so no reused pid is signalled.
const kill = (api: DenoGlobal, child: ChildProcess, group: GroupWatch, signal: KillSignal, detached: boolean): void => {
  // ESRCH (the group is gone, or the child left it) or EPERM: the child alone. A group seen empty
  // is not signalled again: its number may be another hook's group by now (a reused pid).
  if (detached && !group.gone() && signalGroup((pid, sig) => api.kill(pid, sig as KillSignal), child.pid, signal)) return
  try {
    child.kill(signal)
  } catch {
    // already gone
  }
}

const isExecutable = (api: DenoGlobal, path: string): boolean => {
  try {
    const stat = api.statSync(path)
    return stat.isFile && ((stat.mode ?? 0o111) & 0o111) !== 0
  } catch {
    return false
  }
}

/**
 * setsid(1) (util-linux, on Linux), if it is there. Deno gives a child its own process group only
 * through `detached`, and for `detached` it forks the whole host (2-3 ms more per spawn in a small
 * host, growing with its memory) instead of using posix_spawn. `setsid -- file args`, started
 * without `detached`, puts the hook in a session and group of its own for one more exec
 * (measured: 1.3 ms a spawn against 2.7 ms with `detached`, 0.8 ms with no group at all).
 */
let setsidPath: string | null | undefined
const setsidOf = (api: DenoGlobal): string | null => {
  if (setsidPath === undefined) {
    setsidPath = api.build.os === "linux" ? (["/usr/bin/setsid", "/bin/setsid"].find((path) => isExecutable(api, path)) ?? null) : null
  }
  return setsidPath
}

/**
 * Whether the spawn would find `file` (a path against `cwd`, a bare name on the hook's PATH): only
 * then is it started through setsid(1), so that a missing or unrunnable program fails to spawn as
 * it does without it (a SpawnError naming the file, not an exit status of setsid).
 */
const runnable = (api: DenoGlobal, file: string, request: ProcessRequest): boolean => {
  const at = (dir: string, name: string) => (name.startsWith("/") ? name : `${dir === "" ? "." : dir}/${name}`)
  if (file.includes("/")) return isExecutable(api, at(request.cwd, file))
  return (request.env["PATH"] ?? "").split(":").some((dir) => isExecutable(api, at(request.cwd, at(dir, file))))
}

/**
 * What `Deno.Command` is given for `request`: through setsid(1) when the hook needs a group of its
 * own, setsid(1) is there and the spawn would find the program; else the program itself, with
 * `detached` for a group. @internal
 */
export const commandFor = (
  api: DenoGlobal,
  request: ProcessRequest,
  detached: boolean
): { readonly file: string; readonly args: Array<string>; readonly detached: boolean } => {
  const setsid = detached ? setsidOf(api) : null
  // setsid(1) calls setsid() and execs the hook in its own place: the pid is the hook's, and its group's.
  if (setsid !== null && runnable(api, request.file, request))
    return { file: setsid, args: ["--", request.file, ...request.args], detached: false }
  return { file: request.file, args: [...request.args], detached }
}

/** A started hook: the child, its stdin writer, and its two pipes being read. */
interface Running extends ReadingPipes {
  readonly api: DenoGlobal
  readonly child: ChildProcess
  readonly group: GroupWatch
  readonly stdin: WritableStreamDefaultWriter<Uint8Array> | undefined
}

/**
 * Deno's pipes are byte streams: read into one reused buffer ("bring your own buffer"), so what
 * passes the cap is dropped without allocating (a gigabyte of output raised the host's memory by
 * about 100 MB read through a pulled stream, about 20 MB this way).
 */
const readByob = (readable: ReadableStream<Uint8Array>, pipe: OutputPipe, limit: number) =>
  readWebPipe(readable as unknown as WebByteStream, pipe, limit, { byob: true })

const start = (request: ProcessRequest, detached: boolean): Effect.Effect<Running, unknown> =>
  Effect.suspend(() => {
    const api = deno()
    if (api === undefined) return Effect.die(new Error("the Deno spawner needs the Deno runtime (globalThis.Deno is undefined)"))
    return Effect.try({
      try: (): Running => {
        const command = commandFor(api, request, detached)
        const child = new api.Command(command.file, {
          args: command.args,
          cwd: request.cwd,
          env: { ...request.env },
          clearEnv: true,
          // An empty payload is /dev/null: an immediate EOF, no pipe to write.
          stdin: request.stdin === "" ? "null" : "piped",
          stdout: "piped",
          stderr: "piped",
          // With `detached`, Deno forks (setsid in the child) instead of posix_spawn: about 2-3 ms
          // more per spawn, growing with the host's memory (docs/runtimes.md). Through setsid(1) it need not.
          detached: command.detached
        }).spawn()
        let stdin: WritableStreamDefaultWriter<Uint8Array> | undefined
        if (request.stdin !== "") {
          const writer = child.stdin.getWriter()
          // BrokenPipe (the child never reads stdin, or has exited) is swallowed; so is the abort of the release.
          writer
            .write(new TextEncoder().encode(request.stdin))
            .then(() => writer.close())
            .catch(() => {})
          stdin = writer
        }
        // Signal 0 asks whether the group has a process left (Deno.kill takes it, though its types do not say so).
        const group = watchGroup((pid, sig) => api.kill(pid, sig as unknown as KillSignal), child.pid)
        return { api, child, group, stdin, ...readPipes(request, child.stdout, child.stderr, readByob) }
      },
      catch: (cause) => cause
    })
  })

const release = ({ api, child, group, stdin, stdout, stderr, stopReading }: Running, detached: boolean): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    kill(api, child, group, "SIGKILL", detached)
    stdin?.abort().catch(() => {})
    // Stop reading: a grandchild outside the group may still hold the pipes.
    stopReading()
    stdout.end()
    stderr.end()
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

const handle = ({ api, child, group, stdout, stderr }: Running, detached: boolean): ProcessHandle => {
  const exited = Deferred.makeUnsafe<ProcessExit>()
  child.status.then(
    ({ code, signal }) => {
      // Looked at once: a group already empty is never signalled (its number could be reused before the release).
      if (detached) group.alive()
      Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? code : null, signal }))
    },
    () => {}
  )
  return {
    pid: child.pid,
    exited: Deferred.await(exited),
    ...handlePipes({ stdout, stderr }),
    kill: (signal) => Effect.sync(() => kill(api, child, group, signal, detached)),
    ...(detached ? { groupAlive: group.alive } : {})
  }
}

const spawnWith =
  (detached: boolean) =>
  (request: ProcessRequest): Effect.Effect<ProcessHandle, unknown, Scope.Scope> =>
    Effect.map(
      Effect.acquireRelease(start(request, detached), (running) => release(running, detached)),
      (running) => handle(running, detached)
    )

/** @internal */
export const make: ProcessSpawner["Service"] = makeSpawner({ capabilities, start: spawnWith(groups), cwdProblem, tempFiles })

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, make)

/** @internal */
export const makeWithoutGroups: ProcessSpawner["Service"] = makeSpawner({
  capabilities: capabilitiesWithoutGroups,
  start: spawnWith(false),
  cwdProblem,
  tempFiles
})

/** @internal */
export const layerWithoutGroups: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, makeWithoutGroups)
