/**
 * The documentation's own checks (Node lane only: they read files and run the built CLI, nothing
 * runtime-specific):
 * - every code block that is a command or a settings file is run by these tests or marked
 *   `illustrative` (the convention is in ./codeBlocks.ts and on the "About these docs" page);
 * - every event of the core's catalog has its page `docs/events/<Event>.md`, current with the
 *   generator (docs/scripts/events.ts);
 * - every page with `file=` / `run` blocks (getting started, the event pages, the recipes) runs
 *   top to bottom, verbatim, in a fresh temp folder with the built CLI, and prints what it shows.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { HookEvent, SettingsSchema } from "@agent-hooks/core"
import { describe, expect, it } from "vitest"
import { renderAll } from "../scripts/events.ts"
import { renderPolicy as renderRecommended } from "../scripts/recommended.ts"
import { renderAll as renderSettingsTables } from "../scripts/settings.ts"
import { kind, markdownFiles, parseBlocks, runPage } from "./codeBlocks.ts"

const docsDir = fileURLToPath(new URL("..", import.meta.url))
const repoDir = join(docsDir, "..")
const cliBin = join(repoDir, "packages", "cli", "dist", "bin.js")
const read = (page: string): string => readFileSync(join(docsDir, page), "utf8")
const pages = markdownFiles(docsDir)

describe("code blocks", () => {
  it("every command or settings block is run by the docs tests or marked illustrative", () => {
    const unmarked = pages.flatMap((page) =>
      parseBlocks(read(page))
        .filter((b) => kind(b) === "unmarked")
        .map(
          (b) =>
            `docs/${page}:${b.line}: a \`${b.lang}\` block with neither \`illustrative\`, \`file=<path>\` nor \`run\` after the language`
        )
    )
    expect(unmarked, "add `illustrative` (not run) or `run` / `file=` (run by docs/test) after the fence's language").toEqual([])
  })

  it("a version shown in a block is the packages' own (the CLI's hello and --version say it)", () => {
    const version = (JSON.parse(readFileSync(join(repoDir, "packages", "cli", "package.json"), "utf8")) as { version: string }).version
    const stale = pages.flatMap((page) =>
      parseBlocks(read(page)).flatMap((b) =>
        [...b.text.matchAll(/"version":\s*"(\d+\.\d+\.\d+[^"]*)"/g)]
          .filter((match) => match[1] !== version)
          .map((match) => `docs/${page}:${b.line}: "version": "${match[1]}", the packages are at ${version}`)
      )
    )
    expect(stale).toEqual([])
  })

  it("the getting-started page has steps that run, and marks the install of unpublished packages illustrative", () => {
    const blocks = parseBlocks(read("getting-started.md"))
    expect(blocks.filter((b) => kind(b) === "run").length).toBeGreaterThan(0)
    const install = blocks.find((b) => b.text.includes("npm install @agent-hooks/"))
    expect(install?.words).toContain("illustrative")
  })
})

describe("event pages", () => {
  it("every catalog event has its page docs/events/<Event>.md", () => {
    const missing = HookEvent.catalog.map((e) => `events/${e.name}.md`).filter((p) => !existsSync(join(docsDir, p)))
    expect(missing).toEqual([])
  })

  it("the event pages are what docs/scripts/events.ts generates (run it after changing the catalog or events.md)", () => {
    const stale = [...renderAll(read("events.md"))]
      .filter(([file, content]) => !existsSync(join(docsDir, file)) || read(file) !== content)
      .map(([f]) => f)
    expect(stale).toEqual([])
  })

  it("every event page has the hand-written prose of its events.md section", () => {
    const withoutProse = HookEvent.catalog
      .filter((e) => read(`events/${e.name}.md`).includes("has no hand-written section"))
      .map((e) => e.name)
    expect(withoutProse).toEqual([])
  })
})

/** The keys named by the `### \`key\`` (or `## \`key\``, or `### \`a\`, \`b\``) headings of a page. */
const headingKeys = (page: string): Set<string> =>
  new Set([...read(page).matchAll(/^#{2,3} (`[^`]+`(?:, `[^`]+`)*)/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((k) => k[1]!)))

describe("reference pages", () => {
  it("every handler type of the registry is in handlers.md (its row in the type table, its section) and configuration.md", () => {
    const types = SettingsSchema.handlerTypes().map((handler) => handler.type)
    expect(types).toContain("cedar")
    const handlers = read("handlers.md")
    const table = handlers.split("\n").filter((line) => line.startsWith("| [`") || line.startsWith("| `"))
    const tabled = new Set(table.flatMap((line) => [...line.split(" | ")[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)))
    const sections = new Set([...handlers.matchAll(/^## (.+)$/gm)].flatMap((m) => m[1]!.split(/ and |, /)))
    const configuration = read("configuration.md").split("## Handler fields")[1]!.split("\n## ")[0]!
    const named = new Set([...configuration.split("\n\n")[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
    expect(types.filter((type) => !tabled.has(type))).toEqual([])
    expect(types.filter((type) => !sections.has(type))).toEqual([])
    expect(types.filter((type) => !named.has(type))).toEqual([])
  })

  it("a paragraph or table of the docs that lists the handler types lists them all (five or more named: all of them)", () => {
    const types = SettingsSchema.handlerTypes().map((handler) => handler.type)
    const partial = pages.flatMap((page) =>
      read(page)
        .split(/\n\s*\n/)
        .flatMap((paragraph) => {
          const named = new Set([...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!))
          const listed = types.filter((type) => named.has(type))
          return listed.length >= 5 && listed.length < types.length
            ? [`docs/${page}: "${paragraph.trim().slice(0, 60)}..." lacks ${types.filter((type) => !named.has(type)).join(", ")}`]
            : []
        })
    )
    expect(partial).toEqual([])
  })

  it("configuration.md's table of handler fields has every field of every handler type, with the types it belongs to", () => {
    const common = new Set(SettingsSchema.commonHandlerFields())
    const section = read("configuration.md").split("## Handler fields")[1]!.split("\n## ")[0]!
    const rows = section
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split(" | "))
      .flatMap(([fields = "", types = ""]) => [...fields.matchAll(/`([^`]+)`/g)].map((m) => ({ field: m[1]!, types: types.trim() })))
    const missing = SettingsSchema.handlerTypes().flatMap((handler) =>
      handler.fields
        .filter((field) => field !== "type")
        .filter(
          (field) =>
            !rows.some(
              (row) => row.field === field && (common.has(field) ? row.types === "all" : row.types.includes(`\`${handler.type}\``))
            )
        )
        .map((field) => `${handler.type}.${field}`)
    )
    expect(missing).toEqual([])
  })

  it("the tables of settings keys (configuration.md, policy.md, settings/<key>.md) are what docs/scripts/settings.ts generates from the schema", () => {
    const stale = [...renderSettingsTables(read)].filter(([page, content]) => read(page) !== content).map(([page]) => page)
    expect(stale, "run node docs/scripts/settings.ts after changing the settings schema").toEqual([])
    const table = read("configuration.md").split("<!-- settings-keys:meaning -->")[1]!.split("<!-- /settings-keys -->")[0]!
    const listed = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1])
    expect(listed).toEqual(Object.keys((SettingsSchema.jsonSchema() as { properties: Record<string, unknown> }).properties))
  })

  it("the recommended rule set's table and figures in policy.md are what docs/scripts/recommended.ts generates", () => {
    expect(read("policy.md") === renderRecommended(read), "run node docs/scripts/recommended.ts after changing the set or its tables").toBe(
      true
    )
  })

  it("every key of a matcher group or a handler in the settings schema has its section in handler-keys.md", () => {
    const schema = SettingsSchema.jsonSchema() as {
      properties: {
        hooks: {
          additionalProperties: {
            items: { properties: Record<string, { items: { anyOf: Array<{ properties: Record<string, unknown> }> } }> }
          }
        }
      }
    }
    const group = schema.properties.hooks.additionalProperties.items
    const keys = new Set([
      ...Object.keys(group.properties),
      ...group.properties["hooks"]!.items.anyOf.flatMap((h) => Object.keys(h.properties))
    ])
    expect(keys.size).toBeGreaterThan(20)
    const documented = headingKeys("handler-keys.md")
    expect([...keys].filter((k) => !documented.has(k))).toEqual([])
  })

  it("every AGENT_HOOKS_* variable the packages' sources name has its section in environment.md", () => {
    // AGENT_HOOKS_VERSION is a constant the CLI bundle is built with, not a variable of the environment.
    const notVariables = new Set(["AGENT_HOOKS_VERSION"])
    const named = new Set<string>()
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (entry.name.endsWith(".ts")) {
          for (const m of readFileSync(path, "utf8").matchAll(/AGENT_HOOKS_[A-Z0-9_]*[A-Z0-9]_?/g)) {
            named.add(m[0].endsWith("_") ? `${m[0]}<n>` : m[0])
          }
        }
      }
    }
    for (const pkg of readdirSync(join(repoDir, "packages"))) {
      if (pkg === "test-utils" || !existsSync(join(repoDir, "packages", pkg, "src"))) continue
      walk(join(repoDir, "packages", pkg, "src"))
    }
    expect(named.has("AGENT_HOOKS_HOME")).toBe(true)
    const documented = headingKeys("environment.md")
    expect([...named].filter((v) => !notVariables.has(v) && !documented.has(v)).sort()).toEqual([])
  })

  it("every command of the CLI has its page docs/cli/<command>.md, linked from cli.md", () => {
    const commands = [...read("cli.md").matchAll(/^## `agent-hooks ([a-z]+)/gm)].map((m) => m[1]!)
    expect(commands.length).toBeGreaterThanOrEqual(11)
    expect(commands.filter((c) => !existsSync(join(docsDir, "cli", `${c}.md`)) || !read("cli.md").includes(`(cli/${c}.md)`))).toEqual([])
  })
})

const runnable = pages.filter((page) => parseBlocks(read(page)).some((b) => kind(b) === "file" || kind(b) === "run"))

describe.skipIf(!existsSync(cliBin))("pages run verbatim in a fresh folder (built CLI)", () => {
  it("has pages to run", () => {
    expect(runnable).toContain("getting-started.md")
    expect(runnable.filter((p) => p.startsWith("events/")).length).toBe(HookEvent.catalog.length)
  })

  for (const page of runnable) {
    it(page, () => {
      const result = runPage(read(page), { cliBin, node: process.execPath })
      try {
        const failures = result.steps
          .filter((s) => !s.ok)
          .map(
            (s) =>
              `docs/${page}:${s.line}: $ ${s.command}\n  expected:\n    ${s.expected.join("\n    ")}\n  got:\n    ${s.actual.join("\n    ")}`
          )
        expect([...result.scriptFailures, ...failures]).toEqual([])
        expect(result.steps.length + result.scriptFailures.length).toBeGreaterThan(0)
      } finally {
        rmSync(result.root, { recursive: true, force: true })
      }
    })
  }
})
