/**
 * The built `agent-hooks` keeps Node's compile cache in a per-user folder, not under the shared temp
 * folder (where a folder another user made means no cache): `$XDG_CACHE_HOME` or `~/.cache`, then
 * `agent-hooks/node-compile-cache`; `NODE_COMPILE_CACHE` still wins.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-compile-cache-")))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const version = (env: Record<string, string>) => {
  const base: Record<string, string | undefined> = { ...process.env }
  for (const name of ["NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE", "XDG_CACHE_HOME"]) delete base[name]
  const result = spawnSync("node", [bin, "--version"], { env: { ...base, ...env }, encoding: "utf8", timeout: 60_000 })
  expect(result.status, result.stderr).toBe(0)
}

describe("compile cache", () => {
  it("is written under the user's ~/.cache/agent-hooks", () => {
    const home = join(scratch, "home")
    version({ HOME: home })
    const folder = join(home, ".cache", "agent-hooks", "node-compile-cache")
    expect(existsSync(folder)).toBe(true)
    expect(readdirSync(folder).length).toBeGreaterThan(0)
  })

  it("follows XDG_CACHE_HOME, and NODE_COMPILE_CACHE wins over both", () => {
    const home = join(scratch, "home2")
    version({ HOME: home, XDG_CACHE_HOME: join(scratch, "xdg") })
    expect(existsSync(join(scratch, "xdg", "agent-hooks", "node-compile-cache"))).toBe(true)
    version({ HOME: home, NODE_COMPILE_CACHE: join(scratch, "explicit") })
    expect(existsSync(join(scratch, "explicit"))).toBe(true)
    expect(existsSync(join(home, ".cache"))).toBe(false)
  })
})
