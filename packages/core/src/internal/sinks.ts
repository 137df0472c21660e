/**
 * The engine's sinks, run after the outcome is decided: the execution log (one JSONL line per hook
 * run), the overflow files (the full text of messages the classification cut) and the audit trail
 * (every dispatch, matched or not).
 * A sink that fails warns; it never changes the outcome's decision.
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import type { AuditError, Writer as AuditWriter } from "../Audit.ts"
import * as LogPath from "../LogPath.ts"
import type { Decision, HookResult } from "../Verdict.ts"
import type { PlannedHook } from "../Plan.ts"
import type { Overflow } from "./classify.ts"

/** What the sinks write with. */
export interface SinkContext {
  readonly fs: FileSystem.FileSystem
  readonly path: Path.Path
  readonly onWarning: ((warning: string) => void) | undefined
}

/** The fields of an execution log line that say which hook ran where and when. */
const recordHead = (event: string, hook: PlannedHook, startedAt: number, ranAs: string) => ({
  timestamp: new Date(startedAt).toISOString(),
  event,
  matcher: hook.entry.pattern ?? hook.entry.matcher.source ?? null,
  pattern: hook.entry.pattern ?? hook.entry.matcher.source ?? null,
  command: ranAs
})

/**
 * The start of the line a detached hook's launcher appends to the execution log when the hook
 * ends (the text of a JSON object without its closing brace): the same fields as the line written
 * when it started, so the two are read together.
 */
export const detachedRecord =
  (event: string, hook: PlannedHook, startedAt: number) =>
  (ranAs: string): string =>
    JSON.stringify({
      ...recordHead(event, hook, startedAt, ranAs),
      source: hook.entry.scope === "explicit" && hook.entry.source === "(programmatic)" ? null : hook.entry.source
    }).slice(0, -1)

/** One JSONL line per hook run (the orchestration design's HookLogger fields and Wingman's). */
export const executionLog = (
  sink: SinkContext,
  file: string,
  event: string,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly hook: PlannedHook; readonly startedAt: number; readonly ranAs: string }>
): Effect.Effect<void> => {
  if (hooks.length === 0) return Effect.void
  // Each line has the time its own hook started (Wingman's execution log), the matcher as the user wrote it and
  // the command as it ran, placeholders substituted (the orchestration design's HookLogger).
  const lines = hooks.map(({ hook, result, startedAt, ranAs }) =>
    JSON.stringify({
      ...recordHead(event, hook, startedAt, ranAs),
      exitCode: result.exitCode,
      duration_ms: result.durationMs,
      status: result.status,
      timedOut: result.timedOut,
      blocked: result.decision === "deny" || result.decision === "block",
      source: result.source,
      error:
        result.status === "success" || result.status === "detached" ? null : result.messages.join("; ") || result.stderr.trim() || null,
      // A hook started detached: its launcher appends a record of how it ended ("detached": "ended").
      ...(result.status === "detached" ? { detached: "started" } : {})
    })
  )
  // Append; only when that fails (no folder yet) make the folder and append again.
  const append = sink.fs.writeFileString(file, `${lines.join("\n")}\n`, { flag: "a" })
  const write = append.pipe(
    Effect.catch(() => Effect.andThen(sink.fs.makeDirectory(sink.path.dirname(file), { recursive: true }), append)),
    Effect.catch((error) => Effect.sync(() => sink.onWarning?.(`cannot write the execution log ${file}: ${error.message}`)))
  )
  // no symbolic link may lead a project's log out of its .agent-hooks/logs folder
  return LogPath.guard(file).pipe(
    Effect.provideService(FileSystem.FileSystem, sink.fs),
    Effect.flatMap((leaves) => (leaves === undefined ? write : Effect.sync(() => sink.onWarning?.(leaves))))
  )
}

/** Writes the full text of each cut message to the file its message names. */
export const overflowFiles = (sink: SinkContext, files: ReadonlyArray<Overflow>): Effect.Effect<void> =>
  Effect.forEach(
    files,
    ({ file, text }) =>
      sink.fs.makeDirectory(sink.path.dirname(file), { recursive: true }).pipe(
        Effect.andThen(sink.fs.writeFileString(file, text)),
        Effect.catch((error) =>
          Effect.sync(() => sink.onWarning?.(`cannot save the full text of a hook's message to ${file}: ${error.message}`))
        )
      ),
    { discard: true }
  )

/** What the audit trail records of one dispatch, besides its outcome. */
export interface AuditedDispatch {
  readonly event: string
  readonly session: string
  readonly matcher: string | null
  readonly tool: string | null
  readonly input: unknown
}

/**
 * The tool and what the agent asked of it: the payload's `tool_name` and `tool_input`; on a prompt
 * event (UserPromptSubmit and the dialects' events that behave as it), the prompt.
 */
export const audited = (
  spec: { readonly behavesAs: string },
  dispatch: { readonly event: string; readonly session: string; readonly matcher: string | null },
  payload: Readonly<Record<string, unknown>>
): AuditedDispatch => ({
  ...dispatch,
  tool: typeof payload["tool_name"] === "string" ? payload["tool_name"] : null,
  input:
    payload["tool_input"] !== undefined
      ? payload["tool_input"]
      : spec.behavesAs === "UserPromptSubmit"
        ? (payload["prompt"] ?? payload["user_message"] ?? null)
        : null
})

/** What the audit trail records of a dispatch's outcome: its hooks' decision and how many hooks it has. */
export interface AuditedOutcome {
  readonly blocked: boolean
  readonly decision: Decision | null
  readonly reason: string | null
  readonly hooks: number
}

/**
 * The audit trail's records of a dispatch: one per hook run, then one for the dispatch (its tool,
 * input and outcome; also when no hook matched), appended before the outcome is assembled. Returns
 * the warnings of records that could not be written (they go into the outcome: a gap in the audit
 * trail is never silent).
 */
export const audit = (
  writer: AuditWriter,
  dispatch: AuditedDispatch,
  hooks: ReadonlyArray<{ readonly result: HookResult; readonly hook: PlannedHook }>,
  outcome: AuditedOutcome | undefined
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.gen(function* () {
    const failures: Array<string> = []
    const attempt = (write: Effect.Effect<void, AuditError>) =>
      write.pipe(Effect.catch((error) => Effect.sync(() => void failures.push(`audit record not written: ${error.message}`))))
    for (const { hook, result } of hooks) {
      yield* attempt(
        writer.hook({
          session: dispatch.session,
          event: dispatch.event,
          matcher: dispatch.matcher,
          tool: dispatch.tool,
          hook: result.command,
          type: hook.entry.handler.type,
          source: result.source,
          exitCode: result.exitCode,
          signal: result.signal,
          status: result.status,
          decision: result.decision,
          timedOut: result.timedOut,
          durationMs: result.durationMs
        })
      )
    }
    if (outcome !== undefined) {
      yield* attempt(
        writer.outcome({
          session: dispatch.session,
          event: dispatch.event,
          matcher: dispatch.matcher,
          tool: dispatch.tool,
          input: dispatch.input,
          blocked: outcome.blocked,
          decision: outcome.decision,
          reason: outcome.reason,
          hooks: outcome.hooks
        })
      )
    }
    return failures
  })
