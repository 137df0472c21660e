/**
 * The example runs with Node against the built packages (as a user runs it; `npm test` builds
 * first), so that it cannot rot: it must exit 0 and print its key lines.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { basename } from "node:path"
import { fileURLToPath } from "node:url"
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

describe("examples/openai-agents", () => {
  it("agent.ts: the policy refuses rm -rf, the model reads why, the run finishes", () => {
    const result = run("examples/openai-agents/agent.ts")
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("the model read: rm -rf is not allowed in this project: use git clean -n first")
    expect(result.stdout).toContain("tools that actually ran: none")
    expect(result.stdout).toContain("final output: done")
  })
})
