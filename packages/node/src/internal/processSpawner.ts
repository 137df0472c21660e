import { makeOutputPair, ProcessSpawner, signalGroupOrChild, spawnErrorFrom } from "@agent-hooks/core/ProcessSpawner"
import type { SpawnError } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, OutputCollector, ProcessExit, ProcessHandle, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { spawn as spawnChild } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { cwdProblem } from "./cwd.ts"
import type { Readable } from "node:stream"
import { Deferred, Effect, Layer } from "effect"
import type { Scope } from "effect"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "node", processGroups: groups }

const spawnError = (request: ProcessRequest, cause: unknown): SpawnError => spawnErrorFrom(request, cause, cwdProblem)

const ignore = () => {}

const killGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  const pid = child.pid
  if (pid === undefined) return
  // child.kill is safe even after the exit: Node knows the child was reaped and does not signal a reused pid.
  signalGroupOrChild(groups ? () => process.kill(-pid, signal) : undefined, () => child.kill(signal))
}

interface Running {
  readonly child: ChildProcess
  readonly handle: ProcessHandle
}

const start = (request: ProcessRequest): Effect.Effect<Running, SpawnError> =>
  Effect.callback<Running, SpawnError>((resume) => {
    let child: ChildProcess
    try {
      child = spawnChild(request.file, request.args, {
        cwd: request.cwd,
        env: request.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: groups,
        windowsHide: true
      })
    } catch (cause) {
      resume(Effect.fail(spawnError(request, cause)))
      return
    }

    const exited = Deferred.makeUnsafe<ProcessExit>()
    const pair = makeOutputPair(request.maxOutputBytes)
    const read = (stream: Readable | null, collector: OutputCollector) => {
      let done = false
      const end = () => {
        if (done) return
        done = true
        pair.ended()
      }
      if (stream === null) return end()
      stream.on("data", (chunk: Uint8Array) => collector.push(chunk))
      stream.on("error", ignore)
      stream.on("end", end)
      stream.on("close", end)
    }
    read(child.stdout, pair.stdout)
    read(child.stderr, pair.stderr)
    // EPIPE / ERR_STREAM_DESTROYED when the child does not read its stdin or has already exited.
    child.stdin?.on("error", ignore)

    let started = false
    child.on("error", (cause) => {
      // Before 'spawn': the process could not be started. After: a failed kill or pipe error,
      // which must never become an unhandled 'error' event in the host.
      if (!started) {
        started = true
        resume(Effect.fail(spawnError(request, cause)))
      }
    })
    child.on("exit", (code, signal) => {
      Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? code : null, signal }))
    })
    child.on("spawn", () => {
      if (started) return
      started = true
      child.stdin?.end(request.stdin)
      const handle: ProcessHandle = {
        pid: child.pid,
        exited: Deferred.await(exited),
        output: pair.output,
        outputSoFar: pair.soFar,
        kill: (signal: KillSignal) => Effect.sync(() => killGroup(child, signal))
      }
      resume(Effect.succeed({ child, handle }))
    })
  })

const release = ({ child }: Running): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    killGroup(child, "SIGKILL")
    child.stdin?.destroy()
    child.stdout?.destroy()
    child.stderr?.destroy()
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
