/**
 * Facts of Claude Code's hooks contract, written out from the compatibility reference (not taken
 * from the engine's catalog), so that tests check the catalog against the contract, not against
 * itself.
 *
 * @since 0.2.0
 */

/**
 * The events on which Claude Code reads `hookSpecificOutput.additionalContext` (it reaches the model).
 *
 * @since 0.2.0
 */
export const readsAdditionalContext: ReadonlySet<string> = new Set([
  "PreToolUse",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "Setup",
  "SubagentStart",
  "PostModelSwitch"
])
