#!/bin/sh
# SessionStart: plain stdout is added to the model's context.
. "$(dirname "$0")/lib.sh"
branch=$(git -C "${AGENT_HOOKS_PROJECT_DIR:-.}" rev-parse --abbrev-ref HEAD 2>/dev/null || echo "none")
echo "Session $(json_get source) on $(date +%Y-%m-%d). Git branch: $branch."
