import * as NodeStdio from "@effect/platform-node-shared/NodeStdio"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as LogLevel from "effect/LogLevel"
import * as References from "effect/References"
import type * as Stdio from "effect/Stdio"
import { hook } from "./hook.ts"
import type { HookOptions } from "./hook.ts"
import { parseHookArgs } from "./hookArgs.ts"
import { PRE_READ_STDIN } from "./hookStdin.ts"
import type { PreReadStdin } from "./hookStdin.ts"
import { runProgram } from "./program.ts"
import type { EngineLayerOf } from "./program.ts"
import { bufferedStdio } from "./stdin.ts"

/** The line a command line `agent-hooks hook` cannot read writes on stderr (with exit 2: it blocks). */
export const argsErrorLine = (error: string): string =>
  `agent-hooks hook: ${error}; the call is blocked until the hook command in the agent's config is fixed (agent-hooks hook --help)\n`

/**
 * One `agent-hooks hook` call whose command line was read: the payload from `stdio`, `--log-level`
 * as the full parser's global flag sets it. `withGuard: false` leaves the last resort (an answer
 * written and the process ended when the runtime is stuck) to the caller: the daemon's client.
 *
 * @internal
 */
export const hookCall = (
  parsed: { readonly options: HookOptions; readonly logLevel: LogLevel.LogLevel | undefined },
  stdio: Layer.Layer<Stdio.Stdio>,
  withGuard = true
) =>
  hook(parsed.options, withGuard).pipe(
    Effect.provide(stdio),
    parsed.logLevel === undefined ? (effect) => effect : Effect.provideService(References.MinimumLogLevel, parsed.logLevel)
  )

/**
 * `agent-hooks hook`, run without loading the full command-line parser (an agent calls it once per
 * event). A command line it cannot read blocks: exit 2 with the reason on stderr. `--help` goes to
 * the full parser. When the daemon's client (`bin.ts`, `hookClient.ts`) already read stdin and the
 * daemon could not answer, the payload is the bytes it read.
 *
 * @internal
 */
export const main = async (argv: ReadonlyArray<string>, engineLayer: EngineLayerOf | undefined): Promise<void> => {
  const parsed = parseHookArgs(argv)
  if (parsed === "help") return (await import("./cliProgram.ts")).main(engineLayer)
  if ("error" in parsed) {
    process.stderr.write(argsErrorLine(parsed.error))
    process.exitCode = 2
    return
  }
  const preRead = (globalThis as { [PRE_READ_STDIN]?: PreReadStdin })[PRE_READ_STDIN]
  runProgram(hookCall(parsed, preRead === undefined ? NodeStdio.layer : bufferedStdio(preRead.bytes, preRead.isTerminal)), engineLayer)
}
