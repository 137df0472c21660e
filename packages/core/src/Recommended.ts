/**
 * The recommended rule set, `agent-hooks:recommended`: deny rules for what no user wants an agent to
 * do unasked. A settings scope adds it with `"extends": ["agent-hooks:recommended"]`, and turns a
 * rule off by its id with `"extends": [{ "name": "agent-hooks:recommended", "except": ["<id>"] }]`.
 *
 * Each rule has a stable kebab-case `id`, the permission rules (Claude Code's syntax) that say part
 * of it, and a predicate that judges it, covering what that syntax cannot say (`.env` but not
 * `.env.example`; a force push by `+refspec`, but not `--dry-run`; a delete of whatever directory
 * holds the project). Its {@link RecommendedRule.judge}
 * says, as `PermissionRule.judge` does, whether a call certainly does what the rule stops
 * (`match: true`), cannot be judged before it runs (`"unjudgeable"`: blocked too, with the reason),
 * or does not.
 *
 * Proven by a table of dangerous and ordinary commands (`packages/core/test/Recommended.test.ts`):
 * every dangerous one blocked, at most 1 % of the ordinary ones; the figures are in `docs/policy.md`.
 *
 * @since 0.3.0
 */
import type { JudgeContext, Judgment, ToolCall } from "./PermissionRule.ts"
import * as internal from "./internal/recommended.ts"

/**
 * The set's name in `extends`.
 *
 * @since 0.3.0
 * @category constants
 */
export const name = "agent-hooks:recommended"

/**
 * One rule of the set.
 *
 * @since 0.3.0
 * @category models
 */
export interface RecommendedRule {
  /** Stable kebab-case id, for `except`. */
  readonly id: string
  /** Permission rules (Claude Code's syntax) that say part of it; {@link RecommendedRule.judge} covers them and more. */
  readonly rules: ReadonlyArray<string>
  /** What it stops (Markdown, one paragraph). */
  readonly stops: string
  /** Why no user wants it unasked. */
  readonly why: string
  /** Whether a call does what the rule stops; `ctx` as for `PermissionRule.judge`. */
  readonly judge: (call: ToolCall, ctx: JudgeContext) => Judgment
}

/**
 * The rules, in the order they are judged.
 *
 * @since 0.3.0
 * @category constants
 */
export const rules: ReadonlyArray<RecommendedRule> = internal.RULES

/**
 * The ids of the rules.
 *
 * @since 0.3.0
 * @category constants
 */
export const ids: ReadonlyArray<string> = internal.RULES.map((rule) => rule.id)

/**
 * The rule of the set that blocks a call: the first that certainly matches, else the first that
 * cannot judge it; `undefined` when none objects. Rules named in `except` are skipped.
 *
 * @since 0.3.0
 * @category predicates
 */
export const judge: (
  call: ToolCall,
  ctx: JudgeContext,
  options?: { readonly except?: ReadonlyArray<string> | undefined }
) => { readonly id: string; readonly judgment: Judgment & { readonly match: true | "unjudgeable" } } | undefined = internal.judge
