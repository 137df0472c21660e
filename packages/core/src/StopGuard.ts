/**
 * The Stop guard: a Stop or SubagentStop hook that blocks keeps the agent working; after `cap`
 * blocks in a row the agent may stop anyway, so that a hook that always blocks cannot loop the
 * agent forever. The engine keeps one streak per session and agent; the LangChain adapter applies
 * the same rule to its runs.
 *
 * @since 0.2.0
 */
import * as internal from "./internal/stopGuard.ts"

/**
 * The streaks of one engine.
 *
 * @since 0.2.0
 * @category models
 */
export interface StopGuard {
  /** Consecutive blocks allowed before the agent may stop anyway; 0 turns the guard off. */
  readonly cap: number
  /** Blocks in a row so far for `key` (an event, session and agent); 0 when the last one did not block. */
  readonly streak: (key: string) => number
  /**
   * Records whether one Stop dispatch of `event` for `key` blocks, before its outcome is made: a
   * block extends the streak; a block that reaches the cap is released, and the note to say so is
   * returned (the engine aggregates with it: not blocked, no block reasons to the model, the note
   * to the user and in `warnings`); anything else ends the streak.
   *
   * @since 0.2.0
   */
  readonly record: (key: string, blocked: boolean, event: string) => string | undefined
}

/**
 * `true` when `streak` blocks in a row reach the cap (never when the cap is 0).
 *
 * @since 0.2.0
 * @category predicates
 */
export const reached: (streak: number, cap: number) => boolean = internal.reached

/**
 * A guard with its own streaks.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: (cap: number) => StopGuard = internal.make
