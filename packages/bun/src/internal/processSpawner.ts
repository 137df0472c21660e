import { make as makeSpawner, ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { Deferred, Effect, Layer, Stream } from "effect"
import type { Scope } from "effect"
import { bun } from "./bunApi.ts"
import type { Subprocess } from "./bunApi.ts"
import { cwdProblem, tempFiles } from "./files.ts"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "bun", processGroups: groups }

const kill = (child: Subprocess, signal: KillSignal): void => {
  try {
    if (groups) return void process.kill(-child.pid, signal)
  } catch {
    // ESRCH (the group is gone, or the child left it) or EPERM: the child alone.
  }
  // Safe after the exit: Bun knows the child was reaped and does not signal a reused pid.
  child.kill(signal)
}

/** A pipe as a pulled byte stream; the reader is cancelled when the consumer stops. */
const bytes = (readable: ReadableStream<Uint8Array>): Stream.Stream<Uint8Array> =>
  Stream.fromReadableStream({ evaluate: () => readable, onError: (e) => e }).pipe(Stream.ignore)

const start = (request: ProcessRequest): Effect.Effect<Subprocess, unknown> =>
  Effect.suspend(() => {
    const api = bun()
    if (api === undefined) return Effect.die(new Error("BunProcessSpawner needs the Bun runtime (globalThis.Bun is undefined)"))
    return Effect.try({
      try: () =>
        api.spawn([request.file, ...request.args], {
          cwd: request.cwd,
          env: request.env,
          // Bun writes the bytes and then closes stdin, swallowing EPIPE. An empty payload is /dev/null: EOF.
          stdin: request.stdin === "" ? "ignore" : new TextEncoder().encode(request.stdin),
          stdout: "pipe",
          stderr: "pipe",
          detached: groups,
          windowsHide: true
        }),
      catch: (cause) => cause
    })
  })

const release = (child: Subprocess): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    kill(child, "SIGKILL")
    // Stop reading: a grandchild outside the group may still hold the pipes (a reader cancels its own).
    for (const pipe of [child.stdout, child.stderr]) if (!pipe.locked) pipe.cancel().catch(() => {})
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

const handle = (child: Subprocess): ProcessHandle => {
  const exited = Deferred.makeUnsafe<ProcessExit>()
  // `exited` resolves when the direct child exits (not when the pipes close).
  child.exited.then(() => {
    const signal = child.signalCode
    Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? child.exitCode : null, signal }))
  }, () => {})
  return {
    pid: child.pid,
    exited: Deferred.await(exited),
    stdout: bytes(child.stdout),
    stderr: bytes(child.stderr),
    kill: (signal) => Effect.sync(() => kill(child, signal))
  }
}

/** @internal */
export const spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, unknown, Scope.Scope> =>
  Effect.map(Effect.acquireRelease(start(request), release), handle)

/** @internal */
export const make: ProcessSpawner["Service"] = makeSpawner({ capabilities, start: spawn, cwdProblem, tempFiles })

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, make)
