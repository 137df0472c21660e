/**
 * The load stage: finds the settings files (explicit, else the preset's discovery; plugins; managed
 * policy), reads them and the trust store, decodes each with its dialect, and merges them.
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import { SettingsError } from "../HookError.ts"
import type { Preset, PresetContext, PresetFile } from "../PresetModel.ts"
import type { DecodedSettings, HookEntry, LoadedSettings, PermissionEntry, PlanWarning, SettingsFile } from "../SettingsModel.ts"
import type { LoadOptions } from "../Settings.ts"
import * as HookEvent from "../HookEvent.ts"
import * as LogPath from "../LogPath.ts"
import * as Trust from "../Trust.ts"
import * as TrustInternal from "./trust.ts"
import * as Policy from "./policy.ts"
import { agentHooks } from "./preset.ts"
import * as Registry from "./presets/registry.ts"
import { decode } from "./settings.ts"
import * as SettingsSchema from "./settingsSchema.ts"
import { locate, render, truthyEnv } from "./text.ts"
import { parse as parseTomlText, TomlError } from "smol-toml"

/** The keys a plugin's file may not set (it brings hooks, never policy for the whole engine), from their merge rule. */
const pluginMayNotSet = SettingsSchema.keys
  .filter((key) => !SettingsSchema.mergeRules[key.merge].plugins)
  .map((key) => key.name as Exclude<SettingsSchema.SettingsKey, "$schema" | "hooks">)

/** The switches merged by "the highest scope that sets it", with their defaults. */
type HighestScopeKey = "sequential" | "dedupe"
const highestScopeKeys = SettingsSchema.keys.filter((key) => key.merge === "highestScope") as ReadonlyArray<
  SettingsSchema.KeyInfo & { readonly name: HighestScopeKey }
>

/** A warning line that names its file, as the arguments of `warn`. */
const located = (file: string, line: string) => {
  const d = locate(file, line)
  return [d.file, d.path, d.message] as const
}

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

/**
 * Another dialect's settings files this preset does not read (a project with only
 * `.claude/settings.json` under the default preset): looked for when the preset found no project or
 * local file of its own (and the user's files of other dialects when it found no file at all), so
 * that "nothing to run" is never said in silence. The default preset does not read them itself: a
 * host such as Claude Code runs its own files' hooks already (reading them too would run each guard
 * twice), another dialect's hooks expect its own tool names and payloads, and what runs must not
 * change with which files a cloned repository happens to carry.
 */
/**
 * Whether a settings file's text holds hooks of the user's own: a `hooks` key with some command that
 * is not agent-hooks' host mode (the entry `install` writes, `agent-hooks hook --host <agent>`, runs
 * the agent-hooks policy itself). A file without hooks is not worth a word.
 */
const holdsHooks = (text: string): boolean => {
  if (!/hooks/i.test(text)) return false
  const commands = [...text.matchAll(/"?(?:command|bash)"?\s*[:=]\s*"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!)
  return commands.length === 0 ? /"hooks"\s*:\s*\{\s*"/.test(text) : commands.some((command) => !/\bhook --host [a-z]/.test(command))
}

const unreadDialects = (
  preset: Preset,
  context: PresetContext,
  files: ReadonlyArray<SettingsFile>
): Effect.Effect<ReadonlyArray<{ readonly path: string; readonly preset: string }>, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const found = files.filter((file) => file.found)
    if (found.some((file) => file.scope === "project" || file.scope === "local")) return []
    const own = new Set(files.map((file) => file.path))
    const out: Array<{ readonly path: string; readonly preset: string }> = []
    for (const other of Registry.all) {
      if (other.name === preset.name) continue
      let discovered: ReadonlyArray<PresetFile> = []
      try {
        discovered = other.discover(context)
      } catch {
        continue
      }
      for (const file of discovered) {
        const looked = file.scope === "project" || file.scope === "local" || (file.scope === "user" && found.length === 0)
        if (!looked || own.has(file.path) || out.some((seen) => seen.path === file.path)) continue
        // a folder of hook files named by a glob (`.github/hooks/*.json`) is there when it holds one
        const there = file.path.endsWith("/*.json")
          ? (yield* fs
              .readDirectory(file.path.slice(0, -"/*.json".length))
              .pipe(Effect.orElseSucceed(() => [] as ReadonlyArray<string>))).some((name) => name.endsWith(".json"))
          : yield* fs.readFileString(file.path).pipe(
              Effect.map(holdsHooks),
              Effect.orElseSucceed(() => false)
            )
        if (there) out.push({ path: file.path, preset: other.name })
      }
    }
    return out
  })

const parseToml = (text: string, file: string): Effect.Effect<unknown, SettingsError> =>
  Effect.try({
    try: () => parseTomlText(text) as unknown,
    catch: (error) =>
      new SettingsError({
        file,
        path: [],
        detail: `not valid TOML (${
          error instanceof TomlError ? `line ${error.line}, column ${error.column}: ${error.message.split("\n")[0]}` : String(error)
        })`
      })
  })

/** A value several files set: the highest scope's (managed, user, project, local; the last file among equals). */
interface Scalar<A> {
  readonly get: () => A
  readonly set: (scope: string, value: A) => void
}

// A value several files set is the highest scope's (managed, user, project, local; the last file
// among equals): a file lower down never replaces what a higher one set.
const scalar = <A>(initial: A): Scalar<A> => {
  let held = { value: initial, rank: -1 }
  return {
    get: () => held.value,
    set: (scope: string, value: A) => {
      if (Policy.rank(scope) >= held.rank) held = { value, rank: Policy.rank(scope) }
    }
  }
}

/** What a load has found so far: the files, the entries, the warnings and the policy, file by file. */
interface Loading {
  readonly options: LoadOptions
  readonly fs: FileSystem.FileSystem
  readonly path: Path.Path
  readonly preset: Preset
  readonly events: ReadonlyArray<HookEvent.CustomEvent>
  readonly context: PresetContext
  readonly files: Array<SettingsFile>
  // Every warning as data (file, JSON path, message; severity "error" for skipped entries); the lines
  // of `warnings` and `errors` are rendered from it at the end.
  readonly diagnostics: Array<PlanWarning>
  readonly warn: (file: string | undefined, path: string | undefined, message: string, severity?: "error") => void
  strict: boolean
  readonly entries: Array<HookEntry>
  disableAllHooks: boolean
  managedDisable: boolean | undefined
  allowManagedHooksOnly: boolean
  // Policy by level: managed, then the user's own files (user, --settings), then the files that travel
  // with a project (project, local). A lower level may only tighten what a higher one set.
  readonly policy: ReturnType<typeof Policy.make>
  // the switches merged by "the highest scope that sets it" (sequential, dedupe), by key
  readonly highestScope: ReadonlyMap<HighestScopeKey, Scalar<boolean>>
  readonly inputDefaults: Map<string, { readonly value: unknown; readonly rank: number }>
  readonly auditRedact: Array<string>
  // unknownTools: the strictest any file gives
  unknownTools: (typeof SettingsSchema.UNKNOWN_TOOLS)[number] | undefined
  // permission rules: managed files' first (read first), then the others in merge order
  readonly permissions: Array<PermissionEntry>
  /** Files not read, whose hooks do not run (a dialect that goes on without them). */
  readonly unreadable: Array<string>
  // An event only settings files declare (no catalog, preset or host rules) has one set of rules: the first
  // file's. A later file that declares it otherwise could change how the earlier file's hooks block, so its
  // hooks on that event do not run, and say why.
  readonly firstDeclared: Map<string, { readonly file: string; readonly rules: string }>
  readonly declaredEvents: Array<HookEvent.HookEventSpec>
  // Managed policy first: it decides how the other files are read (requireProjectTrust). Its
  // hooks still come last in config order.
  readonly managedEntries: Array<HookEntry>
  readonly managedFiles: Array<SettingsFile>
  managedRequiresTrust: boolean
  restrictedDisable: string | undefined
  trust: { readonly approved: ReadonlyMap<string, string>; readonly store: string | undefined } | undefined
}

const start = (options: LoadOptions, fs: FileSystem.FileSystem, path: Path.Path): Loading => {
  const preset: Preset = options.preset ?? agentHooks
  const events = [...preset.events, ...(options.events ?? [])]
  const diagnostics: Array<PlanWarning> = []
  return {
    options,
    fs,
    path,
    preset,
    events,
    context: { projectDir: options.projectDir, cwd: options.cwd, env: options.env, agent: options.agent, events },
    files: [],
    diagnostics,
    warn: (file, path, message, severity) => {
      diagnostics.push({ file, path, message, ...(severity === undefined ? {} : { severity }) })
    },
    strict: options.strict === true || truthyEnv(options.env, "AGENT_HOOKS_STRICT"),
    entries: [],
    disableAllHooks: false,
    managedDisable: undefined,
    allowManagedHooksOnly: false,
    policy: Policy.make(),
    highestScope: new Map(highestScopeKeys.map((key) => [key.name, scalar(key.default === true)])),
    inputDefaults: new Map(),
    auditRedact: [],
    unknownTools: undefined,
    permissions: [],
    unreadable: [],
    firstDeclared: new Map(),
    declaredEvents: [],
    managedEntries: [],
    managedFiles: [],
    managedRequiresTrust: false,
    restrictedDisable: undefined,
    trust: undefined
  }
}

const errorsSoFar = (state: Loading) => state.diagnostics.filter((d) => d.severity === "error").map(render)

/** A settings file's text; `undefined` when a file that may be missing is. */
const readText = (state: Loading, file: PresetFile): Effect.Effect<string | undefined, SettingsError> =>
  state.fs.readFileString(file.path).pipe(
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

/**
 * Whether a project or local file may run under `requireTrust`: `held` when it is held back (not
 * approved, or its named files cannot be pinned), else the copies of the named files its hooks run
 * (the bytes that were checked), if any.
 */
const trusted = (
  state: Loading,
  file: PresetFile,
  text: string
): Effect.Effect<
  { readonly held: boolean; readonly pins: ReadonlyMap<string, string> | undefined },
  never,
  FileSystem.FileSystem | Path.Path
> =>
  Effect.gen(function* () {
    const { trust, options, warn } = state
    if (trust === undefined || (file.scope !== "project" && file.scope !== "local")) return { held: false, pins: undefined }
    let pins: ReadonlyMap<string, string> | undefined
    const { print, named } = yield* TrustInternal.snapshotFile(file.path, text, options.projectDir)
    const approvedHere = trust.approved.get(file.path) === print
    if (approvedHere && trust.store !== undefined && named.length > 0) {
      pins = yield* TrustInternal.pinFiles(trust.store, named).pipe(
        Effect.catch((error) => {
          warn(file.path, undefined, error.detail)
          return Effect.succeed(undefined)
        })
      )
    }
    if (!approvedHere || (named.length > 0 && pins === undefined)) {
      state.files.push({ path: file.path, scope: file.scope, found: true, heldBack: true })
      if (!approvedHere) {
        warn(
          file.path,
          undefined,
          `held back: its hooks are not approved (the file is new or changed since it was approved). ` +
            `Review it, then run: agent-hooks trust --project-dir ${options.projectDir}`
        )
      }
      return { held: true, pins }
    }
    return { held: false, pins }
  })

/** The parsed document of a file (JSON or TOML, or its raw text); `undefined` for a broken file a dialect goes on without. */
const parseDocument = (state: Loading, file: PresetFile, text: string, dialectFile: boolean): Effect.Effect<unknown, SettingsError> =>
  file.raw === true
    ? Effect.succeed({ text })
    : (file.format === "toml" ? parseToml(text, file.path) : parseJson(text, file.path)).pipe(
        Effect.catch((error) => {
          // A dialect that goes on without a broken config (pigo) still says so loudly, as an error:
          // strict mode and fail-closed make it fail the load, as for every other dialect.
          if (!dialectFile || state.preset.unreadableConfig !== "warn" || state.strict || state.options.failClosed === true)
            return Effect.fail(error)
          const line = `${error.detail}; none of its hooks run (fix the file; --strict or --fail-closed make this an error)`
          state.warn(file.path, undefined, line, "error")
          state.unreadable.push(`${file.path}: ${line}`)
          return Effect.succeed(undefined)
        })
      )

/** The decoder's warnings, as the load's diagnostics. */
const recordWarnings = (state: Loading, file: PresetFile, decoded: DecodedSettings) => {
  // The decoder's own diagnostics where it has them; a line a preset added as text is read back by its file prefix.
  const structured = [...(decoded.diagnostics ?? [])]
  const failed = new Set(decoded.errors ?? [])
  for (const line of decoded.warnings) {
    const index = structured.findIndex((d) => render(d) === line)
    const found = index < 0 ? locate(file.path, line) : structured.splice(index, 1)[0]!
    state.warn(found.file, found.path, found.message, failed.has(line) ? "error" : undefined)
  }
}

/** The file's entries and events, and what its scope lets it decide; `false` when it may set nothing more (a plugin). */
const applyScope = (state: Loading, file: PresetFile, decoded: DecodedSettings, pins: ReadonlyMap<string, string> | undefined) => {
  // Any file may turn strict mode on (a plugin's too); none can turn it off.
  if (decoded.strict === true) state.strict = true
  for (const spec of decoded.events ?? []) {
    if (!state.firstDeclared.has(spec.name)) {
      state.firstDeclared.set(spec.name, { file: file.path, rules: JSON.stringify(spec) })
      state.declaredEvents.push(spec)
    }
  }
  // the handlers that could not be decoded travel beside the hooks, under the same rules
  const declared = ownDeclarations(state, [...decoded.entries, ...(decoded.invalid ?? [])], file.path)
  const own = pins === undefined ? declared : pinEntries(state, declared, pins)
  if (file.scope === "managed") state.managedEntries.push(...own)
  else state.entries.push(...own)
  if (file.scope === "managed") {
    if (decoded.requireProjectTrust === true) state.managedRequiresTrust = true
    if (decoded.disableAllHooks !== undefined) state.managedDisable = decoded.disableAllHooks
    if (decoded.allowManagedHooksOnly === true) state.allowManagedHooksOnly = true
  } else if (file.scope === "plugin") {
    // A plugin brings hooks, never policy for the whole engine.
    const scalars = [...pluginMayNotSet, "inputDefaults" as const].filter((key) => decoded[key] !== undefined)
    if (scalars.length > 0) state.warn(file.path, undefined, `a plugin cannot set ${scalars.join(", ")}; ignored`)
    return false
  } else if (Policy.restricted(file.scope)) {
    // A project file cannot switch the user's hooks off, nor switch on hooks the user switched off:
    // its disableAllHooks turns off the project's and local hooks only.
    if (decoded.disableAllHooks === true) state.restrictedDisable = file.path
    else if (decoded.disableAllHooks === false && state.disableAllHooks) {
      state.warn(
        file.path,
        "disableAllHooks",
        `your user settings turn every hook off; a ${file.scope} settings file cannot turn them back on; ignored`
      )
    }
  } else if (decoded.disableAllHooks !== undefined) {
    // The user's own files: a later one (an explicit file after another) wins.
    state.disableAllHooks = decoded.disableAllHooks
  }
  return true
}

/** The file's policy, scalars, input defaults, logs and redactions, as far as its scope may set them. */
const applyPolicy = (state: Loading, file: PresetFile, decoded: DecodedSettings): Effect.Effect<void, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const { options, warn } = state
    state.policy.add(file.scope, file.path, decoded)
    // Every file's rules count (a project's too: a deny or ask only narrows, an allow lifts nothing).
    if (decoded.permissions !== undefined) state.permissions.push(...decoded.permissions)
    for (const [key, held] of state.highestScope) {
      const value = decoded[key]
      if (value !== undefined) held.set(file.scope, value)
    }
    // a file can tighten unknownTools, never loosen it
    const order = SettingsSchema.UNKNOWN_TOOLS
    if (
      decoded.unknownTools !== undefined &&
      (state.unknownTools === undefined || order.indexOf(decoded.unknownTools) > order.indexOf(state.unknownTools))
    )
      state.unknownTools = decoded.unknownTools
    const logOptions = (key: string) => ({
      scope: file.scope,
      file: file.path,
      key,
      projectDir: options.projectDir,
      extraRoots: state.preset.logFolders?.(state.context)
    })
    if (decoded.executionLog !== undefined) {
      // one rule for every log path: a file that may come from a cloned repository logs only inside the project's log folder
      const log = LogPath.check(decoded.executionLog, logOptions("executionLog"))
      if (log._tag === "Allowed") state.policy.log("executionLog", file.scope, file.path, log.path)
      else warn(...located(file.path, log.message))
    }
    for (const [key, value] of Object.entries(decoded.inputDefaults ?? {})) {
      const rank = Policy.rank(file.scope)
      if (rank >= (state.inputDefaults.get(key)?.rank ?? -1)) state.inputDefaults.set(key, { value, rank })
    }
    // Redaction only hides more, but a pattern runs on every payload: one from a file that comes with
    // the repository could make every dispatch slow (catastrophic backtracking), so only the user's,
    // the --settings files' and managed ones count.
    if (decoded.auditRedact !== undefined) {
      if (Policy.restricted(file.scope))
        warn(
          file.path,
          "auditRedact",
          `a ${file.scope} settings file cannot add audit redaction patterns (each runs on every ` +
            `payload); put them in your user settings; ignored`
        )
      else state.auditRedact.push(...decoded.auditRedact)
    }
    if (decoded.auditLog !== undefined) {
      // the same rule as executionLog; the audit log is opened once, so the folders on the way are followed now
      const log = LogPath.check(decoded.auditLog, logOptions("auditLog"))
      const leaves =
        log._tag === "Allowed" && log.root !== undefined ? yield* LogPath.verify(log.path, log.root, options.projectDir) : undefined
      if (log._tag === "Refused") warn(...located(file.path, log.message))
      else if (leaves !== undefined) warn(file.path, "auditLog", `${leaves}; ignored`)
      else state.policy.log("auditLog", file.scope, file.path, log.path)
    }
  })

/** Reads, parses and decodes one settings file, and adds what it holds to the load. */
const read = (
  state: Loading,
  file: PresetFile,
  decodeWith: (document: unknown) => Effect.Effect<DecodedSettings, SettingsError>,
  dialectFile = false
): Effect.Effect<void, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const text = yield* readText(state, file)
    const { held, pins } = text === undefined ? { held: false, pins: undefined } : yield* trusted(state, file, text)
    if (held) return
    const found = { path: file.path, scope: file.scope, found: text !== undefined }
    if (file.scope !== "managed") state.files.push(found)
    else state.managedFiles.push(found)
    if (text === undefined) return
    const document = yield* parseDocument(state, file, text, dialectFile)
    if (document === undefined) return
    const decoded = yield* decodeWith(document)
    recordWarnings(state, file, decoded)
    if (!applyScope(state, file, decoded, pins)) return
    yield* applyPolicy(state, file, decoded)
  })

// A hook whose named files cannot all be replaced by their approved copies is held back.
const pinEntries = (state: Loading, own: ReadonlyArray<HookEntry>, pins: ReadonlyMap<string, string>): ReadonlyArray<HookEntry> =>
  own.flatMap((entry) => {
    const pinned = TrustInternal.pinHandler(entry.handler, pins, state.options.projectDir)
    if (pinned === undefined) {
      state.warn(
        entry.source,
        entry.path,
        "held back: it names a project file in a way its approved copy cannot replace, so what " +
          "would run might not be what was approved; name the script plainly " +
          '("$CLAUDE_PROJECT_DIR"/hooks/x.sh)'
      )
      return []
    }
    return pinned === entry.handler ? [entry] : [{ ...entry, pinned }]
  })

/** The entries of a file, without those on an event another file declared with other rules. */
const ownDeclarations = (state: Loading, decoded: ReadonlyArray<HookEntry>, file: string): ReadonlyArray<HookEntry> => {
  const refused = new Set<string>()
  const kept = decoded.filter((entry) => {
    if (entry.spec === undefined || HookEvent.get(entry.event) !== undefined || state.events.some((event) => event.name === entry.event))
      return true
    const rules = JSON.stringify(entry.spec)
    const first = state.firstDeclared.get(entry.event)
    if (first === undefined) state.firstDeclared.set(entry.event, { file, rules })
    else if (first.file !== file && first.rules !== rules) {
      if (!refused.has(entry.event)) {
        refused.add(entry.event)
        state.warn(
          file,
          "events",
          `${entry.event} is declared with other rules in ${first.file}; a file cannot redeclare an ` +
            `event another file declared, so this file's ${entry.event} hooks do not run (use another ` +
            `event name, or the same declaration)`
        )
      }
      return false
    }
    return true
  })
  return kept
}

/** The managed policy files: `managed-settings.json`, then `managed-settings.d/*.json` alphabetically. */
const readManaged = (state: Loading): Effect.Effect<void, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const { fs, path, options, events } = state
    const managedDir = options.managedDir ?? state.preset.managedDir?.(state.context)
    if (managedDir === undefined) return
    const dir = path.resolve(options.cwd, managedDir)
    const main = path.join(dir, "managed-settings.json")
    yield* read(state, { path: main, scope: "managed", required: false }, (document) =>
      decode(document, main, "managed", undefined, events)
    )
    const dropIns = yield* fs
      .readDirectory(path.join(dir, "managed-settings.d"))
      .pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<string>)))
    for (const name of [...dropIns].filter((name) => name.endsWith(".json")).sort()) {
      const file = path.join(dir, "managed-settings.d", name)
      yield* read(state, { path: file, scope: "managed", required: true }, (document) =>
        decode(document, file, "managed", undefined, events)
      )
    }
  })

/** The trust store's approvals, when the options, the environment or managed policy require them. */
const readTrust = (state: Loading): Effect.Effect<void, SettingsError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const { options, path } = state
    const envTrust = Trust.requireTrustFromEnv(options.env["AGENT_HOOKS_REQUIRE_TRUST"])
    if (envTrust._tag === "Failure")
      return yield* new SettingsError({ file: "AGENT_HOOKS_REQUIRE_TRUST", path: [], detail: envTrust.message })
    if (options.requireTrust === true || envTrust.value || state.managedRequiresTrust) {
      const store = Trust.storePath(options.env, path)
      state.trust = { approved: store === undefined ? new Map() : yield* Trust.approved(store), store }
    }
  })

/** The files the preset lists (or the explicit ones), expanded by the preset where it reads other files to know. */
const listFiles = (
  state: Loading,
  settingsFiles: ReadonlyArray<PresetFile>
): Effect.Effect<ReadonlyArray<PresetFile>, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const { fs, options, preset } = state
    const io = {
      read: (file: string) => fs.readFileString(file).pipe(Effect.orElseSucceed((): string | undefined => undefined)),
      list: (dir: string) => fs.readDirectory(dir).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
    }
    const discovered: Array<PresetFile> = []
    for (const listed of settingsFiles) {
      // A dialect that reads other files to know what to read (Codex's plugins, from config.toml)
      if (options.settings !== undefined || preset.expand === undefined) {
        discovered.push(listed)
        continue
      }
      const expansion = yield* preset.expand(listed, state.context, io)
      for (const line of expansion.warnings) state.warn(line.file, undefined, line.message)
      discovered.push(...expansion.files)
    }
    return discovered
  })

/** One listed file as the files to read: a folder's files, `*` folders and `*.json` globs expanded, in name order. */
const expandFile = (state: Loading, listed: PresetFile): Effect.Effect<ReadonlyArray<PresetFile>> =>
  Effect.gen(function* () {
    const { fs, path } = state
    const list = (dir: string) => fs.readDirectory(dir).pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<string>)))
    // A folder of files (Kiro's .kiro/hooks/*.json, Cline's hook scripts): each file, alphabetically
    const inFolder =
      listed.folder === undefined
        ? [listed]
        : [...(yield* list(listed.path))]
            .filter((name) => name.endsWith(listed.folder!.suffix) && !name.startsWith("."))
            .sort()
            .map((name): PresetFile => ({ ...listed, path: path.join(listed.path, name), folder: undefined }))
    // Folders named by `*` (Codex's plugins/cache/*/*/*/hooks/hooks.json): every one, in name order
    let inFolders: ReadonlyArray<PresetFile> = inFolder
    while (inFolders.some((entry) => entry.path.includes("/*/"))) {
      const next: Array<PresetFile> = []
      for (const entry of inFolders) {
        const star = entry.path.indexOf("/*/")
        if (star < 0) {
          next.push(entry)
          continue
        }
        const parent = entry.path.slice(0, star)
        for (const name of [...(yield* list(parent))].filter((name) => !name.startsWith(".")).sort()) {
          next.push({ ...entry, path: `${parent}/${name}${entry.path.slice(star + 2)}` })
        }
      }
      inFolders = next
    }
    const files: Array<PresetFile> = []
    for (const entry of inFolders) {
      // A folder of hook files named by a glob (`.github/hooks/*.json`): each file in name order, at the folder's scope
      if (!entry.path.endsWith("/*.json")) files.push(entry)
      else
        files.push(
          ...(yield* list(path.dirname(entry.path)))
            .filter((name) => name.endsWith(".json"))
            .sort()
            .map((name) => ({ ...entry, path: path.join(path.dirname(entry.path), name) }))
        )
    }
    return files
  })

/** The hooks that stay after the switches that turn hooks off (managed first, then the user's, then a project's). */
const keptEntries = (state: Loading): { readonly kept: ReadonlyArray<HookEntry>; readonly disabled: boolean } => {
  const { entries, warn } = state
  const live = (list: ReadonlyArray<HookEntry>) => list.filter((entry) => entry.invalid === undefined).length
  // Scalar precedence: managed settings beat the rest, so a managed false also turns a user's true off.
  const disabled = state.managedDisable ?? state.disableAllHooks
  if (state.managedDisable === true) {
    const count = live(entries)
    if (count > 0) warn(undefined, undefined, `managed settings set disableAllHooks: all ${count} hooks are off`)
    return { kept: [], disabled }
  }
  if (state.allowManagedHooksOnly) {
    const kept = entries.filter((entry) => entry.scope === "managed")
    const dropped = live(entries) - live(kept)
    if (dropped > 0)
      warn(undefined, undefined, `managed settings set allowManagedHooksOnly: ${dropped} hooks from other settings are ignored`)
    return { kept, disabled }
  }
  if (disabled) return { kept: entries.filter((entry) => entry.scope === "managed"), disabled }
  if (state.restrictedDisable !== undefined) {
    const kept = entries.filter((entry) => !Policy.restricted(entry.scope))
    const dropped = live(entries) - live(kept)
    warn(
      state.restrictedDisable,
      "disableAllHooks",
      `${dropped} project and local hooks are off; the hooks of your user settings, plugins and ` +
        `managed settings still run (a project file cannot switch them off)`
    )
    return { kept, disabled }
  }
  return { kept: entries, disabled }
}

/** The loaded settings: the kept hooks by event, the merged policy and every warning. */
const loaded = (state: Loading, unread: ReadonlyArray<{ readonly path: string; readonly preset: string }>): LoadedSettings => {
  const { kept, disabled } = keptEntries(state)
  const merged = state.policy.merge(state.warn)
  const hooks: Record<string, Array<HookEntry>> = {}
  for (const entry of kept) if (entry.invalid === undefined) (hooks[entry.event] ??= []).push(entry)
  const invalid = kept.filter((entry) => entry.invalid !== undefined)
  const { inputDefaults, auditRedact, declaredEvents, unreadable, diagnostics } = state
  return {
    files: state.files,
    hooks,
    disableAllHooks: disabled,
    allowManagedHooksOnly: state.allowManagedHooksOnly,
    allowedHttpHookUrls: merged.allowedHttpHookUrls,
    httpHookAllowedEnvVars: merged.httpHookAllowedEnvVars,
    ...(Object.fromEntries([...state.highestScope].map(([key, held]) => [key, held.get()])) as Record<HighestScopeKey, boolean>),
    allowedCommands: merged.allowedCommands,
    executionLog: merged.executionLog,
    ...(inputDefaults.size === 0 ? {} : { inputDefaults: Object.fromEntries([...inputDefaults].map(([key, held]) => [key, held.value])) }),
    strict: state.strict,
    auditLog: merged.auditLog,
    ...(auditRedact.length === 0 ? {} : { auditRedact }),
    ...(state.unknownTools === undefined ? {} : { unknownTools: state.unknownTools }),
    ...(state.permissions.length === 0 ? {} : { permissions: state.permissions }),
    ...(declaredEvents.length === 0 ? {} : { events: declaredEvents }),
    warnings: diagnostics.map(render),
    errors: errorsSoFar(state),
    diagnostics,
    ...(invalid.length === 0 ? {} : { invalid }),
    ...(unread.length === 0 ? {} : { unread }),
    ...(unreadable.length === 0 ? {} : { unreadable }),
    ...(state.trust === undefined ? {} : { trustRequired: true })
  }
}

/** @internal */
export const load = (options: LoadOptions): Effect.Effect<LoadedSettings, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const state = start(options, fs, path)
    const { preset, context, events, warn } = state
    // Managed policy first: it decides how the other files are read (requireProjectTrust).
    yield* readManaged(state)
    yield* readTrust(state)
    const settingsFiles: ReadonlyArray<PresetFile> =
      options.settings !== undefined
        ? options.settings.map((file) => ({ path: path.resolve(options.cwd, file), scope: "explicit", required: true }))
        : preset.discover(context)
    for (const listed of yield* listFiles(state, settingsFiles)) {
      for (const file of yield* expandFile(state, listed)) {
        yield* read(state, file, (document) => preset.decode(document, file, context), true)
      }
    }
    const unread =
      options.settings === undefined && options.otherDialects !== "ignore" ? yield* unreadDialects(preset, context, state.files) : []
    for (const other of unread) {
      warn(
        other.path,
        undefined,
        `settings of the ${other.preset} dialect, which the ${preset.name} preset does not read: ` +
          `its hooks do not run. Use the ${other.preset} preset (--preset ${other.preset}, API: ` +
          `preset: "${other.preset}"), or move the hooks to ` +
          `${settingsFiles.find((file) => file.scope === "project")?.path ?? "this preset's project file"}`
      )
    }
    for (const plugin of options.plugins ?? []) {
      const root = path.resolve(options.cwd, plugin)
      const file = path.join(root, "hooks", "hooks.json")
      yield* read(state, { path: file, scope: "plugin", required: true }, (document) => decode(document, file, "plugin", root, events))
    }
    // The managed hooks come last in config order.
    state.entries.push(...state.managedEntries)
    state.files.push(...state.managedFiles)
    const errors = errorsSoFar(state)
    if (state.strict && errors.length > 0) {
      return yield* Effect.fail(
        new SettingsError({
          file: errors.length === 1 ? "strict mode" : `strict mode (${errors.length} problems)`,
          path: [],
          detail: `settings entries that cannot be decoded fail the load:\n  ${errors.join("\n  ")}`
        })
      )
    }
    return loaded(state, unread)
  })
