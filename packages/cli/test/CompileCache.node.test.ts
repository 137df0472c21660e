/**
 * The built `agent-hooks` keeps Node's compile cache in a per-user folder, not under the shared temp
 * folder (where a folder another user made means no cache): `$XDG_CACHE_HOME` or `~/.cache`, then
 * `agent-hooks/node-compile-cache`; `NODE_COMPILE_CACHE` still wins. The folder is the user's own
 * with mode 0700: compiled code that another user could write would run as this one.
 */
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { bin, cliEnv } from "./cliHarness.ts"

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-hooks-compile-cache-")))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const version = (env: Record<string, string>) => {
  const result = spawnSync("node", [bin, "--version"], { env: cliEnv(env), encoding: "utf8", timeout: 60_000 })
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

  it("is made 0700; one of the user's own that others could only read is narrowed to 0700", () => {
    const home = join(scratch, "home-mode")
    version({ HOME: home })
    const folder = join(home, ".cache", "agent-hooks", "node-compile-cache")
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    chmodSync(folder, 0o755)
    version({ HOME: home })
    expect(statSync(folder).mode & 0o777).toBe(0o700)
  })

  it("a folder others may write to, or a symlink, is not used: no cache", () => {
    const home = join(scratch, "home-open")
    const folder = join(home, ".cache", "agent-hooks", "node-compile-cache")
    mkdirSync(folder, { recursive: true })
    chmodSync(folder, 0o777)
    version({ HOME: home })
    expect(readdirSync(folder)).toStrictEqual([])
    expect(statSync(folder).mode & 0o777).toBe(0o777)
    const linked = join(scratch, "home-link")
    const target = join(scratch, "elsewhere")
    mkdirSync(target, { mode: 0o700 })
    mkdirSync(join(linked, ".cache", "agent-hooks"), { recursive: true })
    symlinkSync(target, join(linked, ".cache", "agent-hooks", "node-compile-cache"))
    version({ HOME: linked })
    expect(readdirSync(target)).toStrictEqual([])
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
