import { makeOutputPair, ProcessSpawner, pumpStream, signalGroupOrChild, spawnErrorFrom } from "@agent-hooks/core/ProcessSpawner"
import type { SpawnError } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { cwdProblem } from "./cwd.ts"
import { Deferred, Effect, Layer } from "effect"
import type { Scope } from "effect"

// ---------------------------------------------------------------------------------------------
// The few Deno APIs used here, declared locally (this package type-checks against Node's types
// only). Shapes as of Deno 2.9.6 (`deno types`).

interface DenoCommandOptions {
  readonly args?: Array<string>
  readonly cwd?: string
  readonly env?: Record<string, string>
  /** Without it the child inherits the parent's environment on top of `env`. */
  readonly clearEnv?: boolean
  readonly stdin?: "piped" | "null"
  readonly stdout?: "piped"
  readonly stderr?: "piped"
  /** POSIX: the child calls `setsid()`, leading a new session and process group. */
  readonly detached?: boolean
}

interface DenoChildProcess {
  readonly pid: number
  readonly stdin: WritableStream<Uint8Array>
  readonly stdout: ReadableStream<Uint8Array>
  readonly stderr: ReadableStream<Uint8Array>
  /** Resolves when the child exits (not when the pipes close); never rejects. */
  readonly status: Promise<{ readonly success: boolean; readonly code: number; readonly signal: string | null }>
  /** Throws once the child has terminated. */
  kill(signal?: string): void
  unref(): void
}

interface DenoGlobal {
  readonly build: { readonly os: string }
  readonly Command: new(file: string, options: DenoCommandOptions) => { spawn(): DenoChildProcess }
  /** A negative pid signals the process group. */
  kill(pid: number, signal?: string): void
}

/** The `Deno` global, or `undefined` when not running on Deno. */
export const deno = (): DenoGlobal | undefined => (globalThis as { Deno?: DenoGlobal }).Deno

// ---------------------------------------------------------------------------------------------

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "deno", processGroups: groups }

/** @internal */
export const capabilitiesWithoutGroups: SpawnerCapabilities = { runtime: "deno", processGroups: false }

/** One of stdout / stderr: incremental UTF-8, capped at `cap` bytes, read to the end regardless. */
const spawnError = (request: ProcessRequest, cause: unknown): SpawnError => spawnErrorFrom(request, cause, cwdProblem)

const ignore = () => {}

// child.kill: Deno refuses ("already terminated") once the child was reaped, so no reused pid is signalled.
const killGroup = (api: DenoGlobal, child: DenoChildProcess, signal: KillSignal, detached: boolean): void =>
  signalGroupOrChild(detached ? () => api.kill(-child.pid, signal) : undefined, () => child.kill(signal))

interface Running {
  readonly detached: boolean
  readonly api: DenoGlobal
  readonly child: DenoChildProcess
  readonly stdin: WritableStreamDefaultWriter<Uint8Array> | undefined
  readonly readers: ReadonlyArray<ReadableStreamDefaultReader<Uint8Array>>
  readonly handle: ProcessHandle
}

const start = (request: ProcessRequest, detached: boolean): Effect.Effect<Running, SpawnError> =>
  Effect.suspend(() => {
    const api = deno()
    if (api === undefined) return Effect.die(new Error("the Deno spawner needs the Deno runtime (globalThis.Deno is undefined)"))
    let child: DenoChildProcess
    try {
      child = new api.Command(request.file, {
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
    } catch (cause) {
      return Effect.fail(spawnError(request, cause))
    }

    let stdin: WritableStreamDefaultWriter<Uint8Array> | undefined
    if (request.stdin !== "") {
      stdin = child.stdin.getWriter()
      // BrokenPipe (the child never reads stdin, or has exited) is swallowed; so is the abort of the release.
      stdin.write(new TextEncoder().encode(request.stdin)).then(() => stdin!.close()).catch(ignore)
    }

    const exited = Deferred.makeUnsafe<ProcessExit>()
    const pair = makeOutputPair(request.maxOutputBytes)
    const readers = [
      pumpStream<ReadableStreamDefaultReader<Uint8Array>>(child.stdout, pair.stdout, pair.ended),
      pumpStream<ReadableStreamDefaultReader<Uint8Array>>(child.stderr, pair.stderr, pair.ended)
    ]
    child.status.then(
      ({ code, signal }) => Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? code : null, signal })),
      ignore
    )
    const handle: ProcessHandle = {
      pid: child.pid,
      exited: Deferred.await(exited),
      output: pair.output,
      outputSoFar: pair.soFar,
      kill: (signal: KillSignal) => Effect.sync(() => killGroup(api, child, signal, detached))
    }
    return Effect.succeed({ detached, api, child, stdin, readers, handle })
  })

const release = ({ api, child, detached, readers, stdin }: Running): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    killGroup(api, child, "SIGKILL", detached)
    stdin?.abort().catch(ignore)
    // Stop reading: a grandchild outside the group may still hold the pipes.
    for (const reader of readers) reader.cancel().catch(ignore)
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

const spawnWith = (detached: boolean) => (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
  Effect.map(Effect.acquireRelease(start(request, detached), release), (running) => running.handle)

/** @internal */
export const make: ProcessSpawner["Service"] = ProcessSpawner.of({ capabilities, spawn: spawnWith(groups) })

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, make)

/** @internal */
export const makeWithoutGroups: ProcessSpawner["Service"] = ProcessSpawner.of({
  capabilities: capabilitiesWithoutGroups,
  spawn: spawnWith(false)
})

/** @internal */
export const layerWithoutGroups: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, makeWithoutGroups)
