#!/bin/sh
# UserPromptSubmit: refuses prompts that contain something that looks like a secret
# (AWS access key, GitHub or OpenAI-style token, private key) with `decision: "block"`.
. "$(dirname "$0")/lib.sh"
prompt=$(json_get prompt)
if printf '%s' "$prompt" | grep -Eq 'AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|sk-[A-Za-z0-9_-]{20,}|-----BEGIN [A-Z ]*PRIVATE KEY-----'; then
  echo '{"decision":"block","reason":"The prompt contains what looks like a secret (an access key or token). Remove it and submit again."}'
fi
exit 0
