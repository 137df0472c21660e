/**
 * `agent-hooks serve --watch` as a host sees it: the BUILT CLI serves one settings file; the file
 * is changed on disk, the reload is reported on stderr, and the next request meets the new hooks.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { bin, cliEnv, node, requireBuild } from "./cliHarness.ts"

let dir = ""
beforeAll(() => {
  requireBuild()
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-serve-watch-")))
})
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

const settingsWith = (command: string) =>
  JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } })

const until = async (check: () => boolean, what: () => string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(check(), what()).toBe(true)
}

it("serve --watch reloads a changed settings file, says so on stderr, and answers with the new hooks", async () => {
  const settings = join(dir, "settings.json")
  writeFileSync(settings, settingsWith("exit 0"))
  const env = cliEnv({ HOME: dir })
  const child = spawn(node, [bin, "serve", "--watch", "--settings", settings, "--project-dir", dir], {
    cwd: dir,
    env,
    stdio: ["pipe", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const answer = (id: number) =>
    stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line))
      .find((message) => message.id === id)
  const request = { event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "ls" } } }
  try {
    child.stdin.write(`${JSON.stringify({ id: 1, ...request })}\n`)
    await until(
      () => answer(1) !== undefined,
      () => `stdout: ${stdout}\nstderr: ${stderr}`
    )
    expect(answer(1).outcome.blocked).toBe(false)

    writeFileSync(settings, settingsWith("echo changed policy >&2; exit 2"))
    await until(
      () => stderr.includes("reloaded"),
      () => `stderr: ${stderr}`
    )
    expect(stderr).toContain(`agent-hooks: reloaded ${settings}`)
    // the reload is in the JSON stream too
    await until(
      () => stdout.includes(`"type":"reload"`),
      () => `stdout: ${stdout}`
    )
    const reload = stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line))
      .find((message) => message.type === "reload")
    expect(reload).toMatchObject({
      type: "reload",
      _tag: "Reloaded",
      files: [settings],
      dropped: [`PreToolUse: exit 0 (${settings} at hooks.PreToolUse[0].hooks[0])`]
    })

    child.stdin.write(`${JSON.stringify({ id: 2, ...request })}\n`)
    await until(
      () => answer(2) !== undefined,
      () => `stdout: ${stdout}\nstderr: ${stderr}`
    )
    expect(answer(2).outcome).toMatchObject({ blocked: true, reason: "changed policy" })
    // and in the Outcome of the next request
    expect(answer(2).outcome.warnings.join("\n")).toContain(`settings reloaded (${settings})`)
  } finally {
    child.stdin.end()
  }
  expect(await exit).toBe(0)
})
