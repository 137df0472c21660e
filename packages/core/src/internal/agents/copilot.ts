/**
 * GitHub Copilot CLI's names, shared by its preset (and, later, its host mode): its 14 camelCase
 * events (PascalCase accepted as aliases), the catalog event each behaves as, and its camelCase
 * input (`toolName`, `toolArgs`, `timestamp`, `cwd`).
 */

/** One Copilot CLI event. */
export interface CopilotEvent {
  readonly name: string
  readonly behavesAs?: string | undefined
  readonly blocks: boolean
  readonly matcherField?: string | undefined
}

/** @internal */
export const COPILOT_EVENTS: ReadonlyArray<CopilotEvent> = [
  { name: "sessionStart", behavesAs: "SessionStart", blocks: false },
  { name: "sessionEnd", behavesAs: "SessionEnd", blocks: false },
  { name: "userPromptSubmitted", behavesAs: "UserPromptSubmit", blocks: false },
  { name: "userPromptTransformed", blocks: false },
  { name: "preToolUse", behavesAs: "PreToolUse", blocks: true, matcherField: "toolName" },
  { name: "permissionRequest", behavesAs: "PermissionRequest", blocks: true, matcherField: "toolName" },
  { name: "postToolUse", behavesAs: "PostToolUse", blocks: false, matcherField: "toolName" },
  { name: "postToolUseFailure", behavesAs: "PostToolUseFailure", blocks: false, matcherField: "toolName" },
  { name: "preCompact", behavesAs: "PreCompact", blocks: false },
  { name: "agentStop", behavesAs: "Stop", blocks: true },
  { name: "subagentStart", behavesAs: "SubagentStart", blocks: false },
  { name: "subagentStop", behavesAs: "SubagentStop", blocks: true },
  { name: "errorOccurred", blocks: false },
  { name: "notification", blocks: false, matcherField: "notification_type" }
]

/** Copilot CLI's default hook timeout (`timeoutSec`): 30 s. */
export const COPILOT_TIMEOUT = 30

/** A PascalCase alias (`PreToolUse`) → the event's name (`preToolUse`). */
export const copilotEventName = (name: string): string | undefined =>
  COPILOT_EVENTS.find((event) => event.name === name || event.name.toLowerCase() === name.toLowerCase())?.name
