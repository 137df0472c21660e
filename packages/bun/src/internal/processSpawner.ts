import { makeOutputPair, ProcessSpawner, pumpStream, signalGroupOrChild, spawnErrorFrom } from "@agent-hooks/core/ProcessSpawner"
import type { SpawnError } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { statSync } from "node:fs"
import { Deferred, Effect, Layer } from "effect"
import type { Scope } from "effect"
import { bun } from "./bunApi.ts"
import type { BunGlobal, Subprocess } from "./bunApi.ts"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "bun", processGroups: groups }

const cwdProblem = (cwd: string): string | undefined => {
  try {
    return statSync(cwd).isDirectory() ? undefined : `cwd ${cwd} is not a directory`
  } catch {
    return `cwd ${cwd} does not exist`
  }
}

const spawnError = (request: ProcessRequest, cause: unknown): SpawnError => spawnErrorFrom(request, cause, cwdProblem)

const ignore = () => {}

// child.kill is safe after the exit: Bun knows the child was reaped and does not signal a reused pid.
const killGroup = (child: Subprocess, signal: KillSignal): void =>
  signalGroupOrChild(groups ? () => process.kill(-child.pid, signal) : undefined, () => child.kill(signal))

interface Running {
  readonly child: Subprocess
  readonly readers: ReadonlyArray<ReadableStreamDefaultReader<Uint8Array>>
  readonly handle: ProcessHandle
}

const runtime = (): BunGlobal => {
  const api = bun()
  if (api === undefined) throw new Error("BunProcessSpawner needs the Bun runtime (globalThis.Bun is undefined)")
  return api
}

const start = (request: ProcessRequest): Effect.Effect<Running, SpawnError> =>
  Effect.suspend(() => {
    let child: Subprocess
    try {
      child = runtime().spawn([request.file, ...request.args], {
        cwd: request.cwd,
        env: request.env,
        // Bun writes the bytes and then closes stdin; EPIPE (a child that never reads, or has
        // exited) is handled inside Bun and never surfaces. An empty payload is /dev/null: EOF.
        stdin: request.stdin === "" ? "ignore" : new TextEncoder().encode(request.stdin),
        stdout: "pipe",
        stderr: "pipe",
        detached: groups,
        windowsHide: true
      })
    } catch (cause) {
      return Effect.fail(spawnError(request, cause))
    }

    const exited = Deferred.makeUnsafe<ProcessExit>()
    const pair = makeOutputPair(request.maxOutputBytes)
    const readers = [
      pumpStream<ReadableStreamDefaultReader<Uint8Array>>(child.stdout, pair.stdout, pair.ended),
      pumpStream<ReadableStreamDefaultReader<Uint8Array>>(child.stderr, pair.stderr, pair.ended)
    ]
    // `exited` resolves when the direct child exits (not when the pipes close).
    child.exited.then(
      () => {
        const signal = child.signalCode
        Deferred.doneUnsafe(
          exited,
          Effect.succeed({ exitCode: signal === null ? child.exitCode : null, signal })
        )
      },
      ignore
    )
    const handle: ProcessHandle = {
      pid: child.pid,
      exited: Deferred.await(exited),
      output: pair.output,
      outputSoFar: pair.soFar,
      kill: (signal: KillSignal) => Effect.sync(() => killGroup(child, signal))
    }
    return Effect.succeed({ child, readers, handle })
  })

const release = ({ child, readers }: Running): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    killGroup(child, "SIGKILL")
    // Stop reading: a grandchild outside the group may still hold the pipes.
    for (const reader of readers) reader.cancel().catch(ignore)
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

/** @internal */
export const spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
  Effect.map(Effect.acquireRelease(start(request), release), (running) => running.handle)

/** @internal */
export const make: ProcessSpawner["Service"] = ProcessSpawner.of({ capabilities, spawn })

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, make)
