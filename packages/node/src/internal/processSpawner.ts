import { make as makeSpawner, ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { groupSpawn, nodeFiles } from "@agent-hooks/core/SpawnerKit"
import type { GroupChild } from "@agent-hooks/core/SpawnerKit"
import { spawn as spawnChild } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import { tmpdir } from "node:os"
import type { Readable } from "node:stream"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { readCapped } from "./pipe.ts"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "node", processGroups: groups }

/** A started child, as the kit drives it. */
interface Child extends GroupChild {
  readonly stdout: Readable | null
  readonly stderr: Readable | null
}

const asChild = (child: ChildProcess): Child => ({
  pid: child.pid,
  // Safe after the exit: Node knows the child was reaped and does not signal a reused pid.
  kill: (signal) => void child.kill(signal),
  onExit: (done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ exitCode: child.signalCode === null ? child.exitCode : null, signal: child.signalCode })
    child.on("exit", (code, signal) => done({ exitCode: signal === null ? code : null, signal }))
  },
  close: () => {
    child.stdin?.destroy()
    child.stdout?.destroy()
    child.stderr?.destroy()
  },
  unref: () => child.unref(),
  stdout: child.stdout,
  stderr: child.stderr
})

const start = (request: ProcessRequest): Effect.Effect<Child, unknown> =>
  Effect.callback<Child, unknown>((resume) => {
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
      resume(Effect.succeed(asChild(child)))
    })
  })

/** @internal */
export const make: ProcessSpawner["Service"] = makeSpawner({
  capabilities,
  start: groupSpawn({ groups, signal: process.kill, start, read: readCapped }),
  ...nodeFiles(fs, tmpdir)
})

/** @internal */
export const layer: Layer.Layer<ProcessSpawner> = Layer.succeed(ProcessSpawner, make)
