/**
 * @agent-hooks/core: the runtime-free Effect core of agent-hooks.
 *
 * @since 0.1.0
 */
export * as Audit from "./Audit.ts"
export * as HookEngine from "./HookEngine.ts"
export * as HookError from "./HookError.ts"
export * as HookEvent from "./HookEvent.ts"
export * as HookInput from "./HookInput.ts"
export * as HookOutput from "./HookOutput.ts"
export * as HookRunner from "./HookRunner.ts"
export * as Matcher from "./Matcher.ts"
export * as Outcome from "./Outcome.ts"
export * as ProcessSpawner from "./ProcessSpawner.ts"
export * as Settings from "./Settings.ts"
export * as SettingsSchema from "./SettingsSchema.ts"
export * as Telemetry from "./Telemetry.ts"
export * as Trust from "./Trust.ts"
export * as Plan from "./Plan.ts"
export * as PromiseEngine from "./PromiseEngine.ts"
export * as StopGuard from "./StopGuard.ts"
export * as Presets from "./Presets.ts"
export * as HostMode from "./HostMode.ts"
export * as Agents from "./Agents.ts"
