import { Effect, Exit, FileSystem, Path, Schema } from "effect"
import { formatPath, SettingsError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as Matcher from "../Matcher.ts"
import type { Handler, HookEntry, LoadedSettings, LoadOptions, SettingsFile, SettingsScope } from "../Settings.ts"

type JsonPath = ReadonlyArray<string | number>

const describe = (value: unknown): string =>
  value === undefined ? "nothing" : value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const PositiveSeconds = Schema.Number.check(Schema.isGreaterThan(0))

const CommandHandlerSchema = Schema.Struct({
  type: Schema.Literal("command"),
  command: Schema.String.check(Schema.isMinLength(1)),
  args: Schema.optional(Schema.Array(Schema.String)),
  timeout: Schema.optional(PositiveSeconds),
  statusMessage: Schema.optional(Schema.String)
})

/** Handler types this version loads but does not run yet. */
const KNOWN_OTHER_TYPES = new Set(["http", "prompt", "agent", "mcp_tool", "module"])

/**
 * Turns a Schema failure into "path: expected X, got Y" problems, with paths relative to the
 * decoded value (Schema's own message reads `Expected string\n  at ["command"]`).
 */
const schemaProblems = (error: Schema.SchemaError, value: unknown, base: JsonPath): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const pattern = /^(.*)\n\s+at ((?:\[[^\]]*\])+)$/gm
  for (const match of error.message.matchAll(pattern)) {
    const sub: Array<string | number> = []
    for (const segment of match[2]!.matchAll(/\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]/g)) {
      sub.push(segment[1] !== undefined ? JSON.parse(`"${segment[1]}"`) as string : Number(segment[2]))
    }
    let actual: unknown = value
    for (const key of sub) actual = isRecord(actual) || Array.isArray(actual) ? (actual as Record<string | number, unknown>)[key] : undefined
    const expected = match[1]!.replace(/^Expected /, "expected ")
    problems.push(
      expected === "Missing key"
        ? `${formatPath([...base, ...sub])}: missing (required)`
        : `${formatPath([...base, ...sub])}: ${expected}, got ${describe(actual)}`
    )
  }
  return problems.length > 0 ? problems : [`${formatPath(base)}: ${error.message.replace(/\n\s*/g, " ")}`]
}

const decodeHandler = (
  value: unknown,
  path: JsonPath,
  where: string,
  warnings: Array<string>
): Handler | undefined => {
  if (!isRecord(value)) {
    warnings.push(`${where} at ${formatPath(path)}: expected a handler object like {"type": "command", "command": "..."}, got ${describe(value)}; skipped`)
    return undefined
  }
  const type = value["type"]
  if (type === "command") {
    const exit = Schema.decodeUnknownExit(CommandHandlerSchema)(value, { errors: "all", onExcessProperty: "ignore" })
    if (Exit.isFailure(exit)) {
      const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
      const problems = failure !== undefined && failure._tag === "Fail" ? schemaProblems(failure.error, value, path) : [`${formatPath(path)}: invalid handler`]
      warnings.push(`${where} at ${problems.join("; ")} (handler at ${formatPath(path)} skipped)`)
      return undefined
    }
    const handler = exit.value
    if (handler.timeout !== undefined && handler.timeout >= 1000) {
      warnings.push(
        `${where} at ${formatPath([...path, "timeout"])}: timeout ${handler.timeout} is in seconds (${
          Math.round(handler.timeout / 60)
        } minutes); milliseconds? For ${handler.timeout} ms write ${handler.timeout / 1000}`
      )
    }
    return handler
  }
  if (typeof type === "string" && KNOWN_OTHER_TYPES.has(type)) {
    warnings.push(`${where} at ${formatPath(path)}: handler type "${type}" is not supported by this version yet; skipped`)
    return undefined
  }
  warnings.push(
    `${where} at ${formatPath([...path, "type"])}: expected "command" | "http" | "prompt" | "agent" | "mcp_tool" | "module", got ${describe(type)}; skipped`
  )
  return undefined
}

/** @internal */
export const decode = (
  document: unknown,
  file: string,
  scope: SettingsScope
): Effect.Effect<
  { readonly entries: ReadonlyArray<HookEntry>; readonly disableAllHooks: boolean | undefined; readonly warnings: ReadonlyArray<string> },
  SettingsError
> =>
  Effect.suspend(() => {
    if (!isRecord(document)) {
      return Effect.fail(new SettingsError({ file, path: [], detail: `expected a JSON object with a "hooks" key, got ${describe(document)}` }))
    }
    const warnings: Array<string> = []
    const entries: Array<HookEntry> = []
    let disableAllHooks: boolean | undefined
    const disable = document["disableAllHooks"]
    if (disable !== undefined) {
      if (typeof disable === "boolean") disableAllHooks = disable
      else warnings.push(`${file} at disableAllHooks: expected a boolean, got ${describe(disable)}; ignored`)
    }
    const hooks = document["hooks"]
    if (hooks === undefined) return Effect.succeed({ entries, disableAllHooks, warnings })
    if (!isRecord(hooks)) {
      return Effect.fail(
        new SettingsError({
          file,
          path: ["hooks"],
          detail: `expected an object mapping event names to arrays of matcher groups, like {"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}, got ${describe(hooks)}`
        })
      )
    }
    for (const [event, groups] of Object.entries(hooks)) {
      const eventPath: JsonPath = ["hooks", event]
      const spec = HookEvent.get(event)
      if (spec === undefined) {
        const suggestion = HookEvent.suggest(event)
        warnings.push(
          `${file} at ${formatPath(eventPath)}: unknown event "${event}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; skipped`
        )
        continue
      }
      if (!Array.isArray(groups)) {
        warnings.push(`${file} at ${formatPath(eventPath)}: expected an array of matcher groups, got ${describe(groups)}; skipped`)
        continue
      }
      groups.forEach((group: unknown, groupIndex) => {
        const groupPath: JsonPath = [...eventPath, groupIndex]
        if (!isRecord(group)) {
          warnings.push(`${file} at ${formatPath(groupPath)}: expected a matcher group {"matcher": "...", "hooks": [...]}, got ${describe(group)}; skipped`)
          return
        }
        const matcherSource = group["matcher"]
        if (matcherSource !== undefined && typeof matcherSource !== "string") {
          warnings.push(`${file} at ${formatPath([...groupPath, "matcher"])}: expected a string, got ${describe(matcherSource)}; group skipped`)
          return
        }
        const handlers = group["hooks"]
        if (!Array.isArray(handlers)) {
          const hint = typeof group["command"] === "string" ? ` (the handler must sit inside "hooks": [{"type": "command", "command": ...}])` : ""
          warnings.push(`${file} at ${formatPath([...groupPath, "hooks"])}: expected an array of handlers, got ${describe(handlers)}${hint}; group skipped`)
          return
        }
        const compiled = Matcher.compile(matcherSource, event)
        if (compiled.warning !== undefined) warnings.push(`${file} at ${formatPath([...groupPath, "matcher"])}: ${compiled.warning}`)
        if (spec.matcherField === undefined && matcherSource !== undefined && matcherSource !== "" && matcherSource !== "*") {
          warnings.push(`${file} at ${formatPath([...groupPath, "matcher"])}: ${event} does not support matchers; the matcher is ignored and the group always runs`)
        }
        handlers.forEach((value: unknown, handlerIndex) => {
          const path: JsonPath = [...groupPath, "hooks", handlerIndex]
          const handler = decodeHandler(value, path, file, warnings)
          if (handler !== undefined) {
            entries.push({ event, matcher: compiled.matcher, handler, source: file, scope, path: formatPath(path) })
          }
        })
      })
    }
    return Effect.succeed({ entries, disableAllHooks, warnings })
  })

const parseJson = (text: string, file: string): Effect.Effect<unknown, SettingsError> =>
  Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: (error) =>
      new SettingsError({
        file,
        path: [],
        detail: `not valid JSON (${error instanceof Error ? error.message : String(error)}); comments and trailing commas are not allowed`
      })
  })

interface Candidate {
  readonly path: string
  readonly scope: SettingsScope
  readonly required: boolean
}

const candidates = (options: LoadOptions, path: Path.Path): ReadonlyArray<Candidate> => {
  if (options.settings !== undefined) {
    return options.settings.map((file) => ({ path: path.resolve(options.cwd, file), scope: "explicit", required: true }))
  }
  const home = options.env["AGENT_HOOKS_HOME"]
  const userHome = options.env["HOME"]
  const userDir = home !== undefined && home !== "" ? path.resolve(options.cwd, home) : userHome !== undefined && userHome !== "" ? path.join(userHome, ".agent-hooks") : undefined
  const list: Array<Candidate> = []
  if (userDir !== undefined) list.push({ path: path.join(userDir, "settings.json"), scope: "user", required: false })
  list.push({ path: path.join(options.projectDir, ".agent-hooks", "settings.json"), scope: "project", required: false })
  list.push({ path: path.join(options.projectDir, ".agent-hooks", "settings.local.json"), scope: "local", required: false })
  // The same file reached twice (home inside the project) is read once.
  return list.filter((candidate, index) => list.findIndex((other) => other.path === candidate.path) === index)
}

/** @internal */
export const load = (options: LoadOptions): Effect.Effect<LoadedSettings, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const files: Array<SettingsFile> = []
    const warnings: Array<string> = []
    const hooks: Record<string, Array<HookEntry>> = {}
    let disableAllHooks = false
    for (const candidate of candidates(options, path)) {
      const text = yield* fs.readFileString(candidate.path).pipe(
        Effect.map((text): string | undefined => text),
        Effect.catch((error) =>
          !candidate.required && error.reason._tag === "NotFound"
            ? Effect.succeed(undefined)
            : Effect.fail(
              new SettingsError({
                file: candidate.path,
                path: [],
                detail: `cannot read the settings file (${error.reason._tag === "NotFound" ? "no such file" : error.message})`
              })
            )
        )
      )
      files.push({ path: candidate.path, scope: candidate.scope, found: text !== undefined })
      if (text === undefined) continue
      const document = yield* parseJson(text, candidate.path)
      const decoded = yield* decode(document, candidate.path, candidate.scope)
      warnings.push(...decoded.warnings)
      // Scalars: a later file in the merge order (local > project > user; later explicit files) wins.
      if (decoded.disableAllHooks !== undefined) disableAllHooks = decoded.disableAllHooks
      for (const entry of decoded.entries) (hooks[entry.event] ??= []).push(entry)
    }
    return { files, hooks, disableAllHooks, warnings }
  })
