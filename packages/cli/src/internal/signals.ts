import type * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"

/** The signals that end the CLI: a terminal closing (SIGHUP) is handled like Ctrl-C and `kill`. */
export const shutdownSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const

let drain: (() => void) | undefined

/**
 * Asks the next shutdown signal to drain instead of interrupt (`serve`: stop reading, answer what
 * is running, then exit 0). The signal after that interrupts as usual. Returns the unregister function.
 *
 * @internal
 */
export const onDrainSignal = (f: () => void): (() => void) => {
  drain = f
  return () => {
    if (drain === f) drain = undefined
  }
}

/**
 * Runs the program as the process's main fiber. A shutdown signal interrupts it (closing the
 * engine's scope kills every running hook's process group, so none is left behind), unless a
 * command asked to drain first (`onDrainSignal`). `teardown` decides the exit status.
 *
 * @internal
 */
export const runMain: <E, A>(
  effect: Effect.Effect<A, E>,
  options?: { readonly teardown?: Runtime.Teardown | undefined; readonly disableErrorReporting?: boolean | undefined }
) => void = Runtime.makeRunMain(({ fiber, teardown }) => {
  const onSignal = () => {
    const f = drain
    if (f !== undefined) {
      drain = undefined
      f()
      return
    }
    fiber.interruptUnsafe(fiber.id)
  }
  fiber.addObserver((exit) => {
    for (const signal of shutdownSignals) process.removeListener(signal, onSignal)
    teardown(exit, (code) => {
      process.exit(code)
    })
  })
  for (const signal of shutdownSignals) process.on(signal, onSignal)
})
