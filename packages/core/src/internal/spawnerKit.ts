import type { OutputCollector, ProcessRequest } from "../ProcessSpawner.ts"
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
