/**
 * The named rule sets a settings file's `extends` may name (`"agent-hooks:recommended"`): each a
 * list of rules with an id, so that a file can leave one out (`{"name": ..., "except": ["<id>"]}`).
 * One registry: the decoder, the JSON Schema (the names an editor offers) and the docs read it.
 */
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
