/**
 * The schemas of the handlers a settings file may hold. `Settings`' handler types are derived from
 * them, so the decoder and the types cannot drift apart.
 */
import * as Schema from "effect/Schema"

// Finite: a JSON number (the JSON Schema then says `"type": "number", "exclusiveMinimum": 0`).
const PositiveSeconds = Schema.Finite.check(Schema.isGreaterThan(0))
const NonEmpty = Schema.String.check(Schema.isMinLength(1))

/** Fields every handler type accepts. @internal */
export const commonFields = {
  /** Seconds. Default: the event's default (600 s for most events; 30 s for prompt, 60 s for agent). */
  timeout: Schema.optional(PositiveSeconds),
  /** Text a host may show while the hook runs. */
  statusMessage: Schema.optional(Schema.String),
  /** One permission rule (`Bash(git push:*)`, `Edit(src/**)`); on tool events only. */
  if: Schema.optional(Schema.String),
  /**
   * `"block"`: a hook that fails, times out or prints invalid output blocks, as exit 2 would.
   * Default `"continue"`, but `"block"` for `cedar` hooks and `http` hooks with `api: "opa"` (guards
   * by construction); `"continue"` is the explicit opt-out.
   */
  onFailure: Schema.optional(Schema.Literals(["continue", "block"])),
  /** Run once per engine session, then never again. */
  once: Schema.optional(Schema.Boolean),
  /**
   * The hook's identity for dedup: matched hooks of one event with the same `dedupeKey` run once,
   * instead of hooks with the same command (Gemini CLI's `name:command`, under the gemini preset).
   */
  dedupeKey: Schema.optional(Schema.String),
  /**
   * When any hook matched for an event has `sequential: true`, that event's matched hooks run one
   * after another in config order (Gemini CLI's rule for a group's `sequential`, under the gemini
   * preset); events and calls where none of them matched run their hooks in parallel as usual.
   */
  sequential: Schema.optional(Schema.Boolean),
  /**
   * On Stop and SubagentStop: how many times in a row this hook's block (a follow-up that keeps the
   * agent going) is honoured; past it, its block is dropped with a note until a stop it lets through
   * (Cursor's `loop_limit`, under the cursor preset). A payload's `loop_count` (Cursor's count of
   * follow-ups so far) is used when present. Default: no limit of its own.
   */
  loopLimit: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))
}

/** @internal */
export const Common = Schema.Struct(commonFields)

/** @internal */
export const command = Schema.Struct({
  type: Schema.Literal("command"),
  command: NonEmpty,
  /** Exec form: `command` resolved on `PATH` and run with these arguments, no shell. */
  args: Schema.optional(Schema.Array(Schema.String)),
  /** `"bash"` runs `bash -c`, `"powershell"` runs `pwsh -Command`; default `/bin/sh -c`. Ignored with `args`. */
  shell: Schema.optional(Schema.Literals(["bash", "sh", "powershell"])),
  /** Run in the background: the hook cannot block; its result is delivered later. */
  async: Schema.optional(Schema.Boolean),
  /** Like `async`, and an exit 2 wakes the host at once. */
  asyncRewake: Schema.optional(Schema.Boolean),
  /**
   * Extra environment variables. Values may use placeholders (`${tool_input.file_path}`), substituted
   * verbatim (never through a shell) and whole; `${field-text}` is the input's field, or `text` when
   * the input has no such field. A value over 128 KiB (more than one environment string holds)
   * keeps the hook from starting and blocks the event.
   */
  env: Schema.optional(Schema.Record(Schema.String, Schema.String)),
  /** Cut each substituted `env` value to this many characters (pigo's documented 10 000). Default: no cut. */
  envMaxChars: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))),
  /**
   * The engine's secrets this hook gets (`AGENT_HOOKS_AUDIT_KEY`, `OTEL_EXPORTER_OTLP_HEADERS`, …),
   * which every hook process is otherwise started without. Honoured in user, managed and explicit
   * (`--settings`, programmatic) settings only.
   */
  passEnv: Schema.optional(Schema.Array(Schema.String)),
  ...commonFields
})

/** @internal */
export const http = Schema.Struct({
  type: Schema.Literal("http"),
  url: NonEmpty,
  headers: Schema.optional(Schema.Record(Schema.String, Schema.String)),
  /** Env vars that `headers` may reference as `$VAR` or `${VAR}`; others become empty. */
  allowedEnvVars: Schema.optional(Schema.Array(Schema.String)),
  /**
   * What the URL speaks. `"hooks"` (default): the input is the body, the JSON answer is the hook's
   * output. `"opa"`: OPA's Data API (`POST /v1/data/<path>`): the body is `{"input": <input>}` and
   * the `{"result": ...}` answer is read as a decision (a boolean, a deny set, or a decision object).
   */
  api: Schema.optional(Schema.Literals(["hooks", "opa"])),
  /** With `api: "opa"`: an undefined result (`{}`) blocks (`"block"`, default) or is a failed hook (`"fail"`). Never an allow. */
  onUndefined: Schema.optional(Schema.Literals(["block", "fail"])),
  ...commonFields
})

const modelFields = {
  prompt: NonEmpty,
  model: Schema.optional(Schema.String),
  continueOnBlock: Schema.optional(Schema.Boolean),
  ...commonFields
}

/** @internal */
export const prompt = Schema.Struct({ type: Schema.Literal("prompt"), ...modelFields })

/** @internal */
export const agent = Schema.Struct({ type: Schema.Literal("agent"), ...modelFields })

/** @internal */
export const mcpTool = Schema.Struct({
  type: Schema.Literal("mcp_tool"),
  server: NonEmpty,
  tool: NonEmpty,
  input: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  ...commonFields
})

/** @internal */
export const cedar = Schema.Struct({
  type: Schema.Literal("cedar"),
  /** A Cedar policy file; relative to the settings file's folder. */
  policies: NonEmpty,
  /** Cedar entities (JSON): the parents and attributes of principals and resources. */
  entities: Schema.optional(NonEmpty),
  /** A Cedar schema (JSON or the Cedar schema syntax): the policies are validated against it when they load. */
  schema: Schema.optional(NonEmpty),
  /** When no policy applies (Cedar's default deny): `"deny"` blocks (default), `"no-objection"` lets the call go on. */
  onNoDecision: Schema.optional(Schema.Literals(["deny", "no-objection"])),
  ...commonFields
})

/** @internal */
export const module = Schema.Struct({
  type: Schema.Literal("module"),
  /** As written; relative to the settings file's folder. */
  module: NonEmpty,
  /** The export to call. Default: `"default"`. */
  export: Schema.optional(NonEmpty),
  ...commonFields
})
