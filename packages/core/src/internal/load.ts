/**
 * The load stage: finds the settings files (explicit, else the preset's discovery; plugins; managed
 * policy), reads them and the trust store, decodes each with its dialect, and merges them.
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import { SettingsError } from "../HookError.ts"
import type { Preset, PresetContext, PresetFile } from "../PresetModel.ts"
import type { DecodedSettings, HookEntry, LoadedSettings, PlanWarning, SettingsFile } from "../SettingsModel.ts"
import type { LoadOptions } from "../Settings.ts"
import * as HookEvent from "../HookEvent.ts"
import * as LogPath from "../LogPath.ts"
import * as Trust from "../Trust.ts"
import * as TrustInternal from "./trust.ts"
import * as Policy from "./policy.ts"
import { agentHooks } from "./preset.ts"
import * as Registry from "./presets/registry.ts"
import { decode } from "./settings.ts"
import { locate, render, truthyEnv } from "./text.ts"
import { parse as parseTomlText, TomlError } from "smol-toml"

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
          : yield* fs.exists(file.path).pipe(Effect.orElseSucceed(() => false))
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

/** @internal */
export const load = (options: LoadOptions): Effect.Effect<LoadedSettings, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const preset: Preset = options.preset ?? agentHooks
    const events = [...preset.events, ...(options.events ?? [])]
    const context: PresetContext = { projectDir: options.projectDir, cwd: options.cwd, env: options.env, agent: options.agent, events }
    const files: Array<SettingsFile> = []
    // Every warning as data (file, JSON path, message; severity "error" for skipped entries); the lines
    // of `warnings` and `errors` are rendered from it at the end.
    const diagnostics: Array<PlanWarning> = []
    const warn = (file: string | undefined, path: string | undefined, message: string, severity?: "error") =>
      diagnostics.push({ file, path, message, ...(severity === undefined ? {} : { severity }) })
    const errorsSoFar = () => diagnostics.filter((d) => d.severity === "error").map(render)
    let strict = options.strict === true || truthyEnv(options.env, "AGENT_HOOKS_STRICT")
    const entries: Array<HookEntry> = []
    let disableAllHooks = false
    let managedDisable: boolean | undefined
    let allowManagedHooksOnly = false
    // Policy by level: managed, then the user's own files (user, --settings), then the files that travel
    // with a project (project, local). A lower level may only tighten what a higher one set.
    const policy = Policy.make()
    // A value several files set is the highest scope's (managed, user, project, local; the last file
    // among equals): a file lower down never replaces what a higher one set.
    const scalar = <A>(initial: A) => {
      let held = { value: initial, rank: -1 }
      return {
        get: () => held.value,
        set: (scope: string, value: A) => {
          if (Policy.rank(scope) >= held.rank) held = { value, rank: Policy.rank(scope) }
        }
      }
    }
    const sequential = scalar(false)
    const dedupe = scalar(true)
    const inputDefaults = new Map<string, { readonly value: unknown; readonly rank: number }>()
    const auditRedact: Array<string> = []

    /** Files not read, whose hooks do not run (a dialect that goes on without them). */
    const unreadable: Array<string> = []
    const read = (
      file: PresetFile,
      decodeWith: (document: unknown) => Effect.Effect<DecodedSettings, SettingsError>,
      dialectFile = false
    ) =>
      Effect.gen(function* () {
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
        // The copies of the named files an approved file's hooks run: the bytes that were checked.
        let pins: ReadonlyMap<string, string> | undefined
        if (text !== undefined && trust !== undefined && (file.scope === "project" || file.scope === "local")) {
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
            files.push({ path: file.path, scope: file.scope, found: true, heldBack: true })
            if (approvedHere) return
            warn(
              file.path,
              undefined,
              `held back: its hooks are not approved (the file is new or changed since it was approved). ` +
                `Review it, then run: agent-hooks trust --project-dir ${options.projectDir}`
            )
            return
          }
        }
        if (file.scope !== "managed") files.push({ path: file.path, scope: file.scope, found: text !== undefined })
        else managedFiles.push({ path: file.path, scope: file.scope, found: text !== undefined })
        if (text === undefined) return
        const document =
          file.raw === true
            ? { text }
            : yield* (file.format === "toml" ? parseToml(text, file.path) : parseJson(text, file.path)).pipe(
                Effect.catch((error) => {
                  // A dialect that goes on without a broken config (pigo) still says so loudly, as an error:
                  // strict mode and fail-closed make it fail the load, as for every other dialect.
                  if (!dialectFile || preset.unreadableConfig !== "warn" || strict || options.failClosed === true) return Effect.fail(error)
                  const line = `${error.detail}; none of its hooks run (fix the file; --strict or --fail-closed make this an error)`
                  warn(file.path, undefined, line, "error")
                  unreadable.push(`${file.path}: ${line}`)
                  return Effect.succeed(undefined)
                })
              )
        if (document === undefined) return
        const decoded = yield* decodeWith(document)
        // The decoder's own diagnostics where it has them; a line a preset added as text is read back by its file prefix.
        const structured = [...(decoded.diagnostics ?? [])]
        const failed = new Set(decoded.errors ?? [])
        for (const line of decoded.warnings) {
          const index = structured.findIndex((d) => render(d) === line)
          const found = index < 0 ? locate(file.path, line) : structured.splice(index, 1)[0]!
          warn(found.file, found.path, found.message, failed.has(line) ? "error" : undefined)
        }
        // Any file may turn strict mode on (a plugin's too); none can turn it off.
        if (decoded.strict === true) strict = true
        for (const spec of decoded.events ?? []) {
          if (!firstDeclared.has(spec.name)) {
            firstDeclared.set(spec.name, { file: file.path, rules: JSON.stringify(spec) })
            declaredEvents.push(spec)
          }
        }
        // the handlers that could not be decoded travel beside the hooks, under the same rules
        const declared = ownDeclarations([...decoded.entries, ...(decoded.invalid ?? [])], file.path)
        const own = pins === undefined ? declared : pinEntries(declared, pins)
        if (file.scope === "managed") managedEntries.push(...own)
        else entries.push(...own)
        if (file.scope === "managed") {
          if (decoded.requireProjectTrust === true) managedRequiresTrust = true
          if (decoded.disableAllHooks !== undefined) managedDisable = decoded.disableAllHooks
          if (decoded.allowManagedHooksOnly === true) allowManagedHooksOnly = true
        } else if (file.scope === "plugin") {
          // A plugin brings hooks, never policy for the whole engine.
          const scalars = (
            [
              "disableAllHooks",
              "allowedHttpHookUrls",
              "httpHookAllowedEnvVars",
              "allowedCommands",
              "executionLog",
              "auditLog",
              "auditRedact",
              "sequential",
              "dedupe",
              "inputDefaults"
            ] as const
          ).filter((key) => decoded[key] !== undefined)
          if (scalars.length > 0) warn(file.path, undefined, `a plugin cannot set ${scalars.join(", ")}; ignored`)
          return
        } else if (Policy.restricted(file.scope)) {
          // A project file cannot switch the user's hooks off, nor switch on hooks the user switched off:
          // its disableAllHooks turns off the project's and local hooks only.
          if (decoded.disableAllHooks === true) restrictedDisable = file.path
          else if (decoded.disableAllHooks === false && disableAllHooks) {
            warn(
              file.path,
              "disableAllHooks",
              `your user settings turn every hook off; a ${file.scope} settings file cannot turn them back on; ignored`
            )
          }
        } else if (decoded.disableAllHooks !== undefined) {
          // The user's own files: a later one (an explicit file after another) wins.
          disableAllHooks = decoded.disableAllHooks
        }
        policy.add(file.scope, file.path, decoded)
        if (decoded.sequential !== undefined) sequential.set(file.scope, decoded.sequential)
        if (decoded.dedupe !== undefined) dedupe.set(file.scope, decoded.dedupe)
        const logOptions = (key: string) => ({
          scope: file.scope,
          file: file.path,
          key,
          projectDir: options.projectDir,
          extraRoots: preset.logFolders?.(context)
        })
        if (decoded.executionLog !== undefined) {
          // one rule for every log path: a file that may come from a cloned repository logs only inside the project's log folder
          const log = LogPath.check(decoded.executionLog, logOptions("executionLog"))
          if (log._tag === "Allowed") policy.log("executionLog", file.scope, file.path, log.path)
          else warn(...located(file.path, log.message))
        }
        for (const [key, value] of Object.entries(decoded.inputDefaults ?? {})) {
          const rank = Policy.rank(file.scope)
          if (rank >= (inputDefaults.get(key)?.rank ?? -1)) inputDefaults.set(key, { value, rank })
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
          else auditRedact.push(...decoded.auditRedact)
        }
        if (decoded.auditLog !== undefined) {
          // the same rule as executionLog; the audit log is opened once, so the folders on the way are followed now
          const log = LogPath.check(decoded.auditLog, logOptions("auditLog"))
          const leaves =
            log._tag === "Allowed" && log.root !== undefined ? yield* LogPath.verify(log.path, log.root, options.projectDir) : undefined
          if (log._tag === "Refused") warn(...located(file.path, log.message))
          else if (leaves !== undefined) warn(file.path, "auditLog", `${leaves}; ignored`)
          else policy.log("auditLog", file.scope, file.path, log.path)
        }
      })

    // An event only settings files declare (no catalog, preset or host rules) has one set of rules: the first
    // file's. A later file that declares it otherwise could change how the earlier file's hooks block, so its
    // hooks on that event do not run, and say why.
    const firstDeclared = new Map<string, { readonly file: string; readonly rules: string }>()
    const declaredEvents: Array<HookEvent.HookEventSpec> = []
    // A hook whose named files cannot all be replaced by their approved copies is held back.
    const pinEntries = (own: ReadonlyArray<HookEntry>, pins: ReadonlyMap<string, string>): ReadonlyArray<HookEntry> =>
      own.flatMap((entry) => {
        const pinned = TrustInternal.pinHandler(entry.handler, pins, options.projectDir)
        if (pinned === undefined) {
          warn(
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
    const ownDeclarations = (decoded: ReadonlyArray<HookEntry>, file: string): ReadonlyArray<HookEntry> => {
      const refused = new Set<string>()
      const kept = decoded.filter((entry) => {
        if (entry.spec === undefined || HookEvent.get(entry.event) !== undefined || events.some((event) => event.name === entry.event))
          return true
        const rules = JSON.stringify(entry.spec)
        const first = firstDeclared.get(entry.event)
        if (first === undefined) firstDeclared.set(entry.event, { file, rules })
        else if (first.file !== file && first.rules !== rules) {
          if (!refused.has(entry.event)) {
            refused.add(entry.event)
            warn(
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

    // Managed policy first: it decides how the other files are read (requireProjectTrust). Its
    // hooks still come last in config order.
    const managedEntries: Array<HookEntry> = []
    const managedFiles: Array<SettingsFile> = []
    let managedRequiresTrust = false
    let restrictedDisable: string | undefined
    let trust: { readonly approved: ReadonlyMap<string, string>; readonly store: string | undefined } | undefined
    const managedDir = options.managedDir ?? preset.managedDir?.(context)
    if (managedDir !== undefined) {
      const dir = path.resolve(options.cwd, managedDir)
      const main = path.join(dir, "managed-settings.json")
      yield* read({ path: main, scope: "managed", required: false }, (document) => decode(document, main, "managed", undefined, events))
      const dropIns = yield* fs
        .readDirectory(path.join(dir, "managed-settings.d"))
        .pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<string>)))
      for (const name of [...dropIns].filter((name) => name.endsWith(".json")).sort()) {
        const file = path.join(dir, "managed-settings.d", name)
        yield* read({ path: file, scope: "managed", required: true }, (document) => decode(document, file, "managed", undefined, events))
      }
    }
    const envTrust = Trust.requireTrustFromEnv(options.env["AGENT_HOOKS_REQUIRE_TRUST"])
    if (envTrust._tag === "Failure")
      return yield* new SettingsError({ file: "AGENT_HOOKS_REQUIRE_TRUST", path: [], detail: envTrust.message })
    if (options.requireTrust === true || envTrust.value || managedRequiresTrust) {
      const store = Trust.storePath(options.env, path)
      trust = { approved: store === undefined ? new Map() : yield* Trust.approved(store), store }
    }

    const settingsFiles: ReadonlyArray<PresetFile> =
      options.settings !== undefined
        ? options.settings.map((file) => ({ path: path.resolve(options.cwd, file), scope: "explicit", required: true }))
        : preset.discover(context)
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
      const expansion = yield* preset.expand(listed, context, io)
      for (const line of expansion.warnings) warn(line.file, undefined, line.message)
      discovered.push(...expansion.files)
    }
    for (const listed of discovered) {
      // A folder of files (Kiro's .kiro/hooks/*.json, Cline's hook scripts): each file, alphabetically
      const inFolder =
        listed.folder === undefined
          ? [listed]
          : yield* fs.readDirectory(listed.path).pipe(
              Effect.map((names) =>
                [...names]
                  .filter((name) => name.endsWith(listed.folder!.suffix) && !name.startsWith("."))
                  .sort()
                  .map((name): PresetFile => ({ ...listed, path: path.join(listed.path, name), folder: undefined }))
              ),
              Effect.catch(() => Effect.succeed([] as ReadonlyArray<PresetFile>))
            )
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
          const names = yield* fs.readDirectory(parent).pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<string>)))
          for (const name of [...names].filter((name) => !name.startsWith(".")).sort()) {
            next.push({ ...entry, path: `${parent}/${name}${entry.path.slice(star + 2)}` })
          }
        }
        inFolders = next
      }
      for (const entry of inFolders) {
        // A folder of hook files named by a glob (`.github/hooks/*.json`): each file in name order, at the folder's scope
        const expanded = !entry.path.endsWith("/*.json")
          ? [entry]
          : (yield* fs.readDirectory(path.dirname(entry.path)).pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<string>))))
              .filter((name) => name.endsWith(".json"))
              .sort()
              .map((name) => ({ ...entry, path: path.join(path.dirname(entry.path), name) }))
        for (const file of expanded) yield* read(file, (document) => preset.decode(document, file, context), true)
      }
    }
    const unread = options.settings === undefined ? yield* unreadDialects(preset, context, files) : []
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
      yield* read({ path: file, scope: "plugin", required: true }, (document) => decode(document, file, "plugin", root, events))
    }
    entries.push(...managedEntries)
    files.push(...managedFiles)

    const errors = errorsSoFar()
    if (strict && errors.length > 0) {
      return yield* Effect.fail(
        new SettingsError({
          file: errors.length === 1 ? "strict mode" : `strict mode (${errors.length} problems)`,
          path: [],
          detail: `settings entries that cannot be decoded fail the load:\n  ${errors.join("\n  ")}`
        })
      )
    }

    let kept: ReadonlyArray<HookEntry> = entries
    // Scalar precedence: managed settings beat the rest, so a managed false also turns a user's true off.
    const effectiveDisable = managedDisable ?? disableAllHooks
    if (managedDisable === true) {
      kept = []
      const count = entries.filter((entry) => entry.invalid === undefined).length
      if (count > 0) warn(undefined, undefined, `managed settings set disableAllHooks: all ${count} hooks are off`)
    } else if (allowManagedHooksOnly) {
      kept = entries.filter((entry) => entry.scope === "managed")
      const dropped =
        entries.filter((entry) => entry.invalid === undefined).length - kept.filter((entry) => entry.invalid === undefined).length
      if (dropped > 0)
        warn(undefined, undefined, `managed settings set allowManagedHooksOnly: ${dropped} hooks from other settings are ignored`)
    } else if (effectiveDisable) {
      kept = entries.filter((entry) => entry.scope === "managed")
    } else if (restrictedDisable !== undefined) {
      kept = entries.filter((entry) => !Policy.restricted(entry.scope))
      const dropped =
        entries.filter((entry) => entry.invalid === undefined).length - kept.filter((entry) => entry.invalid === undefined).length
      warn(
        restrictedDisable,
        "disableAllHooks",
        `${dropped} project and local hooks are off; the hooks of your user settings, plugins and ` +
          `managed settings still run (a project file cannot switch them off)`
      )
    }
    const merged = policy.merge(warn)
    const hooks: Record<string, Array<HookEntry>> = {}
    for (const entry of kept) if (entry.invalid === undefined) (hooks[entry.event] ??= []).push(entry)
    const invalid = kept.filter((entry) => entry.invalid !== undefined)
    return {
      files,
      hooks,
      disableAllHooks: effectiveDisable,
      allowManagedHooksOnly,
      allowedHttpHookUrls: merged.allowedHttpHookUrls,
      httpHookAllowedEnvVars: merged.httpHookAllowedEnvVars,
      sequential: sequential.get(),
      dedupe: dedupe.get(),
      allowedCommands: merged.allowedCommands,
      executionLog: merged.executionLog,
      ...(inputDefaults.size === 0
        ? {}
        : { inputDefaults: Object.fromEntries([...inputDefaults].map(([key, held]) => [key, held.value])) }),
      strict,
      auditLog: merged.auditLog,
      ...(auditRedact.length === 0 ? {} : { auditRedact }),
      ...(declaredEvents.length === 0 ? {} : { events: declaredEvents }),
      warnings: diagnostics.map(render),
      errors: errorsSoFar(),
      diagnostics,
      ...(invalid.length === 0 ? {} : { invalid }),
      ...(unread.length === 0 ? {} : { unread }),
      ...(unreadable.length === 0 ? {} : { unreadable }),
      ...(trust === undefined ? {} : { trustRequired: true })
    }
  })
