/**
 * The settings file's JSON Schema (draft 2020-12), generated from the same `effect/Schema`
 * definitions the loader decodes handlers with, so editors and the engine agree.
 */
import * as Schema from "effect/Schema"
import * as HookEvent from "../HookEvent.ts"
import * as HandlerSchema from "./handlerSchema.ts"

/** The stable `$id` of the settings schema (a new major layout gets a new id). @internal */
export const id = "https://agent-hooks.dev/schema/settings/v1.json"

// Every handler type of the registry, so that the schema cannot leave one out.
const Handler = Schema.Union(
  Object.values(HandlerSchema.handlerTypes).map((type) => type.schema.annotate({ description: type.summary }))
).annotate({
  description: `One hook: ${HandlerSchema.handlerTypeNames.map((type) => `"${type}"`).join(", ")}.`
})

const MatcherGroup = Schema.Struct({
  matcher: Schema.optional(
    Schema.String.annotate({
      description: "Which tool (or source) the group applies to: a name, `A|B`, a regex, or `*` / empty for all."
    })
  ),
  hooks: Schema.Array(Handler).annotate({ description: "The handlers run when the matcher matches." })
})

const Flag = (description: string) => Schema.optional(Schema.Boolean.annotate({ description }))
const Strings = (description: string) => Schema.optional(Schema.Array(Schema.String).annotate({ description }))
const FilePath = (description: string) => Schema.optional(Schema.String.check(Schema.isMinLength(1)).annotate({ description }))

const topLevel = Schema.Struct({
  $schema: Schema.optional(Schema.String.annotate({ description: "This schema's URL or path, for editors." })),
  hooks: Schema.optional(
    Schema.Record(Schema.String, Schema.Array(MatcherGroup)).annotate({
      description: 'Event name → matcher groups, e.g. {"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}.'
    })
  ),
  disableAllHooks: Flag("Turn every hook off (managed settings win over others)."),
  allowManagedHooksOnly: Flag("Managed settings only: hooks from other files are ignored."),
  requireProjectTrust: Flag("Managed settings only: project hooks run only after `agent-hooks trust`."),
  allowedHttpHookUrls: Strings("URL patterns http hooks may call; others are refused."),
  httpHookAllowedEnvVars: Strings("Environment variables http hook headers may reference."),
  allowedCommands: Strings("Command names command hooks may run; others are refused."),
  sequential: Flag("Run an event's hooks one after another instead of in parallel."),
  dedupe: Flag("Run identical handlers once per event (default true)."),
  strict: Flag("A handler that does not decode fails the whole load (can be turned on by any file, never off)."),
  executionLog: FilePath("A JSON-lines log of every hook run, relative to this file."),
  auditLog: FilePath("A tamper-evident audit trail of every dispatch (tool, input, outcome) and hook run, relative to this file."),
  auditRedact: Strings("Regular expressions whose matches the audit trail replaces with [REDACTED:...], besides its defaults.")
})

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
  const generated = Schema.toJsonSchemaDocument(topLevel, { onExcessProperty: "error" })
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
