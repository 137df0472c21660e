#!/bin/sh
# PostToolUse (Write|Edit): tells the model what to do next (additionalContext).
cat >/dev/null
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"File changed: run the formatter before you finish."}}\n'
