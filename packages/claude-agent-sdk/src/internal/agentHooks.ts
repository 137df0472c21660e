import { HOOK_EVENTS } from "@anthropic-ai/claude-agent-sdk"
import type { HookCallback, HookCallbackMatcher, HookEvent, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk"
import * as HostMode from "@agent-hooks/core/HostMode"
import type * as Outcome from "@agent-hooks/core/Outcome"
import { activeTraceparent } from "@agent-hooks/core/Telemetry"
import { projectEngine } from "@agent-hooks/node/ProjectEngine"
import type { AgentHooksOptions, HookDispatcher } from "../AgentHooks.ts"

// The SDK's callbacks take Claude Code's payloads and Claude Code's answers: host mode's
// `claude` agent reads and writes exactly those (the policy's own names).
const claude = HostMode.byName("claude")!

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** The JSON a Claude Code command hook prints for `reply` (its stdout, plus what its exit 2 says). */
const jsonOf = (reply: HostMode.HostReply, event: string): HookJSONOutput => {
  const text = reply.stdout.trim()
  const out = (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>
  if (reply.exitCode === 2) {
    // Exit 2 blocks, with stderr as the reason: said in the JSON the SDK reads.
    const specific = out["hookSpecificOutput"] as Record<string, unknown> | undefined
    const said = out["decision"] === "block" || specific?.["permissionDecision"] === "deny" || specific?.["decision"] !== undefined
    if (!said) {
      const reason = reply.stderr.trim()
      if (event === "PreToolUse") {
        out["hookSpecificOutput"] = { ...specific, hookEventName: event, permissionDecision: "deny", permissionDecisionReason: reason }
      } else {
        out["decision"] = "block"
        out["reason"] = reason
      }
    }
  }
  return out as HookJSONOutput
}

/** @internal */
export const agentHooks = (options: AgentHooksOptions = {}): Partial<Record<HookEvent, Array<HookCallbackMatcher>>> => {
  const warn = options.onWarning ?? ((warning: string) => console.warn(`agent-hooks: ${warning}`))
  let engine: Promise<HookDispatcher> | undefined
  let ready: HookDispatcher | undefined
  // Created on the first event, not when the options are built: `query()` may never run.
  const engineOf = (): Promise<HookDispatcher> => {
    engine ??= Promise.resolve(
      options.engine ??
        projectEngine({ ...options.engineOptions, ...(options.projectDir === undefined ? {} : { projectDir: options.projectDir }) })
    ).then(
      (made) => (ready = made),
      (error: unknown) => {
        // Not kept: the next event tries again (and says why until it works).
        engine = undefined
        throw error
      }
    )
    return engine
  }

  /** A failure of the engine: a deny where the event can block, else a warning and no answer. */
  const failed = (event: string, message: string): HookJSONOutput => {
    const reply = HostMode.failure(claude, event, message)
    if (reply.exitCode === 1) {
      warn(message)
      return {}
    }
    return jsonOf(reply, event)
  }

  const answer = (call: HostMode.HostCall, outcome: Outcome.Outcome): HookJSONOutput => {
    options.onOutcome?.(call.event, call.payload, outcome)
    return jsonOf(HostMode.answer(call, outcome), call.event)
  }

  const callbackFor =
    (event: string): HookCallback =>
    async (input) => {
      const call = HostMode.translate(claude, input as unknown as Record<string, unknown>)
      if ("error" in call) return failed(event, call.error)
      try {
        const dispatcher = ready ?? (await engineOf())
        // A call no hook matches: answered from the plan's index, without a dispatch.
        const quick = options.onOutcome === undefined ? dispatcher.unmatched?.(call.event, call.payload) : undefined
        if (quick !== undefined) return answer(call, quick)
        const traceparent = activeTraceparent()
        const outcome = await (traceparent === undefined
          ? dispatcher.dispatch(call.event, call.payload)
          : dispatcher.dispatch(call.event, call.payload, { traceparent }))
        return answer(call, outcome)
      } catch (error) {
        return failed(event, `the policy could not judge this ${event}: ${errorText(error)}`)
      }
    }

  const events: ReadonlyArray<string> = options.events ?? HOOK_EVENTS
  const timeout = options.timeout ?? claude.hookTimeout
  return Object.fromEntries(
    events.map((event) => [event, [{ hooks: [callbackFor(event)], timeout, onFailure: "block" as const }]])
  ) as Partial<Record<HookEvent, Array<HookCallbackMatcher>>>
}
