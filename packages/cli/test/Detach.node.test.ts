import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// Fire-and-forget hooks (async; pigo's blocking: false) launched by `agent-hooks run` outlive the
// CLI: detached in their own session, the payload on stdin, ended at their cap.

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
let dir = ""
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-detach-")))
})
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

const run = (settings: string, event: string, payload: unknown) =>
  spawnSync(process.execPath, [bin, "run", event, "--settings", settings, "--project-dir", dir], {
    input: JSON.stringify(payload),
    encoding: "utf8"
  })

const waitFor = async (check: () => boolean, ms: number): Promise<boolean> => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}

const alive = (marker: string): number =>
  spawnSync("pgrep", ["-f", marker], { encoding: "utf8" }).stdout.split("\n").filter((line) => line.trim() !== "").length

describe("async hooks under agent-hooks run", () => {
  // The five hooks append at about the same time: each line is one printf (one write to an O_APPEND
  // file), so lines from two hooks cannot interleave.
  it("an async hook that sleeps, then appends its payload, runs 5 times out of 5 after the CLI has exited", async () => {
    const log = join(dir, "log.txt")
    const settings = join(dir, "append.json")
    writeFileSync(settings, JSON.stringify({
      hooks: { PostToolUse: [{ hooks: [{ type: "command", command: `sleep 0.3; line=$(tr -d '\\n'); printf '%s\\n' "$line" >> '${log}'`, async: true }] }] }
    }))
    for (let n = 1; n <= 5; n++) {
      const result = run(settings, "PostToolUse", { tool_name: "Bash", n })
      expect(result.status).toBe(0)
    }
    const lines = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((line) => line.includes("\"tool_name\":\"Bash\"")) : [])
    expect(await waitFor(() => lines().length === 5, 10_000)).toBe(true)
    expect(lines().map((line) => (JSON.parse(line) as { n: number }).n).sort()).toEqual([1, 2, 3, 4, 5])
  })

  it("pigo: a blocking: false plugin hook (the seed's logging plugin) logs 5 of 5 tool calls under run --preset pigo", async () => {
    const home = join(dir, "home")
    const log = join(dir, "pigo.log")
    mkdirSync(join(home, ".pigo"), { recursive: true })
    writeFileSync(join(home, ".pigo", "config.json"), JSON.stringify({
      plugins: [{ name: "logger", enabled: true, hooks: { tool_end: [{ command: `sleep 0.2; echo "$PIGO_TOOL_NAME" >> '${log}'`, blocking: false }] } }]
    }))
    for (let n = 1; n <= 5; n++) {
      const result = spawnSync(process.execPath, [bin, "run", "tool_end", "--preset", "pigo", "--project-dir", dir], {
        input: JSON.stringify({ tool_name: "bash", tool_input: { command: `echo ${n}` } }),
        encoding: "utf8",
        env: { ...process.env, HOME: home, PIGO_HOME: join(home, ".pigo") }
      })
      expect(result.status, result.stderr).toBe(0)
    }
    const lines = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((line) => line === "bash") : [])
    expect(await waitFor(() => lines().length === 5, 10_000)).toBe(true)
  })

  it("a detached hook that runs past its timeout is killed at that cap, with its group", async () => {
    const marker = `agent-hooks-cap-${process.pid}-${Date.now()}`
    const settings = join(dir, "cap.json")
    writeFileSync(settings, JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: `sleep 30; : ${marker}`, async: true, timeout: 1 }] }] }
    }))
    const result = run(settings, "Stop", {})
    expect(result.status).toBe(0)
    expect(await waitFor(() => alive(marker) > 0, 5_000)).toBe(true)
    // The cap (1 s) plus the TERM-to-KILL grace; generous on a loaded machine.
    expect(await waitFor(() => alive(marker) === 0, 15_000)).toBe(true)
  })
})
