import * as BunHookEngine from "@agent-hooks/bun/BunHookEngine"
import { parseRunArgs } from "./runArgs.ts"
import { main } from "./runProgram.ts"

/**
 * `agent-hooks run` under Bun, from a bundle Bun compiled ahead of time (`dist/agent-hooks.bun.cjs`
 * and its bytecode, built by `scripts/bundle-cli.mjs`): a host that runs the CLI once per event
 * skips parsing and compiling the engine every time. A plain `run` command line is run here with
 * `Bun.spawn`; anything else goes to `otherwise` (the full CLI, the ES module bundle).
 *
 * @internal
 */
export const runOrElse = (argv: ReadonlyArray<string>, otherwise: () => Promise<unknown>): void => {
  const args = parseRunArgs(argv)
  if (args !== undefined) main(args, BunHookEngine.layer)
  else void otherwise()
}
