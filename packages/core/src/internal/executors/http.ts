/** The `http` executor: the input JSON POSTed to the hook's URL, within the URL and env-var allowlists. */
import type * as Effect from "effect/Effect"
import type { FetchLike } from "../../Capabilities.ts"
import type { HttpHandler } from "../../SettingsModel.ts"
import * as Opa from "../opa.ts"
import { compile } from "../urlAllowlist.ts"
import type { ExecContext, Executed } from "./context.ts"
import { inProcess, notRun } from "./context.ts"

/** What an `http` hook may use. @internal */
export interface HttpCapabilities {
  readonly fetch: FetchLike | undefined
  readonly allowedHttpHookUrls: ReadonlyArray<string> | undefined
  /** The outer limit on env vars that http headers may use (`httpHookAllowedEnvVars`). */
  readonly httpHookAllowedEnvVars: ReadonlyArray<string> | undefined
}

/** @internal */
export const http = (handler: HttpHandler, ctx: ExecContext, caps: HttpCapabilities): Effect.Effect<Executed> => {
  const verdict = caps.allowedHttpHookUrls === undefined ? undefined : compile(caps.allowedHttpHookUrls).check(handler.url)
  if (verdict?._tag === "Refused") return notRun(verdict.reason)
  const fetchImpl = caps.fetch
  if (fetchImpl === undefined) return notRun("no fetch available for http hooks")
  const outer = caps.httpHookAllowedEnvVars
  const allowed = new Set((handler.allowedEnvVars ?? []).filter((name) => outer === undefined || outer.includes(name)))
  const headers: Record<string, string> = { "content-type": "application/json" }
  for (const [name, value] of Object.entries(handler.headers ?? {})) {
    headers[name] = value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_, braced: string | undefined, bare: string | undefined) => {
        const key = braced ?? bare ?? ""
        return allowed.has(key) ? (ctx.env[key] ?? "") : ""
      }
    )
  }
  // The hook's trace context goes with the request (W3C Trace Context), unless the hook sets its own.
  const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name)
  if (ctx.env["TRACEPARENT"] !== undefined && !has("traceparent")) {
    headers["traceparent"] = ctx.env["TRACEPARENT"]
    if (ctx.env["TRACESTATE"] !== undefined && !has("tracestate")) headers["tracestate"] = ctx.env["TRACESTATE"]
  }
  const opa = handler.api === "opa"
  // OPA's Data API takes the document to decide on under "input".
  const requestBody = opa ? `{"input":${ctx.stdin}}` : ctx.stdin
  return inProcess(ctx.timeout, async (signal) => {
    const response = await fetchImpl(handler.url, { method: "POST", headers, body: requestBody, signal })
    const body = await response.text()
    if (response.status < 200 || response.status > 299) return { exitCode: 1, stderr: `HTTP ${response.status} from ${handler.url}` }
    if (opa) return Opa.decide(handler.url, body, handler.onUndefined ?? "block")
    if (body.trim() === "") return { exitCode: 0 }
    if (body.trimStart().startsWith("{")) return { exitCode: 0, stdout: body }
    return { exitCode: 1, stderr: `HTTP ${response.status} from ${handler.url} with a body that is not a JSON object` }
  })
}
