/**
 * The runnable examples of the docs (`examples/*.ts`) run with Node against the built packages,
 * so that they cannot rot: each must exit 0 and print its key line.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { node } from "./cliHarness.ts"

const examples = fileURLToPath(new URL("../../../examples/", import.meta.url))
const nodeDist = fileURLToPath(new URL("../../node/dist/index.js", import.meta.url))

beforeAll(() => {
  if (!existsSync(nodeDist)) throw new Error(`${nodeDist} does not exist: run npm run build first`)
})

const runExample = (file: string) => {
  const result = spawnSync(node, [file], {
    cwd: examples,
    env: { ...process.env, NO_COLOR: "1" },
    encoding: "utf8"
  })
  if (result.error) throw result.error
  return result
}

describe("examples", () => {
  it("demo.ts plays the whole session as expected", () => {
    const result = runExample("demo.ts")
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain("demo finished: 10 events, 3 blocked, all decided as expected")
    expect(result.stdout).toContain("Blocked by guard-bash.sh: recursive delete of / or the home directory.")
    // Not a terminal: no colour.
    expect(result.stdout).not.toContain("\x1b[")
  })

  it("promise-api.ts prints the blocked outcome", () => {
    const result = runExample("promise-api.ts")
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe("blocked (deny): Blocked by guard-bash.sh: recursive delete of / or the home directory.")
  })

  it("effect-api.ts prints the blocked outcome", () => {
    const result = runExample("effect-api.ts")
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe(
      "blocked (deny): Blocked by guard-bash.sh: force-push to main/master. Push a branch and open a pull request instead."
    )
  })
})
