import * as HostMode from "@agent-hooks/core/HostMode"
import * as Presets from "@agent-hooks/core/Presets"
import type * as HookEngine from "@agent-hooks/core/HookEngine"
import type * as Outcome from "@agent-hooks/core/Outcome"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Stdio from "effect/Stdio"
import { Blocked, Failed } from "../ExitCode.ts"
import { checkPreset, engineWarnings, withEngine } from "./engine.ts"
import * as Debug from "./debug.ts"
import type { ForeignMode, Reader } from "./foreignPayload.ts"
import {
  foreignBlock,
  foreignEvent,
  foreignMode,
  foreignOptions,
  foreignProjectDir,
  foreignReader,
  foreignReply,
  judgedLine
} from "./foreignPayload.ts"
import { noPolicyLine } from "./noSettings.ts"
import { foundProjectRoot } from "./projectRoot.ts"
import { duplicateKeyOf, readPayload } from "./stdin.ts"
import { codeVariablesIn, foreignEnvironment, hostEnvironment, withoutLocationVariables } from "./userEnv.ts"

/** Options of `agent-hooks hook`. */
export interface HookOptions {
  readonly host: HostMode.HostName
  readonly settings: ReadonlyArray<string>
  readonly projectDir: Option.Option<string>
  readonly plugin: ReadonlyArray<string>
  /** `--managed-dir DIR`: the managed-settings folder; honoured only as an absolute folder root or the user owns (`userEnv.ts`). */
  readonly managedDir: Option.Option<string>
  /**
   * `--home DIR`: agent-hooks' user folder (its `settings.json`, the trust store), as `install` writes
   * it into the agent's user config; honoured only as an absolute folder the user owns. The
   * variable `AGENT_HOOKS_HOME` alone is ignored in host mode (a project can set it).
   */
  readonly home?: Option.Option<string> | undefined
  readonly preset: string
  readonly agent: Option.Option<string>
  readonly failClosed: boolean
  readonly strict: boolean
  readonly quiet: boolean
  /** `--ask host|deny`: default the agent's (`host` where its own ask works). */
  readonly ask: "host" | "deny" | undefined
  /** `--rewrite host|deny|original`: default `host`. */
  readonly rewrite: "host" | "deny" | "original" | undefined
  /** `--timeout SECONDS`: the hook timeout the agent's config gives this command; default the agent's default. */
  readonly timeout: number | undefined
  /** `--fail-open`: host mode's own failure lets the agent go on (a visible hook error) instead of blocking. */
  readonly failOpen: boolean
  /** `--event NAME`: the agent's event, for an agent whose payload names none (Copilot CLI); it wins over the payload's. */
  readonly event?: string | undefined
  /**
   * `--payload AGENT`: the policy's hooks were written for that agent's payload (migrated by
   * `migrate --from AGENT --to <host>`): each call is presented to them in its events, tool and
   * field names (`HostMode.present`), and a rewrite they give is read back from its names.
   */
  readonly payload?: string | undefined
  /**
   * `--foreign auto|judge|leave|block`: what becomes of another agent's call that reaches this
   * command (VS Code runs Claude Code's and Copilot CLI's files, Copilot CLI runs VS Code's).
   * Default `AGENT_HOOKS_FOREIGN`, else `auto`.
   */
  readonly foreign?: ForeignMode | undefined
}

/** Set in every hook's environment: a policy hook that starts host mode again is refused, not looped. */
export const HOST_MODE_ENV = "AGENT_HOOKS_HOST_MODE"

/**
 * Host mode's own time budget, in milliseconds: below the agent's hook timeout (Codex, Qwen Code
 * and Gemini CLI run the tool when they kill a hook), so that host mode answers "blocked" itself.
 * A tenth of the timeout, at least 1 s and at most 5 s, is kept for start-up and the answer.
 *
 * @internal
 */
export const budgetMs = (timeoutSeconds: number): number => {
  const margin = Math.min(5, Math.max(1, timeoutSeconds / 10))
  return Math.max(500, Math.round((timeoutSeconds - margin) * 1000))
}

/** A command of the policy that starts host mode again (`agent-hooks hook`, `…/bin.js hook`). */
const SELF_CALL = /(?:^|[\s/"'=])(?:agent-hooks(?:\.c?m?js|\.exe)?|@agent-hooks\/cli(?:@[^\s"']+)?|bin\.[cm]?[jt]s)["']?\s+hook(?:\s|$)/

/** Host mode's own failure as the answer: a block, or with `--fail-open` a visible hook error. */
const failWith = (
  options: HookOptions,
  hostEvent: string | undefined,
  message: string,
  payload?: Record<string, unknown> | undefined
): HostMode.HostReply =>
  options.failOpen
    ? { exitCode: 1, stdout: "", stderr: `agent-hooks: ${message} (--fail-open: the agent goes on)\n` }
    : HostMode.failure(HostMode.byName(options.host)!, hostEvent, message, payload)

/**
 * The agent's event of `payload` as host mode names it in its answers (the event the command line
 * names wins over any the payload gives).
 *
 * @internal
 */
export const hostEventOf = (options: HookOptions, read: Record<string, unknown>): string | undefined => {
  const agent = HostMode.byName(options.host)!
  const field = agent.eventField ?? "hook_event_name"
  return HostMode.hostEvent(agent, options.event === undefined ? read : { ...read, [field]: options.event, hook_event_name: options.event })
}

/** What one call's answer is computed under: the options (another agent's, for its call), its event, and a hook to re-time the last resort. */
interface CallState {
  hostEvent: string | undefined
  /**
   * How long this process ran before the call started (its own start-up), in milliseconds: the
   * agent's hook timeout counts from the spawn (Copilot CLI lets a call run whose hook answers after
   * it), so the budget leaves it out. 0 in the daemon, whose process serves many calls.
   */
  startupMs?: number | undefined
  /** The payload, once read (with the event the command line names): a failure blocks the call it names. */
  payload?: Record<string, unknown> | undefined
  options: HookOptions
  readonly retime?: (() => void) | undefined
  /**
   * When the agent started this process (ms since the epoch), where host mode runs as its own
   * process: the agent's hook timeout runs from then, so the budget does too (a slow start on a busy
   * machine is time the agent has counted). The daemon serves many calls: none there.
   */
  readonly startedAt?: number | undefined
}

/**
 * Another agent's call (`reader`) that reached this agent's command, as `--foreign` says: judged as
 * that agent's (its payload read and its answer written as its own host mode would), left to its
 * own entry, or blocked in its blocking form. `auto` leaves it only where that agent's own
 * agent-hooks entry is wired on the call's event, and judges it when that cannot be told: a call
 * that nobody would judge is never let through silently.
 */
const foreignCall = (
  options: HookOptions,
  state: CallState,
  reader: Reader,
  read: Record<string, unknown>
): Effect.Effect<HostMode.HostReply, never, Stdio.Stdio> =>
  Effect.gen(function* () {
    const agent = HostMode.byName(options.host)!
    const other = HostMode.byName(reader.agent)!
    const projectDir = foreignProjectDir(options, reader, process.env, process.cwd())
    // the agents' configs are read only for such a call
    const entries = yield* Effect.promise(() => import("./foreignEntry.ts"))
    // that agent kills its hook at the entry's own timeout where it reads it, else at its default
    // the agents' config folders are the user's: a project's CODEX_HOME or COPILOT_HOME names none (userEnv.ts)
    const configEnv = withoutLocationVariables(process.env)
    const entryTimeout = entries.entryTimeout(agent, reader, options.timeout, projectDir, configEnv)
    const judged = foreignOptions(options, reader, read, entryTimeout)
    const hostEvent = foreignEvent(judged, read)
    // from here on the answer, and the last resort, are the other agent's
    state.options = judged
    state.hostEvent = hostEvent
    state.retime?.()
    // AGENT_HOOKS_FOREIGN=leave is a project's to set: only the flag leaves a call unjudged
    const foreignEnv = foreignEnvironment(process.env)
    if (options.foreign === undefined && foreignEnv.warning !== undefined)
      process.stderr.write(`agent-hooks: warning: ${foreignEnv.warning}\n`)
    const mode = foreignMode(options.foreign, foreignEnv.env)
    if (typeof mode === "object") return failWith(judged, hostEvent, mode.error)
    if (mode === "leave") return foreignReply(agent, reader, "--foreign leave")
    if (mode === "block") return foreignBlock(agent, reader, hostEvent)
    let why = `--foreign judge`
    if (mode === "auto") {
      // the one rule doctor says too: only an entry of that agent's own that can judge the call
      const auto = entries.foreignAuto(other, hostEvent, projectDir, configEnv)
      if (auto.leave) {
        return foreignReply(agent, reader, `--foreign auto: ${reader.displayName}'s own agent-hooks entry in ${auto.file} judges it`)
      }
      why = `--foreign auto, and ${auto.why}`
    }
    // Copilot CLI names no event; an entry written before install named it (or by hand) does not either
    if (other.name === "copilot" && judged.event === undefined) {
      return failWith(
        judged,
        undefined,
        `this call comes from ${reader.displayName}, which runs ${reader.reads}, and neither the command nor the payload's keys tell its event (${why}): it cannot be judged here. Run agent-hooks install --host ${agent.name} again (its entries name their event), or install ${reader.displayName}'s own entry: agent-hooks install --host ${reader.agent}`
      )
    }
    const reply = yield* decide(judged, state, read)
    return { ...reply, stderr: `${reply.stderr}${judgedLine(agent, reader, why, judged.timeout!, entryTimeout !== undefined)}` }
  })

/** The answer for one call, never failing: host mode's own failures become the agent's block (or hook error). */
const decide = (
  options: HookOptions,
  state: CallState,
  given?: Record<string, unknown>
): Effect.Effect<HostMode.HostReply, never, Stdio.Stdio> => {
  const agent = HostMode.byName(options.host)!
  // once another agent's call is judged as that agent's, host mode's own failures are answered in its form
  const fail = (message: string): HostMode.HostReply => failWith(state.options, state.hostEvent, message, state.payload)
  const timeout = options.timeout ?? agent.hookTimeout
  const budget = budgetMs(timeout)
  // the agent's clock started when it started this process: the time spent starting is spent budget
  const spent = state.startedAt === undefined ? 0 : Math.max(0, Date.now() - state.startedAt)
  const left = Math.max(250, budget - spent)
  const work = Effect.gen(function* () {
    const read = given ?? (yield* readPayload)
    // another agent that runs this agent's hook files (VS Code, Copilot CLI): as --foreign says
    // (a call judged as that agent's is not looked at again)
    const reader = given === undefined ? foreignReader(agent.name, read) : undefined
    if (reader !== undefined) return yield* foreignCall(options, state, reader, read)
    // the event the command line names wins over any the payload gives
    const field = agent.eventField ?? "hook_event_name"
    const payload = options.event === undefined ? read : { ...read, [field]: options.event, hook_event_name: options.event }
    state.hostEvent = hostEventOf(options, read)
    state.payload = payload
    if (process.env[HOST_MODE_ENV] !== undefined && process.env[HOST_MODE_ENV] !== "") {
      return fail(
        `host mode was started by a hook of its own policy (${HOST_MODE_ENV} is set): refused, not looped. Remove the hook that runs \`agent-hooks hook\` from the agent-hooks settings (the agent's own config is where it belongs)`
      )
    }
    // A variable that runs code as a process starts (NODE_OPTIONS=--require, LD_PRELOAD, ...) ran
    // before this line, and would run again in every hook: host mode does not judge under it.
    const code = codeVariablesIn(process.env)
    if (code.length > 0) {
      return fail(
        `${code.join(", ")} ${code.length === 1 ? "is" : "are"} set in the hook's environment, where a project can set ${code.length === 1 ? "it" : "them"} (Claude Code's env key, an agent's .env) to run its own code in the process that judges: refused. Run agent-hooks install --host ${agent.name} again: the command it writes clears them before Node starts (or unset them where the agent starts)`
      )
    }
    const call = HostMode.translate(agent, payload)
    if ("error" in call) return fail(call.error)
    // A key the agent's JSON gives twice: its tool may use the value the policy would not judge
    const duplicate = duplicateKeyOf(read)
    const refusal =
      call.refusal ??
      (duplicate === undefined
        ? undefined
        : `the payload on stdin gives the duplicate key ${JSON.stringify(duplicate)} twice: ${agent.displayName}'s tool may use the value the policy would not judge, so the call is blocked`)
    if (refusal !== undefined) {
      if (call.tool !== undefined || typeof call.payload["tool_name"] === "string") return HostMode.refuse(call, refusal)
      process.stderr.write(`agent-hooks: warning: ${refusal.replace(/, so the call is blocked$/, "")}\n`)
    }
    const unknown = HostMode.unknownTool(call)
    if (unknown !== undefined) process.stderr.write(`agent-hooks: warning: ${unknown}\n`)
    const preset = yield* checkPreset(options.preset)
    const shape = options.payload === undefined ? undefined : HostMode.byName(options.payload)
    // a policy written for a payload host mode cannot give is refused, never run on another shape
    if (options.payload !== undefined && shape === undefined) {
      return fail(
        `unknown --payload ${options.payload} (one of ${HostMode.agents.map((one) => one.name).join(", ")}): the policy's hooks were written for a payload host mode cannot present`
      )
    }
    const cwd = process.cwd()
    // The project root comes from the agent's variable when it has one, else from the hook's folder
    // upward as `run` finds it (the same stops); never from the payload's cwd (the model moves it).
    const named = Option.isSome(options.projectDir) ? options.projectDir.value : HostMode.projectDir(agent, process.env)
    const found = named === undefined ? foundProjectRoot(cwd, preset, process.env) : undefined
    const projectDir = named ?? found ?? cwd
    // The settings' locations come from the flags in the agent's config, never from a variable a project can set
    const user = hostEnvironment(
      process.env,
      { home: Option.getOrUndefined(options.home ?? Option.none()), managedDir: Option.getOrUndefined(options.managedDir) },
      // a HOME inside a project (one the agent names, or one found: a checkout) is the project's
      named ?? found,
      agent.name
    )
    if ("error" in user) return fail(user.error)
    for (const warning of user.warnings) process.stderr.write(`agent-hooks: warning: ${warning}\n`)
    // Every hook this dispatch starts sees the marker: a policy hook that runs host mode again is refused.
    process.env[HOST_MODE_ENV] = agent.name
    user.env[HOST_MODE_ENV] = agent.name
    const declared = new Set(preset.events.map((event) => event.name))
    const engineOptions: Partial<HookEngine.EngineOptions> = {
      detachAsync: true,
      // One event per process: the Cedar engine loads only when this event runs a cedar hook.
      preloadCedar: false,
      events: agent.ownEvents
        .filter((name) => !declared.has(name))
        .map((name) => ({ name, ...(agent.ownBlocking?.includes(name) === true ? { blocking: "decision" as const } : {}) })),
      // A guard that did not judge blocks: a hook that never ran (not found, not executable, could
      // not start) blocks the call; one that ran and exited 1 stays non-blocking (Claude Code's rule).
      blockUnjudged: true,
      // the agent runs its own config files (agent-hooks is its one hook there): no word about them
      otherDialects: "ignore",
      ...(options.failClosed ? { failClosed: true } : {}),
      ...(options.strict ? { strict: true } : {})
    }
    // --log-level: debug adds what was loaded, matched and skipped; error is --quiet
    const level = yield* Debug.verbosity
    const quiet = options.quiet || level.quiet
    // every line while dispatching: a host reads what it needs from stdout and the exit status
    const warnings = engineWarnings(quiet, false)
    // `unknownTools` of the settings: what becomes of a tool no table knows (default: allow, with the warning)
    let unknownTools: "allow" | "ask" | "deny" = "allow"
    const judged = yield* withEngine(
      {
        settings: options.settings,
        projectDir: Option.some(projectDir),
        plugin: options.plugin,
        managedDir: options.managedDir,
        preset,
        agent: options.agent,
        engineOptions,
        env: user.env
      },
      warnings.onWarning,
      (engine) =>
        Effect.gen(function* () {
          if (options.plugin.length === 0) {
            const none = noPolicyLine(engine, agent.name)
            if (none !== undefined) return yield* Effect.fail(new Failed({ message: none }))
          }
          unknownTools = engine.plan.settings.unknownTools ?? "allow"
          const self = engine.plan.events.get(call.event)?.hooks.find((hook) => SELF_CALL.test(hook.display))
          if (self !== undefined) {
            return yield* Effect.fail(
              new Failed({
                message: `the policy's hook at ${self.entry.source} ${self.entry.path} runs \`${self.display}\`, which would make host mode call itself: refused, not looped. Remove it from that file (the agent's own hook config is where \`agent-hooks hook\` belongs), or read another file with --settings or --preset`
              })
            )
          }
          // A preset whose events are its dialect's own names (Gemini CLI's BeforeTool for PreToolUse):
          // its hooks are dispatched under the agent's own event and payload when the preset is the
          // agent's own dialect, and never silently skipped otherwise.
          const own = preset.events.filter(
            (event) =>
              event.extends === call.event && event.name !== call.event && (engine.plan.events.get(event.name)?.hooks.length ?? 0) > 0
          )
          const native =
            preset.name === agent.name && preset.events.some((event) => event.name === call.hostEvent && event.name !== call.event)
          if (shape !== undefined) {
            // Hooks written for another agent's payload see the call as that agent sends it, on each of its events that fires for it
            // (each action of a call that does several things, as that agent would send it)
            const actions = call.actions ?? []
            const perAction =
              actions.length > 1
                ? actions.map((action) => ({ ...call.payload, tool_name: action.tool_name, tool_input: action.tool_input }))
                : [call.payload]
            const shown =
              shape.name === agent.name
                ? [{ hostEvent: call.hostEvent, payload }]
                : perAction.flatMap((one) => HostMode.present(shape, call.event, one))
            const withHooks = shown.filter((one) => (engine.plan.events.get(one.hostEvent)?.hooks.length ?? 0) > 0)
            warnings.dispatching()
            if (withHooks.length === 0) return yield* engine.dispatch(call.event, shown[0]?.payload ?? call.payload)
            const outcomes: Array<{ readonly outcome: Outcome.Outcome; readonly payload: Record<string, unknown> }> = []
            // and the input fields and environment the agent's own dialect always gives (the agent's values win)
            const dialect = Presets.byName(shape.name)
            for (const one of withHooks) {
              const additions = dialect?.dispatch?.(one.hostEvent, one.payload, { projectDir, env: process.env })
              for (const [name, value] of Object.entries(additions?.env ?? {}))
                if (process.env[name] === undefined || process.env[name] === "") process.env[name] = value
              const input = { ...additions?.input, ...one.payload }
              if (level.debug) Debug.matched(engine.plan, one.hostEvent, input)
              const outcome = yield* engine.dispatch(one.hostEvent, input)
              outcomes.push({ outcome, payload: one.payload })
              // the first block is the answer, as the agent stops at it
              if (outcome.blocked) break
            }
            const chosen =
              outcomes.find((one) => one.outcome.blocked) ??
              outcomes.find((one) => one.outcome.decision !== null || one.outcome.updatedInput !== null) ??
              outcomes[0]!
            const updated = chosen.outcome.updatedInput
            const back =
              updated === null
                ? undefined
                : HostMode.translate(
                    shape,
                    shape.name === "copilot" ? { ...chosen.payload, hook_event_name: call.hostEvent } : chosen.payload
                  )
            const hostTool = back === undefined || "error" in back ? undefined : back.tool?.name
            const outcome =
              updated === null || hostTool === undefined
                ? chosen.outcome
                : { ...chosen.outcome, updatedInput: HostMode.claudeInput(shape, hostTool, updated) }
            if (level.debug) Debug.results(outcome)
            return outcome
          }
          // The same for events a settings file declares (a policy migrated from Gemini CLI's config keeps
          // its BeforeTool, which extends PreToolUse): without --payload they would never run, silently
          const declaredOwn = [...engine.plan.events.values()].filter(
            (planned) =>
              planned.spec.behavesAs === call.event &&
              planned.spec.name !== call.event &&
              planned.hooks.length > 0 &&
              !own.some((event) => event.name === planned.spec.name)
          )
          if (!native && declaredOwn.length > 0) {
            const dialects = [...new Set(declaredOwn.map((planned) => planned.spec.outputDialect))].join(", ")
            return yield* Effect.fail(
              new Failed({
                message: `the policy's hooks on ${declaredOwn.map((planned) => planned.spec.name).join(", ")} are declared for another agent's own events (answers read by ${dialects} rules); host mode for ${agent.displayName} dispatches Claude Code's ${call.event}, so they would never run: refused. Give --payload <agent> to present each call to them as that agent sends it (agent-hooks migrate --from <agent> --to ${agent.name} writes it), or run them from that agent's own config`
              })
            )
          }
          if (!native && own.length > 0) {
            return yield* Effect.fail(
              new Failed({
                message: `the policy is read with --preset ${preset.name}, whose hooks on ${own.map((event) => event.name).join(", ")} are written for ${preset.name}'s own events and payload; host mode for ${agent.displayName} dispatches Claude Code's ${call.event}, so they would never run: refused. Run them from ${preset.name}'s own config, or migrate them (agent-hooks migrate --from ${preset.name})`
              })
            )
          }
          const [event, input] = native ? [call.hostEvent, payload] : [call.event, call.payload]
          if (level.debug) {
            Debug.loaded(engine.plan)
            Debug.matched(engine.plan, event, input)
          }
          warnings.dispatching()
          // Every tool call as what it does: each of its actions (Claude Code's names) is dispatched,
          // up to the first block; the call is blocked when any action is
          const actions = native ? [] : (call.actions ?? [])
          if (actions.length > 1) {
            const outcomes: Array<{ readonly action: HostMode.Action; readonly outcome: Outcome.Outcome }> = []
            for (const action of actions) {
              const one = { ...call.payload, tool_name: action.tool_name, tool_input: action.tool_input }
              if (level.debug) Debug.matched(engine.plan, event, one)
              const outcome = yield* engine.dispatch(event, one)
              outcomes.push({ action, outcome })
              if (outcome.blocked) break
            }
            const outcome = HostMode.combineOutcomes(outcomes, actions.length)
            if (level.debug) Debug.results(outcome)
            return outcome
          }
          const outcome = yield* engine.dispatch(event, input)
          if (level.debug) Debug.results(outcome)
          return outcome
        })
    )
    const outcome = unknown === undefined ? judged : unknownToolOutcome(judged, unknown, unknownTools, call)
    return HostMode.answer(call, outcome, { ask: options.ask, rewrite: options.rewrite })
  })
  return work.pipe(
    Effect.timeoutOption(Duration.millis(left)),
    Effect.map(
      Option.getOrElse(() =>
        fail(
          `host mode ran past its time budget of ${budget / 1000} s (kept below ${agent.displayName}'s hook timeout of ${timeout} s): make the policy's hooks faster, or raise the hook's timeout in ${agent.displayName}'s config and pass the same value as --timeout`
        )
      )
    ),
    Effect.catchCause((cause) => {
      const error = Cause.findErrorOption(cause)
      if (error._tag === "Some" && (error.value as { _tag?: unknown })._tag === "Failed") {
        const message = (error.value as Failed).message
        return Effect.succeed(
          fail(`${message}${/settings/i.test(message) ? "; `agent-hooks validate` with the same flags shows every problem" : ""}`)
        )
      }
      return Effect.succeed(fail(`internal error: ${Cause.pretty(cause).split("\n")[0]}; please report it`))
    })
  )
}

/**
 * A call of a tool no table knows, as `unknownTools` says: the Outcome carries the warning (naming
 * the tool and how to match it); `deny` blocks it and `ask` asks, unless the policy blocked it already.
 */
const unknownToolOutcome = (
  outcome: Outcome.Outcome,
  warning: string,
  mode: "allow" | "ask" | "deny",
  call: HostMode.HostCall
): Outcome.Outcome => {
  const warned = { ...outcome, warnings: [...outcome.warnings, warning] }
  if (mode === "allow" || outcome.blocked || outcome.decision === "deny" || outcome.decision === "block") return warned
  const tool = call.tool?.name ?? String(call.payload["tool_name"])
  const reason = `${call.agent.displayName}'s tool "${tool}" is not one host mode knows, and the settings say "unknownTools": "${mode}" (match "${tool}" by name in the policy and set unknownTools to "allow" to let it through)`
  // a permission request is answered with its own decision; a tool call is denied or asked about
  if (outcome.event === "PermissionRequest" && mode === "deny")
    return { ...warned, hookSpecificOutput: { ...outcome.hookSpecificOutput, decision: { behavior: "deny", message: reason } } }
  if (outcome.event !== "PreToolUse") return warned
  return mode === "ask" ? { ...warned, decision: "ask", reason } : { ...warned, blocked: true, decision: "deny", reason }
}

/**
 * The options a call with `payload` is answered under: another agent's, for a call of an agent that
 * runs this agent's files (`foreignOptions`, in that agent's time for the entry: `entryTimeout`),
 * else `options`. The daemon's last resort uses them.
 *
 * @internal
 */
export const answeringOptions = (
  options: HookOptions,
  payload: Record<string, unknown>,
  entryTimeout?: ((reader: Reader) => number | undefined) | undefined
): HookOptions => {
  const reader = foreignReader(options.host, payload)
  return reader === undefined ? options : foreignOptions(options, reader, payload, entryTimeout?.(reader))
}

/**
 * Writes `reply` as the process's answer: stdout and stderr as given, and the exit status through
 * `ExitCode` (2 `Blocked`, 1 `Failed` with the message on stderr, else 0).
 */
const write = (reply: HostMode.HostReply, event: string): Effect.Effect<void, Blocked | Failed> =>
  Effect.suspend((): Effect.Effect<void, Blocked | Failed> => {
    if (reply.stdout !== "") process.stdout.write(reply.stdout)
    if (reply.exitCode === 1) {
      return Effect.fail(new Failed({ message: reply.stderr.replace(/^agent-hooks: /, "").trimEnd() }))
    }
    if (reply.stderr !== "") process.stderr.write(reply.stderr)
    return reply.exitCode === 2 ? Effect.fail(new Blocked({ event })) : Effect.void
  })

/**
 * The answer when the runtime itself is stuck past the time budget: the last resort, written as the
 * process's answer `guardMs(options)` after the call started.
 *
 * @internal
 */
export const guardReply = (
  options: HookOptions,
  hostEvent: string | undefined,
  payload?: Record<string, unknown> | undefined
): HostMode.HostReply => {
  const agent = HostMode.byName(options.host)!
  return failWith(
    options,
    hostEvent,
    `host mode did not finish within ${options.timeout ?? agent.hookTimeout} s; see docs/hosts/${agent.name}.md`,
    payload
  )
}

/** @internal */
export const guardMs = (options: HookOptions): number => budgetMs(options.timeout ?? HostMode.byName(options.host)!.hookTimeout) + 1500

/**
 * `agent-hooks hook --host <agent>`: the one hook command of an agent. Reads the agent's payload on
 * stdin, runs the agent-hooks policy on it in Claude Code's names, and answers in the agent's own
 * format and exit status (`HostMode`). Its own failures block, within a time budget kept below the
 * agent's hook timeout, with a hard stop as the last resort.
 *
 * @internal
 */
export const hook = (options: HookOptions, withGuard = true): Effect.Effect<void, Blocked | Failed, Stdio.Stdio> => {
  // The daemon (hookDaemon.ts) leaves the last resort to its client: its process serves other calls.
  if (!withGuard) {
    return Effect.flatMap(decide(options, { hostEvent: undefined, options }), (reply) => write(reply, "hook"))
  }
  // The last resort: if the runtime itself is stuck past the budget, answer "blocked" and exit. It
  // is the answering agent's, in its time: another agent's call is answered in that agent's form.
  const started = Date.now()
  let guard: ReturnType<typeof setTimeout> | undefined
  const state: CallState = {
    hostEvent: undefined,
    startupMs: Math.round(process.uptime() * 1000),
    options,
    startedAt: Math.round(performance.timeOrigin),
    retime: () => {
      clearTimeout(guard)
      guard = setTimeout(
        () => {
          const reply = guardReply(state.options, state.hostEvent, state.payload)
          process.stdout.write(reply.stdout)
          process.stderr.write(reply.stderr)
          process.exit(reply.exitCode)
        },
        Math.max(0, guardMs(state.options) - (Date.now() - started) - (state.startupMs ?? 0))
      )
      guard.unref?.()
    }
  }
  state.retime!()
  const answer = Effect.flatMap(decide(options, state), (reply) => write(reply, "hook"))
  return answer.pipe(Effect.ensuring(Effect.sync(() => clearTimeout(guard))))
}
