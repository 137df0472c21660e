#!/bin/sh
# SessionEnd: cannot block; logs why the session ended.
. "$(dirname "$0")/lib.sh"
echo "$(date +%H:%M:%S) session $(json_get session_id) ended: $(json_get reason)" >> "$(log_dir)/writes.log"
