/**
 * The JSON a hook receives on stdin: the host's payload as given, plus what is missing of the
 * common fields (Claude Code's common input fields). `hook_event_name` always comes from the event
 * being dispatched. The engine writes it as one compact JSON line, then closes stdin.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/input.ts"

/**
 * Defaults for the common fields a host did not pass.
 *
 * @since 0.1.0
 * @category models
 */
export interface InputDefaults {
  /** Used when the payload has no `session_id`. */
  readonly sessionId: string
  /** Used when the payload has no `cwd`. */
  readonly cwd: string
}

/**
 * Builds the input object for `event` from a host payload.
 *
 * @since 0.1.0
 * @category constructors
 */
export const build: (event: string, payload: Readonly<Record<string, unknown>>, defaults: InputDefaults) => Record<string, unknown> =
  internal.build

/**
 * A fresh session id (a random UUID v4) for engines whose host does not pass one.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeSessionId: () => string = internal.makeSessionId

/**
 * How deeply a payload's objects and arrays may nest (256 levels). A dispatch whose payload nests
 * deeper fails with a `PayloadError` (the CLI: exit 1 with one line), instead of overflowing the
 * stack while the hook's stdin is written.
 *
 * @since 0.2.0
 * @category limits
 */
export const MAX_PAYLOAD_DEPTH: number = internal.MAX_PAYLOAD_DEPTH

/**
 * `true` when `value` nests objects or arrays deeper than `limit` levels (checked without recursion).
 *
 * @since 0.2.0
 * @category limits
 */
export const depthExceeds: (value: unknown, limit: number) => boolean = internal.depthExceeds
