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
