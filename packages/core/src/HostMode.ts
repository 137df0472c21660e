/**
 * Host mode: agent-hooks as the one hook command of an agent (Claude Code, Codex, Gemini CLI, Qwen
 * Code). The agent sends its own payload; host mode reads it with that agent's event, tool and field
 * names, hands the engine the same call in Claude Code's names (so one policy, written once against
 * `Bash` `command`, `Read` `file_path`, `WebFetch`, `mcp__…`, matches the same action in every agent),
 * and answers in that agent's own language: its exit code, its JSON fields and nothing else.
 *
 * Each agent is one folder (`internal/agents/<name>/`) holding its names, fields and answers, so
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

import type { Action, Agent, AnswerOptions, HostCall, HostReply } from "./HostModel.ts"

/**
 * The host agent interface, defined in `HostModel` (its home), re-exported here.
 *
 * @since 0.2.0
 */
export type { Action, Agent, Answer, AnswerOptions, HostCall, HostName, HostReply, ToolActions, ToolMapping } from "./HostModel.ts"

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
 * The Outcomes of one call's actions (`HostCall.actions`, dispatched one by one up to the first
 * block) as the call's Outcome: blocked when any action is, with that action's reason and the
 * action named (`[Read /work/.env, action 2 of 3]`); the most restrictive decision; the context,
 * messages, hooks and warnings of all; the first rewrite (which `answer` honours only for a call of
 * one action). `total` is the call's number of actions.
 *
 * @since 0.2.0
 * @category answering
 */
export const combineOutcomes: (outcomes: ReadonlyArray<{ readonly action: Action; readonly outcome: Outcome }>, total: number) => Outcome =
  internal.combineOutcomes

/**
 * A call host mode does not judge as sent (`HostCall.refusal`: a duplicate key in the agent's input,
 * a patch it cannot read) as the agent's block, with `reason`.
 *
 * @since 0.2.0
 * @category answering
 */
export const refuse: (call: HostCall, reason: string) => HostReply = internal.refuse

/**
 * The first key an object of the JSON text gives twice (`{"path": "a", "path": "b"}`), or
 * `undefined`: `JSON.parse` keeps the last value silently, the agent's tool may read the first.
 *
 * @since 0.2.0
 * @category reading
 */
export const duplicateKey: (text: string) => string | undefined = internal.duplicateKey

/**
 * Host mode's own failure (a settings file it cannot read, a payload it cannot parse, a crash, its
 * time budget spent) as the agent's answer: a block with `message` as the reason on an event that
 * can block, else a visible hook error (exit 1) that lets the agent go on (Stop-like events and
 * events that cannot block, as `failClosed` exempts them).
 *
 * @since 0.2.0
 * @category answering
 */
export const failure: (
  agent: Agent,
  hostEvent: string | undefined,
  message: string,
  payload?: Readonly<Record<string, unknown>> | undefined
) => HostReply = internal.failure

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
