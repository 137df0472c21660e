/**
 * Writes the docs' per-agent tables from the agents' profiles (`Agents` in the core), between
 * `<!-- agents:<table> -->` and `<!-- /agents:<table> -->` in the pages that hold them:
 * - `cli/hook.md`, `hosts`: each `--host` value, its agent, default timeout, timeout unit, ask default, page;
 * - `cli/install.md`, `files`: the file install writes per agent and scope, and its shape.
 *
 *   node docs/scripts/agents.ts           rewrite the tables (after `npm run build`: it reads the built core)
 *   node docs/scripts/agents.ts --check   exit 1 when a table differs from what would be written
 *
 * The docs tests check that the committed tables are what this writes; a test adds a fake agent
 * and sees it in them.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Agents } from "@agent-hooks/core"

type Profile = Agents.AgentProfile

export const docsDir = join(dirname(fileURLToPath(import.meta.url)), "..")

const unitText: Record<Agents.TimeoutWiring["unit"], string> = {
  seconds: "seconds",
  milliseconds: "milliseconds",
  secondsBelow1000: "seconds (1000 or more: milliseconds)"
}

const askText = (profile: Profile): string => (profile.host.askDefault === "host" ? "`host`" : "`deny`")

/** The `hosts` table: one row per agent. */
export const hostsTable = (profiles: ReadonlyArray<Profile>): string =>
  [
    "| `--host` | Agent | Default `--timeout` | Its config's timeout | `--ask` default | Page |",
    "| --- | --- | --- | --- | --- | --- |",
    ...profiles.map(
      (profile) =>
        `| \`${profile.name}\` | ${profile.host.displayName} | ${profile.host.hookTimeout} | ${
          profile.wiring.timeout.fixed === true
            ? `none (the agent's own ${profile.host.hookTimeout} s)`
            : unitText[profile.wiring.timeout.unit]
        } | ${askText(profile)} | [${profile.host.displayName}](../${profile.docs.hostPage}) |`
    )
  ].join("\n")

const shapeText = (place: Agents.ConfigPlace): string => {
  switch (place.kind) {
    case "json": {
      const shape = place.shape
      const failClosed =
        shape.failClosed === undefined ? "" : `, \`"${shape.failClosed.key}": ${JSON.stringify(shape.failClosed.value)}\` on its guards`
      return shape.shape === "nested"
        ? `a group per event${shape.group === "hooks" ? "" : ` under the hook name \`"${shape.group}"\``}, in the file shared with the user's${failClosed}`
        : `\`{ "command"${shape.matcher ? ', "matcher"?' : ""}${shape.timeout ? ', "timeout"' : ""} }\` per event${shape.head === undefined ? "" : ` (a new file: \`${shape.head}\`)`}${failClosed}`
    }
    case "layered":
      return "a group per event in `hooks.json`, or in `config.toml`'s `[hooks]` when the layer keeps them there"
    case "own":
      return place.shape.shape === "triggers"
        ? "a file of its own: a v1 hook per trigger"
        : `a file of its own: \`{ "${place.shape.commandKey}", "${place.shape.timeoutKey}" }\` per event`
    case "scripts":
      return "an executable per event (`#!/bin/sh`, `exec` the command)"
  }
}

const fileOf = (place: Agents.ConfigPlace): string => {
  switch (place.kind) {
    case "json":
    case "own":
      return `\`${place.file}\``
    case "layered":
      return `\`${place.json}\`, or \`config.toml\` there`
    case "scripts":
      return `\`${place.folder}/<Event>\``
  }
}

/** Where the agent's config is for a scope, as the docs write it (`~` for the home, the project relative). */
const placeOf = (profile: Profile, scope: Agents.Scope, env: Readonly<Record<string, string>> = {}): Agents.ConfigPlace =>
  profile.wiring.place({
    scope,
    home: "~",
    projectDir: ".",
    env,
    join: (...parts) => parts.join("/").replace(/^\.\//, "").replaceAll("//", "/"),
    resolve: (path) => path
  })

/** The `files` table: one row per agent. */
export const filesTable = (profiles: ReadonlyArray<Profile>): string =>
  [
    "| `--host` | `--user` (the default) | `--project` | What install writes there |",
    "| --- | --- | --- | --- |",
    ...profiles.map((profile) => {
      const variable = profile.docs.configEnv
      const moved = variable === undefined ? "" : ` (\`$${variable}\`: ${fileOf(placeOf(profile, "user", { [variable]: `$${variable}` }))})`
      const notes = [
        ...(profile.wiring.eventInCommand === true ? ["with `--event <event>` in the command"] : []),
        ...(profile.wiring.timeout.fixed === true ? ["no timeout (the agent has none to set)"] : [])
      ]
      return `| \`${profile.name}\` | ${fileOf(placeOf(profile, "user"))}${moved} | ${fileOf(placeOf(profile, "project"))} | ${[
        shapeText(placeOf(profile, "project")),
        ...notes
      ].join("; ")} |`
    })
  ].join("\n")

/** The tables, by page and name. */
export const tables = (
  profiles: ReadonlyArray<Profile>
): ReadonlyArray<{ readonly page: string; readonly name: string; readonly text: string }> => [
  { page: "cli/hook.md", name: "hosts", text: hostsTable(profiles) },
  { page: "cli/install.md", name: "files", text: filesTable(profiles) }
]

/** `page` with its `name` table replaced by `text`; `undefined` when the page has no such markers. */
export const withTable = (page: string, name: string, text: string): string | undefined => {
  const open = `<!-- agents:${name} (node docs/scripts/agents.ts writes this table) -->`
  const close = `<!-- /agents:${name} -->`
  const start = page.indexOf(open)
  const end = page.indexOf(close)
  if (start < 0 || end < start) return undefined
  return `${page.slice(0, start + open.length)}\n${text}\n${page.slice(end)}`
}

/** Every page holding a table, rendered: `[page, content]`. */
export const renderAll = (
  profiles: ReadonlyArray<Profile> = Agents.profiles,
  read = (page: string) => readFileSync(join(docsDir, page), "utf8")
) => {
  const pages = new Map<string, string>()
  for (const table of tables(profiles)) {
    const before = pages.get(table.page) ?? read(table.page)
    const after = withTable(before, table.name, table.text)
    if (after === undefined) throw new Error(`docs/${table.page}: no <!-- agents:${table.name} --> markers`)
    pages.set(table.page, after)
  }
  return pages
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check")
  let stale = 0
  for (const [page, content] of renderAll()) {
    if (readFileSync(join(docsDir, page), "utf8") === content) continue
    stale++
    if (check) console.error(`docs/${page}: its agent tables differ from the profiles (run node docs/scripts/agents.ts)`)
    else writeFileSync(join(docsDir, page), content)
  }
  if (check && stale > 0) process.exit(1)
}
