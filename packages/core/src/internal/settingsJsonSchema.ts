/**
 * The settings file's JSON Schema (draft 2020-12), generated from the annotated schema of the
 * settings file (`settingsSchema.ts`) the loader decodes with, so editors and the engine agree.
 */
import * as Schema from "effect/Schema"
import * as HookEvent from "../HookEvent.ts"
import * as HandlerSchema from "./handlerSchema.ts"
import * as HandlerTypes from "./handlerTypes.ts"
import { keys as keyInfos, mergeRules, SettingsDocument } from "./settingsSchema.ts"

/** The stable `$id` of the settings schema (a new major layout gets a new id). @internal */
export const id = "https://agent-hooks.dev/schema/settings/v1.json"

// `Schema.optional` admits `undefined`, which JSON Schema renders as a `null` branch; a settings file
// may leave a key out but not set it to null (the loader refuses null), so the branch is dropped.
const withoutNull = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutNull)
  if (typeof node !== "object" || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = withoutNull(value)
  const anyOf = out["anyOf"]
  if (Array.isArray(anyOf)) {
    const kept = anyOf.filter(
      (branch) =>
        !(
          typeof branch === "object" &&
          branch !== null &&
          (branch as Record<string, unknown>)["type"] === "null" &&
          Object.keys(branch).length === 1
        )
    )
    delete out["anyOf"]
    if (kept.length === 1) return { ...(kept[0] as Record<string, unknown>), ...out }
    out["anyOf"] = kept
  }
  return out
}

/** The document, built once. @internal */
export const document = (): Record<string, unknown> => {
  // Handler and matcher-group objects reject keys they do not know, so an editor flags a typo such as
  // "comand"; the engine itself only warns on an unknown key (naming the nearest known one) and loads the hook.
  const generated = Schema.toJsonSchemaDocument(SettingsDocument, { onExcessProperty: "error" })
  const root = { ...(withoutNull(generated.schema) as Record<string, unknown>) }
  // Other agents' keys (permissions, env, ...) may share the file: they are allowed, never checked.
  delete root["additionalProperties"]
  const properties = { ...(root["properties"] as Record<string, Record<string, unknown>>) }
  // Known events are offered for completion; an unknown one is allowed (the engine warns and skips it).
  properties["hooks"] = {
    ...properties["hooks"],
    propertyNames: { anyOf: [{ enum: HookEvent.catalog.map((event) => event.name) }, { type: "string" }] }
  }
  root["properties"] = properties
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: id,
    title: "agent-hooks settings",
    ...root,
    ...(Object.keys(generated.definitions).length > 0 ? { $defs: withoutNull(generated.definitions) } : {})
  }
}

/** The JSON type of a key's schema node, as the docs write it. */
const jsonType = (node: Record<string, unknown> | undefined): string => {
  if (node === undefined) return "any"
  if (node["type"] === "array") return `${jsonType(node["items"] as Record<string, unknown> | undefined)}[]`
  return typeof node["type"] === "string" ? node["type"] : "any"
}

/** The top-level keys, described for the docs' tables. @internal */
export const keys = () => {
  const properties = document()["properties"] as Record<string, Record<string, unknown>>
  return keyInfos.map((key) => ({
    name: key.name,
    type: jsonType(properties[key.name]),
    description: key.description,
    ...(key.default === undefined ? {} : { default: key.default }),
    readFrom: mergeRules[key.merge].readFrom,
    merge: mergeRules[key.merge].merge,
    ...(key.page === undefined ? {} : { page: key.page }),
    ...((key.typeNote ?? key.items) === undefined ? {} : { typeNote: key.typeNote ?? key.items }),
    ...(key.choices === undefined ? {} : { choices: key.choices })
  }))
}

/** The handler types of the registry, described. @internal */
export const handlerTypes = () =>
  HandlerTypes.handlerTypeNames.map((type) => ({
    type,
    summary: HandlerTypes.handlerTypes[type].summary,
    fields: Object.keys(HandlerTypes.handlerTypes[type].schema.fields)
  }))

/** @internal */
export const commonHandlerFields = (): ReadonlyArray<string> => Object.keys(HandlerSchema.commonFields)
