/**
 * What every executor shares: the context of one run, the result type, and the timeout wrapper of
 * in-process handlers. Each executor turns a handler into an `Executed`: a `ProcessRun` (exit code,
 * stdout, stderr) and, for model hooks, the model's answer, which classification reads directly.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { AbortSignalLike } from "../../Capabilities.ts"
import type { HookEventSpec } from "../../HookEvent.ts"
import type { ProcessRun } from "../../HookRunner.ts"
import type * as Placeholder from "../../Placeholder.ts"
import { makeRun } from "../runner.ts"

/** @internal */
export interface ExecContext {
  readonly spec: HookEventSpec
  /** The input object and its JSON (the stdin of a process). */
  readonly input: Record<string, unknown>
  readonly stdin: string
  readonly cwd: string
  /** Where a process hook runs instead when `cwd` (from the payload) is missing, with a warning. */
  readonly projectDir: string
  /**
   * Start a command hook detached and return at once (`ProcessRequest.detached`): in its own
   * session, stdin the payload, output to /dev/null, killed with its group after `capSeconds`. For
   * `async` hooks of a host that exits right after the dispatch (`agent-hooks run`). With `logTo`,
   * how it ended is appended to the execution log `file` when it ends: `record` gives the start of
   * that line (a JSON object without its closing brace) for the command as it ran.
   */
  readonly detach?:
    | {
        readonly capSeconds: number
        readonly logTo?: { readonly file: string; readonly record: (ranAs: string) => string } | undefined
      }
    | undefined
  readonly env: Readonly<Record<string, string>>
  /** Seconds. */
  readonly timeout: number
}

/** A model's answer to a `prompt` or `agent` hook: `{"ok": false, "reason": ...}` blocks. @internal */
export interface ModelAnswer {
  readonly ok: boolean
  readonly reason: string
  /** A prompt hook said the condition cannot be met (`impossible: true`): a Stop hook then lets the agent stop. */
  readonly impossible: boolean
  /** Block without stopping the agent (`continueOnBlock`, and always for agent hooks). */
  readonly continueOnBlock: boolean
}

/** @internal */
export interface Executed {
  readonly run: ProcessRun
  readonly answer?: ModelAnswer | undefined
  /**
   * Why the hook never ran, when it did not: the host lacks what it needs (a model, an MCP
   * connection, fetch) or the URL allowlist refused it. Host mode blocks on it (`blockUnjudged`).
   */
  readonly notRun?: string | undefined
}

/** @internal */
export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** @internal */
export const placeholderValues = (ctx: ExecContext): Placeholder.Values => ({ env: ctx.env, input: ctx.input })

/** @internal */
export const failed = (stderr: string): Effect.Effect<Executed> => Effect.succeed({ run: makeRun({ exitCode: 1, stderr }) })

/** A hook that never ran (see `Executed.notRun`): a failure (exit 1) whose stderr says why. @internal */
export const notRun = (stderr: string): Effect.Effect<Executed> => Effect.succeed({ run: makeRun({ exitCode: 1, stderr }), notRun: stderr })

/** What an in-process handler resolves to. @internal */
export type InProcessResult = Partial<ProcessRun> & { readonly answer?: ModelAnswer | undefined }

/**
 * Runs an in-process, Promise-based handler under the timeout. The AbortSignal is aborted when
 * the timeout elapses; the result is then `timedOut` whatever the Promise does afterwards. A
 * rejection is exit 1 with the error's message on stderr.
 *
 * @internal
 */
export const inProcess = (timeout: number, f: (signal: AbortSignalLike) => Promise<InProcessResult>): Effect.Effect<Executed> =>
  Effect.gen(function* () {
    const start = yield* Clock.currentTimeMillis
    const outcome = yield* Effect.tryPromise({ try: (signal) => f(signal), catch: (error) => error }).pipe(
      Effect.catch((error) => Effect.succeed<InProcessResult>({ exitCode: 1, stderr: message(error) })),
      Effect.timeoutOption(Duration.millis(timeout * 1000))
    )
    const durationMs = Math.round(((yield* Clock.currentTimeMillis) - start) * 10) / 10
    return Option.match(outcome, {
      onNone: (): Executed => ({ run: makeRun({ exitCode: null, timedOut: true, durationMs }) }),
      onSome: ({ answer, ...over }): Executed => ({ run: makeRun({ ...over, durationMs }), answer })
    })
  })
