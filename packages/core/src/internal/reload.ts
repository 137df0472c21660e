import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FileSystem from "effect/FileSystem"
import * as Latch from "effect/Latch"
import * as Path from "effect/Path"
import * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import type * as Fiber from "effect/Fiber"
import type { EngineOptions, HookEngine, ReloadEvent } from "../HookEngine.ts"
import type { HookError, PayloadError } from "../HookError.ts"
import type { Outcome } from "../Outcome.ts"
import type { ProcessSpawner } from "../ProcessSpawner.ts"
import type { PlannedHook } from "../Plan.ts"
import * as Trust from "../Trust.ts"
import type { LoadedSettings, SettingsScope } from "../SettingsModel.ts"

type Engine = HookEngine["Service"]

/**
 * An engine on one plan, and its dispatch that takes what the engine has to say before it: the
 * reload's notices are the first of the outcome's warnings, assembled with the rest.
 *
 * @internal
 */
export interface Built {
  readonly engine: Engine
  readonly dispatch: (event: string, payload: unknown, notices: ReadonlyArray<string>) => Effect.Effect<Outcome, PayloadError>
}

interface Slot extends Built {
  readonly scope: Scope.Closeable
  inFlight: number
  retired: boolean
}

/** Claude Code's ConfigChange `source` for a settings file of this scope. */
const sourceOf = (scope: SettingsScope | undefined): string => {
  switch (scope) {
    case "managed":
      return "policy_settings"
    case "project":
      return "project_settings"
    case "local":
      return "local_settings"
    default:
      return "user_settings"
  }
}

/** One line for a reload: what was reloaded (and which hooks it took away), or why the old hooks stay. */
const noticeOf = (event: ReloadEvent): string => {
  const files = event.files.join(", ")
  if (event._tag !== "Reloaded") return `${event.message} (${files})`
  const dropped = event.dropped ?? []
  return dropped.length === 0
    ? `settings reloaded (${files})`
    : `settings reloaded (${files}): ${dropped.length} ` +
        `${dropped.length === 1 ? "hook" : "hooks"} no longer ` +
        `run${dropped.length === 1 ? "s" : ""}: ${dropped.join("; ")}`
}

/** A hook as a reload compares it: event, what it runs, its matcher, its file. */
const hookKey = (hook: PlannedHook): string =>
  JSON.stringify([hook.entry.event, hook.display, hook.entry.matcher.source ?? null, hook.entry.source, hook.entry.handler.if ?? null])

/** The hooks of the old plan that the new one does not have. */
const droppedHooks = (old: Engine, next: Engine): ReadonlyArray<string> => {
  const kept = new Set([...next.plan.events.values()].flatMap((planned) => planned.hooks.map(hookKey)))
  return [...old.plan.events.values()].flatMap((planned) =>
    planned.hooks
      .filter((hook) => hook.entry.source !== "(programmatic)" && !kept.has(hookKey(hook)))
      .map((hook) => `${hook.entry.event}: ${hook.display} (${hook.entry.source} at ${hook.entry.path})`)
  )
}

/** Under required trust: the project and local files read (approved) before that are now held back or gone. */
const approvedLost = (old: LoadedSettings, next: LoadedSettings): ReadonlyArray<string> => {
  if (next.trustRequired !== true) return []
  return old.files
    .filter((file) => (file.scope === "project" || file.scope === "local") && file.found && file.heldBack !== true)
    .filter((file) => {
      const now = next.files.find((other) => other.path === file.path)
      return now === undefined || now.heldBack === true || !now.found
    })
    .map((file) => file.path)
}

/** Changes that arrive within this window are one reload (editors write a file in several steps). */
const SETTLE = Duration.millis(150)

/**
 * An engine whose settings reload when their files change: a changed file is decoded and compiled
 * into a new engine; ConfigChange runs on the current one, and unless it blocks (a change to managed
 * policy cannot be blocked) the new engine takes over between dispatches. Dispatches in flight finish
 * on the engine they started on, which closes once they (and its async hooks) are done. A file that
 * fails to decode keeps the current engine and is reported.
 * @internal
 */
export const makeReloading = (
  options: EngineOptions,
  build: (options: EngineOptions) => Effect.Effect<Built, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path | Scope.Scope>
): Effect.Effect<Engine, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function* () {
    const outer = yield* Effect.scope
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    // What each reload did, for the Outcome of the next dispatch (a reload is never said on stderr only).
    let notices: Array<string> = []
    // The audit trail records it too, through the engine in force after it (the new one, or the
    // previous one when the reload failed or was blocked).
    const report = (event: ReloadEvent) =>
      Effect.andThen(
        Effect.sync(() => {
          options.onReload?.(event)
          const line = noticeOf(event)
          if (event._tag !== "Reloaded" || event.dropped !== undefined) options.onWarning?.(line)
          notices.push(line)
        }),
        Effect.suspend(() => current.engine.recordReload?.(event) ?? Effect.void)
      )

    const open = Effect.gen(function* () {
      const scope = yield* Scope.fork(outer)
      const built = yield* build(options).pipe(
        Scope.provide(scope),
        Effect.onError(() => Scope.close(scope, Exit.void))
      )
      return { ...built, scope, inFlight: 0, retired: false } satisfies Slot as Slot
    })
    let current: Slot = yield* open

    /** The old engine closes once its last dispatch and its async hooks are done. */
    const closeIfIdle = (slot: Slot) =>
      slot.retired && slot.inFlight === 0 ? Effect.andThen(slot.engine.awaitAsync, Scope.close(slot.scope, Exit.void)) : Effect.void

    /** A dispatch on the engine in force, which is kept open until the dispatch is done. */
    const onCurrent = (dispatchOn: (slot: Slot) => Effect.Effect<Outcome, PayloadError>) =>
      Effect.suspend(() => {
        const slot = current
        slot.inFlight += 1
        return dispatchOn(slot).pipe(
          Effect.ensuring(
            Effect.suspend(() => {
              slot.inFlight -= 1
              return closeIfIdle(slot)
            })
          )
        )
      })

    // The host's dispatch tells the reloads not yet told, in its outcome; a dispatch that fails (a
    // payload that is not an object) leaves them for the next one.
    const dispatch = (event: string, payload: unknown) =>
      onCurrent((slot) => {
        const said = notices
        notices = []
        return slot.dispatch(event, payload, said).pipe(Effect.onError(() => Effect.sync(() => void (notices = [...said, ...notices]))))
      })

    const scopeOf = (settings: LoadedSettings, file: string): SettingsScope | undefined =>
      settings.files.find((f) => f.path === file)?.scope

    const lock = yield* Semaphore.make(1)
    const reload = (changed: ReadonlyArray<string>) =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const old = current
          const candidate = yield* Effect.exit(open)
          if (Exit.isFailure(candidate)) {
            const error = candidate.cause.reasons.find((reason) => reason._tag === "Fail")
            const message =
              error !== undefined && error._tag === "Fail"
                ? (error.error as { readonly message: string }).message
                : "the settings could not be loaded"
            return yield* report({ _tag: "Failed", files: changed, message: `settings not reloaded, the previous hooks stay: ${message}` })
          }
          const next = candidate.value
          // Under required trust an approved project or local file that changed (or went away) keeps
          // its approved hooks: the previous hooks stay until the new version is approved.
          const unapproved = approvedLost(old.engine.settings, next.engine.settings)
          if (unapproved.length > 0) {
            yield* Scope.close(next.scope, Exit.void)
            return yield* report({
              _tag: "Failed",
              files: changed,
              message:
                `settings not reloaded, the previous hooks stay: ${unapproved.join(", ")} changed and ` +
                `${unapproved.length === 1 ? "is" : "are"} not approved; ` +
                `its approved hooks stay until the new version is approved (review it, then run: ` +
                `agent-hooks trust --project-dir ${next.engine.plan.projectDir})`
            })
          }
          // ConfigChange runs on the hooks in force; a block keeps them (except for managed policy).
          for (const file of changed) {
            const source = sourceOf(scopeOf(old.engine.settings, file) ?? scopeOf(next.engine.settings, file))
            // The reload's own ConfigChange: its outcome is read here, so it tells no earlier reload.
            const outcome = yield* Effect.exit(onCurrent((slot) => slot.dispatch("ConfigChange", { source, file_path: file }, [])))
            if (Exit.isSuccess(outcome) && outcome.value.blocked && source !== "policy_settings") {
              yield* Scope.close(next.scope, Exit.void)
              const why = outcome.value.reason === null ? "" : `: ${outcome.value.reason}`
              return yield* report({
                _tag: "Blocked",
                files: changed,
                message: `settings not reloaded: a ConfigChange hook blocked the change to ${file}${why}`
              })
            }
          }
          current = next
          old.retired = true
          yield* Effect.forkIn(closeIfIdle(old), outer)
          const dropped = droppedHooks(old.engine, next.engine)
          yield* report({
            _tag: "Reloaded",
            files: changed,
            warnings: next.engine.settings.warnings,
            ...(dropped.length === 0 ? {} : { dropped })
          })
        })
      )

    // Watch the folders of the settings files (a file may be replaced, not written in place).
    const watched = new Set(current.engine.settings.files.map((file) => file.path))
    // Under required trust an approval (the trust store written) is a change too: the approved version then loads.
    const store = current.engine.settings.trustRequired === true ? Trust.storePath(options.env ?? {}, path) : undefined
    if (store !== undefined) watched.add(path.resolve(store))
    const folders = [...new Set([...watched].map((file) => path.dirname(file)))]
    let pending = new Set<string>()
    let timer: Fiber.Fiber<void> | undefined
    const changedFile = (file: string) =>
      Effect.suspend(() => {
        pending.add(file)
        if (timer !== undefined) return Effect.void
        return Effect.forkIn(
          Effect.gen(function* () {
            yield* Effect.sleep(SETTLE)
            const files = [...pending]
            pending = new Set()
            timer = undefined
            // A reload that dies (a defect in a hook executor...) keeps the hooks in force and says so.
            yield* reload(files).pipe(
              Effect.catchCause((cause) =>
                report({ _tag: "Failed", files, message: `settings not reloaded, the previous hooks stay: ${Cause.pretty(cause)}` })
              )
            )
          }),
          outer
        ).pipe(
          Effect.tap((fiber) => Effect.sync(() => void (timer = fiber))),
          Effect.asVoid
        )
      })
    for (const folder of folders) {
      const ready = yield* Latch.make(false)
      yield* fs.watch(folder, { onReady: () => ready.openUnsafe() }).pipe(
        Stream.map((event) => path.resolve(folder, event.path)),
        Stream.filter((file) => watched.has(file)),
        Stream.runForEach(changedFile),
        // A folder that does not exist (yet) is not watched: a file created in it later is not seen.
        Effect.catch((error) =>
          Effect.sync(
            () => void (error.reason._tag === "NotFound" ? undefined : options.onWarning?.(`cannot watch ${folder}: ${error.message}`))
          )
        ),
        Effect.ensuring(ready.open),
        Effect.forkIn(outer)
      )
      yield* ready.await
    }

    const service: Engine = {
      get settings() {
        return current.engine.settings
      },
      get plan() {
        return current.engine.plan
      },
      get hookedEvents() {
        return current.engine.hookedEvents
      },
      dispatch,
      // Synchronous, on the plan in force: nothing runs, so nothing needs the old plan kept open.
      // (a reload not yet told to an Outcome goes through dispatch, which tells it)
      unmatched: (event, payload) => (notices.length > 0 ? undefined : current.engine.unmatched(event, payload)),
      takeAsyncResults: Effect.suspend(() => current.engine.takeAsyncResults),
      awaitAsync: Effect.suspend(() => current.engine.awaitAsync)
    }
    return service
  })
