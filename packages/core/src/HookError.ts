/**
 * Failures of the engine itself. A hook that fails, times out or blocks is never one of
 * these: it is a `HookResult`. These are for a settings file that cannot be read or decoded,
 * for a payload that is not a JSON object, and for an audit log that cannot be opened, written or read.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Predicate from "effect/Predicate"

/**
 * A settings file could not be read or has the wrong shape as a whole.
 * `path` is the JSON path inside the file (`["hooks"]`), empty for the whole file.
 *
 * @since 0.1.0
 * @category errors
 */
export class SettingsError extends Data.TaggedError("SettingsError")<{
  readonly file: string
  readonly path: ReadonlyArray<string | number>
  readonly detail: string
}> {
  override get message(): string {
    const at = this.path.length === 0 ? "" : ` at ${formatPath(this.path)}`
    return `${this.file}${at}: ${this.detail}`
  }
}

/**
 * The event payload is not usable (not a JSON object, or not JSON at all).
 *
 * @since 0.1.0
 * @category errors
 */
export class PayloadError extends Data.TaggedError("PayloadError")<{
  readonly detail: string
}> {
  override get message(): string {
    return `invalid event payload: ${this.detail}`
  }
}

/**
 * The audit log could not be opened, written or read.
 *
 * @since 0.2.0
 * @category errors
 */
export class AuditError extends Data.TaggedError("AuditError")<{
  readonly file: string
  readonly detail: string
}> {
  override get message(): string {
    return this.file === "" ? this.detail : `${this.file}: ${this.detail}`
  }
}

/**
 * Every failure of the engine itself.
 *
 * @since 0.1.0
 * @category errors
 */
export type HookError = SettingsError | PayloadError

/**
 * Whether `u` is one of the engine's own failures (`SettingsError`, `PayloadError`), by its tag:
 * also for an error that crossed a bundle boundary (another copy of this module made it), where
 * `instanceof` fails. What a host matches instead of `_tag` strings.
 *
 * @since 0.2.0
 * @category guards
 */
export const isHookError = (u: unknown): u is HookError => Predicate.isTagged(u, "SettingsError") || Predicate.isTagged(u, "PayloadError")

/**
 * Renders a JSON path the way users read it: `hooks.PreToolUse[0].hooks[1].timeout`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatPath = (path: ReadonlyArray<string | number>): string =>
  path
    .map((segment, i) =>
      typeof segment === "number"
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? i === 0
            ? segment
            : `.${segment}`
          : `[${JSON.stringify(segment)}]`
    )
    .join("")
