/** Codex's answer fields, a leaf module: its host mode and the `codex` preset's output reader share them. */

/** The `hookSpecificOutput` fields Codex accepts, per event (host mode writes only these; the `codex` preset refuses others). */
export const CODEX_OUTPUT: Readonly<Record<string, ReadonlyArray<string>>> = {
  PreToolUse: ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
  PostToolUse: ["additionalContext"],
  UserPromptSubmit: ["additionalContext"],
  SessionStart: ["additionalContext"],
  SubagentStart: ["additionalContext"],
  PermissionRequest: ["decision"]
}
