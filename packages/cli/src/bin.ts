#!/usr/bin/env node
/**
 * The `agent-hooks` executable. It turns on Node's compile cache (Node 22.1 and later; a no-op
 * elsewhere) before loading the program, so every later start skips compiling the same modules
 * again: a host that runs `agent-hooks run` per event pays less for each one. The program is the
 * bundle `agent-hooks.mjs` beside this file when the build made it (the published package; the
 * code only some subcommands need is in `chunks/`, loaded on first use), else the modules (`main.ts`).
 *
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import module from "node:module"

;(module as { enableCompileCache?: () => unknown }).enableCompileCache?.()
const bundle = new URL("./agent-hooks.mjs", import.meta.url)
await (existsSync(bundle) ? import(bundle.href) : import("./main.ts"))
