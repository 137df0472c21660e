#!/bin/sh
# PreToolUse (Bash): deploys need a human: permissionDecision "ask", with the reason.
input=$(cat)
case "$input" in
  *'"command":"deploy '*) printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Deploys need a human: check the target first."}}\n' ;;
esac
exit 0
