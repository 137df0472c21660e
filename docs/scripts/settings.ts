/**
 * Generates the docs' tables of the settings file's top-level keys from the core's settings schema
 * (`SettingsSchema.keys`: each key's type, description, default, the files that may set it and how
 * several files' values merge):
 * - docs/configuration.md, "Top-level keys": key, type, meaning;
 * - docs/policy.md, "Where each key may be set": key, read from, when several files set it.
 * - docs/settings/<key>.md, the key's facts (the `| | |` table under its first paragraph): type,
 *   read from, when several files set it.
 * The first two sit between `<!-- settings-keys:<name> -->` and `<!-- /settings-keys -->`.
 *
 *   node docs/scripts/settings.ts           rewrite the tables (after `npm run build`: it reads the built core)
 *   node docs/scripts/settings.ts --check   exit 1 when a table differs from what would be written
 *
 * The docs tests check that the tables are current.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { SettingsSchema } from "@agent-hooks/core"

export const docsDir = join(dirname(fileURLToPath(import.meta.url)), "..")

const cell = (text: string): string => text.replace(/\|/g, "\\|")

const tables: Record<string, { readonly page: string; readonly render: (keys: ReadonlyArray<SettingsSchema.KeyDescription>) => string }> = {
  meaning: {
    page: "configuration.md",
    render: (keys) =>
      [
        "| Key | Type | Meaning |",
        "| --- | --- | --- |",
        ...keys.map((key) => {
          const more = key.page === undefined ? "" : ` [More](${key.page}).`
          const byDefault = key.default === undefined ? "" : ` Default \`${JSON.stringify(key.default)}\`.`
          return `| \`${key.name}\` | ${key.type} | ${cell(key.description)}${byDefault}${more} |`
        })
      ].join("\n")
  },
  merge: {
    page: "policy.md",
    render: (keys) =>
      [
        "| Key | Read from | When several files set it |",
        "| --- | --- | --- |",
        ...keys.map((key) => `| \`${key.name}\` | ${cell(key.readFrom)} | ${cell(key.merge)} |`)
      ].join("\n")
  }
}

/** A key's type as its page says it: `string[] (command names or exact paths)`, `boolean (default \`true\`)`. */
const typeText = (key: SettingsSchema.KeyDescription): string =>
  `${key.type}${key.typeNote === undefined ? "" : ` (${key.typeNote})`}${key.default === undefined ? "" : ` (default \`${JSON.stringify(key.default)}\`)`}`

/** The facts table of a key's own page. */
const factsTable = (key: SettingsSchema.KeyDescription): string =>
  [
    "| | |",
    "| --- | --- |",
    `| Type | ${cell(typeText(key))} |`,
    `| Read from | ${cell(key.readFrom)} |`,
    `| When several files set it | ${cell(key.merge)} |`
  ].join("\n")

/** Each page with its tables rewritten from the schema: `[page, content]`. */
export const renderAll = (read: (page: string) => string = (page) => readFileSync(join(docsDir, page), "utf8")): Map<string, string> => {
  const keys = SettingsSchema.keys()
  const out = new Map<string, string>()
  for (const [name, table] of Object.entries(tables)) {
    const text = out.get(table.page) ?? read(table.page)
    const open = `<!-- settings-keys:${name} -->`
    const close = "<!-- /settings-keys -->"
    const start = text.indexOf(open)
    const end = text.indexOf(close, start)
    if (start < 0 || end < 0) throw new Error(`docs/${table.page}: no "${open}" ... "${close}" markers for the ${name} table`)
    out.set(table.page, `${text.slice(0, start + open.length)}\n${table.render(keys)}\n${text.slice(end)}`)
  }
  for (const key of keys) {
    if (key.page !== `settings/${key.name}.md`) continue
    const text = read(key.page)
    const start = text.indexOf("| | |\n")
    const end = text.indexOf("\n\n", start)
    if (start < 0 || end < 0) throw new Error(`docs/${key.page}: no facts table ("| | |")`)
    out.set(key.page, `${text.slice(0, start)}${factsTable(key)}${text.slice(end)}`)
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check")
  let stale = 0
  for (const [page, content] of renderAll()) {
    if (readFileSync(join(docsDir, page), "utf8") === content) continue
    stale++
    if (check) console.error(`docs/${page}: its settings key table is not current (run node docs/scripts/settings.ts)`)
    else writeFileSync(join(docsDir, page), content)
  }
  if (check && stale > 0) process.exit(1)
}
