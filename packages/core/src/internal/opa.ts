/**
 * OPA's Data API as a hook: `POST /v1/data/<path>` with `{"input": <hook input>}` answers
 * `{"result": <value>}`, and the value is read as a decision. Accepted result shapes:
 * - a boolean (`allow`): `true` is no objection, `false` blocks;
 * - an array (a Rego `deny` set of reasons): empty is no objection, otherwise it blocks with the reasons;
 * - a decision object `{"allow"?: boolean, "deny"?: [...], "reason"?: string}`: any deny reason or
 *   `allow: false` blocks; `allow: true` with no deny reason is no objection.
 * An undefined result (no `result` key: no rule of the path applied) is never an allow: it blocks,
 * or with `onUndefined: "fail"` is a failed hook. Any other shape is a failed hook naming what came.
 */
import type { InProcessResult } from "./executors/context.ts"

const reasonText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value))

const block = (reason: string): InProcessResult => ({ exitCode: 2, stderr: reason })
const fail = (url: string, what: string): InProcessResult => ({
  exitCode: 1,
  stderr:
    `OPA at ${url}: ${what}; expected {"result": true|false}, {"result": [deny reasons]} or ` +
    `{"result": {"allow"?: boolean, "deny"?: [...], "reason"?: string}}`
})

const shapeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`

/** Reads one Data API response body as the hook's result. @internal */
export const decide = (url: string, body: string, onUndefined: "block" | "fail"): InProcessResult => {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return fail(url, "the response is not JSON")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return fail(url, `the response is ${shapeOf(parsed)}, not an object`)
  if (!Object.hasOwn(parsed, "result")) {
    const what = `the result is undefined (no rule at this path applied to the input)`
    return onUndefined === "fail" ? fail(url, what) : block(`OPA at ${url}: ${what}; an undefined decision is never an allow`)
  }
  const result = (parsed as { result: unknown }).result
  if (result === true) return { exitCode: 0 }
  if (result === false) return block(`denied by the OPA policy at ${url}`)
  if (Array.isArray(result)) return result.length === 0 ? { exitCode: 0 } : block(result.map(reasonText).join("; "))
  if (typeof result !== "object" || result === null) return fail(url, `the result is ${shapeOf(result)}`)
  const decision = result as { allow?: unknown; deny?: unknown; reason?: unknown }
  if (decision.allow !== undefined && typeof decision.allow !== "boolean")
    return fail(url, `"allow" is ${shapeOf(decision.allow)}, not a boolean`)
  if (decision.deny !== undefined && !Array.isArray(decision.deny))
    return fail(url, `"deny" is ${shapeOf(decision.deny)}, not an array (a set of reasons)`)
  if (decision.allow === undefined && decision.deny === undefined) return fail(url, `the result object has neither "allow" nor "deny"`)
  const reasons = (decision.deny ?? []) as ReadonlyArray<unknown>
  if (reasons.length > 0) return block(reasons.map(reasonText).join("; "))
  if (decision.allow === false)
    return block(typeof decision.reason === "string" && decision.reason !== "" ? decision.reason : `denied by the OPA policy at ${url}`)
  return { exitCode: 0 }
}
