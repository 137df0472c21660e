#!/bin/sh
# Stop: the first time the agent wants to stop, ask it to run the tests; let it stop the second
# time (`stop_hook_active` is true when the agent is already continuing because of a Stop hook),
# or when a `tests-passed` marker exists in the log directory.
. "$(dirname "$0")/lib.sh"
if [ "$(json_get stop_hook_active)" = "true" ] || [ -f "$(log_dir)/tests-passed" ]; then
  exit 0
fi
echo '{"decision":"block","reason":"Run the test suite (npm test) and report the result before you stop."}'
