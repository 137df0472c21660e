import type { BlockingRule, CustomEvent, HookEventSpec } from "../HookEvent.ts"
import { nearest } from "./text.ts"

/** Events where `onFailure: "block"` is ignored: a failing hook must not keep the agent from stopping. */
export const FAIL_OPEN_EVENTS: ReadonlySet<string> = new Set(["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"])

/**
 * Events whose exit 2 leaves `hookSpecificOutput` unread: the exit code decides (Elicitation's
 * `action` and `content` are not applied on a block). Elsewhere exit 2 still reads the valid JSON.
 */
export const EXIT2_IGNORES_SPECIFIC: ReadonlySet<string> = new Set(["Elicitation", "ElicitationResult"])

const MODEL_STDERR = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "PostToolBatch"
])
const USER_STDERR = new Set([
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreCompact",
  "SessionStart",
  "Setup",
  "SubagentStart",
  "SessionEnd",
  "CwdChanged",
  "FileChanged",
  "PostCompact",
  "PreModelSwitch"
])
const MODEL_REASON = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "TaskCreated",
  "PostToolBatch",
  "TeammateIdle",
  "TaskCompleted"
])
const USER_REASON = new Set(["UserPromptSubmit", "UserPromptExpansion", "PreCompact", "PreModelSwitch"])
const CONTINUE_DISCARDED = new Set([
  "Notification",
  "SessionEnd",
  "PreCompact",
  "PostCompact",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "DirectoryAdded",
  "WorktreeCreate",
  "WorktreeRemove",
  "Elicitation",
  "ElicitationResult",
  "MessageDisplay",
  "InstructionsLoaded",
  "TaskCreated"
])
/** Events whose JSON answer Claude Code reads nothing of but `terminalSequence`: a `systemMessage` there is not shown. */
const SYSTEM_MESSAGE_DISCARDED = new Set([
  "Notification",
  "StopFailure",
  "InstructionsLoaded",
  "WorktreeRemove",
  "SessionEnd",
  "PostCompact"
])
const PROMPT_EVENTS = new Set([
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "Stop",
  "TeammateIdle"
])
const SPECIFIC: Record<string, ReadonlyArray<string>> = {
  PreToolUse: ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
  PermissionRequest: ["decision"],
  PermissionDenied: ["retry"],
  UserPromptSubmit: ["additionalContext", "sessionTitle", "suppressOriginalPrompt"],
  UserPromptExpansion: ["additionalContext"],
  PostToolUse: ["additionalContext", "updatedToolOutput", "updatedMCPToolOutput", "classifierContext"],
  PostToolUseFailure: ["additionalContext"],
  PostToolBatch: ["additionalContext"],
  Stop: ["additionalContext"],
  SubagentStop: ["additionalContext"],
  SessionStart: ["additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"],
  Setup: ["additionalContext"],
  SubagentStart: ["additionalContext"],
  PreModelSwitch: ["permissionDecision", "permissionDecisionReason"],
  PostModelSwitch: ["additionalContext"],
  MessageDisplay: ["displayContent"],
  CwdChanged: ["watchPaths"],
  FileChanged: ["watchPaths"],
  Elicitation: ["action", "content"],
  ElicitationResult: ["action", "content"],
  WorktreeCreate: ["worktreePath"]
}

const e = (
  name: string,
  matcherField: string | undefined,
  blocking: BlockingRule,
  plainStdoutToContext = false,
  defaultTimeout = 600
): HookEventSpec => ({
  name,
  matcherField,
  blocking,
  plainStdoutToContext,
  defaultTimeout,
  exit2StderrTo: MODEL_STDERR.has(name) ? "model" : USER_STDERR.has(name) ? "user" : "none",
  reasonTo: MODEL_REASON.has(name) ? "model" : USER_REASON.has(name) ? "user" : "none",
  specificOutput: SPECIFIC[name] ?? [],
  continueHonored: !CONTINUE_DISCARDED.has(name),
  systemMessageShown: !SYSTEM_MESSAGE_DISCARDED.has(name),
  promptHandlers: PROMPT_EVENTS.has(name),
  custom: false,
  nonZeroBlocks: false,
  behavesAs: name,
  outputDialect: "claude"
})

/** A declared event with no catalog base reads the decision fields its blocking rule takes, and additionalContext. */
const DECLARED_DECISION_FIELDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  permission: ["permissionDecision", "permissionDecisionReason", "updatedInput"],
  "permission-request": ["decision"]
}

/** @internal */
export const custom = (event: CustomEvent): HookEventSpec => {
  const base = get(event.extends ?? event.name)
  const blocking = event.blocking ?? base?.blocking ?? "none"
  const canBlock = blocking !== "none"
  return {
    name: event.name,
    matcherField: "matcherField" in event ? event.matcherField : base?.matcherField,
    blocking,
    plainStdoutToContext: event.plainStdoutToContext ?? base?.plainStdoutToContext ?? false,
    defaultTimeout: event.defaultTimeout ?? base?.defaultTimeout ?? 600,
    exit2StderrTo: event.exit2StderrTo ?? base?.exit2StderrTo ?? (canBlock ? "model" : "user"),
    reasonTo: event.reasonTo ?? base?.reasonTo ?? (canBlock ? "model" : "none"),
    specificOutput:
      event.specificOutput ??
      (base === undefined ? [...(DECLARED_DECISION_FIELDS[blocking] ?? []), "additionalContext"] : base.specificOutput),
    continueHonored: base?.continueHonored ?? true,
    // Claude Code's rule: a declared event (another agent's) shows a hook's systemMessage as its agent does
    systemMessageShown: true,
    promptHandlers: base?.promptHandlers ?? true,
    custom: true,
    nonZeroBlocks: event.nonZeroBlocks ?? base?.nonZeroBlocks ?? false,
    behavesAs: base?.name ?? event.name,
    outputDialect: event.outputDialect ?? "claude"
  }
}

/** @internal */
export const catalog: ReadonlyArray<HookEventSpec> = [
  e("SessionStart", "source", "none", true),
  e("Setup", "trigger", "none"),
  e("InstructionsLoaded", "load_reason", "none"),
  e("UserPromptSubmit", undefined, "decision", true, 30),
  e("UserPromptExpansion", "command_name", "decision", true),
  e("MessageDisplay", undefined, "none", false, 10),
  e("PreToolUse", "tool_name", "permission"),
  e("PermissionRequest", "tool_name", "permission-request"),
  e("PermissionDenied", "tool_name", "none"),
  e("PostToolUse", "tool_name", "decision"),
  e("PostToolUseFailure", "tool_name", "none"),
  e("PostToolBatch", undefined, "decision"),
  e("Notification", "notification_type", "none"),
  e("SubagentStart", "agent_type", "none"),
  e("SubagentStop", "agent_type", "decision"),
  e("TaskCreated", undefined, "decision"),
  e("TaskCompleted", undefined, "decision"),
  e("Stop", undefined, "decision"),
  e("StopFailure", "error", "none"),
  e("TeammateIdle", undefined, "decision"),
  e("ConfigChange", "source", "decision"),
  e("CwdChanged", undefined, "none"),
  e("DirectoryAdded", "source", "none"),
  e("FileChanged", "file_path", "none"),
  e("WorktreeCreate", undefined, "decision"),
  e("WorktreeRemove", undefined, "none"),
  e("PreCompact", "trigger", "decision"),
  e("PostCompact", "trigger", "none"),
  e("PreModelSwitch", "to_model", "permission", false, 30),
  e("PostModelSwitch", "to_model", "none", true, 30),
  e("Elicitation", "mcp_server_name", "decision"),
  e("ElicitationResult", "mcp_server_name", "decision"),
  e("SessionEnd", "reason", "none")
]

const byName = new Map(catalog.map((spec) => [spec.name, spec]))

/** @internal */
export const get = (name: string): HookEventSpec | undefined => byName.get(name)

/** @internal */
export const suggest = (name: string, declared: Iterable<string> = []): string | undefined => nearest(name, [...byName.keys(), ...declared])
