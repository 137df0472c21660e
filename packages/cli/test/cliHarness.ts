/**
 * What every CLI test file shares: the built CLI, the Node that runs it on every lane, a scratch
 * folder per file, and one way to spawn it (a CLI that hangs fails its test instead of blocking the
 * worker for good).
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll } from "vitest"

/** The built CLI (`npm run build` writes it; the tests never build). */
export const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

/**
 * The CLI is a Node program: run it with this Node, or with `node` from PATH under Bun or Deno.
 */
export const isNode =
  typeof process.versions.bun !== "string" &&
  typeof process.versions.deno !== "string" &&
  /^node(\.exe)?$/i.test(basename(process.execPath))
export const node = isNode ? process.execPath : "node"

/** Fails the file's first test, saying what to do, when the CLI is not built. */
export const requireBuild = (): void => {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run npm run build first`)
}

/**
 * Registers `beforeAll` (the build check, a fresh temp folder, its real path) and `afterAll`
 * (removes it) in the calling file; the returned function gives the folder inside tests.
 */
export const scratchFolder = (prefix: string): (() => string) => {
  let scratch = ""
  beforeAll(() => {
    requireBuild()
    scratch = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  })
  afterAll(() => {
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  })
  return () => scratch
}

/** What a run of the CLI printed and how it ended. */
export interface Result {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * The test runner's environment without colours and without the variables the CLI sets for its
 * hooks (the hooks must see the CLI's values, not ones inherited from the runner), plus `extra`.
 */
export const cliEnv = (
  extra: Record<string, string | undefined> = {},
  unset: ReadonlyArray<string> = []
): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" }
  for (const name of ["AGENT_HOOKS_PROJECT_DIR", "CLAUDE_PROJECT_DIR", ...unset]) delete env[name]
  return { ...env, ...extra }
}

/** Runs `agent-hooks ARGS` to completion; a timeout is a result (status null), not an exception. */
export const runCli = (
  args: ReadonlyArray<string>,
  options: { readonly stdin?: string; readonly cwd: string; readonly env?: Record<string, string | undefined>; readonly timeout?: number }
): Result => {
  const result = spawnSync(node, [bin, ...args], {
    input: options.stdin ?? "",
    cwd: options.cwd,
    env: options.env ?? cliEnv(),
    encoding: "utf8",
    timeout: options.timeout ?? 20_000
  })
  if (result.error && (result.error as NodeJS.ErrnoException).code !== "ETIMEDOUT") throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/**
 * Registers, in the calling file, a fresh project folder and HOME per call (removed after each
 * test): `dir` (the project), `home`, and `put` to write a file there (a string as it is, anything
 * else as JSON), making its folders.
 */
export const projectsWithHome = (prefix: string) => {
  const roots: Array<string> = []
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
  })
  return () => {
    requireBuild()
    const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
    roots.push(root)
    const dir = join(root, "project")
    const home = join(root, "home")
    mkdirSync(dir, { recursive: true })
    mkdirSync(home, { recursive: true })
    const put = (file: string, value: unknown) => {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2))
    }
    return { root, dir, home, put }
  }
}
