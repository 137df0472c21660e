/**
 * `--preset gemini` against Gemini CLI's own engine: generated BeforeTool configs (hooks with and
 * without names, shared commands, overlapping groups) run through Gemini CLI's HookSystem
 * (`@google/gemini-cli-core`, driven as /work/shared/bench/gemini-hook-driver.mjs does) and through
 * `agent-hooks run BeforeTool --preset gemini`; each hook appends its command's tag to a log, and
 * both engines must have run the same hooks the same number of times (Gemini dedups matched hooks
 * by `name:command`). Runs where that package is installed (GEMINI_CLI_CORE_DIR, default
 * /tmp/gemini-bench, after `npm install @google/gemini-cli-core@0.61.0` there); skipped elsewhere,
 * where the conformance test in packages/core/test/Presets.test.ts states the rule. CI checks the
 * same property (and the order of sequential groups) against the pinned Gemini CLI of the agents
 * step: agents/oracles.mjs.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const geminiEntry = join(
  process.env["GEMINI_CLI_CORE_DIR"] ?? "/tmp/gemini-bench",
  "node_modules",
  "@google",
  "gemini-cli-core",
  "dist",
  "index.js"
)
const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-gemini-diff-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/**
 * Fires one BeforeTool for write_file through Gemini CLI's HookSystem, in a Node process of its own
 * (the package's ESM does not load through vitest's module runner). argv: hooks JSON file.
 */
const DRIVER = `
import { readFileSync } from "node:fs"
for (const key of ["log", "debug", "warn", "info"]) console[key] = () => {}
const { HookSystem } = await import(process.env.GEMINI_ENTRY)
const { fireGemini } = await import(process.env.ORACLE_LIB)
await fireGemini(HookSystem, JSON.parse(readFileSync(process.argv[2], "utf8")), process.cwd(), "write_file", { file_path: "a.ts" })
`
/** The stand-in for Gemini CLI's Config that the agents step's oracle uses too. */
const oracleLib = pathToFileURL(fileURLToPath(new URL("../../../agents/lib/oracle-gemini.mjs", import.meta.url))).href

const TAGS = ["c1", "c2", "c3"] as const
const hook = fc.record({
  tag: fc.constantFrom(...TAGS),
  name: fc.constantFrom(undefined, "lint", "audit"),
  timeout: fc.constantFrom(undefined, 5000)
})
const groups = fc.array(
  fc.record({
    matcher: fc.constantFrom(undefined, "write_file", ".*", "write_.*", "run_shell_command"),
    hooks: fc.array(hook, { minLength: 1, maxLength: 3 })
  }),
  { minLength: 1, maxLength: 4 }
)

let count = 0
const runs = (log: string): Array<string> =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .sort()
    : []

describe.skipIf(!existsSync(geminiEntry))("--preset gemini against Gemini CLI's HookSystem", () => {
  it("the same hooks run, as often: dedup by name:command across groups", async () => {
    const driver = join(root, "driver.mjs")
    writeFileSync(driver, DRIVER)
    await fc.assert(
      fc.asyncProperty(groups, async (generated) => {
        const n = count++
        const BeforeTool = generated.map((group) => ({
          ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
          hooks: group.hooks.map((h) => ({
            type: "command",
            command: `cat > /dev/null; echo ${h.tag} >> "$DIFF_LOG"`,
            ...(h.name === undefined ? {} : { name: h.name }),
            ...(h.timeout === undefined ? {} : { timeout: h.timeout })
          }))
        }))
        const geminiLog = join(root, `gemini-${n}.log`)
        const hooksFile = join(root, `gemini-${n}.json`)
        writeFileSync(hooksFile, JSON.stringify({ BeforeTool }))
        const gemini = spawnSync(process.execPath, [driver, hooksFile], {
          cwd: root,
          encoding: "utf8",
          env: { ...process.env, DIFF_LOG: geminiLog, GEMINI_ENTRY: pathToFileURL(geminiEntry).href, ORACLE_LIB: oracleLib, HOME: root }
        })
        expect(gemini.status, gemini.stderr).toBe(0)

        const oursLog = join(root, `ours-${n}.log`)
        const settings = join(root, `settings-${n}.json`)
        writeFileSync(settings, JSON.stringify({ hooks: { BeforeTool } }))
        const result = spawnSync(
          process.execPath,
          [bin, "run", "BeforeTool", "--preset", "gemini", "--settings", settings, "--project-dir", root],
          {
            input: JSON.stringify({ tool_name: "write_file", tool_input: { file_path: "a.ts" } }),
            encoding: "utf8",
            env: { ...process.env, DIFF_LOG: oursLog, HOME: root }
          }
        )
        expect(result.status, result.stderr).toBe(0)
        expect(runs(oursLog), JSON.stringify(BeforeTool)).toEqual(runs(geminiLog))
      }),
      { numRuns: 25, seed: 13 }
    )
  }, 120_000)
})
