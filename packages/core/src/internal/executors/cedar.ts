/**
 * The `cedar` executor: Cedar policies evaluated in-process on `@cedar-policy/cedar-wasm`, which the
 * runtime loads on first use. The request:
 * - principal `Agent::"<session_id>"`;
 * - action `Action::"<event>"` (the tool is the resource's `tool` attribute and `context.tool_name`);
 * - resource `Target::"<the tool's target>"` (`file_path`, `path`, `notebook_path`, `command`, `url`,
 *   `pattern` of `tool_input`, else the tool's name, else the event), with attributes `path` (the
 *   same string) and `tool` (the tool's name, `""` on an event without a tool);
 * - context: the input object (JSON values Cedar cannot hold are left out: nulls, fractions, and
 *   the `__entity` / `__extn` / `__expr` keys an attacker could use to forge a reference), plus
 *   `agent_hooks_lone_surrogates`: whether any string of the request held a lone UTF-16 surrogate,
 *   which Cedar cannot read: each is replaced with U+FFFD (and said in a warning), never an error.
 * A hook that could not decide (the engine did not load, a file is unreadable, Cedar failed) blocks
 * unless its `onFailure` is "continue": a cedar hook is a guard by construction.
 * A `forbid` that applies blocks, its policies' ids and `@reason` annotations the reason. A `permit`
 * is no objection; one annotated `@approve` auto-approves a PreToolUse or PermissionRequest. No policy
 * applying is Cedar's default deny: `onNoDecision` says whether it blocks (default) or not.
 * Files are re-read at each run (an edit applies at the next call) and parsed and validated again
 * only when their text changed.
 */
import type * as Effect from "effect/Effect"
import type { CedarRuntime, CedarWasm } from "../../Capabilities.ts"
import type { Plan } from "../../Plan.ts"
import type { CedarHandler } from "../../SettingsModel.ts"
import type { ExecContext, Executed, InProcessResult } from "./context.ts"
import { failed, inProcess, message } from "./context.ts"

interface Compiled {
  readonly texts: string
  readonly policies: Record<string, string>
  readonly annotations: Record<string, Record<string, string>>
  readonly entities: ReadonlyArray<unknown>
  readonly schema: unknown
  /** The id the policy set was preparsed under, when the engine can. */
  readonly preparsed: string | undefined
}

type Answer =
  | { readonly type: "success"; readonly [key: string]: unknown }
  | { readonly type: "failure"; readonly errors: ReadonlyArray<{ readonly message: string }> }

/** Each runtime's engine, loaded once (a failed load is tried again next time). */
const loadedBy = new WeakMap<CedarRuntime, Promise<CedarWasm>>()
/** Policy sets by their files, per engine instance (a preparsed set lives in its instance). */
const compiledBy = new WeakMap<CedarWasm, Map<string, Compiled>>()
let preparsedCount = 0

const errorsOf = (answer: Answer): string => (answer.type === "failure" ? answer.errors.map((e) => e.message).join("; ") : "")

/** Parses the policy set into policies keyed by their `@id` annotation (else `policy<n>`), and checks it against the schema. */
const compile = (cedar: CedarWasm, handler: CedarHandler, texts: ReadonlyArray<string | undefined>): Compiled => {
  const [policyText = "", entitiesText, schemaText] = texts
  const parts = cedar.policySetTextToParts(policyText) as Answer & {
    readonly policies?: ReadonlyArray<string>
    readonly policy_templates?: ReadonlyArray<string>
  }
  if (parts.type === "failure") throw new Error(`${handler.policiesPath}: ${errorsOf(parts)}`)
  const policies: Record<string, string> = {}
  const annotations: Record<string, Record<string, string>> = {}
  ;(parts.policies ?? []).forEach((text, n) => {
    const json = cedar.policyToJson(text as never) as Answer & { readonly json?: { readonly annotations?: Record<string, string | null> } }
    if (json.type === "failure") throw new Error(`${handler.policiesPath}: ${errorsOf(json)}`)
    const own = Object.fromEntries(Object.entries(json.json?.annotations ?? {}).map(([k, v]) => [k, v ?? ""]))
    const id = own["id"] !== undefined && own["id"] !== "" ? own["id"] : `policy${n}`
    if (id in policies)
      throw new Error(`${handler.policiesPath}: two policies have the id ${JSON.stringify(id)} (an @id annotation must be unique)`)
    policies[id] = text
    annotations[id] = own
  })
  let entities: ReadonlyArray<unknown> = []
  if (entitiesText !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(entitiesText)
    } catch (error) {
      throw new Error(`${handler.entitiesPath}: not JSON (${String(error)}); expected an array of Cedar entities`)
    }
    if (!Array.isArray(parsed))
      throw new Error(`${handler.entitiesPath}: expected an array of Cedar entities ({"uid", "attrs", "parents"})`)
    entities = parsed
  }
  let schema: unknown
  if (schemaText !== undefined) {
    // The JSON schema format when it parses as JSON, else the Cedar schema syntax.
    try {
      schema = JSON.parse(schemaText)
    } catch {
      schema = schemaText
    }
    const parsed = cedar.checkParseSchema(schema as never) as Answer
    if (parsed.type === "failure") throw new Error(`${handler.schemaPath}: ${errorsOf(parsed)}`)
    const validated = cedar.validate({ schema, policies: { staticPolicies: policies } } as never) as Answer & {
      readonly validationErrors?: ReadonlyArray<{ readonly policyId: string; readonly error: { readonly message: string } }>
    }
    if (validated.type === "failure") throw new Error(`${handler.policiesPath}: ${errorsOf(validated)}`)
    const problems = validated.validationErrors ?? []
    if (problems.length > 0) {
      throw new Error(
        `${handler.policiesPath} does not validate against ${handler.schemaPath}: ` +
          `${problems.map((p) => `policy ${p.policyId}: ${p.error.message}`).join("; ")}`
      )
    }
  }
  // Parsed once here rather than at every call: evaluation then takes microseconds.
  let preparsed: string | undefined
  if (cedar.preparsePolicySet !== undefined && cedar.statefulIsAuthorized !== undefined) {
    const id = `agent-hooks-${++preparsedCount}`
    const answer = cedar.preparsePolicySet(id, { staticPolicies: policies } as never) as Answer
    if (answer.type === "failure") throw new Error(`${handler.policiesPath}: ${errorsOf(answer)}`)
    preparsed = id
  }
  return { texts: texts.join("\u0000"), policies, annotations, entities, schema, preparsed }
}

const FORGING_KEYS = new Set(["__entity", "__extn", "__expr"])

/** A UTF-16 surrogate without its pair: JSON may carry it (`"\ud800"`), Cedar's strings cannot hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * The context key that says the request's strings held lone surrogates, replaced with U+FFFD: a
 * policy may forbid such a call (`forbid (...) when { context.agent_hooks_lone_surrogates }`).
 */
const SURROGATES_KEY = "agent_hooks_lone_surrogates"

/** Counts the lone surrogates a request's strings held (each replaced with U+FFFD). */
interface Replaced {
  count: number
}

/**
 * A string as Cedar can read it: a lone surrogate (which cedar-wasm refuses, failing the whole
 * request: "lone leading surrogate in hex escape") becomes U+FFFD, counted, so that a payload
 * cannot make the hook error out instead of deciding.
 */
const cedarString = (text: string, replaced: Replaced): string =>
  text.replace(LONE_SURROGATE, () => {
    replaced.count++
    return "\ufffd"
  })

/** A JSON value as a Cedar value: what Cedar cannot hold is left out; strings as Cedar can read them. */
const cedarValue = (value: unknown, depth: number, replaced: Replaced): unknown => {
  if (depth > 32) return undefined
  if (typeof value === "string") return cedarString(value, replaced)
  if (typeof value === "boolean") return value
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined
  if (Array.isArray(value)) return value.map((item) => cedarValue(item, depth + 1, replaced)).filter((item) => item !== undefined)
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (FORGING_KEYS.has(key)) continue
      const converted = cedarValue(item, depth + 1, replaced)
      // defined, not assigned: a "__proto__" key stays a key
      if (converted !== undefined)
        Object.defineProperty(out, cedarString(key, replaced), { value: converted, enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return undefined
}

const TARGET_FIELDS = ["file_path", "path", "notebook_path", "command", "url", "pattern"] as const

/** The request's resource: what the tool acts on. @internal */
export const targetOf = (input: Record<string, unknown>): string => {
  const toolInput = input["tool_input"]
  if (typeof toolInput === "object" && toolInput !== null) {
    for (const field of TARGET_FIELDS) {
      const value = (toolInput as Record<string, unknown>)[field]
      if (typeof value === "string" && value !== "") return value
    }
  }
  const tool = input["tool_name"]
  return typeof tool === "string" ? tool : String(input["hook_event_name"] ?? "")
}

const describe = (compiledSet: Compiled, ids: ReadonlyArray<string>): string =>
  ids
    .map((id) => {
      const reason = compiledSet.annotations[id]?.["reason"]
      return reason === undefined || reason === "" ? `policy ${id}` : `policy ${id}: ${reason}`
    })
    .join("; ")

const approval = (event: string, reason: string): InProcessResult | undefined => {
  if (event === "PreToolUse") {
    return {
      exitCode: 0,
      stdout: JSON.stringify({
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: reason }
      })
    }
  }
  if (event === "PermissionRequest")
    return {
      exitCode: 0,
      stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } })
    }
  return undefined
}

/** The settings keys that name a cedar hook's files, in the order `prepare` reads them. */
const ROLES = ["policies", "entities", "schema"] as const

/** A file of a cedar hook that could not be read: which key named it, and why (the message names the file). */
class Unreadable extends Error {
  constructor(
    readonly role: (typeof ROLES)[number],
    path: string,
    error: unknown
  ) {
    const why = message(error)
    super(
      `cannot read its ${role} file: ${why.includes(path) ? why : `${path}: ${why}`} ` +
        `(make it a regular file, or name another in the hook's "${role}")`
    )
  }
}

/**
 * A file of the hook through the runtime's reader (each runtime's refuses a FIFO, a device or a
 * folder as what it is, never waiting on it); a failure names the file, whatever the reader said.
 */
const read = (runtime: CedarRuntime, role: (typeof ROLES)[number], path: string): Promise<string> =>
  runtime.readFile(path).catch((error: unknown) => {
    throw new Unreadable(role, path, error)
  })

/** The engine and the hook's policy set as its files are now (parsed and validated again only when their text changed). */
const prepare = async (handler: CedarHandler, runtime: CedarRuntime): Promise<{ readonly engine: CedarWasm; readonly set: Compiled }> => {
  let wasm = loadedBy.get(runtime)
  if (wasm === undefined) {
    wasm = runtime.load()
    loadedBy.set(runtime, wasm)
    wasm.catch(() => loadedBy.delete(runtime))
  }
  const engine = await wasm.catch((error: unknown) => {
    throw new Error(`cannot load the Cedar engine (@cedar-policy/cedar-wasm): ${message(error)}`)
  })
  const paths = [handler.policiesPath, handler.entitiesPath, handler.schemaPath]
  const texts = await Promise.all(paths.map((path, n) => (path === undefined ? undefined : read(runtime, ROLES[n]!, path))))
  const key = JSON.stringify(paths)
  let compiled = compiledBy.get(engine)
  if (compiled === undefined) compiledBy.set(engine, (compiled = new Map()))
  let set = compiled.get(key)
  if (set === undefined || set.texts !== texts.join("\u0000")) {
    set = compile(engine, handler, texts)
    compiled.set(key, set)
  }
  return { engine, set }
}

/** A cedar hook of a plan, as it will run (a trust-pinned copy when there is one), and where its settings file names it. */
interface Located {
  readonly handler: CedarHandler
  readonly source: string
  readonly path: string
}

/**
 * Loads and checks the files of every cedar hook when the engine loads (and reloads): one line per
 * hook whose files cannot be read, or whose policies do not parse or validate against their schema,
 * naming the settings file and the JSON path (of the key whose file could not be read).
 */
const check = async (hooks: ReadonlyArray<Located>, runtime: CedarRuntime): Promise<ReadonlyArray<string>> => {
  const problems: Array<string> = []
  for (const { handler, source, path } of hooks) {
    await prepare(handler, runtime).catch((error: unknown) =>
      problems.push(
        `${source} at ${path}${error instanceof Unreadable ? `.${error.role}` : ""}: cedar hook ${handler.policies}: ${message(error)}`
      )
    )
  }
  return problems
}

/** Every cedar hook of a plan, once per settings entry. */
const hooksOf = (plan: Plan): ReadonlyArray<Located> => {
  const seen = new Set<string>()
  return [...plan.events.values()].flatMap((planned) =>
    planned.hooks.flatMap(({ entry }) => {
      const handler = entry.pinned ?? entry.handler
      const where = `${entry.source}\u0000${entry.path}`
      if (handler.type !== "cedar" || seen.has(where)) return []
      seen.add(where)
      return [{ handler, source: entry.source, path: entry.path }]
    })
  )
}

/** `check` on every cedar hook of a plan; nothing is loaded when it has none. @internal */
export const checkPlan = (plan: Plan, runtime: CedarRuntime): Promise<ReadonlyArray<string>> => {
  const hooks = hooksOf(plan)
  return hooks.length === 0 ? Promise.resolve([]) : check(hooks, runtime)
}

/** @internal */
export const cedar = (handler: CedarHandler, ctx: ExecContext, runtime: CedarRuntime | undefined): Effect.Effect<Executed> => {
  if (runtime === undefined)
    return failed(
      "cedar hooks need the Cedar engine, which this host does not provide (use " +
        "@agent-hooks/node, bun or deno, or pass EngineOptions.cedar)"
    )
  return inProcess(ctx.timeout, async () => {
    const { engine, set } = await prepare(handler, runtime)
    // Every string of the request as Cedar can read it (lone surrogates replaced and counted).
    const replaced: Replaced = { count: 0 }
    const event = cedarString(String(ctx.input["hook_event_name"] ?? ""), replaced)
    const tool = typeof ctx.input["tool_name"] === "string" ? cedarString(ctx.input["tool_name"], replaced) : undefined
    const principal = { type: "Agent", id: cedarString(String(ctx.input["session_id"] ?? ""), replaced) }
    const resource = { type: "Target", id: cedarString(targetOf(ctx.input), replaced) }
    const context = cedarValue(ctx.input, 0, replaced) as Record<string, unknown>
    Object.defineProperty(context, SURROGATES_KEY, { value: replaced.count > 0, enumerable: true, writable: true, configurable: true })
    const flagged =
      replaced.count === 0
        ? []
        : [
            `the payload held ${replaced.count} lone UTF-16 surrogate${replaced.count === 1 ? "" : "s"} (not valid Unicode): ` +
              `Cedar saw each as U+FFFD, and context.${SURROGATES_KEY} is true`
          ]
    // The replacement is said in the hook's result (a warning), whatever Cedar decides.
    const flag = (result: InProcessResult): InProcessResult =>
      flagged.length === 0 ? result : { ...result, warnings: [...(result.warnings ?? []), ...flagged] }
    const request = {
      principal,
      action: { type: "Action", id: event },
      resource,
      context,
      entities: [
        ...set.entities,
        { uid: principal, attrs: {}, parents: [] },
        { uid: resource, attrs: { path: resource.id, tool: tool ?? "" }, parents: [] }
      ]
    }
    const answer = (
      set.preparsed !== undefined && engine.statefulIsAuthorized !== undefined
        ? engine.statefulIsAuthorized({ ...request, preparsedPolicySetId: set.preparsed } as never)
        : engine.isAuthorized({ ...request, policies: { staticPolicies: set.policies } } as never)
    ) as Answer & {
      readonly response?: {
        readonly decision: "allow" | "deny"
        readonly diagnostics: {
          readonly reason: ReadonlyArray<string>
          readonly errors: ReadonlyArray<{ readonly policyId: string; readonly error: { readonly message: string } }>
        }
      }
    }
    if (answer.type === "failure" || answer.response === undefined)
      throw new Error(`Cedar could not evaluate the request: ${errorsOf(answer)}`)
    const { decision, diagnostics } = answer.response
    // A policy that errors is skipped by Cedar; say so rather than hide it.
    const errors = diagnostics.errors.map((e) => `policy ${e.policyId}: ${e.error.message}`).join("; ")
    const stderrNote = errors === "" ? "" : `Cedar skipped policies that failed to evaluate: ${errors}`
    if (decision === "deny") {
      // Cedar's deny is a forbid that applied, or no permit applying (its default deny).
      if (diagnostics.reason.length > 0) return flag({ exitCode: 2, stderr: `denied by Cedar: ${describe(set, diagnostics.reason)}` })
      if (handler.onNoDecision === "no-objection") return flag({ exitCode: 0, stderr: stderrNote })
      return flag({
        exitCode: 2,
        stderr:
          `denied by Cedar: no policy permits ${event}${tool === undefined ? "" : ` of ${tool}`} on ` +
          `${JSON.stringify(resource.id)} (onNoDecision: ` +
          `deny)${stderrNote === "" ? "" : `; ${stderrNote}`}`
      })
    }
    const approving = diagnostics.reason.filter((id) => set.annotations[id]?.["approve"] !== undefined)
    if (approving.length > 0) {
      const approved = approval(event, `permitted by Cedar: ${describe(set, approving)}`)
      if (approved !== undefined) return flag(approved)
    }
    return flag({ exitCode: 0, stderr: stderrNote })
  })
}
