#!/usr/bin/env node
/**
 * The `agent-hooks` executable. It turns on Node's compile cache (Node 22.1 and later; a no-op
 * elsewhere) before loading the program, so every later start skips compiling the same modules
 * again: a host that runs `agent-hooks run` per event pays less for each one.
 *
 * @since 0.1.0
 */
import module from "node:module"

;(module as { enableCompileCache?: () => unknown }).enableCompileCache?.()
await import("./main.ts")
