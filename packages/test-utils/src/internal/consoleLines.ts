/** @internal */
export const warned = async <A>(f: () => Promise<A>): Promise<{ readonly result: A; readonly lines: ReadonlyArray<string> }> => {
  const lines: Array<string> = []
  const original = console.warn
  console.warn = (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
  try {
    return { result: await f(), lines }
  } finally {
    console.warn = original
  }
}
