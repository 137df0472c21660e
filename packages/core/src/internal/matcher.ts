import { RE2JS } from "re2js"
import type { Compiled, Matcher, Origin } from "../Matcher.ts"

/** @internal */
export const originOf = (scope: string): Origin =>
  scope === "user" || scope === "managed" || scope === "explicit" || scope === "options" ? "trusted" : "untrusted"

const EXACT = /^[A-Za-z0-9_\-,| ]+$/
const EXACT_NARROW = /^[A-Za-z0-9_|]+$/
const NARROW_EVENTS = new Set(["FileChanged", "StopFailure"])

/** `Task` was renamed `Agent`; a matcher naming either matches both. */
const aliases = (value: string): ReadonlyArray<string> =>
  value === "Task" ? ["Task", "Agent"] : value === "Agent" ? ["Agent", "Task"] : [value]

const all: Matcher = { source: undefined, kind: "all", test: () => true }

/** @internal */
export const compile = (source: string | undefined, event?: string, origin: Origin = "untrusted"): Compiled => {
  if (source === undefined || source === "" || source === "*") {
    return { matcher: source === undefined ? all : { ...all, source }, warning: undefined, error: undefined }
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
      warning: undefined,
      error: undefined
    }
  }
  // Linear time on RE2: a matcher from a file that may come from a cloned repository cannot hang
  // a dispatch. Only the user's own files (user, managed, --settings) may fall back to RegExp.
  let test: (name: string) => boolean
  try {
    const re2 = RE2JS.compile(source)
    test = (name) => re2.test(name)
  } catch (re2Error) {
    const why = re2Error instanceof Error ? re2Error.message : String(re2Error)
    let regex: RegExp | undefined
    try {
      regex = new RegExp(source)
    } catch (error) {
      return {
        matcher: { source, kind: "invalid", test: () => false },
        warning: `matcher ${JSON.stringify(source)} is not a valid regular expression (${
          error instanceof Error ? error.message : String(error)
        }); its hooks will never run`,
        error: undefined
      }
    }
    if (origin === "untrusted") {
      return {
        matcher: { source, kind: "invalid", test: () => false },
        warning: undefined,
        error:
          `matcher ${JSON.stringify(source)} needs a backtracking regular expression (${why}), which ` +
          `a project, local or plugin file may not use: it could make every dispatch hang; rewrite ` +
          `it without lookaround or backreferences (for example a list "Write|Edit")`
      }
    }
    const js = regex
    test = (name) => js.test(name)
  }
  return {
    matcher: {
      source,
      kind: "regex",
      test: (value) => value !== undefined && aliases(value).some(test)
    },
    warning: undefined,
    error: undefined
  }
}
