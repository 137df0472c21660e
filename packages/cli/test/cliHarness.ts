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
import { clearingWords, shellQuote } from "../src/internal/hostConfig.ts"

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

/**
 * What the command install writes starts with, before the runtime's words: the system's `env`
 * clearing the variables that run code as Node starts (`'/usr/bin/env' '-u' 'NODE_OPTIONS' ... `).
 */
export const cleared: string = clearingWords()
  .map((word) => `${shellQuote(word)} `)
  .join("")

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
 * The variables that steer the CLI, its daemon, its clients or the hooks it runs, when they come
 * from the test runner's environment (an agent's session sets the project folders and host mode, a
 * developer's shell a config folder or NODE_OPTIONS): a test sees the CLI's own values, or the ones
 * it passes itself. One list for every CLI test file (`cliEnv`).
 */
export const steeringVariables: ReadonlyArray<string> = [
  // the project folder each agent gives its hooks
  "AGENT_HOOKS_PROJECT_DIR",
  "CLAUDE_PROJECT_DIR",
  "GEMINI_PROJECT_DIR",
  "QWEN_PROJECT_DIR",
  "WAVE_PROJECT_DIR",
  // host mode and its daemon
  "AGENT_HOOKS_HOST_MODE",
  "AGENT_HOOKS_DAEMON",
  "AGENT_HOOKS_DAEMON_IDLE",
  "AGENT_HOOKS_DAEMON_TRIED",
  "AGENT_HOOKS_FOREIGN",
  // where the user's and the agents' settings are found
  "AGENT_HOOKS_HOME",
  "AGENT_HOOKS_MANAGED_DIR",
  "CLAUDE_CONFIG_DIR",
  "CODEX_HOME",
  "PIGO_HOME",
  "WINDSURF_SYSTEM_HOOKS_PATH",
  "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
  "QWEN_CODE_SYSTEM_SETTINGS_PATH",
  "XDG_RUNTIME_DIR",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  // what the policy decides
  "AGENT_HOOKS_FAIL_CLOSED",
  "AGENT_HOOKS_REQUIRE_TRUST",
  "AGENT_HOOKS_STRICT",
  "AGENT_HOOKS_PLATFORM",
  // the Node that runs the CLI
  "NODE_OPTIONS",
  // pnpm's shims (.tools/node_modules/.bin/vitest) set it; host mode refuses to judge under it
  "NODE_PATH",
  "NODE_COMPILE_CACHE",
  "NODE_DISABLE_COMPILE_CACHE"
]

/**
 * The test runner's environment without colours and without the variables that steer the CLI
 * (`steeringVariables`), plus `extra` (which may set any of them again). No daemon unless `extra`
 * turns it on (`AGENT_HOOKS_DAEMON: "1"`): a `hook` call would start one, detached, that outlives
 * the test and writes into its folder while the folder is removed.
 */
export const cliEnv = (extra: Record<string, string | undefined> = {}): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" }
  for (const name of steeringVariables) delete env[name]
  return { ...env, AGENT_HOOKS_DAEMON: "0", ...extra }
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
