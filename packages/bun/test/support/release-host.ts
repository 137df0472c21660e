// A host process for BunProcessSpawner.test.ts (run with bun): spawns a hook whose grandchild
// escapes the process group with `setsid` and keeps stdout open (30 s), waits for the hook to
// exit, closes the scope, and prints "released". The test checks that this host then exits on
// its own, promptly. Usage: bun --conditions=source release-host.ts <pid-file>
import { ProcessSpawner } from "@agent-hooks/core/ProcessSpawner"
import { Effect } from "effect"
import { BunProcessSpawner } from "@agent-hooks/bun"

const pidFile = process.argv[2]!
const program = Effect.scoped(
  Effect.gen(function*() {
    const spawner = yield* ProcessSpawner
    const handle = yield* spawner.spawn({
      file: "/bin/sh",
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
).pipe(Effect.provide(BunProcessSpawner.layer))

const exit = await Effect.runPromise(program)
process.stdout.write(`released ${JSON.stringify(exit)}\n`)
