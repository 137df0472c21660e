import { make as makeSpawner, ProcessSpawner, readPipes, readWebPipe, signalGroup, watchGroup } from "@agent-hooks/core/ProcessSpawner"
import type { GroupWatch, KillSignal, OutputPipe, ProcessExit, ProcessHandle, ProcessRequest, ReadingPipes, SpawnerCapabilities, WebByteStream } from "@agent-hooks/core/ProcessSpawner"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { bun } from "./bunApi.ts"
import type { Subprocess } from "./bunApi.ts"
import { cwdProblem, tempFiles } from "./files.ts"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "bun", processGroups: groups }

const kill = (child: Subprocess, group: GroupWatch, signal: KillSignal): void => {
  // ESRCH (the group is gone, or the child left it) or EPERM: the child alone. A group seen empty
  // is not signalled again: its number may be another hook's group by now (a reused pid).
  if (groups && !group.gone() && signalGroup(process.kill, child.pid, signal)) return
  // Safe after the exit: Bun knows the child was reaped and does not signal a reused pid.
  child.kill(signal)
}

/** How much a drain may raise the host's memory before it asks for a full collection. */
const DRAIN_RSS_SLACK = 32 * 1024 * 1024
/** How often (in bytes dropped) a drain looks at the host's memory. */
const DRAIN_CHECK_EVERY = 16 * 1024 * 1024

/** The host's resident memory, or 0 where it cannot be read (then no collection is asked for). */
const rss = (): number => {
  try {
    return process.memoryUsage.rss()
  } catch {
    return 0
  }
}

/**
 * Reads a pipe at once and to its end (`readWebPipe`). Bun's byte streams have no working "bring
 * your own buffer" reader (it crashes 1.4.5), so dropped chunks are freed only by a later
 * collection: a drain that has raised the host's resident memory by more than `DRAIN_RSS_SLACK`
 * asks for one. A gigabyte of output raised a fresh host by about 100 MB read through a pulled
 * stream, about 70 MB read at once, about 50 MB with the collections; a warm host by about 10 MB.
 */
const readCapped = (readable: ReadableStream<Uint8Array>, pipe: OutputPipe, limit: number): (() => void) => {
  let baseline = -1
  let checked = 0
  return readWebPipe(readable as unknown as WebByteStream, pipe, limit, {
    whileDraining: (dropped) => {
      if (baseline < 0) baseline = rss()
      if (dropped - checked < DRAIN_CHECK_EVERY) return
      checked = dropped
      if (rss() - baseline > DRAIN_RSS_SLACK) {
        bun()?.gc(true)
        baseline = rss()
      }
    }
  })
}

/** A started hook: the child, and its two pipes being read (from the start, so it never blocks on a full pipe). */
interface Running extends ReadingPipes {
  readonly child: Subprocess
  readonly group: GroupWatch
}

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

const release = ({ child, group, stdout, stderr, stopReading }: Running): Effect.Effect<void> =>
  Effect.sync(() => {
    // Always, even after a clean exit: whatever the hook left running in its group goes too.
    kill(child, group, "SIGKILL")
    // Stop reading: a grandchild outside the group may still hold the pipes.
    stopReading()
    stdout.end()
    stderr.end()
    // Never wait for the group to disappear, and never keep the host alive for it.
    child.unref()
  })

const handle = ({ child, group, stdout, stderr }: Running): ProcessHandle => {
  const exited = Deferred.makeUnsafe<ProcessExit>()
  // `exited` resolves when the direct child exits (not when the pipes close).
  child.exited.then(() => {
    const signal = child.signalCode
    // Looked at once: a group already empty is never signalled (its number could be reused before the release).
    if (groups) group.alive()
    Deferred.doneUnsafe(exited, Effect.succeed({ exitCode: signal === null ? child.exitCode : null, signal }))
  }, () => {})
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
