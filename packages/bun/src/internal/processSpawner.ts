import { make as makeSpawner, ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import type { ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { groupSpawn, nodeFiles, readWebPipe } from "@agent-hooks/core/SpawnerKit"
import type { GroupChild, OutputPipe, WebByteStream } from "@agent-hooks/core/SpawnerKit"
import * as fs from "node:fs"
import { tmpdir } from "node:os"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { bun } from "./bunApi.ts"
import type { Subprocess } from "./bunApi.ts"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "bun", processGroups: groups }

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

/** A started child, as the kit drives it. */
interface Child extends GroupChild {
  readonly stdout: ReadableStream<Uint8Array>
  readonly stderr: ReadableStream<Uint8Array>
}

const asChild = (child: Subprocess): Child => ({
  pid: child.pid,
  // Safe after the exit: Bun knows the child was reaped and does not signal a reused pid.
  kill: (signal) => child.kill(signal),
  // `exited` resolves when the direct child exits (not when the pipes close).
  onExit: (done) =>
    void child.exited.then(
      () => done({ exitCode: child.signalCode === null ? child.exitCode : null, signal: child.signalCode }),
      () => {}
    ),
  unref: () => child.unref(),
  stdout: child.stdout,
  stderr: child.stderr
})

const start = (request: ProcessRequest): Effect.Effect<Child, unknown> =>
  Effect.suspend(() => {
    const api = bun()
    if (api === undefined) return Effect.die(new Error("BunProcessSpawner needs the Bun runtime (globalThis.Bun is undefined)"))
    return Effect.try({
      try: () =>
        asChild(
          api.spawn([request.file, ...request.args], {
            cwd: request.cwd,
            env: request.env,
            // Bun writes the bytes and then closes stdin, swallowing EPIPE. An empty payload is /dev/null: EOF.
            stdin: request.stdin === "" ? "ignore" : new TextEncoder().encode(request.stdin),
            stdout: "pipe",
            stderr: "pipe",
            detached: groups,
            windowsHide: true
          })
        ),
      catch: (cause) => cause
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
