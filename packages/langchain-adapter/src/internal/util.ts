/**
 * `f()`, computed the first time it is asked for. Asked for again while `f` runs (it depends on
 * itself), it throws at once, naming the cycle, instead of recursing until the stack overflows.
 */
export const once = <A>(f: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  let computing = false
  return () => {
    if (value !== undefined) return value.a
    if (computing) throw new Error("agent-hooks: a value of the LangChain adapter depends on itself (a bug: please report it)")
    computing = true
    try {
      value = { a: f() }
    } finally {
      computing = false
    }
    return value.a
  }
}

/** A map that forgets its oldest entries beyond `cap`. */
export const remember = <V>(map: Map<string, V>, key: string, value: V, cap = 1000) => {
  map.delete(key)
  map.set(key, value)
  if (map.size > cap) map.delete(map.keys().next().value!)
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The message of a thrown value (an `Error`'s message, else the value as text). */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))
