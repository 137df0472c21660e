/**
 * Generates docs/policy.md's section on the recommended rule set from the core
 * (`Recommended.rules`): the table of rules (id, what it stops, why, how to turn it off) and the two
 * figures of its tables (packages/core/test/fixtures/recommended/{dangerous,ordinary}.txt, the same
 * figures packages/core/test/Recommended.test.ts prints). Both sit between
 * `<!-- recommended:<name> -->` and `<!-- /recommended -->`.
 *
 *   node docs/scripts/recommended.ts           rewrite them (after `npm run build`: it reads the built core)
 *   node docs/scripts/recommended.ts --check   exit 1 when they differ from what would be written
 *
 * The docs tests check that they are current.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Recommended from "@agent-hooks/core/Recommended"

const docsDir = join(dirname(fileURLToPath(import.meta.url)), "..")
const fixtures = join(docsDir, "..", "packages", "core", "test", "fixtures", "recommended")

/** Home and project the tables are judged with (their header says so). */
const context = { cwd: "/home/dev/project", projectDir: "/home/dev/project", home: "/home/dev" }

const lines = (name: string): ReadonlyArray<string> =>
  readFileSync(join(fixtures, `${name}.txt`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))

const call = (line: string) => {
  const m = /^@(Read|Edit|Write|MultiEdit|Delete) (.+)$/.exec(line)
  return m === null ? { toolName: "Bash", toolInput: { command: line } } : { toolName: m[1]!, toolInput: { file_path: m[2]! } }
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ")

/** The figures line (Recommended.test.ts's `figures()` says the same). */
export const figures = (): string => {
  const dangerous = lines("dangerous")
  const ordinary = lines("ordinary")
  const count = (table: ReadonlyArray<string>) => table.filter((line) => Recommended.judge(call(line), context) !== undefined).length
  const d = count(dangerous)
  const o = count(ordinary)
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1).replace(/\.0$/, "")} %`
  return (
    `agent-hooks:recommended blocks ${d} of ${dangerous.length} dangerous tool calls (${pct(d, dangerous.length)}) ` +
    `and ${o} of ${ordinary.length} ordinary ones (${pct(o, ordinary.length)})`
  )
}

const rulesTable = (): string =>
  [
    "| Rule id | What it stops | Why | In permission-rule syntax (the rule covers more) |",
    "| --- | --- | --- | --- |",
    ...Recommended.rules.map(
      (rule) =>
        `| \`${rule.id}\` | ${cell(rule.stops)} | ${cell(rule.why)} | ${
          rule.rules.length === 0 ? "(none: the syntax cannot say it)" : rule.rules.map((r) => `\`${cell(r)}\``).join(", ")
        } |`
    )
  ].join("\n")

const blocks: Record<string, () => string> = { rules: rulesTable, figures: () => `**${figures()}.**` }

/** docs/policy.md with its generated blocks rewritten. */
export const renderPolicy = (read: (page: string) => string = (page) => readFileSync(join(docsDir, page), "utf8")): string => {
  let text = read("policy.md")
  for (const [name, render] of Object.entries(blocks)) {
    const open = `<!-- recommended:${name} -->`
    const close = "<!-- /recommended -->"
    const start = text.indexOf(open)
    const end = text.indexOf(close, start)
    if (start < 0 || end < 0) throw new Error(`docs/policy.md: no "${open}" ... "${close}" markers`)
    text = `${text.slice(0, start + open.length)}\n${render()}\n${text.slice(end)}`
  }
  return text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const content = renderPolicy()
  const current = readFileSync(join(docsDir, "policy.md"), "utf8") === content
  if (process.argv.includes("--check")) {
    if (!current) {
      console.error("docs/policy.md: the recommended rule set's table or figures are not current (run node docs/scripts/recommended.ts)")
      process.exit(1)
    }
  } else if (!current) writeFileSync(join(docsDir, "policy.md"), content)
}
