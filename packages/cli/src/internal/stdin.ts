import { Effect, Stdio, Stream } from "effect"
import { Failed } from "../ExitCode.ts"

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`

/**
 * The event payload from stdin text: empty (or blank) stdin is `{}`; anything else must be one
 * JSON object. Its fields are kept as given.
 *
 * @internal
 */
export const parsePayload = (text: string): Effect.Effect<Record<string, unknown>, Failed> => {
  if (text.trim() === "") return Effect.succeed({})
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return Effect.fail(
      new Failed({ message: `invalid event payload on stdin: not JSON (${(error as Error).message})` })
    )
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Effect.fail(
      new Failed({ message: `invalid event payload on stdin: expected one JSON object, got ${describe(value)}` })
    )
  }
  return Effect.succeed(value as Record<string, unknown>)
}

/**
 * Reads the whole of stdin and parses it. A terminal on stdin (nothing piped) counts as empty.
 *
 * @internal
 */
export const readPayload: Effect.Effect<Record<string, unknown>, Failed, Stdio.Stdio> = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  if (yield* stdio.stdinIsTerminal) return {}
  const text = yield* stdio.stdin.pipe(
    Stream.decodeText(),
    Stream.mkString,
    Effect.mapError((error) => new Failed({ message: `cannot read stdin: ${error.message}` }))
  )
  return yield* parsePayload(text)
})
