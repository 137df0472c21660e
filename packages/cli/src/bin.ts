#!/usr/bin/env node
/**
 * The `agent-hooks` executable. It turns on Node's compile cache (Node 22.1 and later; a no-op
 * elsewhere) before loading the program, so every later start skips compiling the same modules
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
import { fileURLToPath } from "node:url"

;(module as { enableCompileCache?: () => unknown }).enableCompileCache?.()
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
