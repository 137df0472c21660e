import { Effect, Exit, FileSystem, Path, Predicate, Schema } from "effect"
import { formatPath, SettingsError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as Matcher from "../Matcher.ts"
import type { Preset, PresetContext, PresetFile } from "../Preset.ts"
import type { DecodedSettings, Handler, HookEntry, LoadedSettings, LoadOptions, SettingsFile, SettingsScope } from "../Settings.ts"
import { agentHooks } from "./preset.ts"
import * as PosixPath from "./posixPath.ts"
import { describe } from "./text.ts"
import type { JsonPath } from "./text.ts"
import * as Trust from "../Trust.ts"



const PositiveSeconds = Schema.Number.check(Schema.isGreaterThan(0))
const NonEmpty = Schema.String.check(Schema.isMinLength(1))

const common = {
  timeout: Schema.optional(PositiveSeconds),
  statusMessage: Schema.optional(Schema.String),
  if: Schema.optional(Schema.String),
  onFailure: Schema.optional(Schema.Literals(["continue", "block"])),
  once: Schema.optional(Schema.Boolean)
}

const HANDLER_SCHEMAS = {
  command: Schema.Struct({
    type: Schema.Literal("command"),
    command: NonEmpty,
    args: Schema.optional(Schema.Array(Schema.String)),
    shell: Schema.optional(Schema.Literals(["bash", "sh", "powershell"])),
    async: Schema.optional(Schema.Boolean),
    asyncRewake: Schema.optional(Schema.Boolean),
    env: Schema.optional(Schema.Record(Schema.String, Schema.String)),
    ...common
  }),
  http: Schema.Struct({
    type: Schema.Literal("http"),
    url: NonEmpty,
    headers: Schema.optional(Schema.Record(Schema.String, Schema.String)),
    allowedEnvVars: Schema.optional(Schema.Array(Schema.String)),
    ...common
  }),
  prompt: Schema.Struct({
    type: Schema.Literal("prompt"),
    prompt: NonEmpty,
    model: Schema.optional(Schema.String),
    continueOnBlock: Schema.optional(Schema.Boolean),
    ...common
  }),
  agent: Schema.Struct({
    type: Schema.Literal("agent"),
    prompt: NonEmpty,
    model: Schema.optional(Schema.String),
    continueOnBlock: Schema.optional(Schema.Boolean),
    ...common
  }),
  mcp_tool: Schema.Struct({
    type: Schema.Literal("mcp_tool"),
    server: NonEmpty,
    tool: NonEmpty,
    input: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
    ...common
  }),
  module: Schema.Struct({
    type: Schema.Literal("module"),
    module: NonEmpty,
    export: Schema.optional(NonEmpty),
    ...common
  })
} as const

type HandlerType = keyof typeof HANDLER_SCHEMAS
const HANDLER_TYPES = Object.keys(HANDLER_SCHEMAS) as ReadonlyArray<HandlerType>

/** POSIX path resolution without a runtime (settings paths are POSIX here). */

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
    for (const key of sub) actual = Predicate.isObject(actual) || Array.isArray(actual) ? (actual as Record<string | number, unknown>)[key] : undefined
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
  if (!Predicate.isObject(value)) {
    warnings.push(`${where} at ${formatPath(path)}: expected a handler object like {"type": "command", "command": "..."}, got ${describe(value)}; skipped`)
    return undefined
  }
  const type = value["type"]
  if (typeof type !== "string" || !(HANDLER_TYPES as ReadonlyArray<string>).includes(type)) {
    warnings.push(
      `${where} at ${formatPath([...path, "type"])}: expected ${HANDLER_TYPES.map((t) => `"${t}"`).join(" | ")}, got ${describe(type)}; skipped`
    )
    return undefined
  }
  const exit = Schema.decodeUnknownExit(HANDLER_SCHEMAS[type as HandlerType] as Schema.Codec<unknown>)(value, { errors: "all", onExcessProperty: "ignore" })
  if (Exit.isFailure(exit)) {
    const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
    const problems = failure !== undefined && failure._tag === "Fail" ? schemaProblems(failure.error, value, path) : [`${formatPath(path)}: invalid handler`]
    warnings.push(`${where} at ${problems.join("; ")} (handler at ${formatPath(path)} skipped)`)
    return undefined
  }
  const decoded = exit.value as Record<string, unknown> & { readonly timeout?: number }
  if (decoded.timeout !== undefined && decoded.timeout >= 1000) {
    warnings.push(
      `${where} at ${formatPath([...path, "timeout"])}: timeout ${decoded.timeout} is in seconds (${
        Math.round(decoded.timeout / 60)
      } minutes); milliseconds? For ${decoded.timeout} ms write ${decoded.timeout / 1000}`
    )
  }
  if (type === "module") {
    const module = decoded["module"] as string
    return {
      ...decoded,
      export: (decoded["export"] as string | undefined) ?? "default",
      modulePath: PosixPath.resolve(PosixPath.dirname(where), module)
    } as Handler
  }
  return decoded as unknown as Handler
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
      return Effect.fail(new SettingsError({ file, path: [], detail: `expected a JSON object with a "hooks" key, got ${describe(document)}` }))
    }
    const warnings: Array<string> = []
    const entries: Array<HookEntry> = []
    const flag = (key: string): boolean | undefined => {
      const value = document[key]
      if (value === undefined || typeof value === "boolean") return value
      warnings.push(`${file} at ${key}: expected a boolean, got ${describe(value)}; ignored`)
      return undefined
    }
    const disableAllHooks = flag("disableAllHooks")
    const allowManagedHooksOnly = flag("allowManagedHooksOnly")
    if (allowManagedHooksOnly !== undefined && scope !== "managed") {
      warnings.push(`${file} at allowManagedHooksOnly: only managed settings can set this; ignored`)
    }
    const requireProjectTrust = flag("requireProjectTrust")
    if (requireProjectTrust !== undefined && scope !== "managed") {
      warnings.push(`${file} at requireProjectTrust: only managed settings can set this; ignored`)
    }
    const strings = (key: string, what: string): ReadonlyArray<string> | undefined => {
      const value = document[key]
      if (value === undefined) return undefined
      if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as ReadonlyArray<string>
      warnings.push(`${file} at ${key}: expected an array of ${what} (strings), got ${describe(value)}; ignored`)
      return undefined
    }
    const allowedHttpHookUrls = strings("allowedHttpHookUrls", "URL patterns")
    const httpHookAllowedEnvVars = strings("httpHookAllowedEnvVars", "environment variable names")
    const sequential = flag("sequential")
    const dedupe = flag("dedupe")
    const allowedCommands = strings("allowedCommands", "command names")
    let executionLog: string | undefined
    const log = document["executionLog"]
    if (log !== undefined) {
      if (typeof log === "string" && log !== "") executionLog = PosixPath.resolve(PosixPath.dirname(file), log)
      else warnings.push(`${file} at executionLog: expected a file path (string), got ${describe(log)}; ignored`)
    }
    const result = (): DecodedSettings => ({
      entries,
      disableAllHooks,
      allowManagedHooksOnly: scope === "managed" ? allowManagedHooksOnly : undefined,
      requireProjectTrust: scope === "managed" ? requireProjectTrust : undefined,
      allowedHttpHookUrls,
      httpHookAllowedEnvVars,
      sequential,
      dedupe,
      allowedCommands,
      executionLog,
      warnings
    })
    // Plugin files may be a bare {"<Event>": [...]} object; Claude Code's shape is {"hooks": {...}}.
    const hooks = scope === "plugin" && document["hooks"] === undefined && Object.keys(document).some((key) => HookEvent.get(key) !== undefined)
      ? document
      : document["hooks"]
    if (hooks === undefined) return Effect.succeed(result())
    if (!Predicate.isObject(hooks)) {
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
      const declared = events.find((custom) => custom.name === event)
      const spec = declared === undefined ? HookEvent.get(event) : HookEvent.custom(declared)
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
        if (!Predicate.isObject(group)) {
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
            entries.push({ event, matcher: compiled.matcher, handler, source: file, scope, path: formatPath(path), pluginRoot })
          }
        })
      })
    }
    return Effect.succeed(result())
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

/** @internal */
export const load = (options: LoadOptions): Effect.Effect<LoadedSettings, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const preset: Preset = options.preset ?? agentHooks
    const events = [...preset.events, ...(options.events ?? [])]
    const context: PresetContext = { projectDir: options.projectDir, cwd: options.cwd, env: options.env, agent: options.agent, events }
    const files: Array<SettingsFile> = []
    const warnings: Array<string> = []
    const entries: Array<HookEntry> = []
    let disableAllHooks = false
    let managedDisable: boolean | undefined
    let allowManagedHooksOnly = false
    let allowedHttpHookUrls: ReadonlyArray<string> | undefined
    let managedUrls: ReadonlyArray<string> | undefined
    let httpHookAllowedEnvVars: ReadonlyArray<string> | undefined
    let managedEnvVars: ReadonlyArray<string> | undefined
    let sequential = false
    let dedupe = true
    let allowedCommands: ReadonlyArray<string> | undefined
    let managedCommands: ReadonlyArray<string> | undefined
    let executionLog: string | undefined

    const read = (file: PresetFile, decodeWith: (document: unknown) => Effect.Effect<DecodedSettings, SettingsError>) =>
      Effect.gen(function*() {
        const text = yield* fs.readFileString(file.path).pipe(
          Effect.map((text): string | undefined => text),
          Effect.catch((error) =>
            !file.required && error.reason._tag === "NotFound"
              ? Effect.succeed(undefined)
              : Effect.fail(
                new SettingsError({
                  file: file.path,
                  path: [],
                  detail: `cannot read the settings file (${error.reason._tag === "NotFound" ? "no such file" : error.message})`
                })
              )
          )
        )
        if (text !== undefined && trust !== undefined && (file.scope === "project" || file.scope === "local")) {
          const print = yield* Trust.fingerprint(text)
          if (trust.approved.get(file.path) !== print) {
            files.push({ path: file.path, scope: file.scope, found: true, heldBack: true })
            warnings.push(
              `${file.path}: held back: its hooks are not approved (the file is new or changed since it was approved). Review it, then run: agent-hooks trust --project-dir ${options.projectDir}`
            )
            return
          }
        }
        if (file.scope !== "managed") files.push({ path: file.path, scope: file.scope, found: text !== undefined })
        else managedFiles.push({ path: file.path, scope: file.scope, found: text !== undefined })
        if (text === undefined) return
        const document = yield* parseJson(text, file.path)
        const decoded = yield* decodeWith(document)
        warnings.push(...decoded.warnings)
        if (file.scope === "managed") managedEntries.push(...decoded.entries)
        else entries.push(...decoded.entries)
        if (file.scope === "managed") {
          if (decoded.requireProjectTrust === true) managedRequiresTrust = true
          if (decoded.disableAllHooks !== undefined) managedDisable = decoded.disableAllHooks
          if (decoded.allowManagedHooksOnly === true) allowManagedHooksOnly = true
          if (decoded.allowedHttpHookUrls !== undefined) managedUrls = decoded.allowedHttpHookUrls
          if (decoded.allowedCommands !== undefined) managedCommands = decoded.allowedCommands
          if (decoded.httpHookAllowedEnvVars !== undefined) managedEnvVars = decoded.httpHookAllowedEnvVars
        } else if (file.scope === "plugin") {
          // A plugin brings hooks, never policy for the whole engine.
          const scalars = (["disableAllHooks", "allowedHttpHookUrls", "httpHookAllowedEnvVars", "allowedCommands", "executionLog", "sequential", "dedupe"] as const)
            .filter((key) => decoded[key] !== undefined)
          if (scalars.length > 0) warnings.push(`${file.path}: a plugin cannot set ${scalars.join(", ")}; ignored`)
          return
        } else {
          if (decoded.httpHookAllowedEnvVars !== undefined) httpHookAllowedEnvVars = decoded.httpHookAllowedEnvVars
          // Scalars: a later file in the merge order (local > project > user; later explicit files) wins.
          if (decoded.disableAllHooks !== undefined) disableAllHooks = decoded.disableAllHooks
          if (decoded.allowedHttpHookUrls !== undefined) allowedHttpHookUrls = decoded.allowedHttpHookUrls
          if (decoded.allowedCommands !== undefined) allowedCommands = decoded.allowedCommands
        }
        if (decoded.sequential !== undefined) sequential = decoded.sequential
        if (decoded.dedupe !== undefined) dedupe = decoded.dedupe
        if (decoded.executionLog !== undefined) executionLog = decoded.executionLog
      })

    // Managed policy first: it decides how the other files are read (requireProjectTrust). Its
    // hooks still come last in config order.
    const managedEntries: Array<HookEntry> = []
    const managedFiles: Array<SettingsFile> = []
    let managedRequiresTrust = false
    let trust: { readonly approved: ReadonlyMap<string, string> } | undefined
    const managedDir = options.managedDir ?? preset.managedDir?.(context)
    if (managedDir !== undefined) {
      const dir = path.resolve(options.cwd, managedDir)
      const main = path.join(dir, "managed-settings.json")
      yield* read({ path: main, scope: "managed", required: false }, (document) => decode(document, main, "managed", undefined, events))
      const dropIns = yield* fs.readDirectory(path.join(dir, "managed-settings.d")).pipe(
        Effect.catch(() => Effect.succeed([] as ReadonlyArray<string>))
      )
      for (const name of [...dropIns].filter((name) => name.endsWith(".json")).sort()) {
        const file = path.join(dir, "managed-settings.d", name)
        yield* read({ path: file, scope: "managed", required: true }, (document) => decode(document, file, "managed", undefined, events))
      }
    }
    const envTrust = options.env["AGENT_HOOKS_REQUIRE_TRUST"]
    if (options.requireTrust === true || envTrust === "1" || envTrust === "true" || managedRequiresTrust) {
      const store = Trust.storePath(options.env, path)
      trust = { approved: store === undefined ? new Map() : yield* Trust.approved(store) }
    }

    const settingsFiles: ReadonlyArray<PresetFile> = options.settings !== undefined
      ? options.settings.map((file) => ({ path: path.resolve(options.cwd, file), scope: "explicit", required: true }))
      : preset.discover(context)
    for (const file of settingsFiles) yield* read(file, (document) => preset.decode(document, file, context))
    for (const plugin of options.plugins ?? []) {
      const root = path.resolve(options.cwd, plugin)
      const file = path.join(root, "hooks", "hooks.json")
      yield* read({ path: file, scope: "plugin", required: true }, (document) => decode(document, file, "plugin", root, events))
    }
    entries.push(...managedEntries)
    files.push(...managedFiles)

    let kept: ReadonlyArray<HookEntry> = entries
    // Scalar precedence: managed settings beat the rest, so a managed false also turns a user's true off.
    const effectiveDisable = managedDisable ?? disableAllHooks
    if (managedDisable === true) {
      kept = []
      if (entries.length > 0) warnings.push(`managed settings set disableAllHooks: all ${entries.length} hooks are off`)
    } else if (allowManagedHooksOnly) {
      kept = entries.filter((entry) => entry.scope === "managed")
      const dropped = entries.length - kept.length
      if (dropped > 0) warnings.push(`managed settings set allowManagedHooksOnly: ${dropped} hooks from other settings are ignored`)
    } else if (effectiveDisable) {
      kept = entries.filter((entry) => entry.scope === "managed")
    }
    const hooks: Record<string, Array<HookEntry>> = {}
    for (const entry of kept) (hooks[entry.event] ??= []).push(entry)
    return {
      files,
      hooks,
      disableAllHooks: effectiveDisable,
      allowManagedHooksOnly,
      allowedHttpHookUrls: managedUrls ?? allowedHttpHookUrls,
      httpHookAllowedEnvVars: managedEnvVars ?? httpHookAllowedEnvVars,
      sequential,
      dedupe,
      allowedCommands: managedCommands ?? allowedCommands,
      executionLog,
      warnings
    }
  })
