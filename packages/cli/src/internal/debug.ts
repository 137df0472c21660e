import * as Plan from "@agent-hooks/core/Plan"
import type * as Outcome from "@agent-hooks/core/Outcome"
import * as Effect from "effect/Effect"
import * as LogLevel from "effect/LogLevel"
import * as References from "effect/References"

/**
 * What the global `--log-level` flag (effect/cli's, which sets the minimum log level) asks of a
 * command: `debug` (or `trace`, `all`) adds what was loaded, what each hook of the event did or why
 * it was skipped, and each hook's result; `error` (or `fatal`, `none`) is `--quiet`: no settings
 * warnings. The lines about hooks that failed or could not run print at every level. All on
 * stderr: stdout and the exit status never change with the level.
 *
 * @internal
 */
export const verbosity: Effect.Effect<{ readonly debug: boolean; readonly quiet: boolean }> = Effect.map(
  Effect.service(References.MinimumLogLevel),
  (level) => ({ debug: LogLevel.isLessThanOrEqualTo(level, "Debug"), quiet: LogLevel.isGreaterThanOrEqualTo(level, "Error") })
)

const line = (text: string): void => {
  process.stderr.write(`agent-hooks: debug: ${text}\n`)
}

/** What was loaded: each settings file in precedence order, then the hooks per event and the policy that is on. @internal */
export const loaded = (plan: Plan.Plan): void => {
  const files = plan.settings.files
  if (files.length === 0) line("settings: no file looked at")
  for (const file of files) {
    line(
      `settings ${file.path} (${file.scope}): ${file.heldBack === true ? "held back, not approved (agent-hooks trust)" : file.found ? "read" : "not found"}`
    )
  }
  const counts = [...plan.events.values()]
    .filter((planned) => planned.hooks.length > 0)
    .map((planned) => `${planned.spec.name} ${planned.hooks.length}`)
  line(`hooks: ${counts.length === 0 ? "none" : counts.join(", ")}`)
  const policy = Plan.toJSON(plan).policy
  const on = [
    policy.disableAllHooks ? "disableAllHooks" : undefined,
    policy.allowManagedHooksOnly ? "allowManagedHooksOnly" : undefined,
    policy.strict ? "strict" : undefined,
    policy.failClosed ? "failClosed" : undefined,
    policy.sequential ? "sequential" : undefined,
    policy.allowedCommands !== null ? `allowedCommands (${policy.allowedCommands.length})` : undefined,
    policy.allowedHttpHookUrls !== null ? `allowedHttpHookUrls (${policy.allowedHttpHookUrls.length})` : undefined,
    policy.executionLog !== null ? `executionLog ${policy.executionLog}` : undefined
  ].filter((item) => item !== undefined)
  if (on.length > 0) line(`policy: ${on.join(", ")}`)
}

/** For one event and payload: every hook of the event, whether it runs and why. @internal */
export const matched = (plan: Plan.Plan, event: string, payload: unknown): void => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return
  const hooks = Plan.explain(plan, event, payload as Readonly<Record<string, unknown>>)
  if (hooks.length === 0) line(`${event}: no hooks for this event`)
  for (const hook of hooks) {
    line(`${event}: ${hook.runs ? "runs" : "skipped"} ${JSON.stringify(hook.command)} (${hook.source} at ${hook.path}): ${hook.why}`)
  }
}

/** Each hook's result: status, exit, duration, decision. @internal */
export const results = (outcome: Outcome.Outcome): void => {
  for (const hook of outcome.hooks) {
    const exit = hook.timedOut
      ? "timed out"
      : hook.signal !== null
        ? `killed by ${hook.signal}`
        : hook.exitCode === null
          ? "did not run"
          : `exit ${hook.exitCode}`
    line(
      `result ${JSON.stringify(hook.command)}: ${hook.status}, ${exit}, ${Math.round(hook.durationMs)} ms${hook.decision === null ? "" : `, decision ${hook.decision}`}`
    )
  }
  line(`outcome: ${outcome.blocked ? "blocked" : "not blocked"}${outcome.decision === null ? "" : `, decision ${outcome.decision}`}`)
}
