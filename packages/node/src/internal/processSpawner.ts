import { make as makeSpawner, ProcessSpawner, readPipes, signalGroup, watchGroup } from "@agent-hooks/core/ProcessSpawner"
import type { GroupWatch, KillSignal, ProcessExit, ProcessHandle, ProcessRequest, ReadingPipes, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { spawn as spawnChild } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { cwdProblem, tempFiles } from "./files.ts"
import { readCapped } from "./pipe.ts"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "node", processGroups: groups }

const kill = (child: ChildProcess, group: GroupWatch, signal: KillSignal): void => {
  const pid = child.pid
  if (pid === undefined) return
  // ESRCH (the group is gone, or the child left it) or EPERM: the child alone. A group seen empty
  // is not signalled again: its number may be another hook's group by now (a reused pid).
  if (groups && !group.gone() && signalGroup(process.kill, pid, signal)) return
  // Safe after the exit: Node knows the child was reaped and does not signal a reused pid.
  child.kill(signal)
}

const start = (request: ProcessRequest): Effect.Effect<ChildProcess, unknown> =>
  Effect.callback<ChildProcess, unknown>((resume) => {
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
      return resume(Effect.fail(cause))
    }
    // EPIPE / ERR_STREAM_DESTROYED when the child does not read its stdin or has already exited.
    child.stdin?.on("error", () => {})
    let started = false
    // Before 'spawn': the process could not be started. After: a failed kill or pipe error, never an unhandled 'error'.
    child.on("error", (cause) => started || ((started = true), resume(Effect.fail(cause))))
    child.on("spawn", () => {
      if (started) return
      started = true
      child.stdin?.end(request.stdin)
      resume(Effect.succeed(child))
    })
  })

/** A started hook: the child, and its two pipes being read (from the start, so it never blocks on a full pipe). */
interface Running extends ReadingPipes {
  readonly child: ChildProcess
  readonly group: GroupWatch
}

const release = ({ child, group, stdout, stderr, stopReading }: Running): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    kill(child, group, "SIGKILL")
    stopReading()
    stdout.end()
    stderr.end()
    child.stdin?.destroy()
    child.stdout?.destroy()
    child.stderr?.destroy()
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

const handle = ({ child, group, stdout, stderr }: Running): ProcessHandle => {
  const exited = Deferred.makeUnsafe<ProcessExit>()
  if (child.exitCode !== null || child.signalCode !== null) {
    Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: child.signalCode === null ? child.exitCode : null, signal: child.signalCode }))
  }
  child.on("exit", (code, signal) => {
    // Looked at once: a group already empty is never signalled (its number could be reused before the release).
    if (groups) group.alive()
    Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? code : null, signal }))
  })
  return {
    pid: child.pid,
    exited: Deferred.await(exited),
    stdout: stdout.stream,
    stderr: stderr.stream,
    kill: (signal) => Effect.sync(() => kill(child, group, signal)),
    ...(groups ? { groupAlive: group.alive } : {})
  }
}

/** @internal */
export const spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, unknown, Scope.Scope> =>
  Effect.map(Effect.acquireRelease(Effect.map(start(request), (child): Running => ({ child, group: watchGroup(process.kill, child.pid), ...readPipes(request, child.stdout, child.stderr, readCapped) })), release), handle)

/** @internal */
export const make: ProcessSpawner["Service"] = makeSpawner({ capabilities, start: spawn, cwdProblem, tempFiles })

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, make)
