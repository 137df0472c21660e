/**
 * Classification: one function from a hook's run (a process, or an in-process handler's result, or
 * a model's answer) to its `HookResult` and `HookVerdict`. Every rule that turns a run into a verdict
 * lives here: the event's output rules (`HookOutput.interpret`), the model answer's verdict per
 * event, `onFailure`, a ConfigChange from policy settings, a PreModelSwitch timeout, truncated
 * output, and the cap on messages (the full text goes to an overflow file, written after the
 * outcome by the engine's sinks).
 */
import type { HookEventSpec } from "../HookEvent.ts"
import * as HookOutput from "../HookOutput.ts"
import type { HookResult, HookVerdict } from "../Verdict.ts"
import type { PlannedHook } from "../Plan.ts"
import type { Executed, ModelAnswer } from "./executors/index.ts"
import { MAX_PLAIN_STDOUT_BYTES, MAX_STDERR_BYTES } from "./executors/command.ts"
import { MAX_OUTPUT_BYTES } from "./executors/index.ts"
import { FAIL_OPEN_EVENTS } from "./hookEvent.ts"
import { none } from "./output.ts"

/** additionalContext, systemMessage and reasons longer than this are cut; the rest goes to a file. */
export const MAX_MESSAGE_CHARS = 10_000

/** A file the overflow sink writes after the outcome. */
export interface Overflow {
  readonly file: string
  readonly text: string
}

/** Where one dispatch's classification happens. */
export interface ClassifyContext {
  readonly spec: HookEventSpec
  /** How notices name the event, e.g. `PreToolUse:Bash`. */
  readonly label: string
  /** The payload's `source` is `policy_settings` (ConfigChange). */
  readonly policySource: boolean
  /** Seconds, for messages. */
  readonly timeout: number
  /** An `async` hook never blocks. */
  readonly async: boolean
  /** The engine fails closed: a failing hook without its own `onFailure` blocks. */
  readonly failClosed: boolean
  /** A hook that never ran (could not start, refused, exit 127 or 126 of a command) blocks: host mode. */
  readonly blockUnjudged?: boolean | undefined
  /** The next overflow file's path. */
  readonly overflowFile: () => string
}

/** A model's `{"ok": false, "reason"}` on each event: what a command hook would have answered there. */
const answerVerdict = (spec: HookEventSpec, answer: ModelAnswer): HookVerdict => {
  if (answer.ok) return none
  const { reason, continueOnBlock } = answer
  const block = (decision: "block" | "deny"): HookVerdict => ({ ...none, decision, reason, reasonFrom: "json" })
  // `"continue": false`: the agent stops (on events that honour it; the aggregation decides).
  const stop: HookVerdict = { ...none, continue: false, stopReason: reason }
  switch (spec.behavesAs) {
    case "Stop":
    case "SubagentStop":
      // A prompt hook that says the condition cannot be met lets the agent stop.
      return answer.impossible ? none : block("block")
    case "PreToolUse":
      return continueOnBlock ? block("deny") : { ...block("deny"), continue: false, stopReason: reason }
    case "PostToolUse":
    case "TeammateIdle":
      return continueOnBlock ? block("block") : stop
    case "PostToolUseFailure":
      return { ...none, additionalContext: [reason] }
    case "PermissionRequest":
    case "PermissionDenied":
      return none
    default:
      return spec.blocking === "decision" ? block("block") : spec.blocking === "permission" ? block("deny") : none
  }
}

/** What an async hook answered that nothing reads: it ran after the call, which went on without it. */
const asyncIgnored = (verdict: HookVerdict, exitCode: number | null): Array<string> => {
  const why = "an async hook answers after the call has gone on; only its additionalContext and systemMessage are delivered"
  const lines: Array<string> = []
  // exit 2 of an async hook is its asyncRewake signal, not an answer to the call
  if (verdict.decision !== null && exitCode !== 2) lines.push(`its decision "${verdict.decision}" is ignored: ${why}`)
  if (!verdict.continue) lines.push(`its "continue": false is ignored: ${why}`)
  if (verdict.updatedInput !== null) lines.push(`its updatedInput is ignored: ${why}`)
  if (verdict.hookSpecificOutput !== null) lines.push(`its hookSpecificOutput is ignored: ${why}`)
  return lines
}

/** Caps one message; the whole text goes to an overflow file. */
const capText = (text: string, ctx: ClassifyContext, overflow: Array<Overflow>): string => {
  if (text.length <= MAX_MESSAGE_CHARS) return text
  const file = ctx.overflowFile()
  overflow.push({ file, text })
  return `${text.slice(0, MAX_MESSAGE_CHARS)}\n[truncated: ${text.length} characters in all; the full text is in ${file}]`
}

/**
 * Did this hook fail, the one answer to it: the hook could not start, crashed, was killed, timed
 * out, or gave no answer the engine could read (stdout that looked like JSON but did not parse or
 * validate, output cut at the cap, output taken before it ended). A block is an answer (exit 2, a
 * JSON decision), except a block an exit status other than 0 and 2 made (a dialect whose non-zero
 * exits block, a WorktreeCreate hook that exited non-zero): that hook also failed. Decided on the
 * verdict before onFailure or fail-closed turns a failure into a block.
 */
const isFailure = (run: Executed["run"], verdict: HookVerdict): boolean =>
  verdict.status === "non-blocking-error" ||
  verdict.status === "cancelled" ||
  verdict.answerDropped === true ||
  run.stdoutTruncated === true ||
  run.outputIncomplete === true ||
  (verdict.status === "blocking-error" &&
    (run.exitCode === null || run.timedOut || run.signal !== null || (run.exitCode !== 0 && run.exitCode !== 2)))

/**
 * The policy language a handler is written in, when it is one (`cedar`, `http` with `api: "opa"`):
 * such a hook is a guard by construction, so one that could not decide blocks (its `onFailure`
 * defaults to "block"): an error of the engine or the server, an answer of no known shape, a timeout.
 */
const policyLanguage = (handler: PlannedHook["entry"]["handler"]): string | undefined =>
  handler.type === "cedar" ? "Cedar" : handler.type === "http" && handler.api === "opa" ? "OPA" : undefined

/**
 * Why a hook never ran, when it did not: it could not be started (a spawn error, a hook the engine
 * refused), the host lacks what it needs to run it (a model, an MCP connection) or the URL allowlist
 * refused it, or its command was not found (exit 127) or not executable (exit 126), as a shell says.
 * A hook that ran and failed (exit 1) ran: Claude Code's rule makes that a non-blocking error.
 */
const neverRan = (handler: PlannedHook["entry"]["handler"], { run, notRun }: Executed): string | undefined => {
  if (run.spawnError !== undefined) return `it could not start (${run.spawnError})`
  if (notRun !== undefined) return `it did not run (${notRun})`
  if (handler.type !== "command" || run.timedOut || run.signal !== null) return undefined
  if (run.exitCode === 127) return "its command was not found (exit 127)"
  if (run.exitCode === 126) return "its command could not be executed (exit 126)"
  return undefined
}

/**
 * One hook's run classified: its `HookResult`, its verdict, the texts cut at the cap, and whether
 * it failed (see `isFailure`): what the failure line, the detached-hook report and onFailure read.
 *
 * @internal
 */
export interface Classified {
  readonly result: HookResult
  readonly verdict: HookVerdict
  readonly overflow: ReadonlyArray<Overflow>
  readonly failed: boolean
  /** The parts of the hook's answer nothing reads (also in its messages), one line each for onWarning. */
  readonly ignored: ReadonlyArray<string>
}

/** @internal */
export const classify = (hook: PlannedHook, executed: Executed, ctx: ClassifyContext): Classified => {
  const { spec, label } = ctx
  const { run, answer } = executed
  const handler = hook.entry.handler
  // nonZeroBlocks is about processes' exit codes; an in-process hook that fails stays a non-blocking error.
  const forHandler = spec.nonZeroBlocks && handler.type !== "command" ? { ...spec, nonZeroBlocks: false } : spec
  let verdict =
    answer !== undefined && !run.timedOut ? answerVerdict(spec, answer) : HookOutput.interpret(forHandler, { ...run, timeout: ctx.timeout })
  // A ConfigChange from policy settings cannot be blocked.
  if (spec.behavesAs === "ConfigChange" && ctx.policySource && verdict.decision === "block") {
    const note = "a change to policy settings cannot be blocked"
    verdict = { ...verdict, decision: null, messages: [...verdict.messages, note], ignored: [...(verdict.ignored ?? []), note] }
  }
  // An async hook's answer arrives after the call: only its additionalContext and systemMessage are delivered.
  if (ctx.async && answer === undefined) {
    const late = asyncIgnored(verdict, run.exitCode)
    if (late.length > 0) verdict = { ...verdict, messages: [...verdict.messages, ...late], ignored: [...(verdict.ignored ?? []), ...late] }
  }
  const failed = isFailure(run, verdict)
  // onFailure applies to a failure that did not block already (an exit 2 whose stdout was cut, say).
  const failedOpen = failed && verdict.status !== "blocking-error"
  // A PreModelSwitch hook that times out blocks the switch.
  const timedOutBlocks = spec.behavesAs === "PreModelSwitch" && run.timedOut
  // A payload value that kept the hook from starting (too large for the system even after the
  // engine's own limits) blocks a blocking event whatever onFailure says: a payload must not be
  // able to switch a guard off.
  const payloadStopped = run.spawnErrorReason === "payload"
  // A hook the system had no room to start (too many open files or processes: a flood of requests)
  // blocks a blocking event too: load must not be able to switch a guard off.
  const resourcesStopped = run.spawnErrorReason === "resources"
  // A guard that did not judge blocks: a policy-language hook that failed (any failure), and in
  // host mode (blockUnjudged) a hook that never ran, or whose answer was not read: cut at the cap, or
  // stdout that looked like a JSON object (`{`) and did not parse (a deny that quotes a large input,
  // cut). Plain text cut at its own cap decided nothing: a decision is a JSON object. The engine's
  // failClosed gives every hook without its own onFailure the "block" rule. `onFailure: "continue"`
  // is the explicit opt-out of all of them.
  const language = policyLanguage(handler)
  const unjudged = failedOpen && ctx.blockUnjudged === true ? neverRan(handler, executed) : undefined
  const looksJson = run.stdout.trimStart().startsWith("{")
  const unread = run.stdoutTruncated && looksJson ? "cut" : verdict.answerDropped === true ? "unparsed" : undefined
  const unreadBlocks = unread !== undefined && ctx.blockUnjudged === true && handler.onFailure === undefined
  const onFailure =
    payloadStopped || resourcesStopped
      ? "block"
      : (handler.onFailure ?? (ctx.failClosed || language !== undefined || unjudged !== undefined || unreadBlocks ? "block" : "continue"))
  if (
    failedOpen &&
    !ctx.async &&
    spec.blocking !== "none" &&
    spec.blocking !== "permission-request" &&
    ((onFailure === "block" && !FAIL_OPEN_EVENTS.has(spec.behavesAs)) || timedOutBlocks)
  ) {
    // onFailure "block": a hook that fails or times out blocks, as exit 2 would.
    const why = run.timedOut
      ? "timed out"
      : (neverRan(handler, executed) ??
        (unread === "cut"
          ? `its answer was cut at ${MAX_OUTPUT_BYTES} bytes of stdout, so it was not read`
          : unread === "unparsed"
            ? "its answer looked like JSON but did not parse, so it was not read"
            : verdict.status === "success"
              ? "its answer could not be read"
              : "failed"))
    const because = timedOutBlocks
      ? "a PreModelSwitch hook that times out blocks the switch"
      : payloadStopped
        ? "the payload kept the hook from starting, so the action is blocked"
        : resourcesStopped
          ? "the system had no room to start the hook (too many open files or processes), so the action is blocked"
          : handler.onFailure === "block"
            ? `blocking because onFailure is "block"`
            : language !== undefined
              ? `blocking because ${language === "OPA" ? "an" : "a"} ${language} hook is a guard: one that could not decide blocks (onFailure: "continue" lets the call go on)`
              : ctx.failClosed
                ? "blocking because the engine fails closed"
                : unread !== undefined
                  ? `blocking because a guard whose answer was not read did not judge the call (onFailure: "continue" lets the call go on)`
                  : `blocking because a guard that never ran did not judge the call (onFailure: "continue" lets the call go on)`
    verdict = {
      ...verdict,
      // The failure blocks here: its message must not call it non-blocking.
      messages: verdict.messages.map((message) =>
        message.replace(/^Failed with non-blocking status code (-?\d+)/, `Failed with status code $1 (${because})`)
      ),
      status: "blocking-error",
      decision: spec.blocking === "permission" ? "deny" : "block",
      reason: `${label} hook error: [${hook.display}]: ${why}; ${because}`,
      reasonFrom: "stderr"
    }
  } else if (onFailure === "block" && FAIL_OPEN_EVENTS.has(spec.behavesAs) && failedOpen) {
    const rule =
      handler.onFailure === "block"
        ? `onFailure: "block"`
        : ctx.failClosed
          ? "failing closed"
          : language !== undefined
            ? `${language === "OPA" ? "an" : "a"} ${language} hook's failure blocking`
            : unread !== undefined
              ? "blocking on an answer not read"
              : "blocking on a hook that never ran"
    verdict = { ...verdict, messages: [...verdict.messages, `not blocking (${rule} is ignored on ${spec.name})`] }
  }
  const messages = [...verdict.messages, ...(run.warnings ?? [])]
  if (run.stdoutTruncated)
    messages.push(
      looksJson
        ? `stdout was longer than ${MAX_OUTPUT_BYTES} bytes and was cut there`
        : `stdout was longer than ${MAX_PLAIN_STDOUT_BYTES} bytes and was cut there (it is not a JSON answer: one that starts with "{" is kept up to ${MAX_OUTPUT_BYTES} bytes)`
    )
  if (run.stderrTruncated) messages.push(`stderr was longer than ${MAX_STDERR_BYTES} bytes and was cut there`)
  const result: HookResult = {
    command: hook.display,
    // A hook started detached has not ended: never "success" for an end nobody has seen.
    exitCode: run.detached === true ? null : run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    stdout: run.stdout,
    stderr: run.stderr,
    status: run.detached === true ? "detached" : verdict.status,
    source: hook.entry.scope === "explicit" && hook.entry.source === "(programmatic)" ? null : hook.entry.source,
    decision: verdict.decision,
    messages
  }
  // Strings that reach the model or the user are capped.
  const overflow: Array<Overflow> = []
  const capped: HookVerdict = {
    ...verdict,
    additionalContext: verdict.additionalContext.map((text) => capText(text, ctx, overflow)),
    systemMessage: verdict.systemMessage === null ? null : capText(verdict.systemMessage, ctx, overflow),
    reason: verdict.reason === null ? null : capText(verdict.reason, ctx, overflow),
    stopReason: verdict.stopReason === null ? null : capText(verdict.stopReason, ctx, overflow)
  }
  return { result, verdict: capped, overflow, failed, ignored: verdict.ignored ?? [] }
}
