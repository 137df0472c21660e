#!/bin/sh
# Stop: the first time, asks the agent to confirm it formatted the files; then lets it stop.
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
printf '{"decision":"block","reason":"Before stopping, confirm that the changed files were formatted."}\n'
