/**
 * The in-process JavaScript executors: `module` (an export of a module file) and `callback` (a
 * function given to the engine in code). The returned value is the hook's output object; a thrown
 * error is exit 1.
 */
import * as Effect from "effect/Effect"
import type { AbortSignalLike } from "../../Capabilities.ts"
import type { ProcessRun } from "../../HookRunner.ts"
import type { CallbackHandler, ModuleHandler } from "../../SettingsModel.ts"
import type { ExecContext, Executed } from "./context.ts"
import { inProcess, message } from "./context.ts"

const modules = new Map<string, Promise<Record<string, unknown>>>()

const fileUrl = (path: string): string => `file://${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`

/** A module is imported once per path (a failed import is retried next time). */
const importModule = (path: string): Promise<Record<string, unknown>> => {
  let loaded = modules.get(path)
  if (loaded === undefined) {
    loaded = import(fileUrl(path)) as Promise<Record<string, unknown>>
    modules.set(path, loaded)
    loaded.catch(() => modules.delete(path))
  }
  return loaded
}

/** What a JavaScript hook's return value writes to "stdout". */
const stdoutOf = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value)

/** Each JavaScript hook gets its own copy of the input, so one cannot change what the next sees. */
const structuredCloneJson = (input: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(input)) as Record<string, unknown>

const callFunction = (fn: unknown, what: string, ctx: ExecContext, signal: AbortSignalLike): Promise<Partial<ProcessRun>> => {
  if (typeof fn !== "function") return Promise.resolve({ exitCode: 1, stderr: `${what} is not a function` })
  const returned = (fn as (input: unknown, context: unknown) => unknown)(structuredCloneJson(ctx.input), { signal })
  const value = Effect.isEffect(returned)
    ? Effect.runPromise(returned as Effect.Effect<unknown, unknown>, { signal: signal as never })
    : Promise.resolve(returned)
  return value.then((output) => ({ exitCode: 0, stdout: stdoutOf(output) }))
}

/** @internal */
export const module = (handler: ModuleHandler, ctx: ExecContext): Effect.Effect<Executed> =>
  inProcess(ctx.timeout, async (signal) => {
    const loaded = await importModule(handler.modulePath).catch((error: unknown) => {
      throw new Error(`cannot load ${handler.modulePath}: ${message(error)}`)
    })
    return callFunction(loaded[handler.export], `export "${handler.export}" of ${handler.modulePath}`, ctx, signal)
  })

/** @internal */
export const callback = (handler: CallbackHandler, ctx: ExecContext): Effect.Effect<Executed> =>
  inProcess(ctx.timeout, (signal) => callFunction(handler.callback, `callback ${handler.name}`, ctx, signal))
