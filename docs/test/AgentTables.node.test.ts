/**
 * The docs' per-agent tables are written from the agents' profiles (docs/scripts/agents.ts): the
 * committed pages hold what it writes, and every agent has its host page. The lists of agents and
 * commands a user reads (the start page, the repository's README, the sidebar, `cli.md`, `--help`)
 * come from the one registry and the CLI's one command table, so they cannot drift.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as Agents from "@agent-hooks/core/Agents"
import { cliCommands, docsDir, realAgents, renderAll } from "../scripts/agents.ts"

const repoDir = join(docsDir, "..")
const cliBin = join(repoDir, "packages", "cli", "dist", "bin.js")
const read = (page: string) => readFileSync(join(docsDir, page), "utf8")

/** The rows of the markdown table between `<!-- agents:<name> ... -->` and its end marker, first cells as written. */
const firstCells = (page: string, name: string): Array<string> => {
  const text = read(page)
  const start = text.indexOf(`<!-- agents:${name} `)
  const end = text.indexOf(`<!-- /agents:${name} -->`)
  expect(start, `${page}: the ${name} table's markers`).toBeGreaterThanOrEqual(0)
  return text
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .slice(1)
    .map((line) => line.split(" | ")[0]!.slice(2))
}

describe("the agent tables", () => {
  it("are what docs/scripts/agents.ts writes from the profiles (run it after changing an agent's folder)", () => {
    const stale = [...renderAll()]
      .filter(([page, content]) => !existsSync(join(docsDir, page)) || read(page) !== content)
      .map(([page]) => page)
    expect(stale).toEqual([])
  })

  it("link each agent's host page and dialect page, which exist", () => {
    const pages = Agents.profiles.flatMap((profile) => [
      profile.docs.hostPage,
      ...(profile.docs.dialectPage === undefined ? [] : [profile.docs.dialectPage])
    ])
    const dialects = Agents.dialects.map((profile) => profile.docs.dialectPage)
    expect([...pages, ...dialects].filter((page) => !existsSync(join(docsDir, page)))).toEqual([])
  })
})

describe("the lists of agents and commands come from one source", () => {
  const agents = Agents.profiles.map((profile) => `[${profile.host.displayName}](${profile.docs.hostPage})`)

  it("the start page, the repository's README and the sidebar name every agent of the registry, in its order", () => {
    expect(firstCells("README.md", "proven")).toEqual(agents)
    expect(firstCells("../README.md", "proven")).toEqual(agents.map((link) => link.replace("](", "](docs/")))
    const sidebar: Array<{ text: string; link: string }> = JSON.parse(read(".vitepress/hosts.json"))
    expect(sidebar.map((item) => item.text)).toEqual(Agents.profiles.map((profile) => profile.host.displayName))
    // the config reads that file for its "Agents as hosts" group
    expect(read(".vitepress/config.ts")).toMatch(/text: "Agents as hosts",[^}]*items: hosts\b/)
  })

  it("what the start page says is proven inside an agent is what the agents step runs: each real agent by name, the others from documents", () => {
    const real = realAgents()
    expect([...real.keys()].sort()).toEqual(
      expect.arrayContaining([
        "auggie",
        "claude",
        "cline",
        "codebuddy",
        "codex",
        "copilot",
        "factory",
        "gemini",
        "kilo",
        "opencode",
        "pi",
        "qwen"
      ])
    )
    const rows = read("README.md")
      .split("\n")
      .filter((l) => l.startsWith("| [") && / \| `[a-z0-9.-]+` \| /.test(l))
    expect(rows).toHaveLength(Agents.profiles.length)
    for (const line of rows) {
      const host = line.match(/ \| `([a-z0-9.-]+)` \| /)![1]!
      expect(line.includes("**run for real**"), line).toBe(real.has(host))
      expect(line.includes("from its documents only"), line).toBe(!real.has(host))
    }
  })

  it("README and cli.md list every command of the CLI's command table, each with its page", () => {
    const commands = cliCommands().map((command) => command.name)
    expect(commands).toEqual(expect.arrayContaining(["run", "hook", "install", "uninstall", "doctor", "init"]))
    const rows = commands.map((name) => `[\`agent-hooks ${name}\`](cli/${name}.md)`)
    expect(firstCells("cli.md", "commands")).toEqual(rows)
    expect(firstCells("../README.md", "commands")).toEqual(rows.map((link) => link.replace("](", "](docs/")))
    expect(commands.filter((name) => !existsSync(join(docsDir, "cli", `${name}.md`)))).toEqual([])
  })

  it.skipIf(!existsSync(cliBin))("`agent-hooks --help` lists the same commands, and `hook --help` every agent (built CLI)", () => {
    const help = (args: ReadonlyArray<string>) => {
      const result = spawnSync(process.execPath, [cliBin, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
      expect(result.status, result.stderr).toBe(0)
      return result.stdout
    }
    const section = help(["--help"]).split("SUBCOMMANDS\n")[1]!.split("\n\n")[0]!
    const listed = section
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => line.trim().split(/\s{2,}/))
    expect(listed).toEqual(cliCommands().map((command) => [command.name, command.description]))
    const hook = help(["hook", "--help"])
    expect(Agents.profiles.filter((profile) => !hook.includes(profile.name)).map((profile) => profile.name)).toEqual([])
  })
})
