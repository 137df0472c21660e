#!/bin/sh
# PostToolUse (Write|Edit): logs each written file, with its line count, to a log file under
# $AGENT_HOOKS_EXAMPLE_LOG_DIR (else <project>/.agent-hooks-tmp), and tells the model.
. "$(dirname "$0")/lib.sh"
file=$(json_get tool_input.file_path)
lines=$(json_get tool_input.content | wc -l | tr -d ' ')
if [ "$lines" = 1 ]; then size="1 line"; else size="$lines lines"; fi
log="$(log_dir)/writes.log"
echo "$(date +%H:%M:%S) $(json_get tool_name) $file ($size)" >> "$log"
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":%s}}\n' \
  "$(json_string "Logged the write of $file ($size) to $log.")"
