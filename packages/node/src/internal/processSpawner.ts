import { ProcessSpawner, SpawnError } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessOutput, ProcessRequest, SpawnerCapabilities } from "@agent-hooks/core/ProcessSpawner"
import { spawn as spawnChild } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { statSync } from "node:fs"
import type { Readable } from "node:stream"
import { Deferred, Effect, Layer } from "effect"
import type { Scope } from "effect"

const groups = process.platform !== "win32"

/** @internal */
export const capabilities: SpawnerCapabilities = { runtime: "node", processGroups: groups }

/**
 * One of stdout / stderr: decodes UTF-8 incrementally (a character split across chunks is held
 * back until it is complete), keeps at most `cap` bytes, and keeps reading past the cap so the
 * child never blocks on a full pipe.
 */
class Collector {
  private text = ""
  private bytes = 0
  truncated = false
  private readonly decoder = new TextDecoder("utf-8")
  private readonly cap: number

  constructor(cap: number) {
    this.cap = cap
  }

  push(chunk: Uint8Array): void {
    if (this.truncated) return
    const room = this.cap - this.bytes
    if (chunk.byteLength > room) {
      this.truncated = true
      chunk = chunk.subarray(0, Math.max(0, room))
    }
    this.bytes += chunk.byteLength
    this.text += this.decoder.decode(chunk, { stream: true })
  }

  /** The text decoded so far (an incomplete trailing character is not included). */
  soFar(): string {
    return this.text
  }

  /**
   * The final text. An incomplete character at the very end of a complete stream is invalid
   * input and becomes U+FFFD; one cut by the cap is dropped.
   */
  finish(): string {
    if (!this.truncated) {
      this.text += this.decoder.decode()
    }
    return this.text
  }
}

const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

const cwdProblem = (cwd: string): string | undefined => {
  try {
    return statSync(cwd).isDirectory() ? undefined : `cwd ${cwd} is not a directory`
  } catch {
    return `cwd ${cwd} does not exist`
  }
}

const spawnError = (request: ProcessRequest, cause: unknown): SpawnError => {
  const code = errorCode(cause)
  // An errno (ENOENT, EACCES, ...) reads the same on Node, Bun and Deno: `spawn <file> <code>`.
  const base = code !== undefined && /^E[A-Z0-9]+$/.test(code)
    ? `spawn ${request.file} ${code}`
    : (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!
  // Node reports a missing cwd as `spawn <file> ENOENT`, which points at the wrong thing.
  const cwd = code === "ENOENT" || code === "ENOTDIR" ? cwdProblem(request.cwd) : undefined
  return new SpawnError({ file: request.file, cause, detail: cwd ? `${base} (${cwd})` : base })
}

const ignore = () => {}

const killGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  const pid = child.pid
  if (pid === undefined) return
  if (groups) {
    try {
      process.kill(-pid, signal)
      return
    } catch {
      // ESRCH (the group is gone, or the child left it) or EPERM: fall back to the child alone.
    }
  }
  try {
    // Safe even after the exit: Node knows the child was reaped and does not signal a reused pid.
    child.kill(signal)
  } catch {
    // already gone
  }
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
    const output = Deferred.makeUnsafe<ProcessOutput>()
    const out = new Collector(request.maxOutputBytes)
    const err = new Collector(request.maxOutputBytes)
    let open = 2
    const snapshot = (): ProcessOutput => ({
      stdout: out.soFar(),
      stderr: err.soFar(),
      stdoutTruncated: out.truncated,
      stderrTruncated: err.truncated
    })
    const read = (stream: Readable | null, collector: Collector) => {
      let done = false
      const end = () => {
        if (done) return
        done = true
        open -= 1
        if (open === 0) {
          Deferred.doneUnsafe(
            output,
            Effect.succeed({
              stdout: out.finish(),
              stderr: err.finish(),
              stdoutTruncated: out.truncated,
              stderrTruncated: err.truncated
            })
          )
        }
      }
      if (stream === null) return end()
      stream.on("data", (chunk: Uint8Array) => collector.push(chunk))
      stream.on("error", ignore)
      stream.on("end", end)
      stream.on("close", end)
    }
    read(child.stdout, out)
    read(child.stderr, err)
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
        output: Deferred.await(output),
        outputSoFar: snapshot,
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
