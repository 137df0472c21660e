#!/usr/bin/env node
/**
 * The `agent-hooks` executable. It turns on Node's compile cache (Node 22.1 and later; a no-op
 * elsewhere), in a per-user folder, before loading the program, so every later start skips compiling the same modules
 * again: a host that runs `agent-hooks run` per event pays less for each one. The program is the
 * bundle `agent-hooks.mjs` beside this file when the build made it (the published package; the
 * code only some subcommands need is in `chunks/`, loaded on first use), else the modules (`main.ts`).
 * Under Bun, a plain `agent-hooks run` starts from `agent-hooks.bun.cjs` instead, when the build
 * made it: the same program, compiled by Bun ahead of time (its bytecode is beside it).
 *
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import module from "node:module"
import { homedir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

// The compile cache lives in a per-user folder ($XDG_CACHE_HOME or ~/.cache, then
// agent-hooks/node-compile-cache), not Node's default under the shared temp folder: there another
// user may own the folder (no cache at all, every call cold) or have filled it. NODE_COMPILE_CACHE
// still wins (Node turned the cache on before this line).
const cacheHome = process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache")
;(module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache?.(
  process.env["NODE_COMPILE_CACHE"] ? undefined : join(cacheHome, "agent-hooks", "node-compile-cache")
)
const bundle = new URL("./agent-hooks.mjs", import.meta.url)
const load = () => (existsSync(bundle) ? import(bundle.href) : import("./main.ts"))
// Under Bun, `run` starts from the bundle Bun compiled ahead of time (bytecode), when the build made it.
const bunRun = new URL("./agent-hooks.bun.cjs", import.meta.url)
if (typeof process.versions.bun === "string" && existsSync(bunRun)) {
  const compiled = module.createRequire(import.meta.url)(fileURLToPath(bunRun)) as {
    readonly runOrElse: (argv: ReadonlyArray<string>, otherwise: () => Promise<unknown>) => void
  }
  compiled.runOrElse(process.argv.slice(2), load)
} else await load()
