// The release host of the ProcessSpawner conformance suite, run as its own process:
//
//   <runtime> [runtime args] releaseHost.ts <pid-file> <spawner>
//
// `<spawner>` is `<module URL>#<export>`: a module exporting a `Layer<ProcessSpawner>` under that
// name (default `layer`). The host spawns, through that layer, a hook whose grandchild escapes
// the process group with `setsid` and keeps stdout open (30 s; its PID goes to <pid-file>), waits
// for the hook to exit, closes the scope, and prints `released <exit as JSON>`. The suite checks
// that the host then exits on its own, promptly.
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"

const [pidFile, spawner] = process.argv.slice(2)
if (pidFile === undefined || spawner === undefined) {
  throw new Error("usage: releaseHost.ts <pid-file> <spawner module URL>#<export>")
}
const url = new URL(spawner)
const exportName = url.hash.slice(1) || "layer"
url.hash = ""
const module: Record<string, unknown> = await import(url.href)
const layer = module[exportName] as Layer.Layer<ProcessSpawner> | undefined
if (layer === undefined) throw new Error(`${url.href} has no export ${exportName}`)

const program = Effect.scoped(
  Effect.gen(function* () {
    const spawner = yield* ProcessSpawner
    const handle = yield* spawner.spawn({
      file: "/bin/sh",
      // The escaped process writes its PID only after setsid, and the hook exits only after that.
      args: [
        "-c",
        `setsid sh -c 'echo $$ > "$1"; exec sleep 30' sh "$1" & while [ ! -s "$1" ]; do sleep 0.01; done; printf started`,
        "sh",
        pidFile
      ],
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdin: "{}",
      maxOutputBytes: 1024
    })
    return yield* handle.exited
  })
).pipe(Effect.provide(layer))

const exit = await Effect.runPromise(program)
process.stdout.write(`released ${JSON.stringify(exit)}\n`)
