import * as HookInput from "@agent-hooks/core/HookInput"
import * as HostMode from "@agent-hooks/core/HostMode"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { Failed } from "../ExitCode.ts"

const describe = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`)

/** The largest payload accepted, in UTF-16 code units of its JSON text (32 MiB). */
export const maxPayloadLength = 32 * 1024 * 1024

/**
 * Why `payload` cannot be dispatched (not an object, nested deeper than the core's
 * `HookInput.MAX_PAYLOAD_DEPTH`), or `undefined`, said for `where`. The depth is the core's check
 * (`HookInput.depthExceeds`, without recursion): the CLI only renders it, before anything loads.
 *
 * @internal
 */
export const checkPayload = (payload: unknown, where: string): string | undefined => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return `${where}: expected one JSON object, got ${describe(payload)}`
  }
  return HookInput.depthExceeds(payload, HookInput.MAX_PAYLOAD_DEPTH)
    ? `${where}: nested deeper than ${HookInput.MAX_PAYLOAD_DEPTH} levels (the limit for a payload)`
    : undefined
}

/**
 * The event payload from stdin text: empty (or blank) stdin is `{}`; anything else must be one
 * JSON object. Its fields are kept as given.
 *
 * @internal
 */
export const parsePayload = (text: string): Effect.Effect<Record<string, unknown>, Failed> => {
  if (text.trim() === "") return Effect.succeed({})
  if (text.length > maxPayloadLength) {
    return Effect.fail(
      new Failed({ message: `invalid event payload on stdin: ${text.length} characters, over the limit of ${maxPayloadLength}` })
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return Effect.fail(new Failed({ message: `invalid event payload on stdin: not JSON (${(error as Error).message})` }))
  }
  const problem = checkPayload(value, "invalid event payload on stdin")
  if (problem !== undefined) return Effect.fail(new Failed({ message: problem }))
  const duplicate = HostMode.duplicateKey(text)
  if (duplicate !== undefined) duplicates.set(value as object, duplicate)
  return Effect.succeed(value as Record<string, unknown>)
}

/** The payloads whose JSON text gave a key twice, and that key (`JSON.parse` kept the last value). */
const duplicates = new WeakMap<object, string>()

/**
 * A key the payload's JSON text on stdin gave twice, or `undefined`: host mode blocks such a tool
 * call (the agent's tool may use the value the policy would not see).
 *
 * @internal
 */
export const duplicateKeyOf = (payload: object): string | undefined => duplicates.get(payload)

/**
 * Reads the whole of stdin and parses it. A terminal on stdin (nothing piped) counts as empty.
 *
 * @internal
 */
export const readPayload: Effect.Effect<Record<string, unknown>, Failed, Stdio.Stdio> = Effect.gen(function* () {
  const stdio = yield* Stdio.Stdio
  if (yield* stdio.stdinIsTerminal) return {}
  const text = yield* stdio.stdin.pipe(
    Stream.decodeText(),
    Stream.mkString,
    Effect.mapError((error) => new Failed({ message: `cannot read stdin: ${error.message}` }))
  )
  return yield* parsePayload(text)
})

/**
 * `Stdio` whose stdin is `bytes`, already read from the process's stdin (by the daemon's client, or
 * sent by it to the daemon): stdout and stderr are the process's.
 *
 * @internal
 */
export const bufferedStdio = (bytes: Uint8Array, isTerminal: boolean): Layer.Layer<Stdio.Stdio> =>
  Layer.succeed(
    Stdio.Stdio,
    Stdio.make({
      args: Effect.succeed([]),
      stdinIsTerminal: Effect.succeed(isTerminal),
      stdout: () => Sink.forEach((chunk: string | Uint8Array) => Effect.sync(() => void process.stdout.write(chunk))),
      stderr: () => Sink.forEach((chunk: string | Uint8Array) => Effect.sync(() => void process.stderr.write(chunk))),
      stdin: bytes.length === 0 ? Stream.empty : Stream.make(bytes)
    })
  )
