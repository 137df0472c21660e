#!/bin/sh
# UserPromptSubmit: adds context through JSON (hookSpecificOutput.additionalContext).
. "$(dirname "$0")/lib.sh"
context="Today is $(date +%A), $(date +%Y-%m-%d). Keep answers short."
printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":%s}}\n' "$(json_string "$context")"
