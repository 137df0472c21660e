/**
 * Cursor's names, shared by its preset (and, later, its host mode): its 21 camelCase events, the
 * catalog events whose semantics each one has, and the payload field a matcher is tested against.
 * Cursor's own input is snake_case (`conversation_id`, `generation_id`, `workspace_roots`).
 */

/** One Cursor event: the catalog event it behaves as (when one fits), and what a matcher tests. */
export interface CursorEvent {
  readonly name: string
  readonly behavesAs?: string | undefined
  /** Only before* events decide (`permission`); the others observe. */
  readonly blocks: boolean
  readonly matcherField?: string | undefined
}

/** @internal */
export const CURSOR_EVENTS: ReadonlyArray<CursorEvent> = [
  { name: "sessionStart", behavesAs: "SessionStart", blocks: false },
  { name: "sessionEnd", behavesAs: "SessionEnd", blocks: false },
  { name: "preToolUse", behavesAs: "PreToolUse", blocks: true, matcherField: "tool_name" },
  { name: "postToolUse", behavesAs: "PostToolUse", blocks: false, matcherField: "tool_name" },
  { name: "postToolUseFailure", behavesAs: "PostToolUseFailure", blocks: false, matcherField: "tool_name" },
  { name: "subagentStart", behavesAs: "SubagentStart", blocks: false },
  { name: "subagentStop", behavesAs: "SubagentStop", blocks: true },
  { name: "beforeShellExecution", behavesAs: "PreToolUse", blocks: true, matcherField: "command" },
  { name: "afterShellExecution", blocks: false },
  { name: "beforeMCPExecution", behavesAs: "PreToolUse", blocks: true, matcherField: "tool_name" },
  { name: "afterMCPExecution", blocks: false },
  { name: "beforeReadFile", behavesAs: "PreToolUse", blocks: true },
  { name: "afterFileEdit", blocks: false },
  { name: "beforeSubmitPrompt", behavesAs: "UserPromptSubmit", blocks: true },
  { name: "preCompact", behavesAs: "PreCompact", blocks: false },
  { name: "stop", behavesAs: "Stop", blocks: true },
  { name: "afterAgentResponse", blocks: false },
  { name: "afterAgentThought", blocks: false },
  { name: "beforeTabFileRead", behavesAs: "PreToolUse", blocks: true },
  { name: "afterTabFileEdit", blocks: false },
  { name: "workspaceOpen", blocks: false }
]

/** Cursor's tool types, as a preToolUse matcher names them (`MCP:<tool>` for MCP tools). */
export const CURSOR_TOOLS: ReadonlyArray<string> = ["Shell", "Read", "Write", "Grep", "Delete", "Task"]

/** The hook keys of a hooks.json v1 entry. */
export const CURSOR_HANDLER_KEYS: ReadonlyArray<string> = ["command", "type", "prompt", "matcher", "timeout", "failClosed", "loop_limit"]
