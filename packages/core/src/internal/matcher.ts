import type { Matcher } from "../Matcher.ts"

const EXACT = /^[A-Za-z0-9_\-,| ]+$/
const EXACT_NARROW = /^[A-Za-z0-9_|]+$/
const NARROW_EVENTS = new Set(["FileChanged", "StopFailure"])

/** `Task` was renamed `Agent`; a matcher naming either matches both. */
const aliases = (value: string): ReadonlyArray<string> =>
  value === "Task" ? ["Task", "Agent"] : value === "Agent" ? ["Agent", "Task"] : [value]

const all: Matcher = { source: undefined, kind: "all", test: () => true }

/** @internal */
export const compile = (
  source: string | undefined,
  event?: string
): { readonly matcher: Matcher; readonly warning: string | undefined } => {
  if (source === undefined || source === "" || source === "*") {
    return { matcher: source === undefined ? all : { ...all, source }, warning: undefined }
  }
  const narrow = event !== undefined && NARROW_EVENTS.has(event)
  if ((narrow ? EXACT_NARROW : EXACT).test(source)) {
    const names = new Set(
      source
        .split(narrow ? /\|/ : /[|,]/)
        .map((part) => part.trim())
        .filter((part) => part !== "")
    )
    return {
      matcher: {
        source,
        kind: "exact",
        test: (value) => value !== undefined && aliases(value).some((name) => names.has(name))
      },
      warning: undefined
    }
  }
  let regex: RegExp
  try {
    regex = new RegExp(source)
  } catch (error) {
    return {
      matcher: { source, kind: "invalid", test: () => false },
      warning: `matcher ${JSON.stringify(source)} is not a valid regular expression (${
        error instanceof Error ? error.message : String(error)
      }); its hooks will never run`
    }
  }
  return {
    matcher: {
      source,
      kind: "regex",
      test: (value) => value !== undefined && aliases(value).some((name) => regex.test(name))
    },
    warning: undefined
  }
}
