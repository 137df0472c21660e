import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import { SettingsError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as Matcher from "../Matcher.ts"
import * as PermissionRule from "../PermissionRule.ts"
import * as Placeholder from "../Placeholder.ts"
import type { HookExplanation, Plan, PlanJson, PlannedEvent, PlannedHook, PlanOptions, PlanWarning, Snapshot } from "../Plan.ts"
import type { CedarHandler, Handler, HookEntry } from "../SettingsModel.ts"
import * as Settings from "../Settings.ts"
import { agentHooks } from "./preset.ts"
import { byName, resolve as resolvePreset } from "./presets/registry.ts"
import * as HookEnv from "./hookEnv.ts"
import * as Permissions from "./permissions.ts"
import * as Policy from "./policy.ts"
import * as PosixPath from "./posixPath.ts"
import * as ProgramPath from "./programPath.ts"
import * as RegularFiles from "./regularFiles.ts"
import * as ScriptCheck from "./scriptCheck.ts"
import { render as renderLine, truthyEnv } from "./text.ts"

/** Events a handler's `if` rule applies to; on any other event a handler with `if` never runs. */
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"])
/** Matchers made only of names are exact lists; on these events the set is narrower and split on `|` only. */
const NARROW_EVENTS = new Set(["FileChanged", "StopFailure"])

/** Default timeout of a handler type on an event, in seconds: prompt 30 s, agent 60 s, else the event's. */
export const defaultTimeout = (handler: Handler, spec: HookEvent.HookEventSpec): number =>
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
    case "cedar":
      return `cedar ${handler.policies}`
    case "callback":
      return `callback ${handler.name}`
  }
}

/** The dedup key: type and command + args | url | server + tool | prompt, the well-known placeholders (project folder) expanded. */
const dedupKey = (handler: Handler, env: Readonly<Record<string, string>>): string | undefined => {
  // A handler that names its own identity (a dialect's dedup key) is keyed by that alone.
  if (handler.type !== "callback" && handler.dedupeKey !== undefined) return JSON.stringify(["key", handler.dedupeKey])
  const expand = (text: string) => Placeholder.expandText(text, { env, input: {} })
  switch (handler.type) {
    case "command":
      return JSON.stringify([
        "command",
        expand(handler.command),
        handler.args?.map(expand) ?? null,
        handler.shell ?? null,
        handler.env ?? null
      ])
    case "http":
      return JSON.stringify(["http", handler.url])
    case "prompt":
    case "agent":
      return JSON.stringify([handler.type, handler.prompt])
    case "mcp_tool":
      return JSON.stringify(["mcp_tool", handler.server, handler.tool])
    case "module":
      return JSON.stringify(["module", handler.modulePath, handler.export])
    case "cedar":
      return JSON.stringify(["cedar", handler.policiesPath, handler.entitiesPath ?? null, handler.schemaPath ?? null])
    case "callback":
      return undefined
  }
}

/**
 * A hook gets the engine's secrets only where a user asks for it: a command hook's `passEnv`, and an
 * http hook's `allowedEnvVars` entries that name a secret, in a project, local or plugin file (a
 * cloned repository's) are dropped, with a warning; the hook runs without them.
 */
const secretsAsked = (
  entry: HookEntry,
  env: Readonly<Record<string, string>>,
  file: string | undefined,
  warnings: Array<PlanWarning>
): HookEntry => {
  const handler = entry.handler
  if (HookEnv.mayPassSecrets(entry.scope)) return entry
  const refuse = (key: string, names: ReadonlyArray<string>) =>
    warnings.push({
      file,
      path: `${entry.path}.${key}`,
      message:
        `${key} (${names.join(", ")}) is ignored in ${entry.scope} settings: only the user's own, ` +
        `managed or --settings files may hand the engine's secrets to a hook; the hook runs ` +
        `without them`
    })
  if (handler.type === "command" && handler.passEnv !== undefined && handler.passEnv.length > 0) {
    refuse("passEnv", handler.passEnv)
    const { passEnv: _dropped, ...rest } = handler
    return { ...entry, handler: rest }
  }
  if (handler.type === "http" && handler.allowedEnvVars !== undefined) {
    const secrets = handler.allowedEnvVars.filter((name) => HookEnv.isEngineSecret(name, env[name] ?? ""))
    if (secrets.length === 0) return entry
    refuse("allowedEnvVars", secrets)
    return { ...entry, handler: { ...handler, allowedEnvVars: handler.allowedEnvVars.filter((name) => !secrets.includes(name)) } }
  }
  return entry
}

const basename = (file: string): string => {
  const trimmed = file.replace(/\/+$/, "")
  return trimmed.slice(trimmed.lastIndexOf("/") + 1)
}

const envNumber = (env: Readonly<Record<string, string | undefined>>, ...names: ReadonlyArray<string>): number | undefined => {
  for (const name of names) {
    const value = env[name]
    if (value !== undefined && value !== "" && Number.isFinite(Number(value))) return Number(value)
  }
  return undefined
}

/** The command allowlist policy: a refused hook never starts; its result says why. */
const refusal = (handler: Handler, allowed: ReadonlySet<string> | undefined): string | undefined => {
  if (allowed === undefined || handler.type !== "command") return undefined
  // A bare name is looked up on PATH; a path must be listed as written (`/tmp/x/printf` is not `printf`).
  if (handler.args === undefined) {
    return `shell-form hooks are refused while allowedCommands is set (a shell can run anything); use "args" (exec form)`
  }
  return allowed.has(handler.command) ? undefined : `command "${handler.command}" is not in allowedCommands (${[...allowed].join(", ")})`
}

/** Why a hook can never run as written: where (JSON path), what, and whether the engine refuses to start it. */
export interface NeverRuns {
  readonly path: string
  readonly message: string
  /** What the hook's result says when it is refused (its stderr). */
  readonly reason: string
  /**
   * `true`: the engine never starts it (its result is a failure with this message). `false`: what
   * is missing is outside the settings (a script, a program on PATH), so it is started and fails with
   * exit 126 or 127 until the file is there.
   */
  readonly refuse: boolean
}

/**
 * The one definition of "this hook can never run": a handler that could not be decoded, a handler
 * type or an `if` rule its event cannot take, an `if` rule that does not parse (or is over the
 * limit), a command `allowedCommands` refuses, a script that is missing or not executable, a bare
 * command that is not on PATH. `validate` exits 1 on it, strict mode refuses to start, and with
 * failClosed the event blocks (the hook's failure is a block).
 */
export const neverRuns = (
  entry: HookEntry,
  spec: HookEvent.HookEventSpec,
  parsed: ReturnType<typeof PermissionRule.parse> | undefined,
  allowed: ReadonlySet<string> | undefined,
  snapshot: Pick<Snapshot, "scripts" | "commands" | "projectDir" | "options">,
  projectDirEnv: ReadonlyArray<string>,
  home: string | undefined
): NeverRuns | undefined => {
  const handler = entry.handler
  const never = (path: string, message: string, refuse: boolean, reason = message): NeverRuns => ({ path, message, reason, refuse })
  if (entry.invalid !== undefined) return never(entry.path, `${entry.invalid}; the hook never runs`, true)
  if ((handler.type === "prompt" || handler.type === "agent") && !spec.promptHandlers) {
    return never(
      entry.path,
      `${handler.type} hooks cannot run on ${entry.event} (use command, http or mcp_tool); the hook never runs`,
      true
    )
  }
  if (parsed !== undefined && parsed._tag === "Failure") return never(`${entry.path}.if`, `${parsed.message}; the handler never runs`, true)
  if (parsed !== undefined && !TOOL_EVENTS.has(spec.behavesAs)) {
    return never(`${entry.path}.if`, `"if" applies only to tool events; on ${entry.event} this handler never runs`, true)
  }
  const refused = refusal(handler, allowed)
  if (refused !== undefined) return never(`${entry.path}.command`, `refused by policy: ${refused}; the hook never runs`, true, refused)
  const script = ScriptCheck.scriptPath(entry, snapshot.projectDir, projectDirEnv, home)
  const bad = script === undefined ? undefined : ScriptCheck.scriptProblem(script, snapshot.scripts?.get(script))
  if (bad !== undefined) return never(`${entry.path}.command`, bad, false)
  const interpreted = interpretedProblem(entry, snapshot)
  if (interpreted !== undefined) return never(`${entry.path}.command`, interpreted, false)
  const program = ScriptCheck.bareProgram(entry)
  if (program !== undefined && snapshot.commands?.get(program) === false) {
    const path = snapshot.options.env?.["PATH"] ?? ""
    return never(
      `${entry.path}.command`,
      `"${program}" is not on PATH (${path}): the hook would fail with exit 127 and guard nothing; install it, or write its full path`,
      false
    )
  }
  return undefined
}

/** The script an interpreter is given (`python3 hooks/x.py`), when it is not there: read, so no run bit is needed. */
const interpretedProblem = (entry: HookEntry, snapshot: Pick<Snapshot, "scripts" | "projectDir">): string | undefined => {
  const script = ProgramPath.interpreterScript(entry, snapshot.projectDir)
  const state = script === undefined ? undefined : snapshot.scripts?.get(script)
  return state === "missing"
    ? `${script} does not exist: the hook would fail and guard nothing`
    : state === "not-a-file"
      ? `${script} is not a file: the hook would fail and guard nothing`
      : undefined
}

/**
 * The entry as it runs: its relative program made absolute against the root of its scope (the
 * handler as written stays for display and matching). A trust-pinned copy keeps what the handler
 * lost to policy (`passEnv` in a project file).
 */
const runsAs = (entry: HookEntry, projectDir: string): HookEntry => {
  const written = entry.handler
  if (written.type !== "command") return entry
  const pinned = entry.pinned?.type === "command" ? entry.pinned : undefined
  const base =
    pinned === undefined
      ? written
      : written.passEnv === undefined && pinned.passEnv !== undefined
        ? (({ passEnv: _dropped, ...rest }) => rest)(pinned)
        : pinned
  const resolved = ProgramPath.resolveHandler(base, ProgramPath.rootOf(entry, projectDir))
  return resolved === written ? entry : { ...entry, pinned: resolved }
}

/** Programmatic hooks become entries like any other, after the settings hooks of their event. */
const callbackEntries = (options: PlanOptions): Record<string, Array<HookEntry>> => {
  const out: Record<string, Array<HookEntry>> = {}
  for (const [event, groups] of Object.entries(options.hooks ?? {})) {
    groups.forEach((group, groupIndex) => {
      const matcher = Matcher.compile(group.matcher, event, "trusted").matcher // engine options are the host's own
      group.hooks.forEach((callback, index) => {
        ;(out[event] ??= []).push({
          event,
          matcher,
          handler: { type: "callback", callback, name: callback.name || `${event}[${groupIndex}][${index}]`, timeout: group.timeout },
          source: "(programmatic)",
          scope: "explicit",
          path: `hooks.${event}[${groupIndex}].hooks[${index}]`
        })
      })
    })
  }
  return out
}

/** The names an exact matcher lists (`"Write|Edit"`), with `Task` and `Agent` standing for each other. */
const exactNames = (source: string, event: string): ReadonlyArray<string> => {
  const names = source
    .split(NARROW_EVENTS.has(event) ? /\|/ : /[|,]/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
  return names.flatMap((name) => (name === "Task" || name === "Agent" ? ["Task", "Agent"] : [name]))
}

const indexEvent = (spec: HookEvent.HookEventSpec, hooks: ReadonlyArray<PlannedHook>): PlannedEvent => {
  let always = spec.matcherField === undefined
  const exact = new Map<string, Array<number>>()
  const tested: Array<PlannedHook> = []
  for (const hook of hooks) {
    const matcher = hook.entry.matcher
    // A hook whose file declares another matcher field is tested on its own field, in select.
    if (hook.entry.spec !== undefined && hook.entry.spec.matcherField !== spec.matcherField) always = true
    else if (matcher.kind === "all") always = true
    else if (matcher.kind === "regex") tested.push(hook)
    else if (matcher.kind === "exact" && matcher.source !== undefined) {
      const names = exactNames(matcher.source, spec.name)
      // The index must agree with the matcher; when it cannot be sure, the matcher is tested instead.
      if (names.every((name) => matcher.test(name)))
        for (const name of names) (exact.get(name) ?? exact.set(name, []).get(name)!).push(hook.id)
      else tested.push(hook)
    }
  }
  return { spec, hooks, always, exact, tested }
}

/** @internal */
export const compile = (snapshot: Snapshot): Plan => {
  const { settings: loaded, options, projectDir } = snapshot
  const env = options.env ?? {}
  // load resolves a preset given by name; a snapshot built by hand may still carry one.
  const preset = typeof options.preset === "string" ? (byName(options.preset) ?? agentHooks) : (options.preset ?? agentHooks)
  const declared = new Map([...preset.events, ...(options.events ?? [])].map((event) => [event.name, HookEvent.custom(event)]))
  // Events only settings files declare are known even with no hook on them (the first file's rules).
  for (const spec of loaded.events ?? [])
    if (!declared.has(spec.name) && HookEvent.get(spec.name) === undefined) declared.set(spec.name, spec)
  const specOf = (event: string): HookEvent.HookEventSpec =>
    declared.get(event) ?? HookEvent.get(event) ?? HookEvent.custom({ name: event })
  const warnings: Array<PlanWarning> = []
  const allowedCommands = loaded.allowedCommands === undefined ? undefined : new Set(loaded.allowedCommands)
  const pluginDataDir = (root: string): string => {
    const home =
      env["AGENT_HOOKS_HOME"] ?? (env["HOME"] === undefined ? PosixPath.join(root, ".data") : PosixPath.join(env["HOME"], ".agent-hooks"))
    return PosixPath.join(home, "plugins", "data", basename(root))
  }

  const hookEnv: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) hookEnv[key] = value
  hookEnv["AGENT_HOOKS_PROJECT_DIR"] = projectDir
  hookEnv["CLAUDE_PROJECT_DIR"] = projectDir
  for (const name of preset.projectDirEnv) hookEnv[name] = projectDir
  const events = new Map<string, PlannedEvent>()
  const programmatic = callbackEntries(options)
  let id = 0
  // Handlers that could not be decoded are hooks that never start, in their event.
  const invalid: Record<string, Array<HookEntry>> = {}
  for (const entry of loaded.invalid ?? []) (invalid[entry.event] ??= []).push(entry)
  for (const event of new Set([...Object.keys(loaded.hooks), ...Object.keys(invalid), ...Object.keys(programmatic)])) {
    const entries = [...(loaded.hooks[event] ?? []), ...(invalid[event] ?? []), ...(programmatic[event] ?? [])]
    // A settings file's own declaration of the event rules its own hooks; it rules the whole event only
    // when every hook of the event has that same declaration (or the event has no other rules at all).
    const owned = entries.map((entry) => (entry.spec === undefined ? undefined : JSON.stringify(entry.spec)))
    const firstOwn = entries.find((entry) => entry.spec !== undefined)?.spec
    const known = declared.get(event) ?? HookEvent.get(event)
    const spec = firstOwn !== undefined && (known === undefined || owned.every((rules) => rules === owned[0])) ? firstOwn : specOf(event)
    const hooks: Array<PlannedHook> = []
    for (const written of entries) {
      const file = written.source === "(programmatic)" ? undefined : written.source
      const entry = runsAs(secretsAsked(written, hookEnv, file, warnings), projectDir)
      const handler = entry.handler
      const own = entry.spec ?? spec
      const parsed = handler.if === undefined || entry.invalid !== undefined ? undefined : PermissionRule.parse(handler.if)
      const never = neverRuns(entry, own, parsed, allowedCommands, snapshot, preset.projectDirEnv, env["HOME"])
      // decode already reported an invalid entry (in the settings' errors)
      if (never !== undefined && entry.invalid === undefined)
        warnings.push({ file, path: never.path, message: never.message, severity: "error" })
      if (entry.invalid === undefined) warnings.push(...ScriptCheck.check(entry, file, TOOL_EVENTS.has(spec.behavesAs), preset.toolNames))
      // A hook refused here never starts: each dispatch it matches gets its failure (failClosed: a
      // block), every time (not once), never deduplicated against a hook that can run.
      const refused = never?.refuse === true ? never.reason : undefined
      hooks.push({
        id: id++,
        entry,
        rule: refused === undefined && parsed?._tag === "Success" ? parsed.rule : undefined,
        display: display(handler),
        timeout: handler.timeout ?? defaultTimeout(handler, own),
        async: handler.type === "command" && (handler.async === true || handler.asyncRewake === true),
        once: refused === undefined && handler.once === true,
        // Identical handlers among an event's matched hooks run once, across groups and settings files;
        // plugin and programmatic hooks stay separate.
        // keyed by what runs: ./guard.sh of the user's and of a project's settings are two files
        dedupKey:
          refused === undefined && loaded.dedupe && entry.scope !== "plugin" ? dedupKey(entry.pinned ?? handler, hookEnv) : undefined,
        refusal: refused,
        extraEnv:
          entry.pluginRoot === undefined
            ? undefined
            : { CLAUDE_PLUGIN_ROOT: entry.pluginRoot, CLAUDE_PLUGIN_DATA: entry.pluginData ?? pluginDataDir(entry.pluginRoot) }
      })
    }
    events.set(event, indexEvent(spec, hooks))
  }

  const permissions = Permissions.compile(loaded.permissions)
  const override = envNumber(env, "AGENT_HOOKS_SESSIONEND_HOOKS_TIMEOUT_MS", "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
  const pluginDataDirs = new Set(
    Object.values(loaded.hooks).flatMap((entries) =>
      entries.flatMap((entry) => (entry.pluginRoot === undefined ? [] : [entry.pluginData ?? pluginDataDir(entry.pluginRoot)]))
    )
  )
  return {
    settings: {
      ...loaded,
      warnings: [...loaded.warnings, ...warnings.map(render)],
      // the settings' warnings and the compile's as one list of data, in the order of `warnings`
      diagnostics: [
        ...(loaded.diagnostics ?? loaded.warnings.map((message) => ({ file: undefined, path: undefined, message }))),
        ...warnings
      ]
    },
    preset,
    events,
    declared,
    warnings,
    projectDir,
    cwd: snapshot.cwd,
    env: hookEnv,
    home: env["HOME"],
    realpath: options.realpath,
    sequential: options.sequential ?? loaded.sequential,
    failClosed: options.failClosed === true || truthyEnv(env, "AGENT_HOOKS_FAIL_CLOSED"),
    blockUnjudged: options.blockUnjudged === true,
    stopBlockCap: options.stopBlockCap ?? envNumber(env, "AGENT_HOOKS_STOP_HOOK_BLOCK_CAP", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP") ?? 8,
    sessionEndOverride: override === undefined ? undefined : override / 1000,
    pluginDataDirs: [...pluginDataDirs],
    hookedEvents: new Set([
      ...[...events].filter(([, planned]) => planned.hooks.length > 0).map(([event]) => event),
      // the events the permissions rules judge count as hooked: a host that skips the others must dispatch them
      ...(permissions?.active === true
        ? [...Permissions.EVENTS, ...[...declared].filter(([, spec]) => Permissions.EVENTS.has(spec.behavesAs)).map(([name]) => name)]
        : [])
    ]),
    permissions
  }
}

/**
 * What the Outcome of a dispatch that runs no hook says when another dialect's settings files lie
 * unread (`LoadedSettings.unread`): "nothing to run" is never said in silence.
 */
export const nothingRan = (plan: Plan): ReadonlyArray<string> =>
  (plan.settings.unread ?? []).map(
    (other) =>
      `no hook ran, but ${other.path} (settings of the ${other.preset} dialect) is not read by ` +
      `the ${plan.preset.name} preset: its hooks do not run (use the ${other.preset} preset)`
  )

/** A warning as one line: `file at path: message`. */
export const render = (warning: PlanWarning): string => renderLine(warning)

/** @internal */
export const load = (options: PlanOptions): Effect.Effect<Snapshot, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    // A preset by name (`preset: "wingman"`) is the built-in one; an unknown name is a settings error.
    const preset = yield* resolvePreset(options.preset)
    const env = options.env ?? {}
    const cwd = path.resolve(options.cwd ?? options.projectDir ?? ".")
    const projectDir = path.resolve(cwd, options.projectDir ?? ".")
    const settings = yield* Settings.load({
      settings: options.settings,
      projectDir,
      cwd,
      env,
      plugins: options.plugins,
      managedDir: options.managedDir,
      events: options.events,
      preset,
      agent: options.agent,
      requireTrust: options.requireTrust,
      strict: options.strict,
      failClosed: options.failClosed === true || truthyEnv(env, "AGENT_HOOKS_FAIL_CLOSED"),
      otherDialects: options.otherDialects
    })
    // The mode of every script a command hook names, for validate's "missing or not executable".
    const fs = yield* FileSystem.FileSystem
    const paths = new Set<string>()
    for (const entry of Object.values(settings.hooks).flat()) {
      const script = ScriptCheck.scriptPath(entry, projectDir, preset.projectDirEnv, env["HOME"])
      if (script !== undefined) paths.add(script)
      const interpreted = ProgramPath.interpreterScript(entry, projectDir)
      if (interpreted !== undefined) paths.add(interpreted)
    }
    // one stat per distinct script, several at a time (one after another they cost a round trip each)
    const states = yield* Effect.forEach(
      [...paths],
      (script) =>
        fs.stat(script).pipe(
          Effect.map(
            (info): ScriptCheck.ScriptState => (info.type !== "File" ? "not-a-file" : (info.mode & 0o111) === 0 ? "not-executable" : "ok")
          ),
          Effect.catch(() => Effect.succeed<ScriptCheck.ScriptState>("missing")),
          Effect.map((state) => [script, state] as const)
        ),
      { concurrency: 16 }
    )
    const scripts = new Map<string, ScriptCheck.ScriptState>(states)
    // Whether each bare command is on the hooks' PATH, for validate's "not on PATH". Known only when
    // some folder of PATH could be read: else nothing is said.
    const programs = new Set<string>()
    for (const entry of Object.values(settings.hooks).flat()) {
      const program = ScriptCheck.bareProgram(entry)
      if (program !== undefined) programs.add(program)
    }
    const folders = (env["PATH"] ?? "").split(":").filter((dir) => dir.startsWith("/"))
    const commands = new Map<string, boolean>()
    if (programs.size > 0 && folders.length > 0) {
      const readable = yield* Effect.filter(
        folders,
        (dir) =>
          fs.stat(dir).pipe(
            Effect.map((info) => info.type === "Directory"),
            Effect.orElseSucceed(() => false)
          ),
        { concurrency: 16 }
      )
      if (readable.length > 0) {
        yield* Effect.forEach(
          [...programs],
          (program) =>
            Effect.map(
              Effect.forEach(readable, (dir) =>
                fs.stat(path.join(dir, program)).pipe(
                  Effect.map((info) => info.type !== "Directory" && (info.mode & 0o111) !== 0),
                  Effect.orElseSucceed(() => false)
                )
              ),
              (found) => void commands.set(program, found.some(Boolean))
            ),
          { concurrency: 4 }
        )
      }
    }
    return { settings, options: { ...options, preset }, projectDir, cwd, scripts, commands }
  })

/**
 * Loads and compiles. In strict mode a hook that can never run (`neverRuns`) fails the load, as a
 * settings entry that cannot be decoded does.
 * @internal
 */
export const make = (options: PlanOptions): Effect.Effect<Plan, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(RegularFiles.within(load(options)), (snapshot) => {
    const plan = compile(snapshot)
    const errors = plan.warnings.filter((warning) => warning.severity === "error").map(render)
    if (!plan.settings.strict || errors.length === 0) return Effect.succeed(plan)
    return Effect.fail(
      new SettingsError({
        file: errors.length === 1 ? "strict mode" : `strict mode (${errors.length} problems)`,
        path: [],
        detail: `hooks that can never run fail the load:\n  ${errors.join("\n  ")}`
      })
    )
  })

/** The event's spec: declared by the preset or host, else the catalog's; `undefined` for an unknown event. */
export const specOf = (plan: Plan, event: string): HookEvent.HookEventSpec | undefined =>
  plan.events.get(event)?.spec ?? plan.declared.get(event) ?? HookEvent.get(event)

/** The value a matcher is tested against, or `undefined` when every group runs. */
export const matchValue = (spec: HookEvent.HookEventSpec, payload: Readonly<Record<string, unknown>>): string | undefined => {
  if (spec.matcherField === undefined) return undefined
  const value = payload[spec.matcherField]
  if (value === undefined || value === null || value === "") return undefined
  const text = typeof value === "string" ? value : String(value)
  return spec.name === "FileChanged" ? basename(text) : text
}

/**
 * The agent's own name for the tool, when host mode translated it (`payload.host.tool_name`, e.g.
 * Gemini CLI's `run_shell_command` for `Bash`): a matcher naming either one matches. It only adds
 * matches, never removes one.
 */
export const hostToolName = (
  spec: HookEvent.HookEventSpec,
  payload: Readonly<Record<string, unknown>>,
  value: string | undefined
): string | undefined => {
  if (spec.matcherField !== "tool_name" || value === undefined) return undefined
  const host = payload["host"]
  if (typeof host !== "object" || host === null) return undefined
  const name = (host as Record<string, unknown>)["tool_name"]
  return typeof name === "string" && name !== "" && name !== value ? name : undefined
}

/** Values a regular-expression matcher was tested against, per event: matchers are pure, and agents call a few tools. */
const testedMemo = new WeakMap<PlannedEvent, Map<string, boolean>>()
/** A payload value is attacker-controlled: the memo forgets everything past this size. */
const MEMO_LIMIT = 256

/** @internal */
export const matches = (plan: Plan, event: string, payload: Readonly<Record<string, unknown>>): boolean => {
  const planned = plan.events.get(event)
  if (planned === undefined || planned.hooks.length === 0) return false
  if (planned.always) return true
  const value = matchValue(planned.spec, payload)
  if (value === undefined || planned.exact.has(value)) return true
  const alias = hostToolName(planned.spec, payload, value)
  if (alias !== undefined && planned.exact.has(alias)) return true
  if (planned.tested.length === 0) return false
  const key = alias === undefined ? value : `${value}\u0000${alias}`
  let memo = testedMemo.get(planned)
  const known = memo?.get(key)
  if (known !== undefined) return known
  const found = planned.tested.some((hook) => hook.entry.matcher.test(value) || (alias !== undefined && hook.entry.matcher.test(alias)))
  if (memo === undefined) testedMemo.set(planned, (memo = new Map()))
  if (memo.size >= MEMO_LIMIT) memo.clear()
  memo.set(key, found)
  return found
}

/**
 * The hooks that run for one dispatch, in config order: matcher, `if` rule, `once` (ids in `ran`)
 * and dedup (of identical handlers, the highest scope's matched copy) applied.
 */
export const select = (
  plan: Plan,
  planned: PlannedEvent,
  payload: Readonly<Record<string, unknown>>,
  ran: ReadonlySet<number>,
  // told why each hook that does not run was left out (`explain`); dispatch passes nothing
  onSkip?: (hook: PlannedHook, reason: SkipReason, value: string | undefined) => void
): ReadonlyArray<PlannedHook> => {
  const value = matchValue(planned.spec, payload)
  // Identical hooks (one dedup key) run once: the copy of the highest scope (managed, user, project,
  // local; the first in config order among equals), so that a lower scope's copy of a hook, with its
  // own async, timeout or onFailure, never stands in for a higher scope's.
  let held: Map<string, { readonly hook: PlannedHook; readonly tested: string | undefined }> | undefined
  let displaced: Set<PlannedHook> | undefined
  const selected: Array<PlannedHook> = []
  for (const hook of planned.hooks) {
    const own = hook.entry.spec
    const tested = own === undefined || own.matcherField === planned.spec.matcherField ? value : matchValue(own, payload)
    const alias = hostToolName(own ?? planned.spec, payload, tested)
    if (tested !== undefined && !hook.entry.matcher.test(tested) && !(alias !== undefined && hook.entry.matcher.test(alias))) {
      onSkip?.(hook, "matcher", tested)
      continue
    }
    if (hook.rule !== undefined) {
      const toolName = typeof payload["tool_name"] === "string" ? payload["tool_name"] : ""
      const cwd = typeof payload["cwd"] === "string" ? payload["cwd"] : plan.projectDir
      if (!PermissionRule.matches(hook.rule, toolName, payload["tool_input"], { cwd, projectDir: plan.projectDir, home: plan.home })) {
        onSkip?.(hook, "if", tested)
        continue
      }
    }
    if (hook.once && ran.has(hook.id)) {
      onSkip?.(hook, "once", tested)
      continue
    }
    // Claude Code dedups after matcher filtering: a copy whose matcher or `if` did not match hides nothing.
    if (hook.dedupKey !== undefined) {
      const first = (held ??= new Map()).get(hook.dedupKey)
      if (first !== undefined) {
        if (Policy.rank(hook.entry.scope) <= Policy.rank(first.hook.entry.scope)) {
          onSkip?.(hook, "duplicate", tested)
          continue
        }
        ;(displaced ??= new Set()).add(first.hook)
        onSkip?.(first.hook, "duplicate", first.tested)
      }
      held.set(hook.dedupKey, { hook, tested })
    }
    selected.push(hook)
  }
  return displaced === undefined ? selected : selected.filter((hook) => !displaced.has(hook))
}

/** Why a hook of the event does not run for a payload. @internal */
export type SkipReason = "matcher" | "if" | "once" | "duplicate"

/** @internal */
export const explain = (
  plan: Plan,
  event: string,
  payload: Readonly<Record<string, unknown>>,
  ran: ReadonlySet<number> = new Set()
): ReadonlyArray<HookExplanation> => {
  const planned = plan.events.get(event)
  if (planned === undefined) return []
  const skipped = new Map<number, { reason: SkipReason; value: string | undefined }>()
  const selected = new Set(select(plan, planned, payload, ran, (hook, reason, value) => skipped.set(hook.id, { reason, value })))
  return planned.hooks.map((hook): HookExplanation => {
    const skip = skipped.get(hook.id)
    return {
      id: hook.id,
      command: hook.display,
      matcher: hook.entry.matcher.source ?? null,
      source: hook.entry.source,
      path: hook.entry.path,
      runs: selected.has(hook) && hook.refusal === undefined,
      why:
        skip === undefined
          ? hook.refusal !== undefined
            ? `never runs: ${hook.refusal}`
            : hook.async
              ? "matched; runs in the background"
              : "matched"
          : skip.reason === "matcher"
            ? `matcher ${JSON.stringify(hook.entry.matcher.source ?? "")} does not match ${JSON.stringify(skip.value ?? "")}`
            : skip.reason === "if"
              ? `"if" rule ${JSON.stringify(hook.entry.handler.if ?? "")} does not match`
              : skip.reason === "once"
                ? '"once": it ran already in this engine'
                : "an identical hook of the same or a higher scope runs instead (deduplicated)"
    }
  })
}

/** The request a `cedar` hook makes of its policies, as `list --plan` shows it. */
const cedarRequest = (handler: CedarHandler) => ({
  policies: handler.policiesPath,
  entities: handler.entitiesPath ?? null,
  schema: handler.schemaPath ?? null,
  principal: 'Agent::"<session_id>"',
  action: 'Action::"<hook_event_name>"',
  resource: 'Target::"<tool target: tool_input.file_path|path|notebook_path|command|url|pattern, else tool_name>" {path, tool}',
  context: "the hook's input",
  onNoDecision: handler.onNoDecision ?? "deny"
})

/** @internal */
export const toJSON = (plan: Plan): PlanJson => ({
  files: plan.settings.files,
  hooks: [...plan.events.values()].flatMap((planned) =>
    planned.hooks.map((hook) => ({
      id: hook.id,
      event: hook.entry.event,
      matcher: hook.entry.matcher.source ?? null,
      type: hook.entry.handler.type,
      command: hook.display,
      timeout: hook.entry.handler.timeout ?? null,
      effectiveTimeout: hook.timeout,
      source: hook.entry.source,
      scope: hook.entry.scope,
      path: hook.entry.path,
      if: hook.entry.handler.if ?? null,
      async: hook.async,
      once: hook.once,
      refusal: hook.refusal ?? null,
      ...(hook.entry.handler.type === "cedar" ? { cedar: cedarRequest(hook.entry.handler) } : {})
    }))
  ),
  policy: {
    disableAllHooks: plan.settings.disableAllHooks,
    allowManagedHooksOnly: plan.settings.allowManagedHooksOnly,
    allowedHttpHookUrls: plan.settings.allowedHttpHookUrls ?? null,
    httpHookAllowedEnvVars: plan.settings.httpHookAllowedEnvVars ?? null,
    allowedCommands: plan.settings.allowedCommands ?? null,
    sequential: plan.sequential,
    failClosed: plan.failClosed,
    strict: plan.settings.strict,
    dedupe: plan.settings.dedupe,
    stopBlockCap: plan.stopBlockCap,
    executionLog: plan.settings.executionLog ?? null
  },
  ...(plan.permissions === undefined ? {} : { permissions: plan.permissions.rules.map(({ entry }) => entry) }),
  warnings: plan.warnings
})
