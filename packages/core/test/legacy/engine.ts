// @ts-nocheck
// The engine as it was before the Plan (main at a746127), kept only for the property test that compares the two.
import { Effect, FiberSet, FileSystem, Layer, Path, Predicate, Semaphore } from "effect"
import type { Scope } from "effect"
import type { AsyncResult, EngineOptions } from "../../src/HookEngine.ts"
import { HookEngine } from "../../src/HookEngine.ts"
import type { HookError } from "../../src/HookError.ts"
import { PayloadError } from "../../src/HookError.ts"
import * as HookEvent from "../../src/HookEvent.ts"
import * as HookInput from "../../src/HookInput.ts"
import * as HookOutput from "../../src/HookOutput.ts"
import type { ProcessRun } from "../../src/HookRunner.ts"
import * as Matcher from "../../src/Matcher.ts"
import * as Outcome from "../../src/Outcome.ts"
import * as PermissionRule from "../../src/PermissionRule.ts"
import * as Preset from "../../src/Preset.ts"
import { ProcessSpawner } from "../../src/ProcessSpawner.ts"
import type { Handler, HookEntry, LoadedSettings } from "../../src/Settings.ts"
import * as Settings from "../../src/Settings.ts"
import { defaultTimeout, display, execute, MAX_OUTPUT_BYTES } from "./execute.ts"
import { makeRun } from "../../src/internal/runner.ts"


/** Events a handler's `if` rule applies to; on any other event a handler with `if` never runs. */
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"])
/** Events where `onFailure: "block"` is ignored (§3.3). */
const FAIL_OPEN_EVENTS = new Set(["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"])
const STOP_EVENTS = new Set(["Stop", "SubagentStop"])
/** additionalContext, systemMessage and reasons longer than this are cut; the rest goes to a file. */
const MAX_MESSAGE_CHARS = 10_000

const dedupKey = (handler: Handler): string | undefined => {
  switch (handler.type) {
    case "command":
      return JSON.stringify(["command", handler.command, handler.args ?? null, handler.shell ?? null, handler.env ?? null])
    case "http":
      return JSON.stringify(["http", handler.url])
    case "prompt":
    case "agent":
      return JSON.stringify([handler.type, handler.prompt])
    case "mcp_tool":
      return JSON.stringify(["mcp_tool", handler.server, handler.tool])
    case "module":
      return JSON.stringify(["module", handler.modulePath, handler.export])
    case "callback":
      return undefined
  }
}

/** The value a matcher is tested against, or `undefined` when every group runs. */
const matchValue = (spec: HookEvent.HookEventSpec, payload: Readonly<Record<string, unknown>>, path: Path.Path): string | undefined => {
  if (spec.matcherField === undefined) return undefined
  const value = payload[spec.matcherField]
  if (value === undefined || value === null || value === "") return undefined
  const text = typeof value === "string" ? value : String(value)
  return spec.name === "FileChanged" ? path.basename(text) : text
}

const cleanEnv = (env: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}

const envNumber = (env: Readonly<Record<string, string | undefined>>, ...names: ReadonlyArray<string>): number | undefined => {
  for (const name of names) {
    const value = env[name]
    if (value !== undefined && value !== "" && Number.isFinite(Number(value))) return Number(value)
  }
  return undefined
}

/** Programmatic hooks become entries like any other, after the settings hooks of their event. */
const callbackEntries = (options: EngineOptions): Record<string, Array<HookEntry>> => {
  const out: Record<string, Array<HookEntry>> = {}
  for (const [event, groups] of Object.entries(options.hooks ?? {})) {
    groups.forEach((group, groupIndex) => {
      const matcher = Matcher.compile(group.matcher, event).matcher
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

interface Prepared {
  readonly entry: HookEntry
  readonly rule: PermissionRule.PermissionRule | undefined
}

/** @internal */
export const make = (
  options: EngineOptions
): Effect.Effect<HookEngine["Service"], HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const path = yield* Path.Path
    const fs = yield* FileSystem.FileSystem
    const spawner = yield* ProcessSpawner
    const env = options.env ?? {}
    const cwd = path.resolve(options.cwd ?? options.projectDir ?? ".")
    const projectDir = path.resolve(cwd, options.projectDir ?? ".")
    const loaded: LoadedSettings = yield* Settings.load({
      settings: options.settings,
      projectDir,
      cwd,
      env,
      plugins: options.plugins,
      managedDir: options.managedDir,
      events: options.events,
      preset: options.preset,
      agent: options.agent,
      requireTrust: options.requireTrust
    })
    const warnings = [...loaded.warnings]
    const preset = options.preset ?? Preset.agentHooks
    const customEvents = new Map([...preset.events, ...(options.events ?? [])].map((event) => [event.name, HookEvent.custom(event)]))
    const specOf = (event: string): HookEvent.HookEventSpec | undefined => customEvents.get(event) ?? HookEvent.get(event)

    // Compile every `if` rule once; a broken rule warns and its handler never runs.
    const prepared: Record<string, Array<Prepared>> = {}
    const programmatic = callbackEntries(options)
    for (const event of new Set([...Object.keys(loaded.hooks), ...Object.keys(programmatic)])) {
      const behavesAs = specOf(event)?.behavesAs ?? event
      for (const entry of [...(loaded.hooks[event] ?? []), ...(programmatic[event] ?? [])]) {
        if ((entry.handler.type === "prompt" || entry.handler.type === "agent") && specOf(event)?.promptHandlers === false) {
          warnings.push(`${entry.source} at ${entry.path}: ${entry.handler.type} hooks cannot run on ${event} (use command, http or mcp_tool); skipped`)
          continue
        }
        const source = entry.handler.if
        if (source === undefined) {
          ;(prepared[event] ??= []).push({ entry, rule: undefined })
          continue
        }
        const parsed = PermissionRule.parse(source)
        if (parsed._tag === "Failure") {
          warnings.push(`${entry.source} at ${entry.path}.if: ${parsed.message}; the handler never runs`)
          continue
        }
        if (!TOOL_EVENTS.has(behavesAs)) {
          warnings.push(`${entry.source} at ${entry.path}.if: "if" applies only to tool events; on ${event} this handler never runs`)
          continue
        }
        ;(prepared[event] ??= []).push({ entry, rule: parsed.rule })
      }
    }
    const settings: LoadedSettings = { ...loaded, warnings }
    if (options.onWarning !== undefined) for (const warning of warnings) options.onWarning(warning)

    const sessionId = HookInput.makeSessionId()
    const baseEnv: Record<string, string> = { ...cleanEnv(env), AGENT_HOOKS_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir }
    for (const name of preset.projectDirEnv) baseEnv[name] = projectDir
    /** A plugin's persistent data folder: `<agent-hooks home>/plugins/data/<plugin folder name>`, created when the engine starts. */
    const pluginDataDir = (root: string): string => {
      const home = env["AGENT_HOOKS_HOME"] ?? (env["HOME"] === undefined ? path.join(root, ".data") : path.join(env["HOME"], ".agent-hooks"))
      return path.join(home, "plugins", "data", path.basename(root))
    }

    const sequential = options.sequential ?? settings.sequential
    const allowedCommands = settings.allowedCommands === undefined ? undefined : new Set(settings.allowedCommands)
    const stopCap = options.stopBlockCap ?? envNumber(env, "AGENT_HOOKS_STOP_HOOK_BLOCK_CAP", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP") ?? 8
    const ran = new Set<HookEntry>()
    const stopStreaks = new Map<string, number>()
    const asyncFibers = yield* FiberSet.make<void, never>()
    const asyncPool = yield* Semaphore.make(Math.max(1, options.asyncConcurrency ?? 4))
    let asyncResults: Array<AsyncResult> = []
    const pluginRoots = new Set(Object.values(settings.hooks).flatMap((entries) => entries.flatMap((entry) => entry.pluginRoot ?? [])))
    for (const root of pluginRoots) {
      yield* fs.makeDirectory(pluginDataDir(root), { recursive: true }).pipe(
        Effect.catch((error) => Effect.sync(() => options.onWarning?.(`cannot create the data folder of plugin ${root}: ${error.message}`)))
      )
    }

    const select = (spec: HookEvent.HookEventSpec, payload: Readonly<Record<string, unknown>>): ReadonlyArray<HookEntry> => {
      const value = matchValue(spec, payload, path)
      const seen = new Map<string, string>()
      const selected: Array<HookEntry> = []
      for (const { entry, rule } of prepared[spec.name] ?? []) {
        if (value !== undefined && !entry.matcher.test(value)) continue
        if (rule !== undefined) {
          const toolName = typeof payload["tool_name"] === "string" ? payload["tool_name"] : ""
          const cwd = typeof payload["cwd"] === "string" ? payload["cwd"] : projectDir
          if (!PermissionRule.matches(rule, toolName, payload["tool_input"], { cwd, projectDir, home: env["HOME"] })) continue
        }
        if (entry.handler.once === true && ran.has(entry)) continue
        // An identical handler from another settings file runs once; plugin and programmatic hooks stay separate.
        const key = settings.dedupe && entry.scope !== "plugin" ? dedupKey(entry.handler) : undefined
        if (key !== undefined) {
          const firstSource = seen.get(key)
          if (firstSource !== undefined && firstSource !== entry.source) continue
          if (firstSource === undefined) seen.set(key, entry.source)
        }
        selected.push(entry)
      }
      return selected
    }

    const interpretRun = (
      spec: HookEvent.HookEventSpec,
      entry: HookEntry,
      run: ProcessRun,
      timeout: number,
      asyncHook: boolean,
      label: string,
      policySource: boolean
    ) => {
      // nonZeroBlocks is about processes' exit codes; an in-process hook that fails stays a non-blocking error.
      const forHandler = spec.nonZeroBlocks && entry.handler.type !== "command" ? { ...spec, nonZeroBlocks: false } : spec
      let verdict = HookOutput.interpret(forHandler, { ...run, timeout })
      // ConfigChange from policy settings cannot be blocked (§6.3).
      if (spec.behavesAs === "ConfigChange" && policySource && verdict.decision === "block") {
        verdict = { ...verdict, decision: null, messages: [...verdict.messages, "a change to policy settings cannot be blocked"] }
      }
      const failed = verdict.status === "non-blocking-error" || verdict.status === "cancelled"
      const timedOutBlocks = spec.behavesAs === "PreModelSwitch" && run.timedOut
      if (
        failed && !asyncHook && spec.blocking !== "none" && spec.blocking !== "permission-request" &&
        ((entry.handler.onFailure === "block" && !FAIL_OPEN_EVENTS.has(spec.behavesAs)) || timedOutBlocks)
      ) {
        const why = run.timedOut ? "timed out" : "failed"
        const because = timedOutBlocks ? "a PreModelSwitch hook that times out blocks the switch" : `blocking because onFailure is "block"`
        verdict = {
          ...verdict,
          status: "blocking-error",
          decision: spec.blocking === "permission" ? "deny" : "block",
          reason: `${label} hook error: [${display(entry.handler)}]: ${why}; ${because}`,
          reasonFrom: "stderr"
        }
      } else if (entry.handler.onFailure === "block" && FAIL_OPEN_EVENTS.has(spec.behavesAs) && failed) {
        verdict = { ...verdict, messages: [...verdict.messages, `not blocking (onFailure: "block" is ignored on ${spec.name})`] }
      }
      const messages = [...verdict.messages]
      if (run.stdoutTruncated) messages.push(`stdout was longer than ${MAX_OUTPUT_BYTES} bytes and was cut there`)
      if (run.stderrTruncated) messages.push(`stderr was longer than ${MAX_OUTPUT_BYTES} bytes and was cut there`)
      const result: Outcome.HookResult = {
        command: display(entry.handler),
        exitCode: run.exitCode,
        signal: run.signal,
        timedOut: run.timedOut,
        durationMs: run.durationMs,
        stdout: run.stdout,
        stderr: run.stderr,
        status: verdict.status,
        source: entry.scope === "explicit" && entry.source === "(programmatic)" ? null : entry.source,
        decision: verdict.decision,
        messages
      }
      return { result, verdict }
    }

    /** The command allowlist policy: a refused hook never starts; its result says why. */
    const refusedByPolicy = (handler: Handler): ProcessRun | undefined => {
      if (allowedCommands === undefined || handler.type !== "command") return undefined
      // A bare name is looked up on PATH; a path must be listed as written (`/tmp/x/printf` is not `printf`).
      const name = handler.command
      const why = handler.args === undefined
        ? `shell-form hooks are refused while allowedCommands is set (a shell can run anything); use "args" (exec form)`
        : allowedCommands.has(name)
        ? undefined
        : `command "${name}" is not in allowedCommands (${[...allowedCommands].join(", ")})`
      return why === undefined ? undefined : makeRun({ exitCode: null, stderr: why, spawnError: why })
    }

    /**
     * SessionEnd's whole-event budget (§7.3): 1.5 s, raised to the largest timeout set on a settings
     * file's SessionEnd hook, at most 60 s; `AGENT_HOOKS_SESSIONEND_HOOKS_TIMEOUT_MS` (or Claude Code's
     * `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`) overrides it.
     */
    const sessionEndSeconds = (entries: ReadonlyArray<HookEntry>): number => {
      const override = envNumber(env, "AGENT_HOOKS_SESSIONEND_HOOKS_TIMEOUT_MS", "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
      if (override !== undefined) return override / 1000
      const configured = entries.filter((entry) => entry.scope !== "plugin").map((entry) => entry.handler.timeout ?? 0)
      return Math.min(60, Math.max(1.5, ...configured))
    }

    /** Runs a hook, unless the command allowlist refuses it. */
    const policyOr = (entry: HookEntry, ctx: Parameters<typeof execute>[0]) => {
      const refused = refusedByPolicy(entry.handler)
      return refused === undefined ? execute(ctx) : Effect.succeed(refused)
    }

    /** One JSONL line per hook run (the orchestration design's HookLogger and Wingman's FR-8 fields). */
    const writeLog = (file: string, spec: HookEvent.HookEventSpec, hooks: ReadonlyArray<{ readonly result: Outcome.HookResult; readonly entry: HookEntry }>) =>
      Effect.gen(function*() {
        const now = new Date().toISOString()
        const lines = hooks.map(({ result, entry }) =>
          JSON.stringify({
            timestamp: now,
            event: spec.name,
            matcher: entry.matcher.source ?? null,
            pattern: entry.matcher.source ?? null,
            command: result.command,
            exitCode: result.exitCode,
            duration_ms: result.durationMs,
            status: result.status,
            timedOut: result.timedOut,
            blocked: result.decision === "deny" || result.decision === "block",
            source: result.source,
            error: result.status === "success" ? null : result.messages.join("; ") || result.stderr.trim() || null
          })
        )
        if (lines.length === 0) return
        // Append; only when that fails (no folder yet) make the folder and append again.
        const append = fs.writeFileString(file, `${lines.join("\n")}\n`, { flag: "a" })
        yield* append.pipe(
          Effect.catch(() => Effect.andThen(fs.makeDirectory(path.dirname(file), { recursive: true }), append)),
          Effect.catch((error) => Effect.sync(() => options.onWarning?.(`cannot write the execution log ${file}: ${error.message}`)))
        )
      })

    // Strings that reach the model or the user are capped; the whole text goes to a file the message names.
    let overflowCount = 0
    const cap = (text: string, session: string): Effect.Effect<string> => {
      if (text.length <= MAX_MESSAGE_CHARS) return Effect.succeed(text)
      const overflowDir = path.join(env["TMPDIR"] ?? env["TEMP"] ?? "/tmp", "agent-hooks", session.replace(/[^A-Za-z0-9._-]/g, "_"))
      const file = path.join(overflowDir, `hook-output-${++overflowCount}.txt`)
      return fs.makeDirectory(overflowDir, { recursive: true }).pipe(
        Effect.andThen(fs.writeFileString(file, text)),
        Effect.as(`${text.slice(0, MAX_MESSAGE_CHARS)}\n[truncated: ${text.length} characters in all; the full text is in ${file}]`),
        Effect.catch((error) =>
          Effect.succeed(`${text.slice(0, MAX_MESSAGE_CHARS)}\n[truncated: ${text.length} characters in all; could not save the rest: ${error.message}]`)
        )
      )
    }
    const capVerdict = (verdict: HookOutput.HookVerdict, session: string): Effect.Effect<HookOutput.HookVerdict> =>
      Effect.gen(function*() {
        const additionalContext = yield* Effect.forEach(verdict.additionalContext, (text) => cap(text, session))
        const systemMessage = verdict.systemMessage === null ? null : yield* cap(verdict.systemMessage, session)
        const reason = verdict.reason === null ? null : yield* cap(verdict.reason, session)
        const stopReason = verdict.stopReason === null ? null : yield* cap(verdict.stopReason, session)
        return { ...verdict, additionalContext, systemMessage, reason, stopReason }
      })

    const dispatch = (event: string, payload: unknown) =>
      Effect.gen(function*() {
        if (!Predicate.isObject(payload)) {
          return yield* new PayloadError({
            detail: `expected a JSON object, got ${payload === null ? "null" : Array.isArray(payload) ? "an array" : typeof payload}`
          })
        }
        const known = specOf(event)
        const spec: HookEvent.HookEventSpec = known ?? HookEvent.custom({ name: event })
        const dispatchWarnings: Array<string> = []
        if (known === undefined) {
          const suggestion = HookEvent.suggest(event)
          dispatchWarnings.push(`unknown event "${event}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; no hooks run for it`)
        }
        const session = typeof payload["session_id"] === "string" ? payload["session_id"] : sessionId
        const streakKey = `${event}\u0000${session}\u0000${typeof payload["agent_id"] === "string" ? payload["agent_id"] : ""}`
        const streak = stopStreaks.get(streakKey) ?? 0
        const isStop = STOP_EVENTS.has(spec.behavesAs)
        const policySource = payload["source"] === "policy_settings"
        const hostPayload = isStop && payload["stop_hook_active"] === undefined ? { ...payload, stop_hook_active: streak > 0 } : payload
        const input = HookInput.build(event, hostPayload, { sessionId, cwd: projectDir })
        const stdin = JSON.stringify(input)
        const hookCwd = typeof payload["cwd"] === "string" && payload["cwd"] !== "" ? path.resolve(projectDir, payload["cwd"]) : projectDir
        const label = spec.matcherField !== undefined && typeof payload[spec.matcherField] === "string" ? `${event}:${String(payload[spec.matcherField])}` : event

        const entries = select(spec, payload)
        const sessionEndBudget = spec.behavesAs === "SessionEnd" ? sessionEndSeconds(entries) : undefined
        for (const entry of entries) {
          if (entry.handler.once === true) ran.add(entry)
          options.onHookStart?.({ event, command: display(entry.handler), statusMessage: entry.handler.statusMessage })
        }
        const context = (entry: HookEntry) => {
          const own = entry.handler.timeout ?? defaultTimeout(entry.handler, spec)
          const timeout = sessionEndBudget === undefined ? own : Math.min(own, sessionEndBudget)
          const hookEnv = entry.pluginRoot === undefined
            ? baseEnv
            : { ...baseEnv, CLAUDE_PLUGIN_ROOT: entry.pluginRoot, CLAUDE_PLUGIN_DATA: pluginDataDir(entry.pluginRoot) }
          return {
            timeout,
            ctx: {
              spec,
              entry,
              input,
              stdin,
              cwd: hookCwd,
              env: hookEnv,
              timeout,
              options,
              allowedHttpHookUrls: settings.allowedHttpHookUrls,
              httpHookAllowedEnvVars: settings.httpHookAllowedEnvVars
            }
          }
        }
        const isAsync = (entry: HookEntry) =>
          entry.handler.type === "command" && (entry.handler.async === true || entry.handler.asyncRewake === true)

        // Background hooks: started now, bounded by the pool, killed when the engine closes.
        const background = entries.filter(isAsync)
        for (const entry of background) {
          const { timeout, ctx } = context(entry)
          yield* FiberSet.run(
            asyncFibers,
            asyncPool.withPermits(1)(policyOr(entry, ctx)).pipe(
              Effect.flatMap((run) => {
                const { result, verdict: raw } = interpretRun(spec, entry, run, timeout, true, label, policySource)
                return Effect.map(capVerdict(raw, session), (verdict) => ({ run, result, verdict }))
              }),
              Effect.tap(({ result }) => settings.executionLog === undefined ? Effect.void : writeLog(settings.executionLog, spec, [{ result, entry }])),
              Effect.map(({ run, result, verdict }) => {
                const rewake = entry.handler.type === "command" && entry.handler.asyncRewake === true && run.exitCode === 2
                const toModel = [...verdict.additionalContext, ...(verdict.systemMessage === null ? [] : [verdict.systemMessage])]
                const delivered: AsyncResult = {
                  event,
                  hook: result,
                  toModel,
                  rewake,
                  rewakeMessage: rewake ? (run.stderr.trim() !== "" ? run.stderr.trim() : run.stdout.trim()) : null
                }
                asyncResults.push(delivered)
                options.onAsyncResult?.(delivered)
              }),
              Effect.provideService(ProcessSpawner, spawner)
            )
          )
        }

        const hooks = yield* Effect.forEach(
          entries.filter((entry) => !isAsync(entry)),
          (entry) => {
            const { timeout, ctx } = context(entry)
            return policyOr(entry, ctx).pipe(
              Effect.map((run) => interpretRun(spec, entry, run, timeout, false, label, policySource)),
              Effect.flatMap(({ result, verdict }) => Effect.map(capVerdict(verdict, session), (capped) => ({ result, verdict: capped, entry })))
            )
          },
          { concurrency: sequential ? 1 : "unbounded" }
        )
        if (settings.executionLog !== undefined) yield* writeLog(settings.executionLog, spec, hooks)
        for (const { result } of hooks) {
          for (const message of result.messages) dispatchWarnings.push(`hook ${JSON.stringify(result.command)} (${result.source ?? "programmatic"}): ${message}`)
        }
        let outcome = Outcome.aggregate(spec, hooks, dispatchWarnings, background.map((entry) => display(entry.handler)), label)

        if (isStop) {
          if (outcome.blocked && stopCap > 0 && streak >= stopCap) {
            const blockReasons = new Set(hooks.flatMap(({ verdict }) => (verdict.decision === "block" && verdict.reason !== null ? [verdict.reason] : [])))
            if (outcome.reason !== null) blockReasons.add(outcome.reason)
            const note = `${event} hooks blocked ${streak} times in a row; the agent may stop now (cap ${stopCap}; set stopBlockCap or AGENT_HOOKS_STOP_HOOK_BLOCK_CAP, 0 = off)`
            outcome = {
              ...outcome,
              blocked: false,
              decision: null,
              reason: null,
              toModel: outcome.toModel.filter((text) => !blockReasons.has(text)),
              toUser: [...outcome.toUser, note],
              warnings: [...outcome.warnings, note]
            }
            stopStreaks.delete(streakKey)
          } else if (outcome.blocked) {
            stopStreaks.set(streakKey, streak + 1)
          } else {
            stopStreaks.delete(streakKey)
          }
        }
        return outcome
      }).pipe(Effect.provideService(ProcessSpawner, spawner))

    const takeAsyncResults = Effect.sync(() => {
      const taken = asyncResults
      asyncResults = []
      return taken as ReadonlyArray<AsyncResult>
    })

    const hookedEvents: ReadonlySet<string> = new Set(Object.entries(prepared).filter(([, entries]) => entries.length > 0).map(([event]) => event))
    return HookEngine.of({ settings, hookedEvents, dispatch, takeAsyncResults, awaitAsync: FiberSet.awaitEmpty(asyncFibers) })
  })

/** @internal */
export const layer = (
  options: EngineOptions
): Layer.Layer<HookEngine, HookError, ProcessSpawner | FileSystem.FileSystem | Path.Path> => Layer.effect(HookEngine, make(options))
