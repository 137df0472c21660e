/**
 * The settings schema and the engine read one registry of keys and handler types: each key the
 * schema describes is decoded by its type (a wrong value is an error at that key, a right one loads),
 * and each handler type the schema lists is one the decoder loads (and the other way round).
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Settings, SettingsSchema } from "@agent-hooks/core"

type Node = { readonly type?: string; readonly required?: ReadonlyArray<string>; readonly properties?: Record<string, Node> }
const schema = SettingsSchema.jsonSchema() as unknown as {
  readonly properties: Record<string, Node & { readonly additionalProperties?: { readonly items: Node } }>
}
const handlerNodes = (
  schema.properties["hooks"]!.additionalProperties!.items.properties!["hooks"] as unknown as { items: { anyOf: ReadonlyArray<Node> } }
).items.anyOf

const decode = (document: unknown, scope: Settings.SettingsScope = "user") =>
  Effect.runSync(Settings.decode(document, "/p/settings.json", scope))

/** A value of the key's type, and one of another type (for a key of a few strings: one of them, and another string). */
const values = (type: string, choices?: ReadonlyArray<string>): readonly [right: unknown, wrong: unknown] | undefined =>
  choices !== undefined
    ? [choices[0], "none of them"]
    : type === "boolean"
      ? [true, "true"]
      : type === "string"
        ? ["logs/x.jsonl", 1]
        : type === "string[]"
          ? [["a"], "a"]
          : undefined

describe("SettingsSchema", () => {
  it("describes every top-level key of the JSON Schema, in its order, with a merge rule", () => {
    const keys = SettingsSchema.keys()
    expect(keys.map((key) => key.name)).toEqual(Object.keys(schema.properties))
    for (const key of keys) {
      expect(key.description.length, key.name).toBeGreaterThan(10)
      expect(key.readFrom.length, key.name).toBeGreaterThan(5)
      expect(key.merge.length, key.name).toBeGreaterThan(5)
    }
  })

  it("each key of a simple type is decoded as its schema says: a wrong value is an error at the key, a right one no problem", () => {
    const checked = SettingsSchema.keys().flatMap((key) => {
      const pair = values(key.type, key.choices)
      // `$schema` is for editors; the engine does not read it
      if (pair === undefined || key.merge.startsWith("not read by the engine")) return []
      const scope: Settings.SettingsScope = key.readFrom.startsWith("managed only") ? "managed" : "user"
      const right = decode({ [key.name]: pair[0] }, scope)
      const wrong = decode({ [key.name]: pair[1] }, scope)
      expect(right.diagnostics ?? [], key.name).toEqual([])
      expect((right as unknown as Record<string, unknown>)[key.name], key.name).toBeDefined()
      expect(
        (wrong.diagnostics ?? []).map((d) => [d.path, d.severity]),
        key.name
      ).toEqual([[key.name, "error"]])
      expect((wrong as unknown as Record<string, unknown>)[key.name], key.name).toBeUndefined()
      return [key.name]
    })
    expect(checked).toEqual(
      expect.arrayContaining(["strict", "dedupe", "auditRedact", "executionLog", "requireProjectTrust", "unknownTools"])
    )
  })

  it("a managed-only key outside managed settings is ignored with a warning naming it", () => {
    const managedOnly = SettingsSchema.keys().filter((key) => key.readFrom.startsWith("managed only"))
    expect(managedOnly.map((key) => key.name)).toEqual(["allowManagedHooksOnly", "requireProjectTrust"])
    for (const key of managedOnly) {
      const decoded = decode({ [key.name]: true }, "project")
      expect((decoded as unknown as Record<string, unknown>)[key.name]).toBeUndefined()
      expect(decoded.diagnostics?.map((d) => [d.path, d.message])).toEqual([[key.name, "only managed settings can set this; ignored"]])
    }
  })

  it("lists the handler types the decoder loads: each one, with its required fields, loads as that type", () => {
    const types = SettingsSchema.handlerTypes()
    expect(types.map((type) => type.type)).toEqual(["command", "http", "prompt", "agent", "mcp_tool", "module", "cedar"])
    expect(handlerNodes.map((node) => (node.properties!["type"] as { enum?: ReadonlyArray<string> }).enum?.[0])).toEqual(
      types.map((type) => type.type)
    )
    handlerNodes.forEach((node, index) => {
      const type = types[index]!
      expect(Object.keys(node.properties!)).toEqual(type.fields)
      const handler = Object.fromEntries([["type", type.type], ...(node.required ?? []).filter((f) => f !== "type").map((f) => [f, "x"])])
      const decoded = decode({ hooks: { Stop: [{ hooks: [handler] }] } })
      expect(decoded.errors ?? [], type.type).toEqual([])
      expect(decoded.entries.map((entry) => entry.handler.type)).toEqual([type.type])
    })
  })

  it("a type outside the registry is refused with the registry's types in the message", () => {
    const decoded = decode({ hooks: { Stop: [{ hooks: [{ type: "cedr", policies: "p.cedar" }] }] } })
    expect(decoded.entries).toEqual([])
    const message = decoded.diagnostics?.[0]?.message ?? ""
    for (const type of SettingsSchema.handlerTypes()) expect(message).toContain(`"${type.type}"`)
    expect(message).toContain('did you mean "cedar"?')
  })

  it("common handler fields are fields of every handler type", () => {
    const common = SettingsSchema.commonHandlerFields()
    expect(common).toEqual(expect.arrayContaining(["timeout", "onFailure", "if"]))
    for (const type of SettingsSchema.handlerTypes()) expect(type.fields).toEqual(expect.arrayContaining([...common]))
  })
})
