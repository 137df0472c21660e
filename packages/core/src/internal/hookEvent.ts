import type { BlockingRule, HookEventSpec } from "../HookEvent.ts"

const e = (
  name: string,
  matcherField: string | undefined,
  blocking: BlockingRule,
  plainStdoutToContext = false,
  defaultTimeout = 600
): HookEventSpec => ({ name, matcherField, blocking, plainStdoutToContext, defaultTimeout })

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
const byLowerName = new Map(catalog.map((spec) => [spec.name.toLowerCase().replace(/[_-]/g, ""), spec.name]))

/** @internal */
export const get = (name: string): HookEventSpec | undefined => byName.get(name)

/** @internal */
export const suggest = (name: string): string | undefined => byLowerName.get(name.toLowerCase().replace(/[_-]/g, ""))
