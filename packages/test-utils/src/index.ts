/**
 * @agent-hooks/test-utils: test helpers of agent-hooks (private).
 *
 * @since 0.1.0
 */
export * as Fixtures from "./Fixtures.ts"
export * as ProcessSpawnerSuite from "./ProcessSpawnerSuite.ts"
export * as Processes from "./Processes.ts"
export * as ScriptedProcessSpawner from "./ScriptedProcessSpawner.ts"
