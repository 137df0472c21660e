import { ProcessSpawner, SpawnError } from "@agent-hooks/core/ProcessSpawner"
import type { KillSignal, ProcessExit, ProcessHandle, ProcessRequest } from "@agent-hooks/core/ProcessSpawner"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import type * as Scope from "effect/Scope"
import type { ScriptedKill, ScriptedLayer, ScriptedRun, ScriptedSpawner } from "../ScriptedProcessSpawner.ts"

const encoder = new TextEncoder()

/** @internal */
export const make = (script: (request: ProcessRequest) => ScriptedRun): ScriptedSpawner => {
  const requests: Array<ProcessRequest> = []
  const kills: Array<ScriptedKill> = []
  let nextPid = 10_000

  const spawn = (request: ProcessRequest): Effect.Effect<ProcessHandle, SpawnError, Scope.Scope> =>
    Effect.suspend(() => {
      requests.push(request)
      const run = script(request)
      if (run instanceof SpawnError) return Effect.fail(run)
      return Effect.gen(function* () {
        const pid = nextPid++
        const exited = yield* Deferred.make<ProcessExit>()
        const end = (exit: ProcessExit) => Effect.asVoid(Deferred.succeed(exited, exit))
        const natural: ProcessExit =
          run.signal != null
            ? { exitCode: null, signal: run.signal }
            : { exitCode: run.exitCode === undefined ? 0 : run.exitCode, signal: null }
        // The scripted output is all written at the start; the pipes close when the process exits.
        const pipe = (text: string | undefined): Stream.Stream<Uint8Array> =>
          Stream.concat(
            text === undefined || text === "" ? Stream.empty : Stream.make(encoder.encode(text)),
            Stream.fromEffectDrain(Deferred.await(exited))
          )
        // Like the real spawners: closing the scope SIGKILLs whatever still runs.
        yield* Effect.addFinalizer(() => end({ exitCode: null, signal: "SIGKILL" }))
        const delay = Duration.fromInputUnsafe(run.delay ?? 0)
        if (Duration.isZero(delay)) {
          yield* end(natural)
        } else {
          yield* Effect.forkScoped(Effect.andThen(Effect.sleep(delay), end(natural)))
        }
        const handle: ProcessHandle = {
          pid,
          exited: Deferred.await(exited),
          stdout: pipe(run.stdout),
          stderr: pipe(run.stderr),
          kill: (signal: KillSignal) =>
            Effect.suspend(() => {
              kills.push({ pid, signal })
              if (signal === "SIGTERM" && run.ignoreTerm === true) return Effect.void
              return end({ exitCode: null, signal })
            })
        }
        return handle
      })
    })

  return { ...ProcessSpawner.of({ capabilities: { runtime: "scripted", processGroups: true }, spawn }), requests, kills }
}

/** @internal */
export const layer = (script: (request: ProcessRequest) => ScriptedRun): ScriptedLayer => {
  const spawner = make(script)
  const { requests, kills } = spawner
  return Object.assign(Layer.succeed(ProcessSpawner, spawner), { requests, kills })
}
