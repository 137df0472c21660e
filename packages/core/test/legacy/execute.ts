// @ts-nocheck
// The engine as it was before the Plan (main at a746127), kept only for the property test that compares the two.
/**
 * One executor per handler type. Each turns a handler and the hook input into a `ProcessRun`
 * (exit code, stdout, stderr), so that every type goes through the same interpretation as a
 * command hook: a module's returned object is its stdout JSON, a thrown error is exit 1, an
 * HTTP 2xx JSON body is stdout, a model's `{"ok": false}` becomes the event's block JSON.
 */
import { Clock, Duration, Effect, Option } from "effect"
import type { AbortSignalLike, EngineOptions } from "../../src/HookEngine.ts"
import type { HookEventSpec } from "../../src/HookEvent.ts"
import * as HookRunner from "../../src/HookRunner.ts"
import { makeRun } from "../../src/internal/runner.ts"
import type { ProcessRun } from "../../src/HookRunner.ts"
import type { ProcessSpawner } from "../../src/ProcessSpawner.ts"
import type { CallbackHandler, CommandHandler, Handler, HookEntry, HttpHandler, McpToolHandler, ModuleHandler, PromptHandler } from "../../src/Settings.ts"
import * as Placeholder from "../../src/Placeholder.ts"

/** Each of stdout and stderr is kept up to this many bytes; the rest is dropped and noted. */
export const MAX_OUTPUT_BYTES = 1024 * 1024

/** @internal */
export interface ExecContext {
  readonly spec: HookEventSpec
  readonly entry: HookEntry
  readonly input: Record<string, unknown>
  readonly stdin: string
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  /** Seconds. */
  readonly timeout: number
  readonly options: EngineOptions
  readonly allowedHttpHookUrls: ReadonlyArray<string> | undefined
  /** The outer limit on env vars that http headers may use (`httpHookAllowedEnvVars`). */
  readonly httpHookAllowedEnvVars: ReadonlyArray<string> | undefined
}


const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Default timeout of a handler type on an event, in seconds. */
export const defaultTimeout = (handler: Handler, spec: HookEventSpec): number =>
  handler.type === "prompt" ? 30 : handler.type === "agent" ? 60 : spec.defaultTimeout

/** How results and messages name a handler. */
export const display = (handler: Handler): string => {
  switch (handler.type) {
    case "command":
      return handler.args === undefined ? handler.command : [handler.command, ...handler.args].join(" ")
    case "http":
      return `POST ${handler.url}`
    case "prompt":
    case "agent":
      return `${handler.type}: ${handler.prompt.length > 60 ? `${handler.prompt.slice(0, 57)}...` : handler.prompt}`
    case "mcp_tool":
      return `mcp_tool ${handler.server}/${handler.tool}`
    case "module":
      return `module ${handler.module}#${handler.export}`
    case "callback":
      return `callback ${handler.name}`
  }
}

/**
 * Runs an in-process, Promise-based handler under the timeout. The AbortSignal is aborted when
 * the timeout elapses; the result is then `timedOut` whatever the Promise does afterwards.
 */
const inProcess = (
  timeout: number,
  f: (signal: AbortSignalLike) => Promise<Partial<ProcessRun>>
): Effect.Effect<ProcessRun> =>
  Effect.gen(function*() {
    const start = yield* Clock.currentTimeMillis
    const outcome = yield* Effect.tryPromise({ try: (signal) => f(signal), catch: (error) => error }).pipe(
      Effect.map((over): Partial<ProcessRun> => over),
      Effect.catch((error) => Effect.succeed<Partial<ProcessRun>>({ exitCode: 1, stderr: message(error) })),
      Effect.timeoutOption(Duration.millis(timeout * 1000))
    )
    const durationMs = Math.round(((yield* Clock.currentTimeMillis) - start) * 10) / 10
    return Option.match(outcome, {
      onNone: () => makeRun({ exitCode: null, timedOut: true, durationMs }),
      onSome: (over) => makeRun({ ...over, durationMs })
    })
  })

/** What a JavaScript hook's return value writes to "stdout". */
const stdoutOf = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value)

// --- command ---------------------------------------------------------------------------------

const placeholderValues = (ctx: ExecContext): Placeholder.Values => ({ env: ctx.env, input: ctx.input })

const POWERSHELL_PLACEHOLDERS = /\$\{(CLAUDE_PROJECT_DIR|AGENT_HOOKS_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g

/**
 * A handler's own `env`, placeholders substituted verbatim. Each substituted value is capped at
 * 10 000 characters, so no payload can make the spawn fail with E2BIG (Linux refuses a single
 * environment string over 128 KiB).
 */
export const MAX_ENV_VALUE_CHARS = 10_000

const handlerEnv = (handler: CommandHandler, ctx: ExecContext): Readonly<Record<string, string>> => {
  if (handler.env === undefined) return ctx.env
  const values = placeholderValues(ctx)
  const env: Record<string, string> = { ...ctx.env }
  for (const [name, template] of Object.entries(handler.env)) {
    // No shell reads an env value: a lowercase input field the payload lacks is empty, not `${field}`.
    const value = Placeholder.expandText(
      template.replace(/\$\{([a-z_][a-z0-9_]*)\}/g, (match, field: string) => (Object.hasOwn(ctx.input, field) ? match : "")),
      values
    )
    env[name] = value === template || value.length <= MAX_ENV_VALUE_CHARS ? value : value.slice(0, MAX_ENV_VALUE_CHARS)
  }
  return env
}

const command = (handler: CommandHandler, ctx: ExecContext): Effect.Effect<ProcessRun, never, ProcessSpawner> => {
  const values = placeholderValues(ctx)
  const [file, args] = handler.args !== undefined
    ? [Placeholder.expandText(handler.command, values), Placeholder.expandArgs(handler.args, values)] as const
    : handler.shell === "powershell"
    // PowerShell: the well-known placeholders become environment reads, as Claude Code rewrites them.
    ? ["pwsh", ["-NoProfile", "-NonInteractive", "-Command", handler.command.replace(POWERSHELL_PLACEHOLDERS, "$${env:$1}")]] as const
    : handler.shell === "bash"
    // --norc: bash reads ~/.bashrc when stdin is a socket (as spawn pipes are on some runtimes).
    ? ["bash", ["--norc", "--noprofile", "-c", Placeholder.expandShell(handler.command, values)]] as const
    : ["/bin/sh", ["-c", Placeholder.expandShell(handler.command, values)]] as const
  return HookRunner.run(
    { file, args, cwd: ctx.cwd, env: handlerEnv(handler, ctx), stdin: ctx.stdin, maxOutputBytes: MAX_OUTPUT_BYTES },
    Duration.millis(ctx.timeout * 1000)
  )
}

// --- http ------------------------------------------------------------------------------------

/** `scheme://host[:port]` and the rest (path, query). */
const splitUrl = (url: string): readonly [string, string] => {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url)
  return match === null ? [url, ""] : [match[1]!.replace(/\.(?=:\d+$|$)/, ""), match[2]!]
}

const escapeRegex = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&")

/**
 * An `allowedHttpHookUrls` pattern: `*` is a wildcard that never crosses into another part of the
 * URL (in the scheme and host it stays within the host; in the path it matches anything). Scheme
 * and host compare case-insensitively, a trailing dot on the host is ignored, the path is exact.
 */
const urlAllowed = (url: string, patterns: ReadonlyArray<string> | undefined): boolean => {
  if (patterns === undefined) return true
  const [origin, rest] = splitUrl(url)
  return patterns.some((pattern) => {
    const [patternOrigin, patternRest] = splitUrl(pattern)
    const originRe = new RegExp(`^${patternOrigin.split("*").map(escapeRegex).join("[^/?#]*")}$`, "i")
    const restRe = new RegExp(`^${patternRest.split("*").map(escapeRegex).join(".*")}$`)
    return originRe.test(origin) && restRe.test(rest)
  })
}

const http = (handler: HttpHandler, ctx: ExecContext): Effect.Effect<ProcessRun> => {
  if (!urlAllowed(handler.url, ctx.allowedHttpHookUrls)) {
    return Effect.succeed(makeRun({ exitCode: 1, stderr: `URL ${handler.url} is not allowed by allowedHttpHookUrls` }))
  }
  const fetchImpl = ctx.options.fetch ?? (globalThis as unknown as { readonly fetch?: EngineOptions["fetch"] }).fetch
  if (fetchImpl === undefined) return Effect.succeed(makeRun({ exitCode: 1, stderr: "no fetch available for http hooks" }))
  const outer = ctx.httpHookAllowedEnvVars
  const allowed = new Set((handler.allowedEnvVars ?? []).filter((name) => outer === undefined || outer.includes(name)))
  const headers: Record<string, string> = { "content-type": "application/json" }
  for (const [name, value] of Object.entries(handler.headers ?? {})) {
    headers[name] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced: string | undefined, bare: string | undefined) => {
      const key = braced ?? bare ?? ""
      return allowed.has(key) ? ctx.env[key] ?? "" : ""
    })
  }
  return inProcess(ctx.timeout, async (signal) => {
    const response = await fetchImpl(handler.url, { method: "POST", headers, body: ctx.stdin, signal: signal as never })
    const body = await response.text()
    if (response.status < 200 || response.status > 299) return { exitCode: 1, stderr: `HTTP ${response.status} from ${handler.url}` }
    if (body.trim() === "") return { exitCode: 0 }
    if (body.trimStart().startsWith("{")) return { exitCode: 0, stdout: body }
    return { exitCode: 1, stderr: `HTTP ${response.status} from ${handler.url} with a body that is not a JSON object` }
  })
}

// --- prompt and agent ------------------------------------------------------------------------

const SYSTEM_PROMPT = [
  "You are evaluating a hook in an AI agent's lifecycle. You receive the hook's input as JSON and a condition to check.",
  `Answer with only a JSON object: {"ok": true} when the condition holds, or {"ok": false, "reason": "<why, addressed to the agent>"} when it does not.`
].join("\n")

/** `$ARGUMENTS` is replaced by the input JSON (`\$` escapes a literal `$`); without it the JSON is appended. */
const promptText = (prompt: string, json: string): string => {
  let used = false
  const text = prompt.replace(/\\\$|\$ARGUMENTS/g, (match) => {
    if (match === "\\$") return "$"
    used = true
    return json
  })
  return used ? text : `${text}\n\n${json}`
}

/** The block JSON a failed condition becomes on each event. */
const blockJson = (spec: HookEventSpec, reason: string, continueOnBlock: boolean, impossible: boolean): Record<string, unknown> | undefined => {
  switch (spec.behavesAs) {
    case "Stop":
    case "SubagentStop":
      return impossible ? undefined : { decision: "block", reason }
    case "PreToolUse":
      return {
        hookSpecificOutput: { hookEventName: spec.name, permissionDecision: "deny", permissionDecisionReason: reason },
        ...(continueOnBlock ? {} : { continue: false, stopReason: reason })
      }
    case "PostToolUse":
      return continueOnBlock ? { decision: "block", reason } : { continue: false, stopReason: reason }
    case "PostToolUseFailure":
      return { hookSpecificOutput: { hookEventName: spec.name, additionalContext: reason } }
    case "TeammateIdle":
      return continueOnBlock ? { decision: "block", reason } : { continue: false, stopReason: reason }
    case "PermissionRequest":
    case "PermissionDenied":
      return undefined
    default:
      return spec.blocking === "decision" || spec.blocking === "permission" ? { decision: "block", reason } : undefined
  }
}

const prompt = (handler: PromptHandler, ctx: ExecContext): Effect.Effect<ProcessRun> => {
  const model = ctx.options.model
  if (model === undefined) {
    return Effect.succeed(makeRun({ exitCode: 1, stderr: `no model is configured for ${handler.type} hooks (pass options.model to the engine)` }))
  }
  return inProcess(ctx.timeout, async (signal) => {
    const answer = await model({
      kind: handler.type,
      system: SYSTEM_PROMPT,
      prompt: promptText(handler.prompt, ctx.stdin),
      model: handler.model,
      input: ctx.input,
      signal
    })
    const found = /\{[\s\S]*\}/.exec(answer)
    let verdict: unknown
    try {
      verdict = found === null ? undefined : JSON.parse(found[0])
    } catch {
      verdict = undefined
    }
    if (typeof verdict !== "object" || verdict === null || typeof (verdict as { ok?: unknown }).ok !== "boolean") {
      return { exitCode: 1, stderr: `the model did not answer {"ok": boolean}: ${answer.slice(0, 200)}` }
    }
    const { ok, reason, impossible } = verdict as { ok: boolean; reason?: unknown; impossible?: unknown }
    if (ok) return { exitCode: 0 }
    const why = typeof reason === "string" && reason !== "" ? reason : "the hook's condition was not met"
    const json = blockJson(ctx.spec, why, handler.type === "agent" || handler.continueOnBlock === true, handler.type === "prompt" && impossible === true)
    return { exitCode: 0, stdout: json === undefined ? "" : JSON.stringify(json) }
  })
}

// --- mcp_tool --------------------------------------------------------------------------------

const mcpTool = (handler: McpToolHandler, ctx: ExecContext): Effect.Effect<ProcessRun> => {
  const mcp = ctx.options.mcp
  if (mcp === undefined) {
    return Effect.succeed(makeRun({ exitCode: 1, stderr: `MCP server ${handler.server} is not connected (pass options.mcp to the engine)` }))
  }
  const values = placeholderValues(ctx)
  const input: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(handler.input ?? {})) {
    input[key] = typeof value === "string" ? Placeholder.expandText(value, values) : value
  }
  return inProcess(ctx.timeout, async (signal) => {
    const result = await mcp({ server: handler.server, tool: handler.tool, input, signal })
    const text = result.content.filter((part) => part.type === "text").map((part) => part.text ?? "").join("")
    return result.isError === true ? { exitCode: 1, stderr: text === "" ? "the MCP tool reported an error" : text } : { exitCode: 0, stdout: text }
  })
}

// --- module and callback ---------------------------------------------------------------------

const modules = new Map<string, Promise<Record<string, unknown>>>()

const fileUrl = (path: string): string => `file://${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`

const importModule = (path: string): Promise<Record<string, unknown>> => {
  let loaded = modules.get(path)
  if (loaded === undefined) {
    loaded = import(fileUrl(path)) as Promise<Record<string, unknown>>
    modules.set(path, loaded)
    loaded.catch(() => modules.delete(path))
  }
  return loaded
}

const callFunction = (fn: unknown, what: string, ctx: ExecContext, signal: AbortSignalLike): Promise<Partial<ProcessRun>> => {
  if (typeof fn !== "function") return Promise.resolve({ exitCode: 1, stderr: `${what} is not a function` })
  const returned = (fn as (input: unknown, context: unknown) => unknown)(structuredCloneJson(ctx.input), { signal })
  const value = Effect.isEffect(returned)
    ? Effect.runPromise(returned as Effect.Effect<unknown, unknown>, { signal: signal as never })
    : Promise.resolve(returned)
  return value.then((output) => ({ exitCode: 0, stdout: stdoutOf(output) }))
}

/** Each JavaScript hook gets its own copy of the input, so one cannot change what the next sees. */
const structuredCloneJson = (input: Record<string, unknown>): Record<string, unknown> => JSON.parse(JSON.stringify(input)) as Record<string, unknown>

const module = (handler: ModuleHandler, ctx: ExecContext): Effect.Effect<ProcessRun> =>
  inProcess(ctx.timeout, async (signal) => {
    const loaded = await importModule(handler.modulePath).catch((error: unknown) => {
      throw new Error(`cannot load ${handler.modulePath}: ${message(error)}`)
    })
    return callFunction(loaded[handler.export], `export "${handler.export}" of ${handler.modulePath}`, ctx, signal)
  })

const callback = (handler: CallbackHandler, ctx: ExecContext): Effect.Effect<ProcessRun> =>
  inProcess(ctx.timeout, (signal) => callFunction(handler.callback, `callback ${handler.name}`, ctx, signal))

/** @internal */
export const execute = (ctx: ExecContext): Effect.Effect<ProcessRun, never, ProcessSpawner> => {
  const handler = ctx.entry.handler
  switch (handler.type) {
    case "command":
      return command(handler, ctx)
    case "http":
      return http(handler, ctx)
    case "prompt":
    case "agent":
      return prompt(handler, ctx)
    case "mcp_tool":
      return mcpTool(handler, ctx)
    case "module":
      return module(handler, ctx)
    case "callback":
      return callback(handler, ctx)
  }
}
