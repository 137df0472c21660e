/**
 * The `agent-hooks` executable as npm links it and `install` writes it for Node (`dist/agent-hooks.cjs`:
 * this module and the daemon's client, built as one CommonJS file by `scripts/bundle-cli.mjs`).
 *
 * An agent runs `agent-hooks hook` on every event: that call goes to the per-user daemon
 * (`hookClient.ts`) before any ES module is loaded, since starting Node's ES module loader costs
 * about 2 ms of CPU, a seventh of what a call answered by the daemon adds to a bare Node start. Any
 * other command, and a call the daemon did not answer, runs the program (`bin.js`) in this process,
 * which then does not ask the daemon again.
 *
 * Only a CommonJS file: `__dirname` is the folder of `agent-hooks.cjs` (the build's `dist`).
 *
 * @internal
 */
import { throughDaemon } from "./hookClient.ts"
import { DAEMON_ASKED } from "./hookStdin.ts"

// Node's modules through process.getBuiltinModule (see hookClient.ts)
const { existsSync } = process.getBuiltinModule("node:fs")
const { join } = process.getBuiltinModule("node:path")
const { pathToFileURL } = process.getBuiltinModule("node:url")

const bundle = join(__dirname, "agent-hooks.mjs")
// A copy of the build that a user-wide install made (launcher.ts) holds the bundle only: it is the program
const bin = existsSync(join(__dirname, "bin.js")) ? join(__dirname, "bin.js") : bundle
// Under Bun, bin.js starts the program its own way (it asks no daemon); Deno's call is refused by the client itself.
const asks = process.argv[2] === "hook" && typeof process.versions.bun !== "string" && existsSync(bundle)

void (asks ? throughDaemon(process.argv.slice(2), bin, bundle) : Promise.resolve(false))
  // the client failing is the daemon not answering: the call runs in-process
  .catch(() => false)
  .then((answered) => {
    if (answered) return
    if (asks) (globalThis as { [DAEMON_ASKED]?: boolean })[DAEMON_ASKED] = true
    return import(pathToFileURL(bin).href)
  })
