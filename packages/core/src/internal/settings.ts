import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { formatPath, SettingsError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as Matcher from "../Matcher.ts"
import type { DecodedSettings, Handler, HookEntry, PlanWarning, SettingsScope } from "../SettingsModel.ts"
import * as HandlerTypes from "./handlerTypes.ts"
import * as SettingsSchema from "./settingsSchema.ts"
import { compileRedactions } from "./audit.ts"
import * as Permissions from "./permissions.ts"
import * as PosixPath from "./posixPath.ts"
import { describe, nearest, render } from "./text.ts"
import type { JsonPath } from "./text.ts"

/** The keys of a matcher group. */
const GROUP_KEYS: ReadonlyArray<string> = ["matcher", "hooks"]
const HANDLER_TYPES = HandlerTypes.handlerTypeNames

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * Turns a Schema failure into "path: expected X, got Y" problems, from Effect's structured issues
 * (each with its path relative to the decoded value and its message).
 */
const schemaProblems = (error: Schema.SchemaError, value: unknown, base: JsonPath): ReadonlyArray<string> => {
  const problems = formatIssue(error.issue).issues.map((issue) => {
    const sub = (issue.path ?? []).map((segment) => {
      const key = typeof segment === "object" ? segment.key : segment
      return typeof key === "number" ? key : String(key)
    })
    let actual: unknown = value
    for (const key of sub)
      actual = Predicate.isObject(actual) || Array.isArray(actual) ? (actual as Record<string | number, unknown>)[key] : undefined
    const at = formatPath([...base, ...sub])
    if (issue.message === "Missing key") return `${at}: missing (required)`
    return `${at}: ${issue.message.replace(/^Expected /, "expected ").replace(/, got .*$/s, "")}, got ${describe(actual)}`
  })
  return problems.length > 0 ? problems : [`${formatPath(base)}: ${error.message.replace(/\n\s*/g, " ")}`]
}

/**
 * Where decode problems go: `warn` for what is reported and loaded anyway, `drop` for an entry that
 * is skipped (also reported as a warning; strict mode fails the load on it, `validate` exits 1).
 */
interface Problems {
  readonly warn: (path: JsonPath | string, message: string) => void
  readonly drop: (path: JsonPath | string, message: string) => void
}

/** An unknown key is reported with the nearest known one; the entry still loads. */
const unknownKeys = (
  value: Readonly<Record<string, unknown>>,
  known: ReadonlyArray<string>,
  path: JsonPath,
  _where: string,
  problems: Problems
) => {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue
    const near = nearest(key, known)
    problems.warn([...path, key], `unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ""}; ignored`)
  }
}

/** What an invalid entry shows in place of its handler (in lists and results); it never starts. */
const standIn = (value: unknown): Handler => {
  const command =
    Predicate.isObject(value) && typeof value["command"] === "string" && value["command"] !== "" ? value["command"] : "(invalid handler)"
  return { type: "command", command }
}

const decodeHandler = (value: unknown, path: JsonPath, where: string, problems: Problems): Handler | undefined => {
  if (!Predicate.isObject(value)) {
    problems.drop(path, `expected a handler object like {"type": "command", "command": "..."}, got ${describe(value)}; skipped`)
    return undefined
  }
  const type = value["type"]
  const handlerType = HandlerTypes.handlerTypeOf(type)
  if (handlerType === undefined) {
    const near = typeof type === "string" ? nearest(type, HANDLER_TYPES) : undefined
    problems.drop(
      [...path, "type"],
      `expected ${HANDLER_TYPES.map((t) => `"${t}"`).join(" | ")}, got ${describe(type)}${
        near ? ` (did you mean "${near}"?)` : ""
      }; skipped`
    )
    return undefined
  }
  const schema = handlerType.schema
  const decoded = decodeAs(schema, value, path, where, problems) as DecodedHandler | undefined
  if (decoded === undefined) return undefined
  unknownKeys(value, Object.keys(schema.fields), path, where, problems)
  if (decoded.timeout !== undefined && decoded.timeout >= 1000) {
    problems.warn(
      [...path, "timeout"],
      `timeout ${decoded.timeout} is in seconds (${Math.round(
        decoded.timeout / 60
      )} minutes); milliseconds? For ${decoded.timeout} ms write ${decoded.timeout / 1000}`
    )
  }
  // what the type's schema cannot say (a command's placeholders, an exec form's arguments)
  const found = handlerType.check?.(decoded as never) ?? []
  for (const problem of found) (problem.skip ? problems.drop : problems.warn)([...path, ...problem.path], problem.message)
  if (found.some((problem) => problem.skip)) return undefined
  return resolve(handlerType, decoded, where)
}

type DecodedSchema = (typeof HandlerTypes.handlerTypes)[HandlerTypes.HandlerTypeName]["schema"]

/** What a handler type's schema decodes to, before the loader resolves its files. */
type DecodedHandler = (typeof HandlerTypes.handlerTypes)[HandlerTypes.HandlerTypeName]["schema"]["Type"]

/**
 * The handler as it runs: the files its type names resolved against its settings file's folder
 * (each in the field its descriptor gives), and the defaults of the fields left out.
 */
const resolve = (
  handlerType: NonNullable<ReturnType<typeof HandlerTypes.handlerTypeOf>>,
  decoded: DecodedHandler,
  where: string
): Handler => {
  if (handlerType.files === undefined && handlerType.defaults === undefined) return decoded as Handler
  const out: Record<string, unknown> = { ...decoded }
  for (const [key, value] of Object.entries(handlerType.defaults ?? {})) out[key] ??= value
  for (const [field, resolved] of Object.entries(handlerType.files ?? {})) {
    const file = out[field]
    out[resolved] = typeof file === "string" ? PosixPath.resolve(PosixPath.dirname(where), file) : undefined
  }
  return out as unknown as Handler
}

/** Decodes a handler with its schema; the problems become one warning naming each JSON path. */
const decodeAs = <S extends DecodedSchema>(
  schema: S,
  value: unknown,
  path: JsonPath,
  _where: string,
  sink: Problems
): S["Type"] | undefined => {
  const exit = Schema.decodeUnknownExit(schema)(value, { errors: "all", onExcessProperty: "ignore" })
  if (Exit.isSuccess(exit)) return exit.value
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  const found =
    failure !== undefined && failure._tag === "Fail" ? schemaProblems(failure.error, value, path) : [`${formatPath(path)}: invalid handler`]
  // Located at the first problem's path; the others follow in the message (the text reads as before:
  // "file at a.b: expected X, got Y; a.c: ... (handler at a skipped)").
  const [first = `${formatPath(path)}: invalid handler`, ...rest] = found
  const at = first.indexOf(": ")
  sink.drop(first.slice(0, at), `${[first.slice(at + 2), ...rest].join("; ")} (handler at ${formatPath(path)} skipped)`)
  return undefined
}

// An event declaration's keys are the fields of its schema.
const EVENT_KEYS = Object.keys(SettingsSchema.EventDeclaration.fields)
const { AUDIENCES, BLOCKING_RULES, OUTPUT_DIALECTS } = SettingsSchema

/**
 * The file's own event declarations (`"events": [{"name": ..., "extends": ..., ...}]`), checked
 * one by one: a bad declaration fails the file with its JSON path, since its hooks would otherwise
 * run by other rules than the file states. A declaration applies to this file's hooks only; on an
 * event that already has rules (the catalog's, the preset's or the host's) it may take away the
 * ability to block, never add one.
 */
const decodeEvents = (
  value: unknown,
  file: string,
  known: ReadonlyArray<HookEvent.CustomEvent>
): Effect.Effect<ReadonlyMap<string, HookEvent.HookEventSpec>, SettingsError> =>
  Effect.suspend(() => {
    const out = new Map<string, HookEvent.HookEventSpec>()
    if (value === undefined) return Effect.succeed(out)
    const fail = (path: JsonPath, detail: string) => Effect.fail(new SettingsError({ file, path: [...path], detail }))
    if (!Array.isArray(value)) {
      return fail(
        ["events"],
        `expected an array of event declarations like [{"name": "turn_start", "blocking": "none", ` +
          `"defaultTimeout": 10}], got ${describe(value)}`
      )
    }
    for (const [index, declaration] of value.entries()) {
      const at: JsonPath = ["events", index]
      if (!Predicate.isObject(declaration))
        return fail(at, `expected an event declaration {"name": "...", ...}, got ${describe(declaration)}`)
      for (const key of Object.keys(declaration)) {
        if (!(EVENT_KEYS as ReadonlyArray<string>).includes(key)) {
          return fail([...at, key], `unknown key "${key}"; an event declaration has ${EVENT_KEYS.join(", ")}`)
        }
      }
      const name = declaration["name"]
      if (typeof name !== "string" || name === "")
        return fail([...at, "name"], `expected the event's name (a non-empty string), got ${describe(name)}`)
      if (out.has(name)) return fail([...at, "name"], `"${name}" is declared twice in this file; keep one declaration`)
      const oneOf = (key: string, allowed: ReadonlyArray<string>) => {
        const v = declaration[key]
        return v === undefined || (typeof v === "string" && allowed.includes(v))
          ? undefined
          : `expected ${allowed.map((a) => `"${a}"`).join(" | ")}, got ${describe(v)}`
      }
      const problems: Array<[string, string | undefined]> = [
        ["blocking", oneOf("blocking", BLOCKING_RULES)],
        ["outputDialect", oneOf("outputDialect", OUTPUT_DIALECTS)],
        ["exit2StderrTo", oneOf("exit2StderrTo", AUDIENCES)],
        ["reasonTo", oneOf("reasonTo", AUDIENCES)]
      ]
      for (const key of ["nonZeroBlocks", "plainStdoutToContext"]) {
        const v = declaration[key]
        problems.push([key, v === undefined || typeof v === "boolean" ? undefined : `expected a boolean, got ${describe(v)}`])
      }
      const timeout = declaration["defaultTimeout"]
      problems.push([
        "defaultTimeout",
        timeout === undefined || (typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)
          ? undefined
          : `expected a positive number of seconds, got ${describe(timeout)}`
      ])
      const field = declaration["matcherField"]
      problems.push([
        "matcherField",
        field === undefined || field === null || (typeof field === "string" && field !== "")
          ? undefined
          : `expected the payload field the matcher is tested against (a string), or null for no matcher, got ${describe(field)}`
      ])
      const specific = declaration["specificOutput"]
      problems.push([
        "specificOutput",
        specific === undefined || (Array.isArray(specific) && specific.every((item) => typeof item === "string"))
          ? undefined
          : `expected an array of field names, got ${describe(specific)}`
      ])
      for (const [key, problem] of problems) if (problem !== undefined) return fail([...at, key], problem)
      const parent = declaration["extends"]
      const existing = known.find((event) => event.name === name)
      const catalogued = HookEvent.get(name)
      if (parent !== undefined) {
        if (typeof parent !== "string" || HookEvent.get(parent) === undefined) {
          const suggestion = typeof parent === "string" ? HookEvent.suggest(parent) : undefined
          return fail(
            [...at, "extends"],
            `expected a catalog event name (like "PreToolUse"), got ` +
              `${describe(parent)}${suggestion ? ` (did you mean "${suggestion}"?)` : ""}`
          )
        }
        if (catalogued !== undefined || existing !== undefined) {
          return fail(
            [...at, "extends"],
            `${name} already has its rules; a declaration of it may change them for this file's hooks, ` +
              `but not extend another event (remove "extends")`
          )
        }
      }
      const custom: HookEvent.CustomEvent = {
        name,
        ...(parent === undefined ? {} : { extends: parent as string }),
        ...(existing === undefined ? {} : { ...existing, name }),
        ...Object.fromEntries(
          EVENT_KEYS.filter((key) => key !== "name" && key !== "extends" && declaration[key] !== undefined).map((key) => [
            key,
            declaration[key] === null ? undefined : declaration[key]
          ])
        )
      }
      const spec = HookEvent.custom(custom)
      // A settings file (maybe from a cloned repository) may make its own hooks unable to block, never give them a new way to.
      const before = existing !== undefined ? HookEvent.custom(existing) : catalogued
      if (before !== undefined && spec.blocking !== "none" && spec.blocking !== before.blocking) {
        return fail(
          [...at, "blocking"],
          `${name} blocks by "${before.blocking}"; a declaration may keep that or set "none" (its ` +
            `hooks cannot block), got "${spec.blocking}"`
        )
      }
      if (before !== undefined && before.blocking === "none" && spec.nonZeroBlocks) {
        return fail([...at, "nonZeroBlocks"], `${name} cannot block; nonZeroBlocks would give this file's hooks a way to block it`)
      }
      out.set(name, spec)
    }
    return Effect.succeed(out)
  })

/** What decoding one settings document has found so far: its entries, the skipped ones, its diagnostics. */
interface Decoding {
  readonly file: string
  readonly scope: SettingsScope
  readonly pluginRoot: string | undefined
  readonly problems: Problems
  readonly diagnostics: Array<PlanWarning>
  readonly entries: Array<HookEntry>
  readonly invalidEntries: Array<HookEntry>
}

const decoding = (file: string, scope: SettingsScope, pluginRoot: string | undefined): Decoding => {
  const diagnostics: Array<PlanWarning> = []
  const at = (path: JsonPath | string) => (typeof path === "string" ? path : formatPath(path))
  return {
    file,
    scope,
    pluginRoot,
    problems: {
      warn: (path, message) => diagnostics.push({ file, path: at(path), message }),
      drop: (path, message) => diagnostics.push({ file, path: at(path), message, severity: "error" })
    },
    diagnostics,
    entries: [],
    invalidEntries: []
  }
}

// A group or an event's list that is skipped can never run either: one invalid entry stands for it.
const dropEntry = (
  d: Decoding,
  event: string,
  path: JsonPath,
  value: unknown,
  message: string,
  ownSpec: HookEvent.HookEventSpec | undefined
) => {
  d.problems.drop(path, message)
  d.invalidEntries.push({
    event,
    matcher: Matcher.compile(undefined, event, "trusted").matcher,
    handler: standIn(Predicate.isObject(value) ? value : undefined),
    source: d.file,
    scope: d.scope,
    path: formatPath(path),
    pluginRoot: d.pluginRoot,
    invalid: `${formatPath(path)}: ${message}`,
    ...(ownSpec === undefined ? {} : { spec: ownSpec })
  })
}

/**
 * The document's keys besides `hooks` and `events`, each read as its schema says (a flag, a list of
 * strings, a file path): a value of the wrong type is dropped with an error naming the key; a
 * managed-only key elsewhere is ignored with a warning; a path is resolved against the file's folder.
 */
const decodeScalars = (document: Readonly<Record<string, unknown>>, d: Decoding) => {
  const { file, scope, problems } = d
  const out: Record<string, unknown> = {}
  for (const key of SettingsSchema.keys) {
    if (key.kind === undefined) continue
    const value = document[key.name]
    out[key.name] = undefined
    if (value === undefined) continue
    if (key.kind === "flag" && typeof value !== "boolean") {
      problems.drop([key.name], `expected a boolean (true or false, not a string), got ${describe(value)}; ignored`)
      continue
    }
    if (key.kind === "strings" && !(Array.isArray(value) && value.every((item) => typeof item === "string"))) {
      problems.drop([key.name], `expected an array of ${key.items ?? "strings"} (strings), got ${describe(value)}; ignored`)
      continue
    }
    if (key.kind === "path" && !(typeof value === "string" && value !== "")) {
      problems.drop([key.name], `expected a file path (string), got ${describe(value)}; ignored`)
      continue
    }
    if (key.kind === "choice" && !(typeof value === "string" && key.choices?.includes(value) === true)) {
      problems.drop(
        [key.name],
        `expected one of ${key.choices?.map((one) => JSON.stringify(one)).join(", ")}, got ${describe(value)}; ignored`
      )
      continue
    }
    if (key.merge === "managedOnly" && scope !== "managed") {
      problems.warn([key.name], `only managed settings can set this; ignored`)
      continue
    }
    out[key.name] = key.kind === "path" ? PosixPath.resolve(PosixPath.dirname(file), value as string) : value
  }
  // A pattern that does not compile is said where it is, and dropped (the others still redact).
  const auditRedact = (out["auditRedact"] as ReadonlyArray<string> | undefined)?.filter((pattern, index) => {
    const { errors } = compileRedactions([pattern], false)
    errors.forEach((error) => problems.drop(["auditRedact", index], error))
    return errors.length === 0
  })
  if (auditRedact === undefined) delete out["auditRedact"]
  else out["auditRedact"] = auditRedact
  return out as Pick<DecodedSettings, "disableAllHooks" | "allowManagedHooksOnly" | "allowedHttpHookUrls"> &
    Omit<Partial<DecodedSettings>, "entries" | "warnings" | "events">
}

/** One matcher group of an event: its matcher compiled, each handler an entry (or an invalid one that never runs). */
const decodeGroup = (
  d: Decoding,
  event: string,
  spec: HookEvent.HookEventSpec,
  ownSpec: HookEvent.HookEventSpec | undefined,
  group: unknown,
  groupPath: JsonPath
) => {
  const { file, scope, problems } = d
  if (!Predicate.isObject(group)) {
    dropEntry(
      d,
      event,
      groupPath,
      group,
      `expected a matcher group {"matcher": "...", "hooks": [...]}, got ${describe(group)}; skipped`,
      ownSpec
    )
    return
  }
  const matcherSource = group["matcher"]
  if (matcherSource !== undefined && typeof matcherSource !== "string") {
    dropEntry(d, event, [...groupPath, "matcher"], group, `expected a string, got ${describe(matcherSource)}; group skipped`, ownSpec)
    return
  }
  const handlers = group["hooks"]
  if (!Array.isArray(handlers)) {
    const hint = typeof group["command"] === "string" ? ` (the handler must sit inside "hooks": [{"type": "command", "command": ...}])` : ""
    dropEntry(
      d,
      event,
      [...groupPath, "hooks"],
      group,
      `expected an array of handlers, got ${describe(handlers)}${hint}; group skipped`,
      ownSpec
    )
    return
  }
  unknownKeys(group, GROUP_KEYS, groupPath, file, problems)
  const compiled = Matcher.compile(matcherSource, event, Matcher.originOf(scope))
  // a pattern the file's origin may not use is an error: its hooks never run
  if (compiled.error !== undefined) problems.drop([...groupPath, "matcher"], `${compiled.error}`)
  // a matcher that is not a valid pattern never matches: its hooks can never run, an error too
  const neverMatches = compiled.error ?? (compiled.matcher.kind === "invalid" ? compiled.warning : undefined)
  if (compiled.warning !== undefined)
    (neverMatches === undefined ? problems.warn : problems.drop)([...groupPath, "matcher"], `${compiled.warning}`)
  if (spec.matcherField === undefined && matcherSource !== undefined && matcherSource !== "" && matcherSource !== "*") {
    problems.warn([...groupPath, "matcher"], `${event} does not support matchers; the matcher is ignored and the group always runs`)
  }
  handlers.forEach((value: unknown, handlerIndex) => {
    const path: JsonPath = [...groupPath, "hooks", handlerIndex]
    // A handler that cannot be decoded, or whose group's matcher is refused, can never run: it
    // stays as an invalid entry (a stand-in that never starts), so that failClosed blocks its event.
    let dropped: string | undefined
    const handler = decodeHandler(value, path, file, {
      warn: problems.warn,
      drop: (at, message) => {
        dropped ??= `${typeof at === "string" ? at : formatPath(at)}: ${message}`
        problems.drop(at, message)
      }
    })
    const common = {
      event,
      source: file,
      scope,
      path: formatPath(path),
      pluginRoot: d.pluginRoot,
      ...(ownSpec === undefined ? {} : { spec: ownSpec })
    }
    const invalid = handler === undefined ? (dropped ?? "the handler could not be decoded") : neverMatches
    if (invalid !== undefined) {
      d.invalidEntries.push({
        ...common,
        matcher: Matcher.compile(undefined, event, "trusted").matcher,
        handler: standIn(value),
        invalid
      })
    } else if (handler !== undefined) {
      d.entries.push({ ...common, matcher: compiled.matcher, handler })
    }
  })
}

/** The `hooks` object: each event's matcher groups, an unknown event skipped with a warning. */
const decodeHooks = (
  d: Decoding,
  hooks: Readonly<Record<string, unknown>>,
  own: ReadonlyMap<string, HookEvent.HookEventSpec>,
  events: ReadonlyArray<HookEvent.CustomEvent>
) => {
  for (const [event, groups] of Object.entries(hooks)) {
    const eventPath: JsonPath = ["hooks", event]
    const declared = events.find((custom) => custom.name === event)
    const ownSpec = own.get(event)
    const spec = ownSpec ?? (declared === undefined ? HookEvent.get(event) : HookEvent.custom(declared))
    if (spec === undefined) {
      const suggestion = HookEvent.suggest(
        event,
        events.map((custom) => custom.name)
      )
      // An event this engine does not know (perhaps a newer agent's) warns but does not fail strict mode.
      d.problems.warn(eventPath, `unknown event "${event}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; skipped`)
      continue
    }
    if (!Array.isArray(groups)) {
      dropEntry(d, event, eventPath, groups, `expected an array of matcher groups, got ${describe(groups)}; skipped`, ownSpec)
      continue
    }
    groups.forEach((group: unknown, groupIndex) => decodeGroup(d, event, spec, ownSpec, group, [...eventPath, groupIndex]))
  }
}

/** @internal */
export const decode = (
  document: unknown,
  file: string,
  scope: SettingsScope,
  pluginRoot?: string,
  events: ReadonlyArray<HookEvent.CustomEvent> = []
): Effect.Effect<DecodedSettings, SettingsError> =>
  Effect.suspend(() => {
    if (!Predicate.isObject(document)) {
      return Effect.fail(
        new SettingsError({ file, path: [], detail: `expected a JSON object with a "hooks" key, got ${describe(document)}` })
      )
    }
    const d = decoding(file, scope, pluginRoot)
    const scalars = { ...decodeScalars(document, d), ...Permissions.decode(document, file, scope, d.problems) }
    const result = (): DecodedSettings => ({
      entries: d.entries,
      ...scalars,
      diagnostics: d.diagnostics,
      warnings: d.diagnostics.map(render),
      errors: d.diagnostics.filter((diagnostic) => diagnostic.severity === "error").map(render),
      ...(d.invalidEntries.length === 0 ? {} : { invalid: d.invalidEntries })
    })
    // Plugin files may be a bare {"<Event>": [...]} object; Claude Code's shape is {"hooks": {...}}.
    const hooks =
      scope === "plugin" && document["hooks"] === undefined && Object.keys(document).some((key) => HookEvent.get(key) !== undefined)
        ? document
        : document["hooks"]
    if (hooks === undefined && document["events"] === undefined) return Effect.succeed(result())
    if (hooks !== undefined && !Predicate.isObject(hooks)) {
      return Effect.fail(
        new SettingsError({
          file,
          path: ["hooks"],
          detail:
            `expected an object mapping event names to arrays of matcher groups, like {"PreToolUse": ` +
            `[{"matcher": "Bash", "hooks": [...]}]}, got ${describe(hooks)}`
        })
      )
    }
    return Effect.map(decodeEvents(document["events"], file, events), (own) => {
      decodeHooks(d, hooks ?? {}, own, events)
      const fresh = [...own.values()].filter(
        (spec) => HookEvent.get(spec.name) === undefined && !events.some((event) => event.name === spec.name)
      )
      return fresh.length === 0 ? result() : { ...result(), events: fresh }
    })
  })
