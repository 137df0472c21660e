/**
 * The single-file executable (`bun build --compile` of the CLI bundle, as scripts/release-binaries.mjs
 * builds it) runs `run` and `serve` on a machine path with no Node on it. Built for linux-x64 only,
 * and only in the Node lane: one 100 MB build per test run is enough.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const bundle = fileURLToPath(new URL("../dist/agent-hooks.mjs", import.meta.url))
const linuxX64 = process.platform === "linux" && process.arch === "x64"

let scratch = ""
let binary = ""
let emptyPath = ""
beforeAll(() => {
  if (!linuxX64) return
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist: run npm run build first`)
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-binary-")))
  binary = join(scratch, "agent-hooks")
  const built = spawnSync("bun", ["build", "--compile", "--target=bun-linux-x64", bundle, "--outfile", binary], {
    encoding: "utf8"
  })
  if (built.status !== 0) throw new Error(`bun build --compile failed:\n${built.stdout}${built.stderr}`)
  // A PATH with nothing on it: no node, no bun, no deno.
  emptyPath = join(scratch, "empty-path")
  mkdirSync(emptyPath)
  writeFileSync(join(scratch, "settings.json"), JSON.stringify({
    hooks: {
      PreToolUse: [{
        matcher: "Bash",
        hooks: [{ type: "command", command: "if command -v node >/dev/null; then echo node-found >&2; exit 1; fi; echo no node here >&2; exit 2" }]
      }]
    }
  }))
}, 120_000)
afterAll(() => {
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
})

const runBinary = (args: ReadonlyArray<string>, input: string) =>
  spawnSync(binary, args, { input, cwd: scratch, env: { PATH: emptyPath, HOME: scratch }, encoding: "utf8", timeout: 30_000 })

describe.skipIf(!linuxX64)("single-file executable (linux-x64, no Node on PATH)", () => {
  it("run: blocks with the hook's reason, exit 2", () => {
    const result = runBinary(
      ["run", "PreToolUse", "--settings", join(scratch, "settings.json")],
      JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } })
    )
    expect(result.status, result.stderr).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ blocked: true, reason: "no node here" })
  })

  it("serve: hello, an answer, exit 0 on stdin EOF", () => {
    const result = runBinary(
      ["serve", "--settings", join(scratch, "settings.json")],
      `${JSON.stringify({ id: 1, event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "ls" } } })}\n`
    )
    expect(result.status, result.stderr).toBe(0)
    const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line))
    expect(lines[0]).toMatchObject({ type: "hello", protocol: 1 })
    expect(lines[1]).toMatchObject({ id: 1, outcome: { blocked: true, reason: "no node here" } })
  })
})
