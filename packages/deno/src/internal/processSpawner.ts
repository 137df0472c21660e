import { make as makeSpawner, ProcessSpawner, readPipes, readWebPipe, signalGroup } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, OutputPipe, ProcessExit, ProcessHandle, ProcessRequest, ReadingPipes, SpawnerCapabilities, TempFiles, WebByteStream } from "@agent-hooks/core/ProcessSpawner"
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

const cwdProblem = (cwd: string): string | undefined => {
  try {
    return denoOrDie().statSync(cwd).isDirectory ? undefined : `cwd ${cwd} is not a directory`
  } catch {
    return `cwd ${cwd} does not exist`
  }
}

/** The payload files: a fresh 0700 folder, one 0600 file per text, removed with the folder. */
const tempFiles: TempFiles = {
  write: (contents) => {
    const api = denoOrDie()
    const dir = api.makeTempDirSync({ prefix: "agent-hooks-payload-" })
    const remove = () => {
      try {
        api.removeSync(dir, { recursive: true })
      } catch {
        // already gone
      }
    }
    try {
      const paths = contents.map((content, i) => {
        const path = `${dir}/${i}`
        api.writeTextFileSync(path, content, { mode: 0o600, createNew: true })
        return path
      })
      return { paths, remove }
    } catch (cause) {
      remove()
      throw cause
    }
  }
}

// child.kill: Deno refuses ("already terminated") once the child was reaped, so no reused pid is signalled.
const kill = (api: DenoGlobal, child: ChildProcess, signal: KillSignal, detached: boolean): void => {
  // ESRCH (the group is gone, or the child left it) or EPERM: the child alone.
  if (detached && signalGroup((pid, sig) => api.kill(pid, sig as KillSignal), child.pid, signal)) return
  try {
    child.kill(signal)
  } catch {
    // already gone
  }
}

/** A started hook: the child, its stdin writer, and its two pipes being read. */
interface Running extends ReadingPipes {
  readonly api: DenoGlobal
  readonly child: ChildProcess
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
        const child = new api.Command(request.file, {
          args: [...request.args],
          cwd: request.cwd,
          env: { ...request.env },
          clearEnv: true,
          // An empty payload is /dev/null: an immediate EOF, no pipe to write.
          stdin: request.stdin === "" ? "null" : "piped",
          stdout: "piped",
          stderr: "piped",
          // With `detached`, Deno forks (setsid in the child) instead of posix_spawn: about 2-3 ms
          // more per spawn, growing with the host's memory (docs/runtimes.md).
          detached
        }).spawn()
        let stdin: WritableStreamDefaultWriter<Uint8Array> | undefined
        if (request.stdin !== "") {
          const writer = child.stdin.getWriter()
          // BrokenPipe (the child never reads stdin, or has exited) is swallowed; so is the abort of the release.
          writer.write(new TextEncoder().encode(request.stdin)).then(() => writer.close()).catch(() => {})
          stdin = writer
        }
        return { api, child, stdin, ...readPipes(request, child.stdout, child.stderr, readByob) }
      },
      catch: (cause) => cause
    })
  })

const release = ({ api, child, stdin, stdout, stderr, stopReading }: Running, detached: boolean): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    kill(api, child, "SIGKILL", detached)
    stdin?.abort().catch(() => {})
    // Stop reading: a grandchild outside the group may still hold the pipes.
    stopReading()
    stdout.end()
    stderr.end()
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

const handle = ({ api, child, stdout, stderr }: Running, detached: boolean): ProcessHandle => {
  const exited = Deferred.makeUnsafe<ProcessExit>()
  child.status.then(
    ({ code, signal }) => Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? code : null, signal })),
    () => {}
  )
  return {
    pid: child.pid,
    exited: Deferred.await(exited),
    stdout: stdout.stream,
    stderr: stderr.stream,
    kill: (signal) => Effect.sync(() => kill(api, child, signal, detached))
  }
}

const spawnWith = (detached: boolean) => (request: ProcessRequest): Effect.Effect<ProcessHandle, unknown, Scope.Scope> =>
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
