/**
 * Dispatch: reads the plan, selects the hooks of one event, runs them with their executors,
 * classifies each run, decides (the Stop guard has its say there), feeds the sinks, then assembles
 * the outcome once, with what the sinks could not do among its warnings. A dispatch that matches
 * nothing is answered by `unmatched` without entering the Effect runtime.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Predicate from "effect/Predicate"
import * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type * as Semaphore from "effect/Semaphore"
import type { Writer as AuditWriter } from "../Audit.ts"
import type { AsyncResult, EngineOptions } from "../HookEngine.ts"
import { PayloadError } from "../HookError.ts"
import * as HookEvent from "../HookEvent.ts"
import * as HookInput from "../HookInput.ts"
import * as LogPath from "../LogPath.ts"
import type { Plan, PlannedHook } from "../Plan.ts"
import { ProcessSpawner } from "../ProcessSpawner.ts"
import type { StopGuard } from "../StopGuard.ts"
import type { HookResult, HookVerdict, Outcome, PermissionMatch } from "../Verdict.ts"
import type { Telemetry } from "../Telemetry.ts"
import { classify } from "./classify.ts"
import type { ClassifyContext } from "./classify.ts"
import { asRun } from "./executors/command.ts"
import { execute } from "./executors/index.ts"
import type { Capabilities, ExecContext } from "./executors/index.ts"
import { matches, matchValue, nothingRan, select, specOf } from "./plan.ts"
import * as PosixPath from "./posixPath.ts"
import { decide } from "./outcome.ts"
import * as Permissions from "./permissions.ts"
import type { Besides } from "./outcome.ts"
import { assemble } from "./presets/outputReaders.ts"
import * as Sinks from "./sinks.ts"
import { withTraceContext } from "./telemetry.ts"
import * as WarnOnce from "./warnOnce.ts"

const STOP_EVENTS = new Set(["Stop", "SubagentStop"])

/**
 * The results of `async` hooks kept for `takeAsyncResults`, newest last. A host that never takes
 * them (one that reads them through `onAsyncResult`, as `agent-hooks serve` does, or one that does
 * not read them at all) must not grow without end: each holds a hook's output, up to its cap.
 */
export const ASYNC_RESULTS_KEPT = 100

/** What one engine keeps between dispatches. */
export interface EngineState {
  readonly plan: Plan
  readonly options: EngineOptions
  readonly caps: Capabilities
  readonly sessionId: string
  /** Ids of `once` hooks that have run. */
  readonly ran: Set<number>
  readonly stopGuard: StopGuard
  readonly asyncFibers: FiberSet.FiberSet<void, never>
  readonly asyncPool: Semaphore.Semaphore
  readonly asyncResults: Array<AsyncResult>
  /** Results dropped from `asyncResults` because nobody took them; said once, at the first. */
  asyncResultsDropped: number
  readonly spawner: ProcessSpawner["Service"]
  readonly fs: FileSystem.FileSystem
  readonly path: Path.Path
  /** Overflow files written so far. */
  overflowCount: number
  /** The audit trail's writer, when `auditLog` is set. */
  readonly audit: AuditWriter | undefined
  readonly telemetry: Telemetry
  /**
   * The last payload `unmatched` found some hook may match, so that the `dispatch` of the same
   * payload right after it (the Promise engine's path) does not match it again.
   */
  matched?: { readonly event: string; readonly payload: object; readonly plan: Plan } | undefined
}

/**
 * The event's spec, the warning an unknown event gets (`unknown`), and the outcome's warnings: those
 * and the settings files that could not be read (their hooks do not run: every outcome says so).
 */
const eventOf = (plan: Plan, event: string) => {
  const unreadable = plan.settings.unreadable ?? []
  const known = specOf(plan, event)
  if (known !== undefined) return { spec: known, unknown: [], warnings: [...unreadable] }
  const suggestion = HookEvent.suggest(event, plan.declared.keys())
  const unknown = [`unknown event "${event}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; no hooks run for it`]
  return { spec: HookEvent.custom({ name: event }), unknown, warnings: [...unreadable, ...unknown] }
}

const labelOf = (spec: HookEvent.HookEventSpec, event: string, payload: Readonly<Record<string, unknown>>): string =>
  spec.matcherField !== undefined && typeof payload[spec.matcherField] === "string"
    ? `${event}:${String(payload[spec.matcherField])}`
    : event

const sessionOf = (state: EngineState, payload: Readonly<Record<string, unknown>>): string =>
  typeof payload["session_id"] === "string" ? payload["session_id"] : state.sessionId

/** `hook "<command>" (<file>): <text>`: how every line about one hook names it. */
const hookLine = (result: HookResult, text: string): string =>
  `hook ${JSON.stringify(result.command)} (${result.source ?? "programmatic"}): ${text}`

/**
 * `hook "<command>" (<file>): <why>` for a hook the classification found failed (it could not run,
 * failed, timed out, or its answer was dropped); for a hook that answered, one line per ignored part.
 */
const failureLine = (done: {
  readonly result: HookResult
  readonly failed: boolean
  readonly ignored?: ReadonlyArray<string>
}): ReadonlyArray<string> => {
  const { result, failed } = done
  // A hook that answered: one line for each part of its answer the event ignores.
  if (!failed) return (done.ignored ?? []).map((note) => hookLine(result, note))
  const why =
    result.messages.length > 0
      ? result.messages.join("; ")
      : result.timedOut
        ? `timed out after ${Math.round(result.durationMs)} ms`
        : result.signal !== null
          ? `killed by ${result.signal}`
          : result.exitCode !== null
            ? `exit ${result.exitCode}${result.stderr.trim() === "" ? "" : `: ${firstLine(result.stderr)}`}`
            : result.status === "cancelled"
              ? "cancelled"
              : "failed"
  return [hookLine(result, why)]
}

/** The first line of `text`, at most 200 characters. */
const firstLine = (text: string): string => {
  const line = text.trim().split("\n")[0] ?? ""
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

/** One Stop streak per event, session and agent. */
const streakKey = (event: string, session: string, payload: Readonly<Record<string, unknown>>): string =>
  `${event}\u0000${session}\u0000${typeof payload["agent_id"] === "string" ? payload["agent_id"] : ""}`

/** A `permissions` rule's decision, as one more answer to the event (never among the Outcome's hooks). */
interface Ruling {
  readonly entry: PermissionMatch
  readonly answer: { readonly result: HookResult; readonly verdict: HookVerdict } | undefined
}

/**
 * The `permissions` rule that decides a tool call, judged in-process (no process runs): the first
 * deny (managed first), else the first ask, else the first allow. A deny blocks; an ask asks (on an
 * event that cannot ask, it blocks; on PermissionRequest the agent is asking already); an allow is
 * no objection: it never answers "allow", so the agent's own prompt and every hook still decide.
 */
const rulingOf = (
  plan: Plan,
  spec: HookEvent.HookEventSpec,
  payload: Readonly<Record<string, unknown>>,
  // the engine's own (a plan compiled elsewhere, as the daemon keeps them, may have none)
  realpath?: ((path: string) => string | undefined) | undefined
): Ruling | undefined => {
  const compiled = plan.permissions
  if (compiled === undefined || !compiled.active || !Permissions.EVENTS.has(spec.behavesAs) || spec.blocking === "none") return undefined
  const toolName = payload["tool_name"]
  if (typeof toolName !== "string" || toolName === "") return undefined
  const cwd =
    typeof payload["cwd"] === "string" && payload["cwd"] !== "" ? PosixPath.resolve(plan.projectDir, payload["cwd"]) : plan.projectDir
  const ruled = Permissions.judge(compiled, toolName, payload["tool_input"], {
    cwd,
    projectDir: plan.projectDir,
    home: plan.home,
    realpath: plan.realpath ?? realpath
  })
  if (ruled === undefined) return undefined
  const entry: PermissionMatch = { ...ruled.entry, detail: ruled.detail }
  const list = entry.list === "ask" && spec.behavesAs === "PermissionRequest" ? "allow" : entry.list
  if (list === "allow") return { entry, answer: undefined }
  const decision = spec.blocking === "decision" ? "block" : list
  const reason =
    Permissions.reasonOf(ruled, plan.projectDir) +
    (list === "ask" && spec.blocking === "decision" ? `; ${spec.name} cannot ask the user, so the call is blocked` : "")
  const command = `permissions rule ${JSON.stringify(entry.rule)}`
  return {
    entry,
    answer: {
      result: {
        command,
        exitCode: null,
        signal: null,
        timedOut: false,
        durationMs: 0,
        stdout: "",
        stderr: "",
        status: "success",
        source: entry.source,
        decision,
        messages: []
      },
      verdict: {
        status: "success",
        decision,
        reason,
        continue: true,
        stopReason: null,
        systemMessage: null,
        additionalContext: [],
        updatedInput: null,
        hookSpecificOutput: null,
        reasonFrom: "json",
        messages: []
      }
    }
  }
}

/** The Outcome with the rule that decided it. */
const withRuling = (outcome: Outcome, ruling: Ruling | undefined): Outcome =>
  ruling === undefined ? outcome : { ...outcome, permission: ruling.entry }

/**
 * The outcome of a dispatch that runs no hook, synchronously; `undefined` when some hook may run,
 * or when the audit trail is on: every dispatch is recorded, so it goes through `dispatch`.
 */
export const unmatched = (state: EngineState, event: string, payload: unknown): Outcome | undefined => {
  if (state.audit !== undefined) return undefined
  const quick = unmatchedDecided(state, event, payload)
  if (quick === undefined && Predicate.isObject(payload)) state.matched = { event, payload, plan: state.plan }
  return quick === undefined ? undefined : withRuling(assemble(quick.spec, [], quick.decided, quick.besides), quick.ruling)
}

/**
 * The decision of a dispatch no hook matches, or that a `permissions` deny decides before any hook
 * runs, and what its outcome says besides; `undefined` when some hook may run.
 */
const unmatchedDecided = (state: EngineState, event: string, payload: unknown) => {
  if (!Predicate.isObject(payload)) return undefined
  const { permissions } = state.plan
  const known = permissions?.active === true ? specOf(state.plan, event) : undefined
  const judged = known !== undefined && Permissions.EVENTS.has(known.behavesAs)
  // A host's probe (the tool's name, no input yet: "may anything run for this tool?"): a rule that
  // may apply to the tool is as good as a hook that matches it.
  if (
    judged &&
    !("tool_input" in payload) &&
    typeof payload["tool_name"] === "string" &&
    Permissions.mayApply(permissions!, payload["tool_name"])
  )
    return undefined
  const ruling = judged ? rulingOf(state.plan, known, payload, state.options.realpath) : undefined
  // A deny rule decides alone: no hook needs to run.
  if (ruling?.entry.list !== "deny" && matches(state.plan, event, payload)) return undefined
  const { spec, unknown, warnings } = eventOf(state.plan, event)
  // An unknown event is never silent: its warning also goes to onWarning.
  if (unknown.length > 0 && state.options.onWarning !== undefined) for (const warning of unknown) state.options.onWarning(warning)
  // Nothing blocked: a Stop streak ends here.
  const key = streakKey(event, sessionOf(state, payload), payload)
  const release = STOP_EVENTS.has(spec.behavesAs) ? (blocked: boolean) => state.stopGuard.record(key, blocked, spec.name) : undefined
  const decided = decide(spec, ruling?.answer === undefined ? [] : [ruling.answer], release)
  const besides: Besides = { warnings: [...warnings, ...nothingRan(state.plan)], label: labelOf(spec, event, payload) }
  return { spec, decided, besides, ruling }
}

/**
 * SessionEnd's whole-event budget: 1.5 s, raised to the largest timeout set on a settings file's
 * SessionEnd hook, at most 60 s; `AGENT_HOOKS_SESSIONEND_HOOKS_TIMEOUT_MS` (or Claude Code's
 * `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`) overrides it.
 */
const sessionEndSeconds = (plan: Plan, hooks: ReadonlyArray<PlannedHook>): number =>
  plan.sessionEndOverride ??
  Math.min(60, Math.max(1.5, ...hooks.filter((hook) => hook.entry.scope !== "plugin").map((hook) => hook.entry.handler.timeout ?? 0)))

/**
 * A hook's own follow-up limit (Cursor's `loop_limit`): once the agent has gone on `loopLimit` times
 * in a row after a stop (the host's `loop_count` when the payload has one, else the engine's own
 * count of stops blocked in a row), this hook's block is dropped, with a note on the hook.
 */
const loopLimited = <
  A extends {
    readonly hook: PlannedHook
    readonly result: HookResult
    readonly verdict: HookVerdict
    readonly ignored: ReadonlyArray<string>
  }
>(
  loops: number,
  done: A
): A => {
  const limit = done.hook.entry.handler.loopLimit
  if (limit === undefined || done.verdict.decision !== "block" || loops < limit) return done
  const note = `its follow-up was dropped: the agent went on ${loops} times in a row, its loop_limit is ${limit}`
  return {
    ...done,
    verdict: { ...done.verdict, decision: null, reason: null, messages: [...done.verdict.messages, note] },
    result: { ...done.result, decision: null, messages: [...done.result.messages, note] },
    // a dropped answer is said on onWarning too, as every ignored part of an answer is
    ignored: [...done.ignored, note]
  }
}

/**
 * Writes the audit trail's records of a dispatch (`outcome`: what its hooks decided, before the
 * outcome is assembled); the records that could not be written are returned for the outcome's warnings, each
 * also said through `onWarning`: a gap in the audit trail is never silent, and a host that hears
 * the engine's warnings (not its outcomes) hears it too.
 */
const auditRecords = (
  state: EngineState,
  writer: AuditWriter,
  dispatch: Sinks.AuditedDispatch,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly hook: PlannedHook }>,
  outcome: Sinks.AuditedOutcome | undefined
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.tap(Sinks.audit(writer, dispatch, hooks, outcome), (failures) =>
    Effect.sync(() => {
      for (const failure of failures) state.options.onWarning?.(failure)
    })
  )

/**
 * One dispatch. `notices`: what the engine has to say before it (a reload of the settings), the
 * first of the outcome's warnings.
 *
 * @internal
 */
export const dispatch = (
  state: EngineState,
  event: string,
  payload: unknown,
  notices: ReadonlyArray<string> = []
): Effect.Effect<Outcome, PayloadError> =>
  Effect.suspend(() => {
    if (!Predicate.isObject(payload)) {
      return Effect.fail(
        new PayloadError({
          detail: `expected a JSON object, got ${payload === null ? "null" : Array.isArray(payload) ? "an array" : typeof payload}`
        })
      )
    }
    // The matching runs once: a payload `unmatched` has just matched is not matched again.
    const known = state.matched
    state.matched = undefined
    const checked = known !== undefined && known.payload === payload && known.event === event && known.plan === state.plan
    const quick = checked ? undefined : unmatchedDecided(state, event, payload)
    if (quick !== undefined) {
      const { spec, decided, ruling } = quick
      const besides = { ...quick.besides, notices }
      if (state.audit === undefined) return Effect.succeed(withRuling(assemble(spec, [], decided, besides), ruling))
      // With the audit trail on, a dispatch no hook matched is recorded too (the tool call still happens).
      const audited = Sinks.audited(
        spec,
        { event, session: sessionOf(state, payload), matcher: matchValue(spec, payload) ?? null },
        payload
      )
      return Effect.map(auditRecords(state, state.audit, audited, [], { ...decided, hooks: 0 }), (sinkWarnings) =>
        withRuling(assemble(spec, [], decided, { ...besides, sinkWarnings }), ruling)
      )
    }
    // A payload too deep to serialise safely is refused with one line, never a stack overflow.
    const depth = HookInput.depthExceeds(payload, HookInput.MAX_PAYLOAD_DEPTH)
    if (depth) {
      return Effect.fail(
        new PayloadError({
          detail: `the payload is nested deeper than ${HookInput.MAX_PAYLOAD_DEPTH} levels (the limit); flatten it or send less`
        })
      )
    }
    // A span per dispatch that runs hooks (one that matches nothing stays outside the Effect runtime).
    const spec = specOf(state.plan, event)
    const matcher = spec === undefined ? null : (matchValue(spec, payload) ?? null)
    return state.telemetry.dispatch({ event, matcher, ...genAiOf(payload) }, run(state, event, payload, notices), (outcome) => ({
      blocked: outcome.blocked,
      decision: outcome.decision,
      hooks: outcome.hooks.length
    }))
  })

/** The tool call and the conversation a payload is about, for the spans' GenAI attributes. */
const genAiOf = (payload: Record<string, unknown>) => ({
  tool:
    typeof payload["tool_name"] === "string"
      ? { name: payload["tool_name"], callId: typeof payload["tool_use_id"] === "string" ? payload["tool_use_id"] : undefined }
      : undefined,
  conversationId: typeof payload["session_id"] === "string" ? payload["session_id"] : undefined
})

/** What one dispatch that runs hooks knows: the event, its payload and input, and the hooks it selected. */
interface Dispatching {
  readonly state: EngineState
  readonly event: string
  readonly payload: Record<string, unknown>
  readonly spec: HookEvent.HookEventSpec
  readonly session: string
  readonly input: Record<string, unknown>
  readonly label: string
  readonly matcher: string | null
  readonly hooks: ReadonlyArray<PlannedHook>
  readonly sink: Sinks.SinkContext
  readonly auditOf: Sinks.AuditedDispatch
}

/**
 * The input the hooks get: the host's payload (with `stop_hook_active` on Stop events), the
 * dialect's own base fields and variables (Gemini CLI's timestamp, Wave's transcript_path) and the
 * config's input defaults (pigo's model); the host's values win.
 */
const inputOf = (state: EngineState, event: string, spec: HookEvent.HookEventSpec, payload: Record<string, unknown>, key: string) => {
  const { plan, options } = state
  const hostPayload =
    STOP_EVENTS.has(spec.behavesAs) && payload["stop_hook_active"] === undefined
      ? { ...payload, stop_hook_active: state.stopGuard.streak(key) > 0 }
      : payload
  const built = HookInput.build(event, hostPayload, { sessionId: state.sessionId, cwd: plan.projectDir })
  const additions = plan.preset.dispatch?.(event, built, { projectDir: plan.projectDir, env: options.env ?? {} }) ?? {}
  const defaults = plan.settings.inputDefaults
  const input = additions.input === undefined && defaults === undefined ? built : { ...additions.input, ...defaults, ...built }
  const env = additions.env === undefined ? plan.env : { ...plan.env, ...additions.env }
  return { input, env, expectFiles: additions.expectFiles ?? [] }
}

/** How a hook's run is read: by its own file's rules for the event if it declares them, its overflow in a file of the session. */
const classifyContextOf =
  (d: Dispatching) =>
  (hook: PlannedHook, timeout: number): ClassifyContext => ({
    // A hook's output is read by the rules its own file declares for the event, if it declares them.
    spec: hook.entry.spec ?? d.spec,
    label: d.label,
    policySource: d.payload["source"] === "policy_settings",
    timeout,
    async: hook.async,
    failClosed: d.state.plan.failClosed,
    blockUnjudged: d.state.plan.blockUnjudged === true,
    overflowFile: () =>
      PosixPath.join(
        d.state.plan.env["TMPDIR"] ?? d.state.plan.env["TEMP"] ?? "/tmp",
        "agent-hooks",
        d.session.replace(/[^A-Za-z0-9._-]/g, "_"),
        `hook-output-${++d.state.overflowCount}.txt`
      )
  })

/** A file the dialect promises its hooks (Wave's transcript) that is not there is said, not hidden. */
const checkExpectedFiles = (
  state: EngineState,
  expectFiles: ReadonlyArray<{ readonly path: string; readonly warning: string }>,
  warnings: Array<string>
): Effect.Effect<void> =>
  Effect.gen(function* () {
    for (const expected of expectFiles) {
      const exists = yield* state.fs.exists(expected.path).pipe(Effect.orElseSucceed(() => false))
      if (!exists) {
        warnings.push(expected.warning)
        state.options.onWarning?.(expected.warning)
      }
    }
  })

/** Each hook's execution context: the input, its env, its timeout within the SessionEnd budget, how it detaches. */
const execContextOf = (
  d: Dispatching,
  env: Readonly<Record<string, string>>
): Effect.Effect<(hook: PlannedHook, startedAt: number) => ExecContext> =>
  Effect.gen(function* () {
    const { state, spec, payload, hooks } = d
    const { plan, options } = state
    const budget = spec.behavesAs === "SessionEnd" ? sessionEndSeconds(plan, hooks) : undefined
    const base = {
      spec,
      input: d.input,
      stdin: JSON.stringify(d.input),
      // A relative payload cwd is taken inside the project, never against the host's directory.
      cwd:
        typeof payload["cwd"] === "string" && payload["cwd"] !== "" ? state.path.resolve(plan.projectDir, payload["cwd"]) : plan.projectDir,
      projectDir: plan.projectDir
    }
    // A detached hook's launcher appends how it ended to the execution log, where the engine may write.
    const detachedLog =
      options.detachAsync === true && plan.settings.executionLog !== undefined && hooks.some((hook) => hook.async)
        ? yield* LogPath.guard(plan.settings.executionLog).pipe(
            Effect.provideService(FileSystem.FileSystem, state.fs),
            Effect.map((leaves) => (leaves === undefined ? plan.settings.executionLog : undefined))
          )
        : undefined
    return (hook: PlannedHook, startedAt: number): ExecContext => ({
      ...base,
      env: hook.extraEnv === undefined ? env : { ...env, ...hook.extraEnv },
      timeout: budget === undefined ? hook.timeout : Math.min(hook.timeout, budget),
      // A host that exits after the dispatch (agent-hooks run) starts async command hooks detached,
      // bounded by their timeout, so that they outlive it.
      detach:
        hook.async && options.detachAsync === true && hook.entry.handler.type === "command"
          ? {
              capSeconds: hook.timeout,
              logTo: detachedLog === undefined ? undefined : { file: detachedLog, record: Sinks.detachedRecord(spec.name, hook, startedAt) }
            }
          : undefined
    })
  })

/**
 * Runs one hook in its span and classifies its run. `chain` (Gemini CLI's sequential hooks) carries
 * each hook's tool_input rewrite to the next hook's input.
 */
const runHook =
  (
    d: Dispatching,
    contextOf: (hook: PlannedHook, startedAt: number) => ExecContext,
    chain: { input: Record<string, unknown> } | undefined
  ) =>
  (hook: PlannedHook) =>
    d.state.telemetry.hook(
      {
        event: d.event,
        matcher: d.matcher,
        ...genAiOf(d.payload),
        command: hook.display,
        type: hook.entry.handler.type,
        source: hook.entry.scope === "explicit" && hook.entry.source === "(programmatic)" ? null : hook.entry.source
      },
      Effect.gen(function* () {
        const startedAt = yield* Clock.currentTimeMillis
        const planned = contextOf(hook, startedAt)
        // Every hook process gets TRACEPARENT for its hook's span, so that its own spans join the trace.
        const own = { ...planned, env: yield* withTraceContext(planned.env) }
        const ctx =
          chain === undefined || chain.input === d.input ? own : { ...own, input: chain.input, stdin: JSON.stringify(chain.input) }
        const executed = yield* execute(hook, ctx, d.state.caps)
        const classified = classify(hook, executed, classifyContextOf(d)(hook, ctx.timeout))
        if (chain !== undefined && !hook.async && classified.verdict.updatedInput !== null) {
          chain.input = {
            ...chain.input,
            tool_input: { ...(chain.input["tool_input"] as Record<string, unknown>), ...classified.verdict.updatedInput }
          }
        }
        // The command as it ran is for the execution log only.
        const ranAs =
          d.state.plan.settings.executionLog !== undefined && hook.entry.handler.type === "command"
            ? asRun(hook.entry.handler, ctx)
            : hook.display
        return { hook, executed, startedAt, ranAs, ...classified }
      }),
      ({ result }) => result
    )

/** One hook's run, classified. */
type Ran = Effect.Success<ReturnType<ReturnType<typeof runHook>>>

/**
 * The failure lines of a dispatch, to onWarning. A hook the settings already show cannot start (a
 * command not on PATH, a missing script: said when they loaded) that fails to start again (exit 126
 * or 127) is the same problem on every dispatch: its line is said once per process; the Outcome
 * still carries it every time. Every other failure is said each time it happens.
 */
const sayFailures = (plan: Plan, onWarning: (warning: string) => void, ran: ReadonlyArray<Ran>) => {
  for (const done of ran) {
    const { hook, result } = done
    const known =
      (result.exitCode === 126 || result.exitCode === 127) &&
      plan.warnings.some((w) => w.severity === "error" && w.file === hook.entry.source && w.path === `${hook.entry.path}.command`)
    for (const line of failureLine(done)) if (!known || WarnOnce.sayOnce(onWarning, line)) onWarning(line)
  }
}

/**
 * An `async` hook's result, delivered: said when it failed, kept for `takeAsyncResults` (the last
 * 100; the first one dropped unseen is said once) and handed to `onAsyncResult`.
 */
const deliverAsync = (d: Dispatching, done: Ran) => {
  const { state, event } = d
  const { options } = state
  const {
    executed: { run },
    result,
    verdict,
    hook
  } = done
  if (options.onWarning !== undefined) for (const line of failureLine(done)) options.onWarning(line)
  const rewake = hook.entry.handler.type === "command" && hook.entry.handler.asyncRewake === true && run.exitCode === 2
  const delivered: AsyncResult = {
    event,
    sessionId: d.session,
    hook: result,
    toModel: [...verdict.additionalContext, ...(verdict.systemMessage === null ? [] : [verdict.systemMessage])],
    rewake,
    rewakeMessage: rewake ? (run.stderr.trim() !== "" ? run.stderr.trim() : run.stdout.trim()) : null
  }
  state.asyncResults.push(delivered)
  if (state.asyncResults.length > ASYNC_RESULTS_KEPT) {
    state.asyncResults.shift()
    // Nothing is dropped unseen: a host with onAsyncResult has each result already; any other hears of it once.
    if (state.asyncResultsDropped++ === 0 && options.onAsyncResult === undefined) {
      options.onWarning?.(
        `async hook results are not being taken: the engine keeps the last ${ASYNC_RESULTS_KEPT} ` +
          `and drops older ones (call takeAsyncResults() after each turn, or pass onAsyncResult)`
      )
    }
  }
  options.onAsyncResult?.(delivered)
}

/**
 * Starts the background (`async`) hooks, bounded by the pool and killed when the engine closes;
 * returns the detached ones whose wrapper reported that they could not start (exit 126/127), for the
 * outcome, so that the host (agent-hooks run) shows them: nothing else would hear of them.
 */
const startBackground = (
  d: Dispatching,
  background: ReadonlyArray<PlannedHook>,
  runOne: (hook: PlannedHook) => Effect.Effect<Ran, never, ProcessSpawner>
): Effect.Effect<ReadonlyArray<Ran>> =>
  Effect.gen(function* () {
    const { state, spec, sink } = d
    const { plan, options } = state
    const notStarted: Array<Ran> = []
    for (const hook of background) {
      const task = state.asyncPool
        .withPermits(1)(runOne(hook))
        .pipe(
          Effect.tap(({ result, overflow, startedAt, ranAs }) =>
            Effect.all(
              [
                plan.settings.executionLog === undefined
                  ? Effect.void
                  : Sinks.executionLog(sink, plan.settings.executionLog, spec.name, [{ result, hook, startedAt, ranAs }]),
                Sinks.overflowFiles(sink, overflow),
                state.audit === undefined ? Effect.void : auditRecords(state, state.audit, d.auditOf, [{ result, hook }], undefined)
              ],
              { discard: true }
            )
          ),
          Effect.map((done) => {
            if (options.detachAsync === true && hook.entry.handler.type === "command" && failureLine(done).length > 0) notStarted.push(done)
            deliverAsync(d, done)
          }),
          Effect.provideService(ProcessSpawner, state.spawner)
        )
      // A detached hook is awaited only until it has started (its wrapper returns at once), so
      // that a host exiting after the outcome cannot cut it off before it began.
      if (options.detachAsync === true && hook.entry.handler.type === "command") yield* task
      else yield* FiberSet.run(state.asyncFibers, task)
    }
    return notStarted
  })

const run = (state: EngineState, event: string, payload: Record<string, unknown>, notices: ReadonlyArray<string>): Effect.Effect<Outcome> =>
  Effect.gen(function* () {
    const { plan, options } = state
    const { spec, warnings: dispatchWarnings } = eventOf(plan, event)
    const session = sessionOf(state, payload)
    const key = streakKey(event, session, payload)
    const isStop = STOP_EVENTS.has(spec.behavesAs)
    const { input, env, expectFiles } = inputOf(state, event, spec, payload, key)
    const label = labelOf(spec, event, payload)
    const planned = plan.events.get(event)
    // The permissions rules first, in-process: a deny decides alone (no hook runs), an ask joins the hooks' answers.
    const ruling = rulingOf(plan, spec, payload, options.realpath)
    const hooks = planned === undefined || ruling?.entry.list === "deny" ? [] : select(plan, planned, payload, state.ran)
    if (hooks.length === 0) dispatchWarnings.push(...nothingRan(plan))
    if (hooks.length > 0) yield* checkExpectedFiles(state, expectFiles, dispatchWarnings)
    for (const hook of hooks) {
      if (hook.once) state.ran.add(hook.id)
      options.onHookStart?.({ event, command: hook.display, statusMessage: hook.entry.handler.statusMessage })
    }
    const matcher = matchValue(spec, payload) ?? null
    const d: Dispatching = {
      state,
      event,
      payload,
      spec,
      session,
      input,
      label,
      matcher,
      hooks,
      sink: { fs: state.fs, path: state.path, onWarning: options.onWarning },
      auditOf: Sinks.audited(spec, { event, session, matcher }, payload)
    }
    const contextOf = yield* execContextOf(d, env)
    // One hook matched from a sequential group makes the whole call sequential (Gemini CLI's
    // "any matched hook sequential, all sequential"), so a group cannot opt out of its event's order.
    const sequential = plan.sequential || hooks.some((hook) => hook.entry.handler.sequential === true)
    // Gemini CLI applies each sequential hook's tool_input rewrite to the next hook's input.
    const chain = sequential && spec.outputDialect !== "claude" && Predicate.isObject(input["tool_input"]) ? { input } : undefined
    const runOne = runHook(d, contextOf, chain)

    // Background hooks: started now, bounded by the pool, killed when the engine closes.
    const background = hooks.filter((hook) => hook.async)
    const notStarted = yield* startBackground(d, background, runOne)

    const finished = yield* Effect.forEach(
      hooks.filter((hook) => !hook.async),
      runOne,
      { concurrency: sequential ? 1 : "unbounded" }
    )
    const loops = typeof payload["loop_count"] === "number" ? payload["loop_count"] : state.stopGuard.streak(key)
    const ran = isStop ? finished.map((done) => loopLimited(loops, done)) : finished
    for (const { result } of ran) {
      for (const message of result.messages) dispatchWarnings.push(hookLine(result, message))
    }
    // A hook that did not run, or whose answer was dropped, is never silent: one line each to onWarning.
    if (options.onWarning !== undefined) sayFailures(plan, options.onWarning, ran)
    // The Stop guard has its say inside the decision: the outcome is made once. Its release is
    // said as it happens, like a failed hook.
    const release = isStop
      ? (blocked: boolean) => {
          const note = state.stopGuard.record(key, blocked, spec.name)
          if (note !== undefined && blocked) options.onWarning?.(note)
          return note
        }
      : undefined
    const answered = notStarted.length === 0 ? ran : [...ran, ...notStarted]
    const decided = decide(spec, ruling?.answer === undefined ? answered : [ruling.answer, ...answered], release)

    // Sinks, after the decision.
    if (plan.settings.executionLog !== undefined) yield* Sinks.executionLog(d.sink, plan.settings.executionLog, spec.name, ran)
    yield* Sinks.overflowFiles(
      d.sink,
      ran.flatMap(({ overflow }) => overflow)
    )
    // The audit records are in the file before the outcome is returned: a blocked action has its
    // record, and a record that could not be written is among the outcome's warnings.
    const sinkWarnings =
      state.audit === undefined ? [] : yield* auditRecords(state, state.audit, d.auditOf, ran, { ...decided, hooks: answered.length })
    const asyncHooks = background.map((hook) => hook.display)
    return withRuling(assemble(spec, answered, decided, { notices, warnings: dispatchWarnings, asyncHooks, label, sinkWarnings }), ruling)
  }).pipe(Effect.provideService(ProcessSpawner, state.spawner))
