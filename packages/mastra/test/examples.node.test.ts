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

describe("examples/mastra", () => {
  it("agent.ts: rm -rf is refused with the reason the model gets, the deploy is asked and approved, the run finishes", () => {
    const result = spawnSync(node, ["examples/mastra/agent.ts"], { cwd: root, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8" })
    if (result.error) throw result.error
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("approval asked: deploy web --env prod")
    expect(result.stdout).toContain('the model was told: "Destructive command refused by guard-bash.sh: use a safer alternative."')
    expect(result.stdout).toContain("tools that actually ran: git clean -n build/, deploy web --env prod")
    expect(result.stdout).toContain("the model's answer: Cleaned up and deployed.")
  })
})
