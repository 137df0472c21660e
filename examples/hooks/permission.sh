#!/bin/sh
# PreToolUse (Read|Write|Edit): answers with a JSON permissionDecision instead of an exit code.
# Inside the project: allow. Secrets (.env, keys): deny. Anywhere else: ask the user.
. "$(dirname "$0")/lib.sh"
file=$(json_get tool_input.file_path)
project=${AGENT_HOOKS_PROJECT_DIR:-$(pwd)}

decide() {
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"%s","permissionDecisionReason":%s}}\n' \
    "$1" "$(json_string "$2")"
  exit 0
}

case "$file" in
  *.env | *.env.* | *.pem | *id_rsa*) decide deny "$file may hold secrets: not touched by the agent." ;;
  "$project"/*) decide allow "$file is inside the project." ;;
  *) decide ask "$file is outside the project." ;;
esac
