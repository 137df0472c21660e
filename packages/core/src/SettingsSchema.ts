/**
 * The settings file's JSON Schema (draft 2020-12), generated from the `effect/Schema` definitions
 * the loader decodes with. `agent-hooks schema` prints it; `agent-hooks init` points `"$schema"` at it.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/settingsJsonSchema.ts"

/**
 * The schema's stable `$id`.
 *
 * @since 0.1.0
 */
export const id: string = internal.id

/**
 * The JSON Schema document for a settings file: top-level keys, matcher groups, every handler type.
 * Keys other agents keep in the same file are allowed; unknown events are allowed (the engine warns).
 * A matcher group or handler with a key it does not know is rejected (`additionalProperties: false`),
 * so editors flag typos such as `"comand"`; the engine only warns about such a key and loads the hook.
 *
 * @since 0.1.0
 */
export const jsonSchema: () => Record<string, unknown> = internal.document

/**
 * A top-level key of a settings file, as the schema describes it: the docs' key tables are
 * generated from these.
 *
 * @since 0.2.0
 * @category models
 */
export interface KeyDescription {
  readonly name: string
  /** The JSON type: `boolean`, `string`, `string[]`, `object`, `object[]`. */
  readonly type: string
  readonly description: string
  /** The value when no file sets it, when the key has one. */
  readonly default?: boolean | undefined
  /** Which settings files may set it. */
  readonly readFrom: string
  /** How the values of several files become one. */
  readonly merge: string
  /** The docs page that tells it in full, relative to the docs folder. */
  readonly page?: string | undefined
  /** What the docs add to its type: what a list's items are (`URL patterns`), what a string is (`a file path`). */
  readonly typeNote?: string | undefined
  /**
   * The strings a key that takes one of a few accepts (`unknownTools`: `allow`, `ask`, `deny`).
   *
   * @since 0.2.0
   */
  readonly choices?: ReadonlyArray<string> | undefined
}

/**
 * Every top-level key of a settings file, in the schema's order.
 *
 * @since 0.2.0
 */
export const keys: () => ReadonlyArray<KeyDescription> = internal.keys

/**
 * A handler type a settings file may name.
 *
 * @since 0.2.0
 * @category models
 */
export interface HandlerTypeDescription {
  /** Its `type`. */
  readonly type: string
  /** What it runs. */
  readonly summary: string
  /** Its fields, `type` and the fields every handler accepts included. */
  readonly fields: ReadonlyArray<string>
}

/**
 * Every handler type of the engine's registry (the decoder, the JSON Schema and trust read the same
 * registry), in its order.
 *
 * @since 0.2.0
 */
export const handlerTypes: () => ReadonlyArray<HandlerTypeDescription> = internal.handlerTypes

/**
 * The fields every handler type accepts (`timeout`, `statusMessage`, `if`, `onFailure`, ...).
 *
 * @since 0.2.0
 */
export const commonHandlerFields: () => ReadonlyArray<string> = internal.commonHandlerFields
