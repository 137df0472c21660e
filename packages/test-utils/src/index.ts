/**
 * @agent-hooks/test-utils: test helpers of agent-hooks (private).
 *
 * @since 0.1.0
 */
export * as Cleanups from "./Cleanups.ts"
export * as DialectConfigs from "./DialectConfigs.ts"
export * as ConsoleLines from "./ConsoleLines.ts"
export * as Fixtures from "./Fixtures.ts"
export * as OpaServer from "./OpaServer.ts"
export * as OtlpReceiver from "./OtlpReceiver.ts"
export * as ProcessSpawnerSuite from "./ProcessSpawnerSuite.ts"
export * as CedarFilesSuite from "./CedarFilesSuite.ts"
export * as ConcurrencySuite from "./ConcurrencySuite.ts"
export * as Processes from "./Processes.ts"
export * as PropertyRuns from "./PropertyRuns.ts"
export * as ScriptedProcessSpawner from "./ScriptedProcessSpawner.ts"
