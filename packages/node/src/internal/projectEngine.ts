import type * as PromiseEngine from "@agent-hooks/core/PromiseEngine"
import { resolve } from "node:path"
import { createHookEngine } from "./hookEngine.ts"
import type { ProjectEngineOptions } from "../ProjectEngine.ts"

const engines = new Map<string, Promise<PromiseEngine.PromiseHookEngine>>()

// Functions (onWarning, a fetch, ...) are part of the key by identity.
const ids = new WeakMap<object, number>()
let next = 0
const idOf = (value: object): number => {
  let id = ids.get(value)
  if (id === undefined) {
    id = ++next
    ids.set(value, id)
  }
  return id
}

const keyOf = (options: ProjectEngineOptions, projectDir: string): string =>
  JSON.stringify({ ...options, projectDir }, (_key, value: unknown) => {
    if (typeof value === "function" || (typeof value === "object" && value !== null && !Array.isArray(value) && isOpaque(value)))
      return `#${idOf(value as object)}`
    return value
  })

/** Objects that are not plain data (a Preset value, a Plan, an env proxy): compared by identity. */
const isOpaque = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value)
  return proto !== Object.prototype && proto !== null
}

/** Engines made per project folder: past `CROWD`, once, a warning (options made anew on every call). */
const madeFor = new Map<string, number>()
const CROWD = 16

/** @internal */
export const projectEngine = (options: ProjectEngineOptions = {}): Promise<PromiseEngine.PromiseHookEngine> => {
  const projectDir = resolve(options.cwd ?? process.cwd(), options.projectDir ?? ".")
  const key = keyOf(options, projectDir)
  const known = engines.get(key)
  if (known !== undefined) return known
  const count = (madeFor.get(projectDir) ?? 0) + 1
  madeFor.set(projectDir, count)
  if (count === CROWD + 1) {
    // Functions are compared by identity: an `onWarning` written inline makes a new engine per call.
    ;(options.onWarning ?? console.warn)(
      `agent-hooks: projectEngine has made ${count} engines for ${projectDir} in this process: options with a new function or object on every call (an inline onWarning, a new Preset) make a new engine each time; define them once, or pass one engine (the adapters' \`engine\` option)`
    )
  }
  const made = createHookEngine({ blockUnjudged: true, ...options, projectDir }).then(
    (engine) => {
      const close = () => {
        if (engines.get(key) === made) engines.delete(key)
        return engine.close()
      }
      // Closed by one holder: closed for all, and forgotten (the next call creates a new engine).
      // A proxy, not a copy: the engine's settings are getters (hot reload changes them).
      return new Proxy(engine, { get: (target, name) => (name === "close" ? close : Reflect.get(target, name, target)) })
    },
    (error: unknown) => {
      // A failed creation is not kept: the next call tries again.
      if (engines.get(key) === made) engines.delete(key)
      throw error
    }
  )
  engines.set(key, made)
  return made
}

/** @internal */
export const closeAll = async (): Promise<void> => {
  const all = [...engines.values()]
  engines.clear()
  await Promise.all(all.map((made) => made.then((engine) => engine.close()).catch(() => undefined)))
}
