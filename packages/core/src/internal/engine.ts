import { Duration, Effect, FileSystem, Layer, Path } from "effect"
import type { EngineOptions } from "../HookEngine.ts"
import { HookEngine } from "../HookEngine.ts"
import type { HookError } from "../HookError.ts"
import { PayloadError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as HookInput from "../HookInput.ts"
import * as HookOutput from "../HookOutput.ts"
import * as HookRunner from "../HookRunner.ts"
import * as Outcome from "../Outcome.ts"
import { ProcessSpawner } from "../ProcessSpawner.ts"
import type { CommandHandler, HookEntry, LoadedSettings } from "../Settings.ts"
import * as Settings from "../Settings.ts"

/** Each of stdout and stderr is kept up to this many bytes; the rest is dropped and noted. */
const MAX_OUTPUT_BYTES = 1024 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isCommand = (entry: HookEntry): entry is HookEntry & { readonly handler: CommandHandler } => entry.handler.type === "command"

const displayCommand = (handler: CommandHandler): string =>
  handler.args === undefined ? handler.command : [handler.command, ...handler.args].join(" ")

const dedupKey = (handler: CommandHandler): string => JSON.stringify([handler.type, handler.command, handler.args ?? null])

/** The value a matcher is tested against, or `undefined` when every group runs. */
const matchValue = (spec: HookEvent.HookEventSpec, payload: Readonly<Record<string, unknown>>, path: Path.Path): string | undefined => {
  if (spec.matcherField === undefined) return undefined
  const value = payload[spec.matcherField]
  if (value === undefined || value === null || value === "") return undefined
  const text = typeof value === "string" ? value : String(value)
  return spec.name === "FileChanged" ? path.basename(text) : text
}

/** Matching entries in merge order; a handler identical to one from another settings file runs once. */
const select = (
  entries: ReadonlyArray<HookEntry>,
  value: string | undefined
): ReadonlyArray<HookEntry & { readonly handler: CommandHandler }> => {
  const seen = new Map<string, string>()
  const selected: Array<HookEntry & { readonly handler: CommandHandler }> = []
  for (const entry of entries) {
    if (!isCommand(entry)) continue
    if (value !== undefined && !entry.matcher.test(value)) continue
    const key = dedupKey(entry.handler)
    const firstSource = seen.get(key)
    if (firstSource !== undefined && firstSource !== entry.source) continue
    if (firstSource === undefined) seen.set(key, entry.source)
    selected.push(entry)
  }
  return selected
}

const cleanEnv = (env: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}

/** @internal */
export const make = (
  options: EngineOptions
): Effect.Effect<HookEngine["Service"], HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const path = yield* Path.Path
    const spawner = yield* ProcessSpawner
    const env = options.env ?? {}
    const cwd = path.resolve(options.cwd ?? options.projectDir ?? ".")
    const projectDir = path.resolve(cwd, options.projectDir ?? ".")
    const settings: LoadedSettings = yield* Settings.load({ settings: options.settings, projectDir, cwd, env })
    if (options.onWarning !== undefined) for (const warning of settings.warnings) options.onWarning(warning)
    const sessionId = HookInput.makeSessionId()
    const baseEnv = { ...cleanEnv(env), AGENT_HOOKS_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir }

    const dispatch = (event: string, payload: unknown) =>
      Effect.gen(function*() {
        if (!isRecord(payload)) {
          return yield* new PayloadError({
            detail: `expected a JSON object, got ${payload === null ? "null" : Array.isArray(payload) ? "an array" : typeof payload}`
          })
        }
        const known = HookEvent.get(event)
        const spec: HookEvent.HookEventSpec = known ??
          { name: event, matcherField: undefined, blocking: "none", plainStdoutToContext: false, defaultTimeout: 600 }
        const warnings: Array<string> = []
        if (known === undefined) {
          const suggestion = HookEvent.suggest(event)
          warnings.push(`unknown event "${event}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; no hooks run for it`)
        }
        const entries = settings.disableAllHooks ? [] : select(settings.hooks[event] ?? [], matchValue(spec, payload, path))
        const input = HookInput.build(event, payload, { sessionId, cwd: projectDir })
        const stdin = JSON.stringify(input)
        const hookCwd = typeof payload["cwd"] === "string" && payload["cwd"] !== "" ? path.resolve(projectDir, payload["cwd"]) : projectDir

        const hooks = yield* Effect.forEach(
          entries,
          (entry) =>
            Effect.gen(function*() {
              const handler = entry.handler
              const timeout = handler.timeout ?? spec.defaultTimeout
              const run = yield* HookRunner.run(
                {
                  file: handler.args === undefined ? "/bin/sh" : handler.command,
                  args: handler.args === undefined ? ["-c", handler.command] : handler.args,
                  cwd: hookCwd,
                  env: baseEnv,
                  stdin,
                  maxOutputBytes: MAX_OUTPUT_BYTES
                },
                Duration.millis(timeout * 1000)
              )
              const verdict = HookOutput.interpret(spec, { ...run, timeout })
              const messages = [...verdict.messages]
              if (run.stdoutTruncated) messages.push(`stdout was longer than ${MAX_OUTPUT_BYTES} bytes and was cut there`)
              if (run.stderrTruncated) messages.push(`stderr was longer than ${MAX_OUTPUT_BYTES} bytes and was cut there`)
              const result: Outcome.HookResult = {
                command: displayCommand(handler),
                exitCode: run.exitCode,
                signal: run.signal,
                timedOut: run.timedOut,
                durationMs: run.durationMs,
                stdout: run.stdout,
                stderr: run.stderr,
                status: verdict.status,
                source: entry.source,
                decision: verdict.decision,
                messages
              }
              return { result, verdict }
            }),
          { concurrency: "unbounded" }
        )
        for (const { result } of hooks) {
          for (const message of result.messages) warnings.push(`hook ${JSON.stringify(result.command)} (${result.source}): ${message}`)
        }
        return Outcome.aggregate(spec, hooks, warnings)
      }).pipe(Effect.provideService(ProcessSpawner, spawner))

    return HookEngine.of({ settings, dispatch })
  })

/** @internal */
export const layer = (
  options: EngineOptions
): Layer.Layer<HookEngine, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path> => Layer.effect(HookEngine, make(options))
