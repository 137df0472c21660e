#!/bin/sh
# PreToolUse (Bash): blocks dangerous commands with exit 2; stderr is the reason the model reads.
. "$(dirname "$0")/lib.sh"
command=$(json_get tool_input.command)

deny() {
  echo "Blocked by guard-bash.sh: $1" >&2
  exit 2
}

if printf '%s' "$command" | grep -Eq '(^|[;&|[:space:]])rm[[:space:]]+(-[a-zA-Z]*[rR][a-zA-Z]*[[:space:]]+)+(/|~|\$HOME)/?([[:space:];&|]|$)'; then
  deny "recursive delete of / or the home directory."
fi
if printf '%s' "$command" | grep -Eq 'git[[:space:]]+push' &&
   printf '%s' "$command" | grep -Eq '(--force|--force-with-lease|[[:space:]]-f)([[:space:]]|$|=)' &&
   printf '%s' "$command" | grep -Eq '([[:space:]:+]|^)(main|master)([[:space:]]|$)'; then
  deny "force-push to main/master. Push a branch and open a pull request instead."
fi
if printf '%s' "$command" | grep -Eq '(curl|wget)[^|]*\|[[:space:]]*(sudo[[:space:]]+)?(ba|z)?sh'; then
  deny "piping a download into a shell."
fi
exit 0
