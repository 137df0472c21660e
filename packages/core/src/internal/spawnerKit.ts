import { Deferred, Effect } from "effect"
import type { OutputCollector, OutputPair, ProcessOutput, ProcessRequest, StreamReaderLike } from "../ProcessSpawner.ts"
import { SpawnError } from "../ProcessSpawner.ts"

interface TextDecoderLike {
  decode(input?: Uint8Array, options?: { readonly stream?: boolean }): string
}
const TextDecoderCtor = (globalThis as unknown as { readonly TextDecoder: new(label: string) => TextDecoderLike }).TextDecoder

/** @internal */
export const makeOutputCollector = (cap: number): OutputCollector => {
  const decoder = new TextDecoderCtor("utf-8")
  let text = ""
  let bytes = 0
  const collector = {
    truncated: false,
    push(chunk: Uint8Array): void {
      if (collector.truncated) return
      const room = cap - bytes
      if (chunk.byteLength > room) {
        collector.truncated = true
        chunk = chunk.subarray(0, Math.max(0, room))
      }
      bytes += chunk.byteLength
      text += decoder.decode(chunk, { stream: true })
    },
    soFar: (): string => text,
    finish(): string {
      // An incomplete character at the end of a complete stream is invalid input (U+FFFD); one cut by the cap is dropped.
      if (!collector.truncated) text += decoder.decode()
      return text
    }
  }
  return collector
}

const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

/** @internal */
export const spawnErrorFrom = (
  request: ProcessRequest,
  cause: unknown,
  cwdProblem: (cwd: string) => string | undefined
): SpawnError => {
  const code = errorCode(cause)
  const message = (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!
  // An errno reads the same on every runtime: `spawn <file> <code>`; EINVAL (a NUL byte on Deno) keeps the runtime's reason.
  const base = code !== undefined && /^E[A-Z0-9]+$/.test(code)
    ? `spawn ${request.file} ${code}${code === "EINVAL" && !message.includes("EINVAL") ? ` (${message.replace(/^Failed to spawn '[^']*': /, "")})` : ""}`
    : message
  // Runtimes report a missing cwd as ENOENT of the executable, which points at the wrong thing.
  const cwd = code === "ENOENT" || code === "ENOTDIR" ? cwdProblem(request.cwd) : undefined
  return new SpawnError({ file: request.file, cause, detail: cwd ? `${base} (${cwd})` : base })
}

/** @internal */
export const makeOutputPair = (cap: number): OutputPair => {
  const stdout = makeOutputCollector(cap)
  const stderr = makeOutputCollector(cap)
  const done = Deferred.makeUnsafe<ProcessOutput>()
  let open = 2
  return {
    stdout,
    stderr,
    ended: () => {
      open -= 1
      if (open !== 0) return
      Deferred.doneUnsafe(
        done,
        Effect.succeed({ stdout: stdout.finish(), stderr: stderr.finish(), stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated })
      )
    },
    output: Deferred.await(done),
    soFar: () => ({ stdout: stdout.soFar(), stderr: stderr.soFar(), stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated })
  }
}

/** @internal */
export const pumpStream = <R extends StreamReaderLike>(
  stream: { getReader(): R },
  collector: OutputCollector,
  ended: () => void
): R => {
  const reader = stream.getReader()
  const loop = async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        if (value !== undefined) collector.push(value)
      }
    } catch {
      // Cancelled by the release, or a read error: what was read is kept.
    } finally {
      ended()
    }
  }
  void loop()
  return reader
}

/** @internal */
export const signalGroupOrChild = (group: (() => void) | undefined, child: () => void): void => {
  if (group !== undefined) {
    try {
      group()
      return
    } catch {
      // ESRCH (the group is gone, or the child left it) or EPERM: fall back to the child alone.
    }
  }
  try {
    child()
  } catch {
    // already gone
  }
}
