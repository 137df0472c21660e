#!/usr/bin/env node
/**
 * The `agent-hooks` program's ES module entry: the package's executable, `agent-hooks.cjs`
 * (internal/nodeEntry.ts), runs it in its own process, and it runs by itself too (`node dist/bin.js`,
 * `bun dist/bin.js`, `deno run -A dist/bin.js`, and configs written before the CommonJS entry). It turns on Node's compile cache (Node 22.1 and later; a no-op
 * elsewhere), in a per-user folder, before loading the program, so every later start skips compiling the same modules
 * again: a host that runs `agent-hooks run` per event pays less for each one. The program is the
 * bundle `agent-hooks.mjs` beside this file when the build made it (the published package; the
 * code only some subcommands need is in `chunks/`, loaded on first use), else the modules (`main.ts`).
 * Under Bun, a plain `agent-hooks run` starts from `agent-hooks.bun.cjs` instead, when the build
 * made it: the same program, compiled by Bun ahead of time (its bytecode is beside it).
 *
 * Bun reads the working directory's `.env` files and `bunfig.toml` before this file runs; the
 * working directory of a hook host is the project, often a cloned one. Started by Bun in a folder
 * with either, this file starts itself again with `--no-env-file --config=<dist>/bunfig.toml` (an
 * empty one) and the environment the process was given (on Linux; elsewhere without the variables
 * the `.env` files name), so a project's `.env` cannot move `AGENT_HOOKS_MANAGED_DIR`. A `preload`
 * of the project's `bunfig.toml` has run by then: said on stderr, with the command that avoids it.
 *
 * @since 0.1.0
 */
import { DAEMON_ASKED } from "./internal/hookStdin.ts"

// Node's modules through process.getBuiltinModule, not import: an import of node:fs builds its ES
// module face, which reads every export, and so loads all of Node's streams (a good part of a hook
// call answered by the daemon).
const module = process.getBuiltinModule("node:module")
const require = module.createRequire(import.meta.url)
const { existsSync, readdirSync, readFileSync } = process.getBuiltinModule("node:fs")
const { constants, homedir } = process.getBuiltinModule("node:os")
const { join } = process.getBuiltinModule("node:path")
const { fileURLToPath } = process.getBuiltinModule("node:url")

/** The environment this process was started with: Bun's .env values are not in /proc/self/environ. */
const startEnvironment = (dotenvFiles: ReadonlyArray<string>): NodeJS.ProcessEnv => {
  try {
    return Object.fromEntries(
      readFileSync("/proc/self/environ", "utf8")
        .split("\0")
        .filter((entry) => entry.includes("="))
        .map((entry) => {
          const at = entry.indexOf("=")
          return [entry.slice(0, at), entry.slice(at + 1)]
        })
    )
  } catch {
    // No /proc: without every variable a .env file names (Bun does not override a variable that was set).
    const env = { ...process.env }
    for (const file of dotenvFiles) {
      for (const [, name] of readFileSync(file, "utf8").matchAll(/^\s*(?:export\s+)?([\w.-]+)\s*[=:]/gm)) delete env[name!]
    }
    return env
  }
}

/** Under Bun, started without `--no-env-file` and `--config` in a folder Bun read files of: starts this file again without them. */
const isolatedFromProject = (): boolean => {
  if (typeof process.versions.bun !== "string") return false
  if (process.execArgv.includes("--no-env-file") && process.execArgv.some((arg) => /^(--config|-c)(=|$)/.test(arg))) return false
  const cwd = process.cwd()
  let names: ReadonlyArray<string>
  try {
    names = readdirSync(cwd)
  } catch {
    return false
  }
  const dotenv = names.filter((name) => name === ".env" || name.startsWith(".env.")).map((name) => join(cwd, name))
  const bunfig = names.includes("bunfig.toml") ? join(cwd, "bunfig.toml") : undefined
  if (dotenv.length === 0 && bunfig === undefined) return false
  // The empty bunfig.toml the build puts beside this file (scripts/bundle-cli.mjs), else the null device.
  const shipped = fileURLToPath(new URL("./bunfig.toml", import.meta.url))
  const config = existsSync(shipped) ? shipped : process.platform === "win32" ? "NUL" : "/dev/null"
  const self = fileURLToPath(import.meta.url)
  if (bunfig !== undefined && /\bpreload\b/.test(readFileSync(bunfig, "utf8"))) {
    process.stderr.write(
      `agent-hooks: Bun ran the preload of ${bunfig} before agent-hooks started. Start agent-hooks under Bun as ` +
        `\`bun --no-env-file --config=${config} ${self}\` (or with node) so a project's files are not read.\n`
    )
  }
  // node:child_process only here (it loads much of the runtime's streams): `agent-hooks hook` starts without it
  const { spawn } = require("node:child_process") as typeof import("node:child_process")
  const child = spawn(process.execPath, ["--no-env-file", `--config=${config}`, self, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: startEnvironment(dotenv)
  })
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => child.kill(signal))
  child.on("error", (error) => {
    process.stderr.write(`agent-hooks: could not start ${process.execPath} again without the project's files: ${error.message}\n`)
    process.exit(1)
  })
  child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + constants.signals[signal])))
  return true
}

const bundle = new URL("./agent-hooks.mjs", import.meta.url)
// `agent-hooks hook` (an agent runs it on every event) is answered by the per-user daemon when one
// runs (internal/hookClient.ts: the program is then never loaded here), else in-process below.
// When the CommonJS entry (agent-hooks.cjs, internal/nodeEntry.ts) started this file, it asked already.
const answered =
  process.argv[2] === "hook" &&
  typeof process.versions.bun !== "string" &&
  (globalThis as { [DAEMON_ASKED]?: boolean })[DAEMON_ASKED] !== true &&
  existsSync(bundle) &&
  (await (
    await import("./internal/hookClient.ts")
  ).throughDaemon(process.argv.slice(2), fileURLToPath(import.meta.url), fileURLToPath(bundle)))

// The compile cache lives in a per-user folder ($XDG_CACHE_HOME or ~/.cache, then
// agent-hooks/node-compile-cache), not Node's default under the shared temp folder: there another
// user may own the folder (no cache at all, every call cold) or have filled it. NODE_COMPILE_CACHE
// still wins (Node turned the cache on before this line).
// The folder is the user's own with mode 0700 (privateFolder): compiled code another user could
// write would run as this one; a folder that is not (a symlink, another owner, writable by others)
// means no cache.
const cacheHome = process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache")
if (!answered && typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function") {
  const { privateFolder } = await import("./internal/privateFolder.ts")
  const folder = process.env["NODE_COMPILE_CACHE"] ? undefined : privateFolder(join(cacheHome, "agent-hooks", "node-compile-cache"))
  if (folder !== undefined || process.env["NODE_COMPILE_CACHE"]) {
    ;(module as unknown as { enableCompileCache: (dir?: string) => unknown }).enableCompileCache(folder)
  }
}
const load = () => (existsSync(bundle) ? import(bundle.href) : import("./main.ts"))
// Under Bun, `run` starts from the bundle Bun compiled ahead of time (bytecode), when the build made it.
const bunRun = new URL("./agent-hooks.bun.cjs", import.meta.url)
if (answered) {
  // The daemon answered: stdout, stderr and the exit status are written.
} else if (isolatedFromProject()) {
  // The program runs in the process started above.
} else if (typeof process.versions.bun === "string" && existsSync(bunRun)) {
  const compiled = require(fileURLToPath(bunRun)) as {
    readonly runOrElse: (argv: ReadonlyArray<string>, otherwise: () => Promise<unknown>) => void
  }
  compiled.runOrElse(process.argv.slice(2), load)
} else await load()
