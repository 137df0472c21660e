import type { DispatchOutcome } from "../HookDispatcher.ts"
import type { State } from "./state.ts"
import * as Trace from "./trace.ts"
import * as Transcript from "./transcript.ts"

/** The outcome of a dispatch that ran no hook. */
export const nothingHappened = (event: string): DispatchOutcome => ({
  event,
  blocked: false,
  decision: null,
  reason: null,
  continue: true,
  stopReason: null,
  updatedInput: null,
  additionalContext: [],
  systemMessages: [],
  warnings: [],
  hooks: [],
  asyncHooks: []
})

/**
 * Says the outcome's warnings, unless the engine says its warnings itself (`reportsWarnings`, as an
 * engine from `createHookEngine` does): each failed hook is heard once, from one of the two.
 */
const warnOf = (s: State, outcome: DispatchOutcome) => {
  if (s.engine.reportsWarnings()) return
  for (const warning of outcome.warnings ?? []) s.warn(warning)
}

/**
 * The outcome at once, without building a payload, when no hook of `event` can run: none at all,
 * or (without `onOutcome`, which wants the payload) no matcher fits `probe`, the field the
 * event's matcher tests (a tool event: `tool_name`). Else `undefined`.
 */
export const quick = (s: State, event: string, probe: Record<string, unknown>): DispatchOutcome | undefined => {
  if (!s.engine.hasHooks(event)) return nothingHappened(event)
  if (s.options.onOutcome !== undefined) return undefined
  const outcome = s.engine.unmatched(event, probe)
  if (outcome !== undefined) warnOf(s, outcome)
  return outcome
}

/**
 * Runs the hooks of `event`. `payload`: built only when it is needed. `seen`: adds the messages so
 * far to the transcript; called only when some hook runs. `probe`: for an event whose matcher tests
 * one field (a tool event: `tool_name`), that field alone, which tells at once whether any hook can
 * match.
 */
export const dispatch = async (
  s: State,
  event: string,
  lazyPayload: Record<string, unknown> | (() => Record<string, unknown>),
  seen?: () => void,
  probe?: Record<string, unknown>
): Promise<DispatchOutcome> => {
  const fast = probe === undefined ? (s.engine.hasHooks(event) ? undefined : nothingHappened(event)) : quick(s, event, probe)
  if (fast !== undefined) return fast
  const payload = typeof lazyPayload === "function" ? lazyPayload() : lazyPayload
  // Else a hook may read transcript_path: it names every message so far.
  const unmatched = probe !== undefined && s.options.onOutcome === undefined ? undefined : s.engine.unmatched(event, payload)
  if (unmatched === undefined) {
    seen?.()
    Transcript.flushAll()
  }
  // The hooks' spans join the LangChain run's trace, when it has one.
  const outcome = unmatched ?? (await s.engine.dispatch(event, payload, Trace.current()))
  // Without agent nodes no run end closes the transcript files: closed once the hooks have run.
  if (unmatched === undefined && !s.agentNodes) Transcript.closeAll()
  warnOf(s, outcome)
  s.options.onOutcome?.(event, payload, outcome)
  return outcome
}
