/** `f()`, computed the first time it is asked for. */
export const once = <A>(f: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  return () => (value ??= { a: f() }).a
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
