/**
 * The recommended rule set against two tables of tool calls written the ways people and models
 * write them: every dangerous one blocked, at most 1 % of the ordinary ones. The commands are only
 * parsed and judged, never run (the differential check below runs `printf` on a sample of plain
 * words only).
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import type * as PermissionRule from "@agent-hooks/core/PermissionRule"
import * as Recommended from "@agent-hooks/core/Recommended"
import * as ShellLexer from "@agent-hooks/core/ShellLexer"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..", "..", "..")

/** Home and project of the tables (the fixtures say so in their header). */
export const tableContext: PermissionRule.JudgeContext = { cwd: "/home/dev/project", projectDir: "/home/dev/project", home: "/home/dev" }

/** A table line as a tool call: a Bash command, or `@Read <path>` / `@Edit <path>` / `@Write <path>`. */
export const toolCall = (line: string): PermissionRule.ToolCall => {
  const m = /^@(Read|Edit|Write|MultiEdit|Delete) (.+)$/.exec(line)
  return m === null ? { toolName: "Bash", toolInput: { command: line } } : { toolName: m[1]!, toolInput: { file_path: m[2]! } }
}

export const table = (name: "dangerous" | "ordinary"): ReadonlyArray<string> =>
  readFileSync(join(here, "fixtures", "recommended", `${name}.txt`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))

const dangerous = table("dangerous")
const ordinary = table("ordinary")

const verdicts = new Map<string, ReturnType<typeof Recommended.judge>>()
const blocked = (line: string) => {
  if (!verdicts.has(line)) verdicts.set(line, Recommended.judge(toolCall(line), tableContext))
  return verdicts.get(line)
}

/** The two figures, as docs/policy.md states them. */
export const figures = (): string => {
  const d = dangerous.filter((line) => blocked(line) !== undefined).length
  const o = ordinary.filter((line) => blocked(line) !== undefined).length
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1).replace(/\.0$/, "")} %`
  return (
    `agent-hooks:recommended blocks ${d} of ${dangerous.length} dangerous tool calls (${pct(d, dangerous.length)}) ` +
    `and ${o} of ${ordinary.length} ordinary ones (${pct(o, ordinary.length)})`
  )
}

describe("Recommended: the tables", () => {
  it("has at least 300 dangerous and 300 ordinary calls, none twice", () => {
    expect(dangerous.length).toBeGreaterThanOrEqual(300)
    expect(ordinary.length).toBeGreaterThanOrEqual(300)
    expect(dangerous.filter((line, k) => dangerous.indexOf(line) !== k)).toEqual([])
    expect(ordinary.filter((line, k) => ordinary.indexOf(line) !== k)).toEqual([])
    expect(dangerous.filter((line) => ordinary.includes(line))).toEqual([])
  })

  it("blocks every dangerous call, naming the rule and why", () => {
    const missed = dangerous.filter((line) => blocked(line) === undefined)
    expect(missed).toEqual([])
    for (const line of dangerous) {
      const verdict = blocked(line)!
      expect(Recommended.ids).toContain(verdict.id)
      expect(verdict.judgment.reason).not.toBe("")
    }
  })

  it("blocks at most 1 % of the ordinary calls", () => {
    const stopped = ordinary.flatMap((line) => {
      const verdict = blocked(line)
      return verdict === undefined ? [] : [`${line}  ← ${verdict.id}: ${verdict.judgment.reason}`]
    })
    expect(stopped.length, stopped.join("\n")).toBeLessThanOrEqual(Math.floor(ordinary.length / 100))
  })

  it("states the figures in docs/policy.md", () => {
    const page = readFileSync(join(root, "docs", "policy.md"), "utf8")
    expect(page, "docs/policy.md: run `node docs/scripts/recommended.ts` to rewrite the figures").toContain(figures())
  })

  afterAll(() => {
    // shown in `npm test`'s output
    process.stdout.write(`\n${figures()}\n`)
  })
})

describe("Recommended: rules", () => {
  it("has stable kebab-case ids, each documented", () => {
    expect(Recommended.ids).toEqual([
      "rm-root",
      "rm-home",
      "rm-project-root",
      "git-force-push",
      "git-delete-remote-branch",
      "git-discard-outside-worktree",
      "env-files",
      "ssh-keys",
      "cloud-credentials",
      "private-keys",
      "download-to-shell",
      "chmod-recursive-root",
      "disk-devices"
    ])
    for (const rule of Recommended.rules) {
      expect(rule.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      expect(rule.stops).not.toBe("")
      expect(rule.why).not.toBe("")
    }
  })

  it("each rule's permission rules block what they name", () => {
    for (const rule of Recommended.rules) {
      for (const source of rule.rules) {
        const m = /^(\w+)\((.*)\)$/.exec(source)!
        const call =
          m[1] === "Bash"
            ? toolCall(m[2]!.replace(/:\*$/, "").replace(/\*$/, "x"))
            : toolCall(
                `@${m[1]} ${m[2]!
                  .replace(/^\*\*\//, "")
                  .replace(/\*\*$/, "x")
                  .replace(/\*/g, "x")}`
              )
        expect(rule.judge(call, tableContext).match, `${rule.id}: ${source}`).not.toBe(false)
      }
    }
  })

  it("except turns a rule off by its id", () => {
    const call = toolCall("git push --force")
    expect(Recommended.judge(call, tableContext)?.id).toBe("git-force-push")
    expect(Recommended.judge(call, tableContext, { except: ["git-force-push"] })).toBeUndefined()
  })

  it("says why a call it cannot judge is blocked", () => {
    const verdict = Recommended.judge(toolCall('eval "$CMD"'), tableContext)
    expect(verdict?.judgment).toMatchObject({ match: "unjudgeable", reason: expect.stringContaining("eval") })
  })

  it("resolves symlinks through the context's realpath", () => {
    // /home/dev/project/link → /home/dev: removing link/ removes the home directory
    const link = "/home/dev/project/link"
    const realpath = (p: string) => (p === link || p.startsWith(`${link}/`) ? `/home/dev${p.slice(link.length)}` : p)
    expect(Recommended.judge(toolCall("rm -rf link/"), { ...tableContext, realpath })?.id).toBe("rm-home")
    expect(Recommended.judge(toolCall("cat link/.ssh/config"), { ...tableContext, realpath })?.id).toBe("ssh-keys")
  })
})

describe("Recommended: the lexer reads words as bash does", () => {
  // Differential check on the plain lines of the ordinary table: no expansion, substitution,
  // redirection, glob or operator, so that `printf` only prints (nothing is run).
  const plain = ordinary.filter((line) => !line.startsWith("@") && /^[A-Za-z0-9_\-./'" =:,+%@]+$/.test(line)).slice(0, 60)
  it("splits and dequotes like bash", () => {
    expect(plain.length).toBeGreaterThan(30)
    for (const line of plain) {
      const ours = ShellLexer.split(line, "posix")?.[0]?.words.map((w) => w.text)
      const theirs = execFileSync("bash", ["--norc", "--noprofile", "-c", `printf '%s\\0' ${line}`], {
        encoding: "utf8",
        env: { PATH: "/usr/bin:/bin" },
        cwd: "/"
      })
        .split("\0")
        .slice(0, -1)
      expect(ours, line).toEqual(theirs)
    }
  })
})
