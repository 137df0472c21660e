/**
 * The parts every runtime's spawner is built from (`SpawnerKit`): output pipes read from the start,
 * process groups signalled and watched, the payload files and the cwd check on the runtime's own
 * file calls, and the spawner of a runtime whose child process has a pid, a kill and an exit.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import type * as Cause from "effect/Cause"
import type * as Scope from "effect/Scope"
import type { KillSignal, PipeListener, ProcessExit, ProcessHandle, ProcessRequest, SpawnPrimitive, TempFiles } from "../ProcessSpawner.ts"
import type { GroupChild, GroupWatch, NodeFileCalls, OutputPipe, ReadingPipes, TempFileCalls, WebByteStream } from "../SpawnerKit.ts"
import { errorCode } from "./processSpawner.ts"

/** @internal */
export const makeOutputPipe = (): OutputPipe => {
  let chunks: Array<Uint8Array> = []
  let queue: Queue.Queue<Uint8Array, Cause.Done> | undefined
  let onChunk: ((chunk: Uint8Array) => unknown) | undefined
  let onEnd: (() => void) | undefined
  let ended = false
  const stream = Stream.callback<Uint8Array>((q) =>
    Effect.sync(() => {
      queue = q
      for (const chunk of chunks) Queue.offerUnsafe(q, chunk)
      chunks = []
      if (ended) Queue.endUnsafe(q)
    })
  )
  let full = false
  const listen: PipeListener = (chunk, end) => {
    for (const kept of chunks) full = chunk(kept) === false || full
    chunks = []
    if (ended) return end()
    onChunk = chunk
    onEnd = end
  }
  return {
    push: (chunk) => {
      if (ended || full) return !full
      if (onChunk !== undefined) full = onChunk(chunk) === false
      else if (queue === undefined) chunks.push(chunk)
      else Queue.offerUnsafe(queue, chunk)
      return !full
    },
    end: () => {
      if (ended) return
      ended = true
      if (onEnd !== undefined) onEnd()
      else if (queue !== undefined) Queue.endUnsafe(queue)
    },
    stream,
    listen
  }
}

/** What a "bring your own buffer" read reads into: big enough for a pipe's largest read. */
const BYOB_BYTES = 64 * 1024

/** @internal */
export const readWebPipe = (
  readable: WebByteStream,
  pipe: OutputPipe,
  limit: number,
  options: { readonly byob?: boolean | undefined; readonly whileDraining?: ((droppedBytes: number) => void) | undefined } = {}
): (() => void) => {
  let byob = options.byob === true
  let reader: ReturnType<WebByteStream["getReader"]>
  try {
    reader = readable.getReader(byob ? { mode: "byob" } : undefined)
  } catch {
    // Not a byte stream: chunk by chunk.
    byob = false
    reader = readable.getReader()
  }
  let left = limit
  let dropped = 0
  void (async () => {
    let view: Uint8Array | undefined = byob ? new Uint8Array(BYOB_BYTES) : undefined
    try {
      for (;;) {
        const { done, value } = await reader.read(view)
        if (done || value === undefined) break
        // The buffer comes back with the bytes read (the one passed in is detached): read into it again.
        if (view !== undefined) view = new Uint8Array(value.buffer, 0, BYOB_BYTES)
        if (left === 0) {
          dropped += value.byteLength
          options.whileDraining?.(dropped)
          continue
        }
        // A chunk read into the reused buffer is copied before it is kept.
        const chunk = value.byteLength < left ? value : value.subarray(0, left)
        left -= chunk.byteLength
        // The reader wants no more (its own cap, smaller: plain text past it): the rest is drained.
        if (pipe.push(view !== undefined ? chunk.slice() : chunk) === false) left = 0
        if (left === 0) pipe.end()
      }
    } catch {
      // A read error (or the cancel below) ends what the core reads; the exit status still comes from the process.
    }
    pipe.end()
  })()
  return () => void reader.cancel().catch(() => {})
}

/** @internal */
export const readPipes = <P>(
  request: ProcessRequest,
  stdout: P,
  stderr: P,
  read: (readable: P, pipe: OutputPipe, limit: number) => () => void
): ReadingPipes => {
  const out = makeOutputPipe()
  const err = makeOutputPipe()
  const limit = request.maxOutputBytes + 1
  const stderrLimit = Math.min(request.maxOutputBytes, request.maxStderrBytes ?? request.maxOutputBytes) + 1
  const stops = [read(stdout, out, limit), read(stderr, err, stderrLimit)]
  return { stdout: out, stderr: err, stopReading: () => stops.forEach((stop) => stop()) }
}

/** @internal */
export const signalGroup = (kill: (pid: number, signal: string) => unknown, pid: number, signal: KillSignal): boolean => {
  // The common failure (ESRCH: the hook left nothing in its group) throws; its stack trace is most
  // of what a hook's release costs, and nobody reads it.
  const errors = Error as { stackTraceLimit?: number }
  const limit = errors.stackTraceLimit
  errors.stackTraceLimit = 0
  try {
    kill(-pid, signal)
    return true
  } catch {
    return false
  } finally {
    errors.stackTraceLimit = limit
  }
}

/** ESRCH, as each runtime says it: Node and Bun an errno `code`, Deno a `NotFound` error. */
const isNoSuchProcess = (cause: unknown): boolean =>
  errorCode(cause) === "ESRCH" || (cause instanceof Error && (cause.name === "NotFound" || /\bESRCH\b/.test(cause.message)))

const groupAlive = (kill: (pid: number, signal: number) => unknown, pid: number): boolean => {
  // Signal 0 sends nothing: it only asks whether the group has a process left.
  const errors = Error as { stackTraceLimit?: number }
  const limit = errors.stackTraceLimit
  errors.stackTraceLimit = 0
  try {
    kill(-pid, 0)
    return true
  } catch (cause) {
    // EPERM: a process is there (one the host may not signal), so it may hold the pipes.
    return !isNoSuchProcess(cause)
  } finally {
    errors.stackTraceLimit = limit
  }
}

/** @internal */
export const watchGroup = (kill: (pid: number, signal: number) => unknown, pid: number | undefined): GroupWatch => {
  let gone = pid === undefined
  return {
    // Once empty, always: a later group of the same number (a reused pid) is someone else's.
    alive: () => !gone && !(gone = !groupAlive(kill, pid!)),
    gone: () => gone
  }
}

/** @internal */
export const handlePipes = (pipes: Pick<ReadingPipes, "stdout" | "stderr">): Pick<ProcessHandle, "stdout" | "stderr" | "listen"> => ({
  stdout: pipes.stdout.stream,
  stderr: pipes.stderr.stream,
  listen: { stdout: pipes.stdout.listen, stderr: pipes.stderr.listen }
})

/** @internal */
export const tempFilesOn = (calls: TempFileCalls): TempFiles => ({
  write: (contents) => {
    const dir = calls.makeTempDir("agent-hooks-payload-")
    const remove = () => {
      try {
        calls.removeAll(dir)
      } catch {
        // already gone
      }
    }
    try {
      const paths = contents.map((content, i) => {
        const path = `${dir}/${i}`
        calls.writeNew(path, content)
        return path
      })
      return { paths, remove }
    } catch (cause) {
      remove()
      throw cause
    }
  }
})

/** @internal */
export const cwdProblemOn =
  (isDirectory: (path: string) => boolean) =>
  (cwd: string): string | undefined => {
    try {
      return isDirectory(cwd) ? undefined : `cwd ${cwd} is not a directory`
    } catch {
      return `cwd ${cwd} does not exist`
    }
  }

/** @internal */
export const groupSpawn = <C extends GroupChild>(options: {
  readonly groups: boolean
  readonly signal: (pid: number, signal: string | number) => unknown
  readonly start: (request: ProcessRequest) => Effect.Effect<C, unknown>
  readonly read: (readable: C["stdout"], pipe: OutputPipe, limit: number) => () => void
}) => {
  const { groups, signal } = options
  const kill = (child: C, group: GroupWatch, sig: KillSignal): void => {
    const pid = child.pid
    if (pid === undefined) return
    // ESRCH (the group is gone, or the child left it) or EPERM: the child alone. A group seen empty
    // is not signalled again: its number may be another hook's group by now (a reused pid).
    if (groups && !group.gone() && signalGroup(signal, pid, sig)) return
    // Safe after the exit: the runtime knows the child was reaped and does not signal a reused pid.
    child.kill(sig)
  }
  interface Running extends ReadingPipes {
    readonly child: C
    readonly group: GroupWatch
  }
  const acquire = (request: ProcessRequest) =>
    Effect.map(
      options.start(request),
      (child): Running => ({
        child,
        group: watchGroup(signal, child.pid),
        ...readPipes(request, child.stdout, child.stderr, options.read)
      })
    )
  const release = ({ child, group, stdout, stderr, stopReading }: Running): Effect.Effect<void> =>
    Effect.sync(() => {
      // Always, even after a clean exit: whatever the hook left running in its group goes too.
      kill(child, group, "SIGKILL")
      // Stop reading: a grandchild outside the group may still hold the pipes.
      stopReading()
      stdout.end()
      stderr.end()
      child.close?.()
      // Never wait for the group to disappear, and never keep the host alive for it.
      child.unref()
    })
  const handle = (running: Running): ProcessHandle => {
    const { child, group } = running
    const exited = Deferred.makeUnsafe<ProcessExit>()
    child.onExit((exit) => {
      // Looked at once: a group already empty is never signalled (its number could be reused before the release).
      if (groups) group.alive()
      Deferred.doneUnsafe(exited, Effect.succeed(exit))
    })
    return {
      pid: child.pid,
      exited: Deferred.await(exited),
      ...handlePipes(running),
      kill: (sig) => Effect.sync(() => kill(child, group, sig)),
      ...(groups ? { groupAlive: group.alive } : {})
    }
  }
  return (request: ProcessRequest): Effect.Effect<ProcessHandle, unknown, Scope.Scope> =>
    Effect.map(Effect.acquireRelease(acquire(request), release), handle)
}

/** @internal */
export const nodeFiles = (fs: NodeFileCalls, tmpdir: () => string): Pick<SpawnPrimitive, "cwdProblem" | "tempFiles"> => ({
  cwdProblem: cwdProblemOn((path) => fs.statSync(path).isDirectory()),
  tempFiles: tempFilesOn({
    makeTempDir: (prefix) => fs.mkdtempSync(`${tmpdir()}/${prefix}`),
    writeNew: (path, content) => fs.writeFileSync(path, content, { mode: 0o600, flag: "wx" }),
    removeAll: (path) => fs.rmSync(path, { recursive: true, force: true })
  })
})
