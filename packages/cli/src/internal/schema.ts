import * as SettingsSchema from "@agent-hooks/core/SettingsSchema"
import * as Console from "effect/Console"
import type * as Effect from "effect/Effect"

/**
 * `agent-hooks schema`: the settings JSON Schema (draft 2020-12) on stdout, generated from the
 * loader's own `effect/Schema` definitions.
 *
 * @internal
 */
export const schema = (): Effect.Effect<void> => Console.log(JSON.stringify(SettingsSchema.jsonSchema(), null, 2))
