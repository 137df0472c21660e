// The real `codex` binary as the oracle of `--preset codex`, on a sample of cases: one Codex hooks
// config in ~/.codex/hooks.json, one turn against the scripted model server (the model runs
// `touch MARKER` through its shell tool, then answers `done`). Codex's hook gets the payload, which
// a wrapper keeps; `agent-hooks run <event> --preset codex`, with the same HOME (so the same file,
// found where Codex finds it), gets that same payload. Compared: whether the tool ran (MARKER) and
// whether agent-hooks blocked; a block's reason and a hook's context, which Codex must have sent the
// model after the tool call whenever agent-hooks reports them.

const json = (value) => `printf '%s' '${JSON.stringify(value)}'`
const pre = (output) => json({ hookSpecificOutput: { hookEventName: "PreToolUse", ...output } })

/** event: Claude Code's name (Codex uses it); script: the hook, sh. */
export const CODEX_CASES = [
  { id: "block-exit2", event: "PreToolUse", script: `echo "oracle-exit2-reason-7c1" >&2; exit 2` },
  { id: "allow-silent", event: "PreToolUse", script: "exit 0" },
  { id: "deny-json", event: "PreToolUse", script: pre({ permissionDecision: "deny", permissionDecisionReason: "oracle-deny-reason-3a9" }) },
  // Codex rejects `ask` (the hook fails) and runs the tool; the preset's documented rule
  { id: "ask-fails-open", event: "PreToolUse", script: pre({ permissionDecision: "ask", permissionDecisionReason: "oracle-ask-5d0" }) },
  // Codex reads answers strictly: an unknown key fails the hook, and the tool runs
  { id: "unknown-key-fails-open", event: "PreToolUse", script: json({ decision: "block", reason: "oracle-strict-b22", colour: "red" }) },
  {
    id: "post-context",
    event: "PostToolUse",
    script: json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "oracle-context-e48" } })
  }
]

/**
 * Compares what Codex did (`observed`: marker, sentAfterToolCall) with agent-hooks' Outcome for the
 * payload Codex sent. Returns the problems (none: the same).
 */
export function compareCodex(c, observed, outcome) {
  const problems = []
  if (c.event === "PreToolUse" && observed.marker === outcome.blocked) {
    problems.push(
      `codex ${observed.marker ? "ran the tool" : "blocked the tool"}, agent-hooks ${outcome.blocked ? "blocked" : "allowed"} it (${outcome.reason ?? "no reason"})`
    )
  }
  if (outcome.blocked && outcome.reason && !observed.sentAfterToolCall.includes(outcome.reason)) {
    problems.push(`agent-hooks' reason ${JSON.stringify(outcome.reason)} is not what codex told the model`)
  }
  for (const context of outcome.additionalContext) {
    if (!observed.sentAfterToolCall.includes(context))
      problems.push(`agent-hooks' context ${JSON.stringify(context)} never reached codex's model`)
  }
  if (c.id === "post-context" && outcome.additionalContext.length === 0) problems.push("agent-hooks read no context where codex passed one")
  return problems
}
