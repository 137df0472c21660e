#!/bin/sh
# PreToolUse (Bash): refuses destructive commands. Exit 2 = block; stderr goes to the model.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'mkfs'*) echo "Destructive command refused by guard-bash.sh: use a safer alternative." >&2; exit 2 ;;
esac
exit 0
