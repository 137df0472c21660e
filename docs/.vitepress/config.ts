/**
 * The agent-hooks documentation site (VitePress 1).
 *
 * - `npm run docs:dev` / `npm run docs:build` at the repository root (through scripts/dev.mjs, so
 *   the toolchain bootstraps first). The built site lands in `docs/.vitepress/dist`.
 * - Dead links fail the build (VitePress's own check, on by default). Links that leave `docs/`
 *   (for example `../examples/hooks.json`) cannot be pages of the site: the `repositoryLinks`
 *   plugin below checks that their target exists in the repository (the build fails with the page
 *   and the link when it does not) and renders them as plain text naming the repository path.
 * - The sidebar is by task. Its agents ("Agents as hosts") are `.vitepress/hosts.json`, which
 *   docs/scripts/agents.ts writes from the agents' registry. The event pages (`events/<Event>.md`) are listed from the folder, so
 *   a page generated for a new catalog event appears without editing this file.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig, type DefaultTheme } from "vitepress"

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const repoDir = resolve(docsDir, "..")

const pagesIn = (folder: string): Array<string> =>
  readdirSync(resolve(docsDir, folder))
    .filter((f) => f.endsWith(".md") && f !== "index.md" && f !== "README.md")
    .map((f) => f.slice(0, -3))
    .sort()

/** The text of a page's first `# ` heading (its file name when it has none). */
const titleOf = (page: string): string => {
  const heading = readFileSync(resolve(docsDir, page), "utf8")
    .split("\n")
    .find((l) => l.startsWith("# "))
  return heading === undefined ? page.replace(/^.*\/|\.md$/g, "") : heading.slice(2).replace(/`/g, "").split(":")[0]!.trim()
}

/** The agents' host pages, written from the agents' profiles by docs/scripts/agents.ts (checked by the docs tests). */
const hosts: Array<DefaultTheme.SidebarItem> = JSON.parse(readFileSync(resolve(docsDir, ".vitepress", "hosts.json"), "utf8"))

const eventItems: Array<DefaultTheme.SidebarItem> = pagesIn("events").map((name) => ({ text: name, link: `/events/${name}` }))

const recipeTitles: Record<string, string> = {
  "format-after-edit": "Format after edit",
  "block-dangerous-commands": "Block dangerous commands",
  "audit-log": "Audit log",
  "tests-on-stop": "Tests on Stop",
  "ci-webhook": "CI webhook"
}

const sidebar: DefaultTheme.Sidebar = [
  {
    text: "Getting started",
    items: [
      { text: "Overview", link: "/" },
      { text: "First hook (CLI)", link: "/getting-started" },
      { text: "Shell or any language: CLI", link: "/use/cli" },
      { text: "Any language: serve", link: "/serve" },
      { text: "Node: Promise API", link: "/use/node" },
      { text: "Effect API", link: "/use/effect" },
      { text: "LangChain", link: "/langchain" },
      { text: "deepagents", link: "/use/deepagents" },
      { text: "Vercel AI SDK", link: "/use/ai-sdk" },
      { text: "Mastra", link: "/use/mastra" },
      { text: "Claude Agent SDK", link: "/use/claude-agent-sdk" },
      { text: "OpenAI Agents SDK", link: "/use/openai-agents" },
      { text: "Bun", link: "/use/bun" },
      { text: "Deno", link: "/use/deno" }
    ]
  },
  {
    text: "Agents as hosts",
    // Every agent of the registry (`Agents.profiles`), in its order: docs/scripts/agents.ts writes hosts.json
    items: hosts
  },
  {
    text: "Concepts",
    items: [
      { text: "Events", link: "/events" },
      { text: "Matchers", link: "/matchers" },
      { text: "Handler types", link: "/handlers" },
      { text: "Handler keys", link: "/handler-keys" },
      { text: "Output (protocol)", link: "/protocol" },
      { text: "Aggregation", link: "/concepts/aggregation" },
      { text: "Execution", link: "/execution" }
    ]
  },
  { text: "Events", collapsed: true, items: eventItems },
  {
    text: "Settings",
    collapsed: true,
    items: [
      { text: "Settings files", link: "/configuration" },
      ...pagesIn("settings").map((name) => ({ text: name, link: `/settings/${name}` }))
    ]
  },
  {
    text: "Command line",
    collapsed: true,
    items: [
      { text: "Overview", link: "/cli" },
      ...pagesIn("cli").map((name) => ({ text: `agent-hooks ${name}`, link: `/cli/${name}` })),
      { text: "Serve protocol", link: "/serve" }
    ]
  },
  {
    text: "Dialects",
    collapsed: true,
    items: [{ text: "Presets", link: "/presets/" }, ...pagesIn("presets").map((name) => ({ text: name, link: `/presets/${name}` }))]
  },
  {
    text: "Security and policy",
    items: [
      { text: "Security", link: "/security" },
      { text: "Policy", link: "/policy" },
      { text: "Permission rules", link: "/permissions" },
      { text: "Policy as code", link: "/policy-as-code" },
      { text: "Audit trail", link: "/audit" },
      { text: "Troubleshooting", link: "/troubleshooting" }
    ]
  },
  {
    text: "Recipes",
    items: [
      ...Object.keys(recipeTitles).filter((n) => pagesIn("recipes").includes(n)),
      ...pagesIn("recipes").filter((n) => !(n in recipeTitles))
    ].map((name) => ({
      text: recipeTitles[name] ?? name,
      link: `/recipes/${name}`
    }))
  },
  {
    text: "Performance and reliability",
    items: [
      { text: "Performance", link: "/performance" },
      { text: "Reliability", link: "/reliability" },
      { text: "Runtimes", link: "/runtimes" },
      { text: "Telemetry", link: "/telemetry" },
      // Every measurement page in benchmarks/, titled by its first heading.
      ...pagesIn("benchmarks").map((name) => ({ text: titleOf(`benchmarks/${name}.md`), link: `/benchmarks/${name}` }))
    ]
  },
  {
    text: "Reference",
    items: [
      { text: "API guide", link: "/api" },
      { text: "API reference", link: "/reference/" },
      { text: "Environment variables", link: "/environment" },
      { text: "About these docs", link: "/contributing-docs" }
    ]
  }
]

/**
 * Links that leave `docs/` point into the repository (examples, packages): they must exist, and
 * they are rendered as text naming the path, since the site cannot serve them.
 */
const repositoryLinks = (md: any): void => {
  md.core.ruler.push("agent_hooks_repository_links", (state: any) => {
    const page: string | undefined = state.env?.path
    if (page === undefined) return
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue
      const children = block.children
      for (let i = 0; i < children.length; i++) {
        const token = children[i]
        if (token.type !== "link_open") continue
        const href: string = token.attrGet("href") ?? ""
        if (/^[a-z]+:|^#|^\//i.test(href)) continue
        const target = resolve(dirname(page), href.replace(/[?#].*$/, ""))
        if (!relative(docsDir, target).startsWith("..")) continue
        const where = relative(repoDir, target)
        if (!existsSync(target)) {
          throw new Error(
            `${relative(repoDir, page)}: the link "${href}" leaves docs/ and points to ${where}, which does not exist in the repository. Fix the path or remove the link.`
          )
        }
        // link_open ... link_close becomes: the link text, then " (repository: <path>)".
        let close = i + 1
        while (close < children.length && children[close].type !== "link_close") close++
        token.type = "html_inline"
        token.tag = ""
        token.content = '<span class="repo-path" title="in the repository: ' + where + '">'
        token.nesting = 0
        if (close < children.length) {
          const end = children[close]
          end.type = "html_inline"
          end.tag = ""
          end.nesting = 0
          end.content = "</span> <small>(repository: <code>" + where + "</code>)</small>"
        }
      }
    }
  })
}

/** A code fence whose info string carries the word `illustrative` gets a visible label. */
const illustrativeLabel = (md: any): void => {
  const fence = md.renderer.rules.fence
  md.renderer.rules.fence = (tokens: any, idx: number, options: any, env: any, self: any) => {
    const info: string = tokens[idx].info ?? ""
    const words = info.trim().split(/\s+/)
    const html: string = fence(tokens, idx, options, env, self)
    if (words.includes("illustrative")) {
      return html.replace(/^<div class="([^"]*)"/, '<div class="$1 illustrative" data-illustrative="not run by the docs tests"')
    }
    const file = words.find((w) => w.startsWith("file="))
    if (file !== undefined) {
      return html.replace(/^<div class="([^"]*)"/, `<div class="$1 docs-file" data-file="${file.slice(5)}"`)
    }
    return html
  }
}

export default defineConfig({
  title: "agent-hooks",
  description: "Lifecycle hooks for AI agents: Claude Code's hooks protocol on Node, Bun and Deno, for any host.",
  lang: "en",
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  cleanUrls: false,
  // The guide's index stays docs/README.md (readable on a code host); on the site it is the start page.
  rewrites: { "README.md": "index.md", "presets/README.md": "presets/index.md" },
  srcExclude: ["**/node_modules/**", "test/**", "scripts/**"],
  lastUpdated: false,
  // The local search index of ~90 pages (and the API reference) is one chunk over Vite's 500 kB hint.
  vite: { build: { chunkSizeWarningLimit: 4000 } },
  markdown: {
    config: (md) => {
      repositoryLinks(md)
      illustrativeLabel(md)
    }
  },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/getting-started" },
      { text: "Events", link: "/events" },
      { text: "CLI", link: "/cli" },
      { text: "Recipes", link: "/recipes/block-dangerous-commands" },
      { text: "API", link: "/reference/" }
    ],
    sidebar,
    search: { provider: "local" },
    outline: { level: [2, 3] }
  }
})
