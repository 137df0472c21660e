/**
 * Host mode: agent-hooks as the one hook command of an agent (Claude Code, Codex, Gemini CLI, Qwen
 * Code). The agent sends its own payload; host mode reads it with that agent's event, tool and field
 * names, hands the engine the same call in Claude Code's names (so one policy, written once against
 * `Bash` `command`, `Read` `file_path`, `WebFetch`, `mcp__…`, matches the same action in every agent),
 * and answers in that agent's own language: its exit code, its JSON fields and nothing else.
 *
 * Each agent is one module (`internal/agents/<name>.ts`) holding its names, fields and answers, so
 * that an agent's preset and its host mode share them; `agents` lists them.
 *
 * **Example**
 *
 * ```ts
 * import { HostMode } from "@agent-hooks/core"
 *
 * const agent = HostMode.byName("gemini")!
 * const call = HostMode.translate(agent, { hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "ls" } })
 * // call.event === "PreToolUse", call.payload.tool_name === "Bash"
 * ```
 *
 * @since 0.2.0
 */
import type { Outcome } from "./Outcome.ts"
import * as internal from "./internal/agents/common.ts"
import * as presentation from "./internal/agents/present.ts"
import * as registry from "./internal/agents/registry.ts"

/**
 * The agents host mode speaks for (`agent-hooks hook --host <name>`).
 *
 * @since 0.2.0
 * @category models
 */
export type HostName =
  | "claude"
  | "codex"
  | "gemini"
  | "qwen"
  | "kiro"
  | "windsurf"
  | "cline"
  | "antigravity"
  | "antigravity-1.0"
  | "cursor"
  | "copilot"
  | "vscode"

/**
 * One tool of an agent and the Claude Code tool that does the same thing.
 *
 * @since 0.2.0
 * @category models
 */
export interface ToolMapping {
  /** The agent's own tool name (`run_shell_command`). */
  readonly host: string
  /** Claude Code's name for the same action (`Bash`). */
  readonly claude: string
  /**
   * The agent's input field → Claude Code's field (`absolute_path` → `file_path`). Fields not named
   * keep their name; a rewrite is mapped back the other way.
   */
  readonly fields?: Readonly<Record<string, string>> | undefined
}

/**
 * What host mode does with an answer the agent cannot take as it is.
 * - `ask`: `host` uses the agent's own ask where it has one that works (Claude Code, Qwen Code),
 *   else denies with a reason saying approval is needed; `deny` always denies.
 * - `rewrite`: `host` maps an `updatedInput` back to the agent's tool input where the agent applies
 *   it, else denies with the rewrite in the reason (the original call never runs silently); `deny`
 *   always denies a rewritten call; `original` lets the original call run (said on stderr).
 *
 * @since 0.2.0
 * @category models
 */
export interface AnswerOptions {
  readonly ask?: "host" | "deny" | undefined
  readonly rewrite?: "host" | "deny" | "original" | undefined
}

/**
 * An agent as a host: its names, its fields, and how it reads a hook's answer.
 *
 * @since 0.2.0
 * @category models
 */
export interface Agent {
  readonly name: HostName
  /** For messages: `Gemini CLI`. */
  readonly displayName: string
  /** Environment variables the agent sets to the project root for its hooks, most specific first. */
  readonly projectDirEnv: ReadonlyArray<string>
  /** The agent's default hook timeout, in seconds (host mode keeps its own budget below it). */
  readonly hookTimeout: number
  /** The agent's event name → Claude Code's (`BeforeTool` → `PreToolUse`); an event without a Claude Code counterpart maps to itself. */
  readonly events: Readonly<Record<string, string>>
  /** Events of the agent that have no Claude Code counterpart: declared to the engine, they cannot block. */
  readonly ownEvents: ReadonlyArray<string>
  /**
   * The agent's built-in tool names, mapped or not (Gemini CLI's `save_memory` has no Claude Code
   * counterpart); `[]` where they are Claude Code's. Its preset reads them too, to warn about a
   * matcher that names one in the wrong case.
   */
  readonly toolNames: ReadonlyArray<string>
  /** The agent's tools that Claude Code names otherwise. Tools not listed keep their name and input. */
  readonly tools: ReadonlyArray<ToolMapping>
  /** `ask` without options: `host` where the agent's own ask works, else `deny`. */
  readonly askDefault: "host" | "deny"
  /** The agent has a working ask (a prompt, or a refusal that tells the model why). */
  readonly canAsk: boolean
  /** The agent applies a rewritten tool input. */
  readonly canRewrite: boolean
  /**
   * Input fields the agent names otherwise than Claude Code on an event (Gemini CLI's AfterAgent
   * `prompt_response` is Stop's `last_assistant_message`), set where the payload lacks them; or a
   * tool name the agent gives elsewhere (an MCP tool's server).
   */
  readonly readInput?: ((hostEvent: string, payload: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>) | undefined
  /**
   * For agents whose payload is not Claude Code's shape (Windsurf, Cline, Antigravity): the payload
   * with `hook_event_name` (the agent's own event name), `tool_name` and `tool_input` (the agent's
   * own tool and input) set from the agent's fields. The agent's fields stay.
   */
  readonly normalize?: ((payload: Readonly<Record<string, unknown>>) => Record<string, unknown>) | undefined
  /**
   * The payload field that names the event, where it is not `hook_event_name` (VS Code's
   * `hookEventName`). Copilot CLI names none: its hook command gives `--event`.
   *
   * @since 0.2.0
   */
  readonly eventField?: string | undefined
  /** Writes a decided answer in the agent's format, for the agent's event `hostEvent`. */
  readonly render: (answer: Answer, hostEvent: string) => HostReply
}

/**
 * One call from an agent, read into Claude Code's names.
 *
 * @since 0.2.0
 * @category models
 */
export interface HostCall {
  readonly agent: Agent
  /** The event as the agent named it (`BeforeTool`). */
  readonly hostEvent: string
  /** Claude Code's name for it (`PreToolUse`), the event the engine dispatches. */
  readonly event: string
  /**
   * The payload the hooks see: the agent's fields as given, `hook_event_name`, `tool_name` and
   * `tool_input` in Claude Code's names, and `host`: `{ name, event, tool_name, tool_input }`, the
   * agent's own names and input.
   */
  readonly payload: Record<string, unknown>
  /** The agent's tool, when the event is about one. */
  readonly tool:
    | { readonly name: string; readonly input: Readonly<Record<string, unknown>>; readonly mapping: ToolMapping | undefined }
    | undefined
}

/**
 * The answer host mode gives, before it is written in the agent's format.
 *
 * @since 0.2.0
 * @category models
 */
export interface Answer {
  /** Claude Code's event name. */
  readonly event: string
  /** Block (deny a tool call, block a prompt, keep a Stop going), with this reason. */
  readonly block: string | undefined
  /** Ask the user, with this reason (only where the agent's ask is used). */
  readonly ask: string | undefined
  /** Claude Code only: defer the call (`-p`). */
  readonly defer: boolean
  /** A hook allowed the call explicitly (with its reason, if any). */
  readonly allow: { readonly reason: string | undefined } | undefined
  /** The rewritten tool input, in the agent's own field names. */
  readonly updatedInput: Record<string, unknown> | undefined
  readonly additionalContext: string | undefined
  readonly systemMessage: string | undefined
  /** `continue: false`: the agent stops, with this reason shown to the user. */
  readonly stop: { readonly reason: string | undefined } | undefined
  /** Other `hookSpecificOutput` fields of Claude Code's event (`updatedToolOutput`, `sessionTitle`...). */
  readonly specific: Readonly<Record<string, unknown>> | undefined
  /** Lines for stderr that are not the block reason (a rewrite left out, ask turned into deny). */
  readonly notes: ReadonlyArray<string>
}

/**
 * What the command writes and how it exits.
 *
 * @since 0.2.0
 * @category models
 */
export interface HostReply {
  readonly exitCode: 0 | 1 | 2
  readonly stdout: string
  readonly stderr: string
}

/**
 * Every agent host mode speaks for.
 *
 * @since 0.2.0
 * @category agents
 */
export const agents: ReadonlyArray<Agent> = registry.agents

/**
 * The agent of that name (`claude`, `codex`, `gemini`, `qwen`), or `undefined`.
 *
 * @since 0.2.0
 * @category agents
 */
export const byName: (name: string) => Agent | undefined = registry.byName

/**
 * Reads one payload of the agent: its event (`hook_event_name`), tool and input fields, into Claude
 * Code's names. Fails with a message when the payload names no event, or one the agent does not send.
 *
 * @since 0.2.0
 * @category reading
 */
export const translate: (agent: Agent, payload: Readonly<Record<string, unknown>>) => HostCall | { readonly error: string } =
  internal.translate

/**
 * The Claude Code tool name a host tool name stands for (`run_shell_command` → `Bash`), or the name itself.
 *
 * @since 0.2.0
 * @category reading
 */
export const claudeToolName: (agent: Agent, hostToolName: string) => string = internal.claudeToolName

/**
 * A warning when the call's tool is not one of the agent's built-in tools that host mode knows
 * (`toolNames`) and not an MCP tool: a policy written against Claude Code's names may not match it
 * (a tool the agent added or renamed). `undefined` otherwise.
 *
 * @since 0.2.0
 * @category reading
 */
export const unknownTool: (call: HostCall) => string | undefined = internal.unknownTool

/**
 * The project root the agent gives its hooks: the first of its `projectDirEnv` that is set. Never
 * the payload's `cwd`, which follows the model's `cd`.
 *
 * @since 0.2.0
 * @category reading
 */
export const projectDir: (agent: Agent, env: Readonly<Record<string, string | undefined>>) => string | undefined = internal.projectDir

/**
 * The engine's Outcome as the agent's answer: the decision resolved with `options` (ask and rewrite
 * where the agent cannot take them), then written in the agent's format.
 *
 * @since 0.2.0
 * @category answering
 */
export const answer: (call: HostCall, outcome: Outcome, options?: AnswerOptions) => HostReply = internal.answer

/**
 * Host mode's own failure (a settings file it cannot read, a payload it cannot parse, a crash, its
 * time budget spent) as the agent's answer: a block with `message` as the reason on an event that
 * can block, else a visible hook error (exit 1) that lets the agent go on (Stop-like events and
 * events that cannot block, as `failClosed` exempts them).
 *
 * @since 0.2.0
 * @category answering
 */
export const failure: (agent: Agent, hostEvent: string | undefined, message: string) => HostReply = internal.failure

/**
 * Whether an event of the agent may be blocked by host mode's own failure.
 *
 * @since 0.2.0
 * @category answering
 */
export const failureBlocks: (agent: Agent, hostEvent: string | undefined) => boolean = internal.failureBlocks

/**
 * The agent's own name for the event of a payload (`BeforeTool`, Windsurf's `pre_run_command`),
 * or `undefined` when it names none.
 *
 * @since 0.2.0
 * @category host mode
 */
export const hostEvent: (agent: Agent, payload: Readonly<Record<string, unknown>>) => string | undefined = internal.hostEvent

/**
 * A call of another agent, read into Claude Code's names, as `agent` itself sends it to its hooks:
 * one `{ hostEvent, payload }` per event of the agent that fires for it, in the agent's event, tool
 * and field names (its `tools` table read backwards), each read back by `translate` to the same
 * call. A hook written for that agent's payload keeps receiving it under any host
 * (`agent-hooks hook --host <host> --payload <agent>`, which `migrate --to` writes).
 *
 * @since 0.2.0
 * @category host mode
 */
export const present: (
  agent: Agent,
  event: string,
  payload: Readonly<Record<string, unknown>>
) => ReadonlyArray<{ readonly hostEvent: string; readonly payload: Record<string, unknown> }> = presentation.present

/**
 * A rewritten tool input given in the agent's own field names, in Claude Code's (`absolute_path` →
 * `file_path`), for the agent's tool `hostTool`.
 *
 * @since 0.2.0
 * @category host mode
 */
export const claudeInput: (agent: Agent, hostTool: string, input: Readonly<Record<string, unknown>>) => Record<string, unknown> =
  presentation.claudeInput
