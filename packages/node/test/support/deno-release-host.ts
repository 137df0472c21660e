// A host process for DenoProcessSpawner.deno.test.ts: spawns a hook whose grandchild escapes the process
// group with `setsid` and keeps stdout open (30 s), waits for the hook to exit, closes the scope,
// and prints "released". The test checks that this host then exits on its own, promptly.
// Usage: deno run -A --conditions=source deno-release-host.ts <pid-file>
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import { Effect } from "effect"
import * as DenoProcessSpawner from "@agent-hooks/node/DenoProcessSpawner"

const pidFile = process.argv[2]!
const program = Effect.scoped(
  Effect.gen(function*() {
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
).pipe(Effect.provide(DenoProcessSpawner.layer))

const exit = await Effect.runPromise(program)
process.stdout.write(`released ${JSON.stringify(exit)}\n`)
