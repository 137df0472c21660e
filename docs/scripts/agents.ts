/**
 * Writes the docs' per-agent tables from the agents' profiles (`Agents` in the core), between
 * `<!-- agents:<table> -->` and `<!-- /agents:<table> -->` in the pages that hold them:
 * - `cli/hook.md`, `hosts`: each `--host` value, its agent, default timeout, timeout unit, ask default, page;
 * - `cli/install.md`, `files`: the file install writes per agent and scope, and its shape;
 * - `README.md` (the site's start page) and the repository's `README.md`, `proven`: each agent, and
 *   what is proven inside it: the scenarios the `agents` step of `npm test` runs in the real agent
 *   (agents/lib/scenarios.mjs, agents/package.json), or "from its documents only";
 * - `cli.md` and the repository's `README.md`, `commands`: every command of the CLI with its short
 *   description, from the CLI's command table (`Cli.cli`, the table `--help` prints);
 * - `.vitepress/hosts.json` (a whole file): the sidebar's "Agents as hosts", in the registry's order.
 *
 *   node docs/scripts/agents.ts           rewrite the tables (after `npm run build`: it reads the built core)
 *   node docs/scripts/agents.ts --check   exit 1 when a table differs from what would be written
 *
 * The docs tests check that the committed tables are what this writes; a test adds a fake agent
 * and sees it in them.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Agents } from "@agent-hooks/core"
import * as Cli from "../../packages/cli/src/Cli.ts"

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
    case "plugin":
      return `agent-hooks' ${place.plugin === "pi" ? "extension" : "plugin"} (a file of its own, the command inside), on every event the agent gives a plugin`
  }
}

const fileOf = (place: Agents.ConfigPlace): string => {
  switch (place.kind) {
    case "json":
    case "own":
    case "plugin":
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

/** A real agent of the `agents` step: its npm package, the scenarios that run in it under agent-hooks. */
export interface RealAgent {
  readonly pkg: string
  readonly version: string
  /** The scenarios of its first run (`runs[0]`). */
  readonly scenarios: ReadonlyArray<string>
  /**
   * Each way the step runs it (Copilot CLI: its own hook files, and its reading of Claude Code's
   * `.claude/settings.json` as `--host claude`): what it is (none for the one way), its scenarios.
   */
  readonly runs: ReadonlyArray<{ readonly variant: string | undefined; readonly scenarios: ReadonlyArray<string> }>
}

const agentsDir = join(docsDir, "..", "agents")

// The real agents of the `agents` step of `npm test` and its scenarios (plain JavaScript, no build;
// untyped, so imported by path with the shape read here)
interface HarnessAgent {
  readonly name: string
  readonly pkg: string
  /** The agent (its profile's name) this run drives, where `name` is not it (`copilot-claude`: `copilot`). */
  readonly profile?: string
  /** What this run of the agent is, where the step runs it more than one way. */
  readonly variant?: string
}
interface HarnessScenario {
  readonly id: string
}
const { AGENT_LIST } = (await import(pathToFileURL(join(agentsDir, "lib", "agents.mjs")).href)) as {
  readonly AGENT_LIST: ReadonlyArray<HarnessAgent>
}
const { SCENARIOS, sideOf } = (await import(pathToFileURL(join(agentsDir, "lib", "scenarios.mjs")).href)) as {
  readonly SCENARIOS: ReadonlyArray<HarnessScenario>
  readonly sideOf: (agent: HarnessAgent, scenario: HarnessScenario, mode: "native" | "agent-hooks") => object
}

/** The agents the `agents` step of `npm test` runs for real, by `--host` name. */
export const realAgents = (): ReadonlyMap<string, RealAgent> => {
  const pinned: Record<string, string> = JSON.parse(readFileSync(join(agentsDir, "package.json"), "utf8")).dependencies
  const real = new Map<string, RealAgent>()
  for (const agent of AGENT_LIST) {
    const name = agent.profile ?? agent.name
    // agent-hooks' side of each scenario in this agent: a skip names what the agent lacks
    const scenarios = [...SCENARIOS.filter((scenario) => !("skip" in sideOf(agent, scenario, "agent-hooks"))).map((s) => s.id), "install"]
    const before = real.get(name)
    const runs = [...(before?.runs ?? []), { variant: agent.variant, scenarios }]
    real.set(name, { pkg: agent.pkg, version: pinned[agent.pkg] ?? "?", scenarios: runs[0]!.scenarios, runs })
  }
  return real
}

/** The `proven` table: one row per agent; `prefix` leads the links (`docs/` from the repository's README). */
export const provenTable = (profiles: ReadonlyArray<Profile>, real: ReadonlyMap<string, RealAgent>, prefix = ""): string =>
  [
    "| Agent | `--host` | Proven inside it |",
    "| --- | --- | --- |",
    ...profiles.map((profile) => {
      const agent = real.get(profile.name)
      const list = (ids: ReadonlyArray<string>) => ids.map((id) => `\`${id}\``).join(", ")
      const proven =
        agent === undefined
          ? "from its documents only (its page says what was read)"
          : `**run for real** by \`npm test\` (agents step, \`${agent.pkg}\` ${agent.version}): ${agent.runs
              .map((run) => (run.variant === undefined ? list(run.scenarios) : `${run.variant}: ${list(run.scenarios)}`))
              .join("; ")}`
      return `| [${profile.host.displayName}](${prefix}${profile.docs.hostPage}) | \`${profile.name}\` | ${proven} |`
    })
  ].join("\n")

/** A command of the CLI: its name and the short description `--help` prints. */
export interface CliCommand {
  readonly name: string
  readonly description: string
}

/** The CLI's commands, from its command table (what `agent-hooks --help` lists), in its order. */
export const cliCommands = (): ReadonlyArray<CliCommand> =>
  Cli.cli.subcommands.flatMap((group) =>
    group.commands.map((command) => ({ name: command.name, description: command.shortDescription ?? command.description ?? "" }))
  )

/** The `commands` table: one row per command; `prefix` leads the links to the command pages. */
export const commandsTable = (commands: ReadonlyArray<CliCommand>, prefix: string): string =>
  [
    "| Command | What it does |",
    "| --- | --- |",
    ...commands.map((command) => `| [\`agent-hooks ${command.name}\`](${prefix}cli/${command.name}.md) | ${command.description} |`)
  ].join("\n")

/** The sidebar's hosts (`.vitepress/hosts.json`): `{ text, link }` per agent, in the registry's order. */
export const sidebarHosts = (profiles: ReadonlyArray<Profile>): string =>
  `${JSON.stringify(
    profiles.map((profile) => ({ text: profile.host.displayName, link: `/${profile.docs.hostPage.replace(/\.md$/, "")}` })),
    null,
    2
  )}\n`

/** Whole files this script writes (no markers): `[page, content]`. */
export const wholeFiles = (profiles: ReadonlyArray<Profile>): ReadonlyArray<readonly [string, string]> => [
  [".vitepress/hosts.json", sidebarHosts(profiles)]
]

/** The tables, by page and name. */
export const tables = (
  profiles: ReadonlyArray<Profile>
): ReadonlyArray<{ readonly page: string; readonly name: string; readonly text: string }> => [
  { page: "cli/hook.md", name: "hosts", text: hostsTable(profiles) },
  { page: "cli/install.md", name: "files", text: filesTable(profiles) },
  { page: "README.md", name: "proven", text: provenTable(profiles, realAgents()) },
  { page: "cli/hook.md", name: "proven", text: provenTable(profiles, realAgents(), "../") },
  { page: "../README.md", name: "proven", text: provenTable(profiles, realAgents(), "docs/") },
  { page: "cli.md", name: "commands", text: commandsTable(cliCommands(), "") },
  { page: "../README.md", name: "commands", text: commandsTable(cliCommands(), "docs/") }
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

/** Every page holding a table, rendered, and every whole file this script writes: `[page, content]`. */
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
  for (const [file, content] of wholeFiles(profiles)) pages.set(file, content)
  return pages
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check")
  let stale = 0
  for (const [page, content] of renderAll()) {
    if (existsSync(join(docsDir, page)) && readFileSync(join(docsDir, page), "utf8") === content) continue
    stale++
    if (check) console.error(`docs/${page}: its agent tables differ from the profiles (run node docs/scripts/agents.ts)`)
    else writeFileSync(join(docsDir, page), content)
  }
  if (check && stale > 0) process.exit(1)
}
