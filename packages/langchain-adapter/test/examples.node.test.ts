/**
 * The LangChain examples run with Node against the built packages (as a user runs them; `npm test`
 * builds first), so that they cannot rot: each must exit 0 and print its key line.
 */
import { spawnSync } from "node:child_process"
import { basename } from "node:path"
import { fileURLToPath } from "node:url"
import { existsSync } from "node:fs"
import { beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const node = /^node(\.exe)?$/i.test(basename(process.execPath)) ? process.execPath : "node"

const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url))
beforeAll(() => {
  if (!existsSync(dist)) throw new Error(`${dist} does not exist: run npm run build first`)
})

const run = (file: string) => {
  const result = spawnSync(node, [file], { cwd: root, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8" })
  if (result.error) throw result.error
  return result
}

describe("examples/langchain", () => {
  it("hitl.ts: one interrupt for the deploys, the rejected one never runs, the thread resumes to the end", () => {
    const result = run("examples/langchain/hitl.ts")
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("tools run so far: none")
    expect(result.stdout).toContain("tools that actually ran: deploy web --env prod, git status")
    expect(result.stdout).toContain("HITL example finished: 2 asked, 1 approved, 1 rejected")
  })

  it("agent.ts: the guard refuses rm -rf and the run finishes", () => {
    const result = run("examples/langchain/agent.ts")
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("tools that actually ran: bash: git clean -n build/, write_file: /project/NOTES.md")
  })
})
