/**
 * A local server that speaks OPA's Data API (`POST /v1/data/<path>` with `{"input": ...}` answers
 * `{"result": ...}`, or `{}` when the path is undefined for that input) for one fixed policy, the
 * Rego in `docs/policy-as-code.md`, evaluated in JavaScript. No OPA binary needed.
 *
 * The policy, package `agent_hooks.pretooluse`:
 * - `deny`: a set of reasons: a Bash command containing `rm -rf`, any tool writing under `.git/`;
 * - `allow`: `true` when `deny` is empty, `false` otherwise (`default allow := false`);
 * - `decision`: `{"allow": allow, "deny": deny}`;
 * - `allow_read`: `true` for the `Read` tool, undefined otherwise (no default);
 * - `version`: the string `"1"` (a result that is not a decision).
 *
 * @since 0.2.0
 */
import * as internal from "./internal/opaServer.ts"

/**
 * One request the server got: its path and the parsed body.
 *
 * @since 0.2.0
 * @category models
 */
export interface OpaRequest {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

/**
 * A running server.
 *
 * @since 0.2.0
 * @category models
 */
export interface OpaServer {
  /** `http://127.0.0.1:<port>`; append `/v1/data/<path>`. */
  readonly url: string
  readonly requests: ReadonlyArray<OpaRequest>
  readonly close: () => Promise<void>
}

/**
 * Starts a server on a free port of 127.0.0.1.
 *
 * @since 0.2.0
 * @category constructors
 */
export const start: () => Promise<OpaServer> = internal.start
