import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import type { EngineOptions } from "../HookEngine.ts"
import type { SettingsError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as Matcher from "../Matcher.ts"
import * as PermissionRule from "../PermissionRule.ts"
import * as Placeholder from "../Placeholder.ts"
import type { HookExplanation, Plan, PlanJson, PlannedEvent, PlannedHook, PlanWarning, Snapshot } from "../Plan.ts"
import type { CedarHandler, Handler, HookEntry } from "../Settings.ts"
import * as Settings from "../Settings.ts"
import { agentHooks } from "./preset.ts"
import { byName, resolve as resolvePreset } from "./presets/registry.ts"
import * as PosixPath from "./posixPath.ts"
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
      return JSON.stringify(["command", expand(handler.command), handler.args?.map(expand) ?? null, handler.shell ?? null, handler.env ?? null])
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

/** Programmatic hooks become entries like any other, after the settings hooks of their event. */
const callbackEntries = (options: EngineOptions): Record<string, Array<HookEntry>> => {
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
  const names = source.split(NARROW_EVENTS.has(event) ? /\|/ : /[|,]/).map((part) => part.trim()).filter((part) => part !== "")
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
      if (names.every((name) => matcher.test(name))) for (const name of names) (exact.get(name) ?? exact.set(name, []).get(name)!).push(hook.id)
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
  const preset = typeof options.preset === "string" ? byName(options.preset) ?? agentHooks : options.preset ?? agentHooks
  const declared = new Map([...preset.events, ...(options.events ?? [])].map((event) => [event.name, HookEvent.custom(event)]))
  // Events only settings files declare are known even with no hook on them (the first file's rules).
  for (const spec of loaded.events ?? []) if (!declared.has(spec.name) && HookEvent.get(spec.name) === undefined) declared.set(spec.name, spec)
  const specOf = (event: string): HookEvent.HookEventSpec => declared.get(event) ?? HookEvent.get(event) ?? HookEvent.custom({ name: event })
  const warnings: Array<PlanWarning> = []
  const allowedCommands = loaded.allowedCommands === undefined ? undefined : new Set(loaded.allowedCommands)
  const pluginDataDir = (root: string): string => {
    const home = env["AGENT_HOOKS_HOME"] ?? (env["HOME"] === undefined ? PosixPath.join(root, ".data") : PosixPath.join(env["HOME"], ".agent-hooks"))
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
  for (const event of new Set([...Object.keys(loaded.hooks), ...Object.keys(programmatic)])) {
    const entries = [...(loaded.hooks[event] ?? []), ...(programmatic[event] ?? [])]
    // A settings file's own declaration of the event rules its own hooks; it rules the whole event only
    // when every hook of the event has that same declaration (or the event has no other rules at all).
    const owned = entries.map((entry) => entry.spec === undefined ? undefined : JSON.stringify(entry.spec))
    const firstOwn = entries.find((entry) => entry.spec !== undefined)?.spec
    const known = declared.get(event) ?? HookEvent.get(event)
    const spec = firstOwn !== undefined && (known === undefined || owned.every((rules) => rules === owned[0])) ? firstOwn : specOf(event)
    const hooks: Array<PlannedHook> = []
    for (const entry of entries) {
      const handler = entry.handler
      const own = entry.spec ?? spec
      const file = entry.source === "(programmatic)" ? undefined : entry.source
      if ((handler.type === "prompt" || handler.type === "agent") && !own.promptHandlers) {
        warnings.push({ file, path: entry.path, message: `${handler.type} hooks cannot run on ${event} (use command, http or mcp_tool); skipped` })
        continue
      }
      let rule: PermissionRule.PermissionRule | undefined
      if (handler.if !== undefined) {
        // A broken rule, or a rule on an event without tools, warns and its handler never runs.
        const parsed = PermissionRule.parse(handler.if)
        if (parsed._tag === "Failure") {
          warnings.push({ file, path: `${entry.path}.if`, message: `${parsed.message}; the handler never runs` })
          continue
        }
        if (!TOOL_EVENTS.has(own.behavesAs)) {
          warnings.push({ file, path: `${entry.path}.if`, message: `"if" applies only to tool events; on ${event} this handler never runs` })
          continue
        }
        rule = parsed.rule
      }
      warnings.push(...ScriptCheck.check(entry, file, TOOL_EVENTS.has(spec.behavesAs), snapshot.scripts, ScriptCheck.scriptPath(entry, projectDir, preset.projectDirEnv, env["HOME"]), preset.toolNames))
      hooks.push({
        id: id++,
        entry,
        rule,
        display: display(handler),
        timeout: handler.timeout ?? defaultTimeout(handler, own),
        async: handler.type === "command" && (handler.async === true || handler.asyncRewake === true),
        once: handler.once === true,
        // Identical handlers among an event's matched hooks run once, across groups and settings files;
        // plugin and programmatic hooks stay separate.
        dedupKey: loaded.dedupe && entry.scope !== "plugin" ? dedupKey(handler, hookEnv) : undefined,
        refusal: refusal(handler, allowedCommands),
        extraEnv: entry.pluginRoot === undefined
          ? undefined
          : { CLAUDE_PLUGIN_ROOT: entry.pluginRoot, CLAUDE_PLUGIN_DATA: pluginDataDir(entry.pluginRoot) }
      })
    }
    events.set(event, indexEvent(spec, hooks))
  }

  const override = envNumber(env, "AGENT_HOOKS_SESSIONEND_HOOKS_TIMEOUT_MS", "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
  const pluginRoots = new Set(Object.values(loaded.hooks).flatMap((entries) => entries.flatMap((entry) => entry.pluginRoot ?? [])))
  return {
    settings: {
      ...loaded,
      warnings: [...loaded.warnings, ...warnings.map(render)],
      // the settings' warnings and the compile's as one list of data, in the order of `warnings`
      diagnostics: [...(loaded.diagnostics ?? loaded.warnings.map((message) => ({ file: undefined, path: undefined, message }))), ...warnings]
    },
    preset,
    events,
    declared,
    warnings,
    projectDir,
    cwd: snapshot.cwd,
    env: hookEnv,
    home: env["HOME"],
    sequential: options.sequential ?? loaded.sequential,
    failClosed: options.failClosed === true || truthyEnv(env, "AGENT_HOOKS_FAIL_CLOSED"),
    stopBlockCap: options.stopBlockCap ?? envNumber(env, "AGENT_HOOKS_STOP_HOOK_BLOCK_CAP", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP") ?? 8,
    sessionEndOverride: override === undefined ? undefined : override / 1000,
    pluginDataDirs: [...pluginRoots].map(pluginDataDir),
    hookedEvents: new Set([...events].filter(([, planned]) => planned.hooks.length > 0).map(([event]) => event))
  }
}

/** A warning as one line: `file at path: message`. */
export const render = (warning: PlanWarning): string => renderLine(warning)

/** @internal */
export const load = (options: EngineOptions): Effect.Effect<Snapshot, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
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
      strict: options.strict
    })
    // The mode of every script a command hook names, for validate's "missing or not executable".
    const fs = yield* FileSystem.FileSystem
    const paths = new Set<string>()
    for (const entry of Object.values(settings.hooks).flat()) {
      const script = ScriptCheck.scriptPath(entry, projectDir, preset.projectDirEnv, env["HOME"])
      if (script !== undefined) paths.add(script)
    }
    // one stat per distinct script, several at a time (one after another they cost a round trip each)
    const states = yield* Effect.forEach([...paths], (script) =>
      fs.stat(script).pipe(
        Effect.map((info): ScriptCheck.ScriptState =>
          info.type !== "File" ? "not-a-file" : (info.mode & 0o111) === 0 ? "not-executable" : "ok"
        ),
        Effect.catch(() => Effect.succeed<ScriptCheck.ScriptState>("missing")),
        Effect.map((state) => [script, state] as const)
      ), { concurrency: 16 })
    const scripts = new Map<string, ScriptCheck.ScriptState>(states)
    return { settings, options: { ...options, preset }, projectDir, cwd, scripts }
  })

/** @internal */
export const make = (options: EngineOptions): Effect.Effect<Plan, SettingsError, FileSystem.FileSystem | Path.Path> =>
  Effect.map(load(options), compile)

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
export const hostToolName = (spec: HookEvent.HookEventSpec, payload: Readonly<Record<string, unknown>>, value: string | undefined): string | undefined => {
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
  if (memo === undefined) testedMemo.set(planned, memo = new Map())
  if (memo.size >= MEMO_LIMIT) memo.clear()
  memo.set(key, found)
  return found
}

/**
 * The hooks that run for one dispatch, in config order: matcher, `if` rule, `once` (ids in `ran`)
 * and dedup (the first matched copy of an identical handler) applied.
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
  const seen = new Set<string>()
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
    // Claude Code dedups after matcher filtering: the first matched copy runs, whichever group or file.
    if (hook.dedupKey !== undefined) {
      if (seen.has(hook.dedupKey)) {
        onSkip?.(hook, "duplicate", tested)
        continue
      }
      seen.add(hook.dedupKey)
    }
    selected.push(hook)
  }
  return selected
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
      why: skip === undefined
        ? hook.refusal !== undefined ? `refused by policy: ${hook.refusal}` : hook.async ? "matched; runs in the background" : "matched"
        : skip.reason === "matcher"
        ? `matcher ${JSON.stringify(hook.entry.matcher.source ?? "")} does not match ${JSON.stringify(skip.value ?? "")}`
        : skip.reason === "if"
        ? `"if" rule ${JSON.stringify(hook.entry.handler.if ?? "")} does not match`
        : skip.reason === "once"
        ? "\"once\": it ran already in this engine"
        : "an identical hook matched earlier (deduplicated)"
    }
  })
}

/** The request a `cedar` hook makes of its policies, as `list --plan` shows it. */
const cedarRequest = (handler: CedarHandler) => ({
  policies: handler.policiesPath,
  entities: handler.entitiesPath ?? null,
  schema: handler.schemaPath ?? null,
  principal: "Agent::\"<session_id>\"",
  action: "Action::\"<hook_event_name>\"",
  resource: "Target::\"<tool target: tool_input.file_path|path|notebook_path|command|url|pattern, else tool_name>\" {path, tool}",
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
  warnings: plan.warnings
})
