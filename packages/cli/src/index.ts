/**
 * @agent-hooks/cli: the `agent-hooks` command line (`run`, `validate`, `list`).
 *
 * @since 0.1.0
 */
export * as Binary from "./Binary.ts"
export * as Cli from "./Cli.ts"
export * as ExitCode from "./ExitCode.ts"
