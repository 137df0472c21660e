/**
 * The named rule sets a settings file's `extends` may name (`"agent-hooks:recommended"`): each a
 * list of rules with an id, so that a file can leave one out (`{"name": ..., "except": ["<id>"]}`).
 * One registry: the decoder, the JSON Schema (the names an editor offers) and the docs read it.
 */
import type { JudgeContext, Judgment, ToolCall } from "../../PermissionRule.ts"
import { recommended } from "./recommended.ts"

/**
 * One rule of a named set: its id (what `except` names), the permission rules it adds and to which
 * list, and the docs' row (what it stops, why).
 *
 * @internal
 */
export interface SetRule {
  readonly id: string
  readonly list: "deny" | "ask"
  readonly rules: ReadonlyArray<string>
  readonly stops: string
  readonly why: string
  /**
   * Where the syntax cannot say the rule (`.env` but not `.env.example`; a delete of whatever holds
   * the project): the rule's own judgment, used for each of its entries instead of its `rules`,
   * which then only name it.
   */
  readonly judge?: ((call: ToolCall, ctx: JudgeContext) => Judgment) | undefined
}

/** @internal */
export interface RuleSet {
  readonly name: string
  readonly description: string
  readonly rules: ReadonlyArray<SetRule>
}

/** Every named set, by name. @internal */
export const registry: ReadonlyMap<string, RuleSet> = new Map([[recommended.name, recommended]])

/** The names `extends` accepts. @internal */
export const names: ReadonlyArray<string> = [...registry.keys()]

/** The set rule a permission entry came from (its `from`: `agent-hooks:recommended#rm-root`). @internal */
export const setRule = (from: string | undefined): SetRule | undefined => {
  if (from === undefined) return undefined
  const at = from.lastIndexOf("#")
  return registry.get(from.slice(0, at))?.rules.find((rule) => rule.id === from.slice(at + 1))
}
