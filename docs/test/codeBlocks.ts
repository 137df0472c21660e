/**
 * The docs' code-block convention, and the runner that executes the blocks.
 *
 * A fenced block whose language is a command or a settings file (`sh`, `bash`, `shell`,
 * `console`, `json`, `jsonc`, `yaml`, `toml`) carries one of these words after the language:
 *
 * - `illustrative`: not run (for example it needs the packages published, a host, or the network);
 *   the site labels it "illustrative";
 * - `file=<path>`: the docs test writes the block's text to `<path>` in the page's temp folder;
 * - `run`: the docs test runs it in that folder, after the files above it. A `console` block holds
 *   commands (`$ ` lines) and the output each prints (stdout and stderr); the output must match,
 *   where `...` inside a line stands for any text and a line of only `...` for any lines. A `sh`
 *   block runs as one script that must exit 0.
 *
 * Each page with `file=` or `run` blocks runs top to bottom in a fresh folder: `$HOME` is
 * `<tmp>/home/me` and the working directory `<tmp>/home/me/proj` (printed paths drop `<tmp>`, so
 * they read `/home/me/proj/...`), and `agent-hooks` on PATH is the repository's built CLI.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"

export const COMMAND_LANGS = new Set([
  "sh",
  "bash",
  "shell",
  "zsh",
  "console",
  "shell-session",
  "json",
  "jsonc",
  "json5",
  "yaml",
  "yml",
  "toml"
])

export interface Block {
  readonly lang: string
  readonly words: ReadonlyArray<string>
  readonly text: string
  /** 1-based line of the opening fence. */
  readonly line: number
}

export const parseBlocks = (markdown: string): Array<Block> => {
  const blocks: Array<Block> = []
  const lines = markdown.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(lines[i] ?? "")
    if (!open) continue
    const fence = open[2] ?? "```"
    const body: Array<string> = []
    let j = i + 1
    const closes = (line: string): boolean => line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === ""
    while (j < lines.length && !closes(lines[j] ?? "")) {
      body.push(lines[j] ?? "")
      j++
    }
    const words = (open[4] ?? "")
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "")
    blocks.push({ lang: (open[3] ?? "").toLowerCase(), words, text: body.join("\n"), line: i + 1 })
    i = j
  }
  return blocks
}

export const kind = (block: Block): "illustrative" | "file" | "run" | "unmarked" | "other" => {
  if (!COMMAND_LANGS.has(block.lang)) return "other"
  if (block.words.includes("illustrative")) return "illustrative"
  if (block.words.some((w) => w.startsWith("file="))) return "file"
  if (block.words.includes("run")) return "run"
  return "unmarked"
}

/** Every markdown page of the site (generated API reference and build folders excluded). */
export const markdownFiles = (docsDir: string): Array<string> => {
  const out: Array<string> = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name.startsWith(".") || (dir === docsDir && (name === "reference" || name === "test"))) continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith(".md")) out.push(path)
    }
  }
  walk(docsDir)
  return out.map((p) => relative(docsDir, p))
}

/** `...` within a line matches any text; a line of only `...` matches any number of lines. */
export const outputMatches = (expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): boolean => {
  const lineMatches = (pattern: string, line: string): boolean =>
    new RegExp(
      "^" +
        pattern
          .split("...")
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*") +
        "$"
    ).test(line)
  const go = (e: number, a: number): boolean => {
    const pattern = expected[e]
    if (pattern === undefined) return a === actual.length
    if (pattern.trim() === "...") {
      for (let k = a; k <= actual.length; k++) if (go(e + 1, k)) return true
      return false
    }
    const line = actual[a]
    return line !== undefined && lineMatches(pattern.trimEnd(), line.trimEnd()) && go(e + 1, a + 1)
  }
  return go(0, 0)
}

export interface Step {
  readonly line: number
  readonly command: string
  readonly expected: ReadonlyArray<string>
  readonly actual: ReadonlyArray<string>
  readonly ok: boolean
}

export interface PageRun {
  readonly root: string
  readonly steps: ReadonlyArray<Step>
  readonly scriptFailures: ReadonlyArray<string>
}

/** The commands of a `console` block with the output lines that follow each. */
export const consoleCommands = (text: string): Array<{ command: string; expected: Array<string> }> => {
  const out: Array<{ command: string; expected: Array<string> }> = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ""
    const last = out[out.length - 1]
    if (line.startsWith("$ ")) {
      let command = line.slice(2)
      while (command.endsWith("\\") && i + 1 < lines.length) command = command + "\n" + (lines[++i] ?? "")
      out.push({ command, expected: [] })
    } else if (last !== undefined) {
      last.expected.push(line)
    }
  }
  for (const c of out) while (c.expected.length > 0 && (c.expected[c.expected.length - 1] ?? "").trim() === "") c.expected.pop()
  return out
}

const MARK = "__agent_hooks_docs_step__"

/**
 * Runs a page's `file=` and `run` blocks in a fresh folder. `cliBin` is the built CLI's bin.js,
 * run with `node` (the runtime running the tests when it is Node, else `node` from PATH).
 */
export const runPage = (markdown: string, options: { readonly cliBin: string; readonly node: string }): PageRun => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-docs-")))
  const home = join(root, "home", "me")
  const proj = join(home, "proj")
  mkdirSync(proj, { recursive: true })
  const bin = join(root, "bin")
  mkdirSync(bin)
  writeFileSync(join(bin, "agent-hooks"), `#!/bin/sh\nexec "${options.node}" "${options.cliBin}" "$@"\n`)
  chmodSync(join(bin, "agent-hooks"), 0o755)
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("AGENT_HOOKS_") || k.startsWith("CLAUDE_") || k.startsWith("VITEST") || k === "NODE_OPTIONS")
      continue
    env[k] = v
  }
  env.HOME = home
  env.PATH = `${bin}:${dirname(options.node)}:${process.env.PATH ?? ""}`
  env.NO_COLOR = "1"
  const steps: Array<Step> = []
  const scriptFailures: Array<string> = []
  const clean = (s: string): string => s.split(root).join("")
  for (const block of parseBlocks(markdown)) {
    const k = kind(block)
    if (k === "file") {
      const target = join(proj, block.words.find((w) => w.startsWith("file="))!.slice(5))
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, block.text + "\n")
    } else if (k === "run" && block.lang === "console") {
      const commands = consoleCommands(block.text)
      // One shell for the whole block, so `echo $?` sees the previous command's status.
      // stderr goes where stdout goes, as in a terminal.
      const script = "exec 2>&1\n" + commands.map((c) => `${c.command}\n__s=$?; printf '\\n${MARK}\\n'; ( exit $__s )`).join("\n")
      const r = spawnSync("bash", ["-c", script], { cwd: proj, env, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] })
      const chunks = clean(r.stdout ?? "").split(`\n${MARK}\n`)
      commands.forEach((c, idx) => {
        const actual = (chunks[idx] ?? "")
          .replace(/\n+$/, "")
          .split("\n")
          .filter((l, _i, all) => !(all.length === 1 && l === ""))
        steps.push({ line: block.line, command: c.command, expected: c.expected, actual, ok: outputMatches(c.expected, actual) })
      })
      if (r.error) scriptFailures.push(`line ${block.line}: ${r.error.message}`)
    } else if (k === "run") {
      const r = spawnSync("bash", ["-e", "-c", block.text], { cwd: proj, env, encoding: "utf8", timeout: 60_000 })
      if (r.status !== 0) scriptFailures.push(`line ${block.line}: exit ${r.status}\n${clean(r.stdout)}${clean(r.stderr)}`)
    }
  }
  return { root, steps, scriptFailures }
}
