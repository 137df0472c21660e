/**
 * The engine: the plan compiled once (load → decode → compile), the state kept between
 * dispatches (once, Stop streaks, async hooks), and the service.
 */
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as Semaphore from "effect/Semaphore"
import type * as Scope from "effect/Scope"
import type { FetchLike } from "../Capabilities.ts"
import type { AsyncResult, EngineOptions, HookEngine } from "../HookEngine.ts"
import * as Audit from "../Audit.ts"
import type { HookError } from "../HookError.ts"
import { SettingsError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as HookInput from "../HookInput.ts"
import { ProcessSpawner } from "../ProcessSpawner.ts"
import * as StopGuard from "../StopGuard.ts"
import * as Telemetry from "../Telemetry.ts"
import * as Cedar from "./executors/cedar.ts"
import { dispatch, unmatched } from "./dispatch.ts"
import type { EngineState } from "./dispatch.ts"
import * as Plan from "./plan.ts"
import { makeReloading } from "./reload.ts"
import * as WarnOnce from "./warnOnce.ts"
import * as RegularFiles from "./regularFiles.ts"
import type { Built } from "./reload.ts"

/** @internal */
export const make = (
  options: EngineOptions
): Effect.Effect<HookEngine["Service"], HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  RegularFiles.within(
    // a reloading engine loads the files itself, on every change: a plan given once would stay forever
    options.watch === true
      ? makeReloading({ ...options, plan: undefined }, makeOnce)
      : Effect.map(makeOnce(options), (built) => built.engine)
  )

/** One engine on one plan, and its dispatch that starts the outcome's warnings with a reload's notices. */
const makeOnce = (
  options: EngineOptions
): Effect.Effect<Built, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function* () {
    const plan = options.plan ?? (yield* Plan.make(options))
    // The settings' warnings: each once per process to this onWarning (an engine built again on the same settings says only what is new).
    const onWarning = options.onWarning
    if (onWarning !== undefined) for (const warning of plan.settings.warnings) if (WarnOnce.sayOnce(onWarning, warning)) onWarning(warning)
    const fs = yield* FileSystem.FileSystem
    // A plugin's persistent data folder is created when the engine starts.
    for (const dir of plan.pluginDataDirs) {
      yield* fs
        .makeDirectory(dir, { recursive: true })
        .pipe(Effect.catch((error) => Effect.sync(() => options.onWarning?.(`cannot create the data folder ${dir}: ${error.message}`))))
    }
    // The audit trail is fail-closed: an engine that cannot open its audit log does not start.
    const auditFile = options.auditLog ?? plan.settings.auditLog
    // The copy for a collector (AGENT_HOOKS_AUDIT_OTLP or the option); a setting it cannot use is said, the local log is written anyway.
    const auditOtlp = auditFile === undefined ? undefined : Audit.otlpOptionsFrom(plan.env, options.auditOptions?.otlp)
    if (auditOtlp !== undefined && "problem" in auditOtlp) options.onWarning?.(auditOtlp.problem)
    const audit =
      auditFile === undefined
        ? undefined
        : yield* Audit.makeWriter({
            ...options.auditOptions,
            otlp:
              auditOtlp === undefined || "problem" in auditOtlp
                ? undefined
                : { onWarning: options.onWarning, fetch: options.fetch, ...auditOtlp },
            file: auditFile,
            key: options.auditKey ?? plan.env["AGENT_HOOKS_AUDIT_KEY"],
            // The settings' patterns (any file may add one; none can take one away) and the host's.
            redact: [...(plan.settings.auditRedact ?? []), ...(options.auditOptions?.redact ?? [])]
          }).pipe(Effect.mapError((error) => new SettingsError({ file: auditFile, path: ["auditLog"], detail: error.detail })))
    const telemetry = yield* Telemetry.make(options.env ?? {}, options.telemetry)
    // Cedar policies are parsed and validated against their schema when the engine loads, so that a
    // broken policy file is said now; the wasm module loads only when a cedar hook is configured,
    // and, for a one-shot host (preloadCedar: false), only when the event runs one.
    if (options.cedar !== undefined && options.preloadCedar !== false) {
      const cedar = options.cedar
      for (const problem of yield* Effect.promise(() => Cedar.checkPlan(plan, cedar))) options.onWarning?.(problem)
    }
    const state: EngineState = {
      plan,
      options,
      caps: {
        // The runtime's global fetch takes a full AbortSignal; the engine passes the real one.
        fetch: options.fetch ?? (globalThis as unknown as { readonly fetch?: FetchLike }).fetch,
        allowedHttpHookUrls: plan.settings.allowedHttpHookUrls,
        httpHookAllowedEnvVars: plan.settings.httpHookAllowedEnvVars,
        model: options.model,
        mcp: options.mcp,
        cedar: options.cedar
      },
      sessionId: HookInput.makeSessionId(),
      ran: new Set(),
      stopGuard: StopGuard.make(plan.stopBlockCap),
      asyncFibers: yield* FiberSet.make<void, never>(),
      asyncPool: yield* Semaphore.make(Math.max(1, options.asyncConcurrency ?? 4)),
      asyncResults: [],
      asyncResultsDropped: 0,
      spawner: yield* ProcessSpawner,
      fs,
      path: yield* Path.Path,
      overflowCount: 0,
      audit,
      telemetry
    }
    const service: HookEngine["Service"] = {
      settings: plan.settings,
      plan,
      // With the audit trail on, every event is recorded: a host that skips the events nobody hooks
      // (the LangChain adapter) must dispatch them all.
      hookedEvents:
        audit === undefined
          ? plan.hookedEvents
          : new Set([...HookEvent.catalog.map((spec) => spec.name), ...plan.declared.keys(), ...plan.events.keys()]),
      dispatch: (event, payload) => dispatch(state, event, payload),
      unmatched: (event, payload) => unmatched(state, event, payload),
      takeAsyncResults: Effect.sync(() => state.asyncResults.splice(0) as ReadonlyArray<AsyncResult>),
      awaitAsync: FiberSet.awaitEmpty(state.asyncFibers),
      recordReload: (event) =>
        audit === undefined
          ? Effect.void
          : audit
              .reload({
                result: event._tag,
                files: event.files,
                dropped: event._tag === "Reloaded" ? (event.dropped ?? []) : [],
                message: event._tag === "Reloaded" ? null : event.message
              })
              .pipe(Effect.catch((error) => Effect.sync(() => options.onWarning?.(`audit record not written: ${error.message}`))))
    }
    return { engine: service, dispatch: (event, payload, notices) => dispatch(state, event, payload, notices) } satisfies Built
  })
