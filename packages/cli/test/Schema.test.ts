/**
 * `agent-hooks schema` as a user's editor or CI would use it: the BUILT CLI prints the settings
 * JSON Schema, and a standard validator (ajv, draft 2020-12) accepts every settings file the repo
 * ships and rejects files the engine would refuse.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { Ajv2020 } from "ajv/dist/2020.js"
import { beforeAll, describe, expect, it } from "vitest"
import { markdownFiles, parseBlocks } from "../../../docs/test/codeBlocks.ts"
import { bin, node, requireBuild } from "./cliHarness.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))

let schema: Record<string, unknown> = {}
let validate: ((value: unknown) => boolean) & { errors?: unknown } = () => false

beforeAll(() => {
  requireBuild()
  const result = spawnSync(node, [bin, "schema"], { encoding: "utf8", timeout: 20_000 })
  expect(result.status, result.stderr).toBe(0)
  schema = JSON.parse(result.stdout)
  validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema)
})

/** Files deliberately wrong, used by other tests to check the engine's error messages. */
const deliberatelyWrong = new Set(["packages/cli/test/fixtures/malformed.json", "packages/cli/test/fixtures/hosts/broken.json"])

const settingsFiles = (): Array<string> => {
  const found: Array<string> = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === "dist") continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith(".json")) {
        const rel = relative(root, path)
        if (deliberatelyWrong.has(rel)) continue
        const text = readFileSync(path, "utf8")
        if (/"hooks"\s*:/.test(text)) found.push(rel)
      }
    }
  }
  walk(join(root, "examples"))
  for (const pkg of readdirSync(join(root, "packages"))) {
    const fixtures = join(root, "packages", pkg, "test", "fixtures")
    if (existsSync(fixtures)) walk(fixtures)
  }
  return found
}

/** One example of the docs: where it is, and the settings file it stands for. */
interface DocsExample {
  readonly at: string
  readonly document: Record<string, unknown>
}

// Pages and folders that show other agents' own files (their dialects' tests read those), not agent-hooks settings.
const otherAgentsPages = /^(presets|hosts)\//
const otherAgentsFolder = /^\.(claude|gemini|codex|qwen|cursor|github|kiro|windsurf)\//
/** Docs examples that are wrong on purpose (a page showing the error the engine gives), each with its page. */
const docsDeliberatelyWrong = new Map([
  ["cli/validate.md", "broken.json: validate's error output"],
  ["settings/strict.md", "a timeout written as a string: strict mode's error"]
])

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Every JSON code block of docs/ that is an agent-hooks settings file (an object with a top-level key
 * of the settings schema), and every block of handler objects (a `type` of the schema's handler
 * types; one per line allowed), the latter wrapped into a settings file. Records of a run (the audit
 * trail's, the execution log's) carry a handler's `type` too, and are not handlers.
 */
const docsExamples = (topLevelKeys: ReadonlySet<string>, handlerTypes: ReadonlySet<string>): Array<DocsExample> => {
  const docsDir = join(root, "docs")
  const out: Array<DocsExample> = []
  for (const page of markdownFiles(docsDir)) {
    if (otherAgentsPages.test(page)) continue
    for (const block of parseBlocks(readFileSync(join(docsDir, page), "utf8"))) {
      if (!["json", "jsonc"].includes(block.lang)) continue
      const file = block.words.find((word) => word.startsWith("file="))?.slice("file=".length)
      if (file !== undefined && otherAgentsFolder.test(file)) continue
      // a first line such as `// policy.json` names the file
      const text = block.text
        .split("\n")
        .filter((line) => !line.trim().startsWith("//"))
        .join("\n")
      let values: Array<unknown>
      try {
        values = [JSON.parse(text)]
      } catch {
        try {
          values = text
            .split("\n")
            .filter((line) => line.trim() !== "")
            .map((line) => JSON.parse(line) as unknown)
        } catch {
          continue
        }
      }
      values.forEach((value, index) => {
        if (!isObject(value)) return
        const at = `docs/${page}:${block.line}${values.length > 1 ? ` (value ${index + 1})` : ""}`
        const settings = Object.keys(value).some((key) => topLevelKeys.has(key) && key !== "hooks") || isObject(value["hooks"])
        if (settings) out.push({ at, document: value })
        else if (typeof value["type"] === "string" && handlerTypes.has(value["type"]) && !("kind" in value) && !("timestamp" in value))
          out.push({ at, document: { hooks: { PreToolUse: [{ hooks: [value] }] } } })
      })
    }
  }
  return out
}

describe("agent-hooks schema", () => {
  it("prints a draft 2020-12 schema with a stable $id", () => {
    expect(schema["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema")
    expect(schema["$id"]).toBe("https://agent-hooks.dev/schema/settings/v1.json")
  })

  it("ships the same schema as dist/settings.schema.json (the package export)", () => {
    const shipped = fileURLToPath(new URL("../dist/settings.schema.json", import.meta.url))
    expect(JSON.parse(readFileSync(shipped, "utf8"))).toEqual(schema)
  })

  const files = settingsFiles()
  it("finds the repo's settings files", () => {
    expect(files).toContain("examples/hooks.json")
    expect(files.length).toBeGreaterThanOrEqual(5)
  })

  describe("the docs' examples", () => {
    const examples = (): Array<DocsExample> => {
      const properties = schema["properties"] as Record<string, unknown>
      const handlers = (
        properties["hooks"] as { additionalProperties: { items: { properties: { hooks: { items: { anyOf: Array<unknown> } } } } } }
      ).additionalProperties.items.properties.hooks.items.anyOf
      const types = handlers.map(
        (handler) => (handler as { properties: { type: { enum?: Array<string>; const?: string } } }).properties.type
      )
      return docsExamples(
        new Set(Object.keys(properties)),
        new Set(types.flatMap((type) => type.enum ?? (type.const === undefined ? [] : [type.const])))
      )
    }

    it("are found: settings files, handler objects, a cedar hook", () => {
      const found = examples()
      expect(found.length).toBeGreaterThan(60)
      expect(found.some((example) => JSON.stringify(example.document).includes('"type":"cedar"'))).toBe(true)
    })

    it("are every one accepted, but those wrong on purpose, which are rejected", () => {
      const verdicts = examples().map((example) => {
        const page = example.at.slice("docs/".length).split(":")[0]!
        const ok = validate(example.document)
        return { at: example.at, wrongOnPurpose: docsDeliberatelyWrong.has(page), ok, errors: ok ? undefined : validate.errors }
      })
      expect(verdicts.filter((v) => v.ok === v.wrongOnPurpose)).toEqual([])
    })
  })

  it.each(files)("accepts %s", (file) => {
    const ok = validate(JSON.parse(readFileSync(join(root, file), "utf8")))
    expect(ok, JSON.stringify(validate.errors, null, 2)).toBe(true)
  })

  const wrong: Array<[string, unknown]> = [
    ["hooks is an array", { hooks: [] }],
    ["a matcher group without hooks", { hooks: { PreToolUse: [{ matcher: "Bash" }] } }],
    ["a handler without a type", { hooks: { Stop: [{ hooks: [{ command: "true" }] }] } }],
    ["an unknown handler type", { hooks: { Stop: [{ hooks: [{ type: "shell", command: "true" }] }] } }],
    ["a command handler without command", { hooks: { Stop: [{ hooks: [{ type: "command" }] }] } }],
    ["an empty command", { hooks: { Stop: [{ hooks: [{ type: "command", command: "" }] }] } }],
    ["a timeout of 0", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timeout: 0 }] }] } }],
    ["a timeout as a string", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timeout: "5" }] }] } }],
    ["an unknown shell", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", shell: "zsh" }] }] } }],
    ["onFailure not continue/block", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", onFailure: "ignore" }] }] } }],
    ["an http handler without url", { hooks: { Stop: [{ hooks: [{ type: "http" }] }] } }],
    ["a matcher that is a number", { hooks: { PreToolUse: [{ matcher: 1, hooks: [] }] } }],
    ["strict as a string", { strict: "true", hooks: {} }],
    ["disableAllHooks as a string", { disableAllHooks: "yes" }],
    ["an empty executionLog", { executionLog: "" }],
    ["auditLog as a number", { auditLog: 1 }],
    ["allowedHttpHookUrls as a string", { allowedHttpHookUrls: "https://example.com/*" }],
    ["a null timeout", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timeout: null }] }] } }],
    ["env values that are not strings", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", env: { A: 1 } }] }] } }],
    // key typos: the engine warns and loads the hook, an editor must flag them
    ["a typo in a command handler's key (timout)", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timout: 5 }] }] } }],
    [
      "a typo beside a valid command (comand)",
      { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", comand: "rm -rf /" }] }] } }
    ],
    ["a typo in onFailure's key (onFaliure)", { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", onFaliure: "block" }] }] } }],
    [
      "a typo in an http handler's key (header)",
      { hooks: { Stop: [{ hooks: [{ type: "http", url: "https://x.example/", header: {} }] }] } }
    ],
    ["a typo in a module handler's key (exprot)", { hooks: { Stop: [{ hooks: [{ type: "module", module: "./m.mjs", exprot: "f" }] }] } }],
    ["a typo in a prompt handler's key (modle)", { hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "ok?", modle: "x" }] }] } }],
    [
      "a typo in an mcp_tool handler's key (inptu)",
      { hooks: { Stop: [{ hooks: [{ type: "mcp_tool", server: "s", tool: "t", inptu: {} }] }] } }
    ],
    [
      "a key of one handler type on another (args on http)",
      { hooks: { Stop: [{ hooks: [{ type: "http", url: "https://x.example/", args: [] }] }] } }
    ],
    [
      "a typo in a matcher group's key (matchr)",
      { hooks: { PreToolUse: [{ matchr: "Bash", hooks: [{ type: "command", command: "true" }] }] } }
    ]
  ]
  it.each(wrong)("rejects %s", (_name, value) => {
    expect(validate(value)).toBe(false)
  })

  it("accepts the same files without the typo, and keys other agents keep at the top level", () => {
    expect(
      validate({
        permissions: { allow: [] },
        env: { A: "1" },
        hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timeout: 5, onFailure: "block" }] }] }
      })
    ).toBe(true)
    expect(
      validate({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: "https://x.example/", headers: {}, allowedEnvVars: [] }] }] }
      })
    ).toBe(true)
    expect(
      validate({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: "module", module: "./m.mjs", export: "f" },
                { type: "mcp_tool", server: "s", tool: "t", input: {} }
              ]
            }
          ]
        }
      })
    ).toBe(true)
  })
})
